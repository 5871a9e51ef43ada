package risk

import (
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
)

// TestCombine: a secret read and a way out, in any order, from any
// language, make the action destructive; either alone does not, and an
// analyzer's own finding of the combination is not repeated.
func TestCombine(t *testing.T) {
	r := func(l level.Level, rule string) Reason { return Reason{Level: l, Rule: rule, Text: rule} }
	for _, tc := range []struct {
		name    string
		reasons []Reason
		want    level.Level
		added   bool
	}{
		{"secret then egress", []Reason{r(level.Dangerous, "secret.keychain"), r(level.Caution, "egress.url")}, level.Destructive, true},
		{"egress then secret, across languages", []Reason{r(level.Caution, "egress.mail"), r(level.Dangerous, "secret.file")}, level.Destructive, true},
		{"secret alone", []Reason{r(level.Dangerous, "secret.file"), r(level.Caution, "shell.write")}, level.Dangerous, false},
		{"egress alone", []Reason{r(level.Caution, "egress.network"), r(level.Caution, "shell.download")}, level.Caution, false},
		{"found by the analyzer", []Reason{r(level.Dangerous, "secret.file"), r(level.Caution, "egress.network"), r(level.Destructive, "shell.exfiltration")}, level.Destructive, false},
		{"prefix, not substring", []Reason{r(level.Dangerous, "shell.secret-egress.x"), r(level.Caution, "as.egress.secret")}, level.Dangerous, false},
		{"blocked stays blocked", []Reason{r(level.Blocked, "secret.file"), r(level.Caution, "egress.network")}, level.Blocked, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v Verdict
			for _, x := range tc.reasons {
				v.AddText(x.Level, x.Rule, x.Span, x.Text)
			}
			n := len(v.Reasons)
			combine(&v)
			if v.Level != tc.want {
				t.Errorf("level %v, want %v", v.Level, tc.want)
			}
			if added := len(v.Reasons) > n; added != tc.added {
				t.Errorf("reason added: %v, want %v (%v)", added, tc.added, v.Reasons)
			}
			if tc.added && v.Reasons[len(v.Reasons)-1].Rule != "secret.sent" {
				t.Errorf("added %q, want secret.sent", v.Reasons[len(v.Reasons)-1].Rule)
			}
		})
	}
}
