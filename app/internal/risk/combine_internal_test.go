package risk

import (
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

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
		{"a way out then a secret, across languages", []Reason{r(effect.Of(effect.Egress), "egress.mail"), r(secret, "secret.file")}, level.Destructive, "secret.sent"},
		{"either alone", []Reason{r(secret, "secret.file"), r(effect.Of(effect.Create), "shell.write")}, level.Dangerous, ""},
		{"found by the analyzer", []Reason{r(secret, "secret.file"), r(effect.Of(effect.Upload), "egress.network"), r(effect.Of(effect.SecretOut), "shell.exfiltration")}, level.Destructive, ""},
		{"download then run it", []Reason{r(effect.Of(effect.Fetch).On("/tmp/x"), "x.get"), r(effect.Of(effect.Shell).On("/tmp/x"), "x.run")}, level.Destructive, "combine.download-run"},
		{"download then run another", []Reason{r(effect.Of(effect.Fetch).On("/tmp/x"), "x.get"), r(effect.Of(effect.Shell).On("/tmp/y"), "x.run")}, level.Dangerous, ""},
		{"the shell found it", []Reason{r(effect.Of(effect.Fetch).On("/tmp/x"), "x.get"), r(effect.Of(effect.Shell).On("/tmp/x"), "x.run"), r(effect.Of(effect.RunComputed), "shell.download-exec")}, level.Destructive, ""},
		{"write then run it", []Reason{r(effect.Of(effect.Create).On("a.sh"), "x.w"), r(effect.Of(effect.Run).On("a.sh"), "x.run")}, level.Dangerous, "combine.write-run"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v Verdict
			for _, x := range tc.reasons {
				v.FoundText(x.Effect, x.Rule, x.Span, x.Text)
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
