package risk

import (
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
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

// TestCombineEffects: the combination reads the reasons' effects (the
// rule's family only for a reason without one), and the rows that need a
// shared target fire only on one.
func TestCombineEffects(t *testing.T) {
	r := func(e effect.Effect, rule string) Reason { return Reason{Rule: rule, Text: rule, Effect: e} }
	secret, mail := effect.Of(effect.ReadSecret), effect.Of(effect.Send)
	for _, tc := range []struct {
		name    string
		reasons []Reason
		want    level.Level
		added   string // the rule added, "" for none
	}{
		{"effects, whatever the rules", []Reason{r(secret, "x.read"), r(mail, "x.mail")}, level.Destructive, "secret.sent"},
		{"a literal secret and a way out", []Reason{r(effect.Of(effect.HoldSecret), "x.literal"), r(effect.Of(effect.Upload), "x.up")}, level.Destructive, "secret.sent"},
		{"the effect, not the rule's family", []Reason{r(secret, "secret.read"), r(effect.Of(effect.Launch), "egress.open")}, level.Dangerous, ""},
		{"an effect and a rule", []Reason{r(secret, "x.read"), {Level: level.Caution, Rule: "egress.url", Text: "u"}}, level.Destructive, "secret.sent"},
		{"download then run it", []Reason{r(effect.Of(effect.Fetch).On("/tmp/x"), "x.get"), r(effect.Of(effect.Shell).On("/tmp/x"), "x.run")}, level.Destructive, "combine.download-run"},
		{"download then run another", []Reason{r(effect.Of(effect.Fetch).On("/tmp/x"), "x.get"), r(effect.Of(effect.Shell).On("/tmp/y"), "x.run")}, level.Dangerous, ""},
		{"the shell found it", []Reason{r(effect.Of(effect.Fetch).On("/tmp/x"), "x.get"), r(effect.Of(effect.Shell).On("/tmp/x"), "x.run"), r(effect.Of(effect.RunComputed), "shell.download-exec")}, level.Destructive, ""},
		{"write then run it", []Reason{r(effect.Of(effect.Create).On("a.sh"), "x.w"), r(effect.Of(effect.Run).On("a.sh"), "x.run")}, level.Dangerous, "combine.write-run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v Verdict
			for _, x := range tc.reasons {
				if x.Effect.Kind != 0 {
					v.FoundText(x.Effect, x.Rule, x.Span, x.Text)
				} else {
					v.AddText(x.Level, x.Rule, x.Span, x.Text)
				}
			}
			n := len(v.Reasons)
			combine(&v)
			if v.Level != tc.want {
				t.Errorf("level %v, want %v (%v)", v.Level, tc.want, v.Reasons)
			}
			added := ""
			if len(v.Reasons) > n {
				added = v.Reasons[len(v.Reasons)-1].Rule
			}
			if added != tc.added {
				t.Errorf("added %q, want %q (%v)", added, tc.added, v.Reasons)
			}
		})
	}
}
