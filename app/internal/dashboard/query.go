package dashboard

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
)

// DefaultLimit is how many requests the history page shows unless n says.
const DefaultLimit = 50

// maxClientFilter bounds the client filter, in bytes (a client's name is at
// most 64).
const maxClientFilter = 64

// Filter is the history page's query: what the person asked for, as they
// wrote it (the form shows it back), and the history.Query it means.
type Filter struct {
	Client, Risk, Outcome, Since, Until string
	N                                   string
	Before                              string
	Query                               history.Query
}

// filterParams are the parameters the history page takes.
var filterParams = []string{"client", "risk", "outcome", "since", "until", "n", "before"}

// ParamError is a query parameter that cannot be used: the page answers 400
// with its text, which names the parameter and says why.
type ParamError struct {
	Param, Problem string
}

func (e *ParamError) Error() string {
	if e.Param == "" {
		return e.Problem
	}
	return "parameter " + e.Param + ": " + e.Problem
}

func paramErr(p, format string, args ...any) error {
	return &ParamError{Param: p, Problem: fmt.Sprintf(format, args...)}
}

// The time layouts since and until accept: what a datetime-local input
// sends, a date, and RFC 3339.
var timeLayouts = []string{"2006-01-02T15:04", "2006-01-02T15:04:05", "2006-01-02"}

// ParseFilter reads the history page's query parameters. An empty value is
// the same as none (a form sends every field). Anything else it cannot use
// is a *ParamError: an unknown or repeated parameter, a risk or outcome not
// in its list, a time it cannot read or a range that ends before it starts,
// a count out of bounds.
//
//	client   requests whose client's name contains it (ASCII case folded)
//	risk     requests with an action at this level or above
//	outcome  requests with an action that ended so, or running, or no-plan
//	since    requests made at or after this time (local, or RFC 3339)
//	until    requests made before this time; a date alone means the end of that day
//	n        how many requests to show, 1 to history.MaxGroups (default DefaultLimit)
//	before   the page after the request with this number
func ParseFilter(v url.Values, loc *time.Location) (Filter, error) {
	var f Filter
	for name, vals := range v {
		if !slices.Contains(filterParams, name) {
			return f, paramErr(quote(name), "not a parameter of this page (it takes %s)", strings.Join(filterParams, ", "))
		}
		if len(vals) > 1 {
			return f, paramErr(name, "given %d times; give it once", len(vals))
		}
	}
	f.Client, f.Risk, f.Outcome = v.Get("client"), v.Get("risk"), v.Get("outcome")
	f.Since, f.Until, f.N, f.Before = v.Get("since"), v.Get("until"), v.Get("n"), v.Get("before")
	q := &f.Query
	q.Limit = DefaultLimit

	if f.Client != "" {
		switch {
		case len(f.Client) > maxClientFilter:
			return f, paramErr("client", "%d bytes is longer than a client's name can be (%d)", len(f.Client), maxClientFilter)
		case !printable(f.Client):
			return f, paramErr("client", "%s holds characters no client's name has (control, invisible or invalid)", strconv.QuoteToASCII(f.Client))
		}
		q.Client = f.Client
	}
	if f.Risk != "" {
		l, err := level.Parse(f.Risk)
		if err != nil || f.Risk != l.String() {
			return f, paramErr("risk", "%s is not a risk level (want one of %s)", quote(f.Risk), strings.Join(riskNames(), ", "))
		}
		for r := l; r <= level.Blocked; r++ {
			q.Risks = append(q.Risks, r)
		}
	}
	if f.Outcome != "" {
		if !slices.Contains(history.Outcomes(), f.Outcome) {
			return f, paramErr("outcome", "%s is not an outcome (want one of %s)", quote(f.Outcome), strings.Join(history.Outcomes(), ", "))
		}
		q.Outcome = f.Outcome
	}
	var err error
	if q.Since, _, err = parseTime("since", f.Since, loc); err != nil {
		return f, err
	}
	var dateOnly bool
	if q.Until, dateOnly, err = parseTime("until", f.Until, loc); err != nil {
		return f, err
	}
	if dateOnly {
		q.Until = q.Until.AddDate(0, 0, 1) // the whole of that day
	}
	if !q.Since.IsZero() && !q.Until.IsZero() && !q.Until.After(q.Since) {
		return f, paramErr("until", "%s is not after since (%s): the range is empty", quote(f.Until), quote(f.Since))
	}
	if f.N != "" {
		n, err := strconv.Atoi(f.N)
		if err != nil || n < 1 || n > history.MaxGroups {
			return f, paramErr("n", "%s is not a number from 1 to %d", quote(f.N), history.MaxGroups)
		}
		q.Limit = n
	}
	if f.Before != "" {
		b, err := strconv.ParseInt(f.Before, 10, 64)
		if err != nil || b < 1 {
			return f, paramErr("before", "%s is not a request number (a whole number from 1)", quote(f.Before))
		}
		q.Before = b
	}
	return f, nil
}

// parseTime reads a time parameter; a zero time for "". dateOnly reports a
// date without a time of day.
func parseTime(param, v string, loc *time.Location) (t time.Time, dateOnly bool, err error) {
	if v == "" {
		return time.Time{}, false, nil
	}
	if t, err := time.Parse(time.RFC3339, v); err == nil {
		return t, false, nil
	}
	for _, layout := range timeLayouts {
		if t, err := time.ParseInLocation(layout, v, loc); err == nil {
			return t, layout == "2006-01-02", nil
		}
	}
	return time.Time{}, false, paramErr(param, "%s is not a time (write 2025-03-14, 2025-03-14T09:30 or RFC 3339)", quote(v))
}

// Values are the filter's parameters as the form gives them, without
// before: the base of the "older" link and of the form's own state.
func (f Filter) Values() url.Values {
	v := url.Values{}
	for _, p := range [][2]string{{"client", f.Client}, {"risk", f.Risk}, {"outcome", f.Outcome},
		{"since", f.Since}, {"until", f.Until}, {"n", f.N}} {
		if p[1] != "" {
			v.Set(p[0], p[1])
		}
	}
	return v
}

// Filtered reports whether any filter (beyond the count and the page) is
// set.
func (f Filter) Filtered() bool {
	return f.Client != "" || f.Risk != "" || f.Outcome != "" || f.Since != "" || f.Until != ""
}

func riskNames() []string {
	var out []string
	for l := level.Safe; l <= level.Blocked; l++ {
		out = append(out, l.String())
	}
	return out
}

// printable reports whether s is valid UTF-8 with only graphic characters
// and plain spaces.
func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r != ' ' && !unicode.IsGraphic(r) || unicode.Is(unicode.Cf, r) {
			return false
		}
	}
	return true
}

// quote shows a value from a URL in an error: quoted, escaped, and cut.
func quote(v string) string { return strconv.QuoteToASCII(short(v)) }

func short(v string) string {
	const max = 40
	if len(v) <= max {
		return v
	}
	i := max
	for i > 0 && !utf8.RuneStart(v[i]) {
		i--
	}
	return v[:i] + "…"
}
