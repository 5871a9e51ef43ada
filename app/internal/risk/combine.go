package risk

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
)

// Secrets sent out are seen only over a whole action, whichever languages
// it spans: one reason reads a credential (its rule starts "secret."),
// another sends something out of the Mac (its rule starts "egress.":
// network, mail, messages, clipboard, a URL opened, a DNS lookup with
// data). Each half alone is what its reason says; together the secret can
// leave, which is Destructive (DESIGN.md, "Risk levels"). Every analyzer
// names its reasons so; this is the one place that combines them.

// Rule id prefixes the combination reads.
const (
	secretRule = "secret."
	egressRule = "egress."
)

// combine adds "sends a secret out" to v when v reads a secret and has a
// way out; an analyzer that found the combination itself (its own rule
// for it) is left as it is.
func combine(v *Verdict) {
	var secret, out *Reason
	for i := range v.Reasons {
		r := &v.Reasons[i]
		switch {
		case r.Rule == "shell.exfiltration" || r.Rule == "secret.sent":
			return
		case secret == nil && strings.HasPrefix(r.Rule, secretRule):
			secret = r
		case out == nil && strings.HasPrefix(r.Rule, egressRule):
			out = r
		}
	}
	if secret == nil || out == nil {
		return
	}
	s, o := secret.Text, out.Text
	v.Add(level.Destructive, "secret.sent", out.Span, "sends a secret out: %s; %s", s, o)
}
