package risk

import "github.com/airlockhq/airlock/app/internal/risk/effect"

// Some effects are seen only over a whole action, whichever languages it
// spans: a secret read (or written out) in one reason and a way out of the
// Mac in another (network, mail, messages, clipboard, a URL opened, a DNS
// lookup with data) mean the secret can leave, which is Destructive
// (DESIGN.md, "Risk levels"); a file written or downloaded, then run. The
// combination table (effect/combos.go) says which effects together make
// which; this is the one place that applies it to a verdict.
//
// comboRules name the reason each combination adds, by the kind it makes,
// and the rules by which an analyzer reports having found it itself (then
// it is not added again).
var comboRules = map[effect.Kind]struct {
	rule  string
	found []string
	text  string // the warning: %s the two halves' warnings
}{
	effect.SecretOut:   {"secret.sent", []string{"shell.exfiltration", "secret.sent"}, "sends a secret out: %s; %s"},
	effect.RunComputed: {"combine.download-run", []string{"shell.download-exec"}, "runs what it downloads: %s; %s"},
	effect.RunUnseen:   {"combine.write-run", []string{"shell.write-exec"}, "runs what it wrote: %s; %s"},
}

// combine adds to v what its reasons' effects make together (effect.Combine);
// a combination an analyzer found itself (its own rule for it) is left as
// it is.
func combine(v *Verdict) {
	es := make([]effect.Effect, len(v.Reasons))
	for i, r := range v.Reasons {
		es[i] = r.Effect
	}
	for _, m := range effect.Combine(es) {
		c, ok := comboRules[m.Effect.Kind]
		if !ok || hasRule(v, c.found) {
			continue
		}
		has, with := v.Reasons[m.Has], v.Reasons[m.With]
		v.Found(m.Effect, c.rule, with.Span, c.text, has.Text, with.Text)
	}
}

func hasRule(v *Verdict, rules []string) bool {
	for _, r := range v.Reasons {
		for _, x := range rules {
			if r.Rule == x {
				return true
			}
		}
	}
	return false
}
