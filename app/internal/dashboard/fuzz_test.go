package dashboard_test

import (
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/dashboard"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
)

// FuzzParseFilter: whatever a URL's query holds, ParseFilter either refuses
// it with a *ParamError or returns a query history.Groups accepts.
func FuzzParseFilter(f *testing.F) {
	for _, s := range []string{"", "risk=dangerous&outcome=ok", "client=Claude&n=500&before=3", "since=2025-03-14&until=2025-03-14",
		"since=2025-03-14T09:30&until=2025-03-14T09:30:01", "since=2025-03-14T09:30:00Z", "risk=high", "n=0", "x=1", "risk=a&risk=b",
		"client=%E2%80%AE", "until=2025-02-30"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		v, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		flt, err := dashboard.ParseFilter(v, time.UTC)
		if err != nil {
			if _, ok := err.(*dashboard.ParamError); !ok || !strings.HasPrefix(err.Error(), "parameter ") {
				t.Fatalf("ParseFilter(%q) failed with %T %v, want a ParamError naming the parameter", raw, err, err)
			}
			return
		}
		q := flt.Query
		if q.Limit < 1 || q.Limit > history.MaxGroups || q.Before < 0 {
			t.Fatalf("ParseFilter(%q) = limit %d, before %d", raw, q.Limit, q.Before)
		}
		if !q.Since.IsZero() && !q.Until.IsZero() && !q.Until.After(q.Since) {
			t.Fatalf("ParseFilter(%q): an empty range %v to %v", raw, q.Since, q.Until)
		}
		for _, l := range q.Risks {
			if l < level.Safe || l > level.Blocked {
				t.Fatalf("ParseFilter(%q): risk %d", raw, l)
			}
		}
		if q.Outcome != "" && !strings.Contains(" "+strings.Join(history.Outcomes(), " ")+" ", " "+q.Outcome+" ") {
			t.Fatalf("ParseFilter(%q): outcome %q", raw, q.Outcome)
		}
	})
}
