package risk

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/redact"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// Literal secrets in an action (issue 22): an API key, a token, a private
// key or a password written out in the action's own text. The agent has
// it, and an action that sends anything anywhere can carry it out, so a
// literal secret counts as a secret read (its rule starts "secret.") and
// the combination with a way out is Destructive (combine.go, and the DSL's
// own rules below). The detector is the redactor's (redact.Find): one list
// of formats serves both. A reason names the kind of secret, never the
// secret.
//
// What it cannot see: a secret split over strings joined at run time
// ("gh" & "p_…"), or encoded in the action (base64, hex); those are text
// computed at run time, which the analyzers rate on their own terms.

// maxLiteralReasons bounds the reasons literal secrets add: one per kind.
const maxLiteralReasons = 4

// literalSecrets adds a secret.literal reason (a secret held: Caution) to v for each kind
// of secret text holds (the whole input of one analyzer: a script, or a
// command's argv joined), at the first place it is found.
func literalSecrets(v *Verdict, text string) {
	seen := map[string]bool{}
	for _, s := range redact.Find(text) {
		if seen[s.Kind] || len(seen) >= maxLiteralReasons {
			continue
		}
		seen[s.Kind] = true
		v.Found(effect.Of(effect.HoldSecret), "secret.literal", Span{Start: s.Start, End: s.End},
			"holds what looks like a secret (%s): whatever sends it anywhere sends the secret", s.Kind)
	}
}

// dslSends are the DSL commands that send what they are given out of the
// Mac, and how a secret in them leaves.
var dslSends = map[string]string{
	"SEND_EMAIL":   "the email carries it",
	"OPEN_URL":     "the address carries it to the server",
	"RUN_SHORTCUT": "the shortcut is given it, and what a shortcut does with its input cannot be inspected",
}

// dslSecrets rates the literal secrets in one action's arguments: sent
// out (dslSends), Destructive; put on the clipboard, which every app
// reads, Dangerous; anywhere else (a file written, a note), Caution, and
// Destructive with a way out elsewhere in the plan (planSecrets).
func dslSecrets(v *Verdict, a action.Action) {
	for i, val := range a.Args {
		found := redact.Find(val)
		if len(found) == 0 {
			continue
		}
		kind, arg := found[0].Kind, "an argument"
		if i < len(a.Cmd.Args) {
			arg = a.Cmd.Args[i].Name
		}
		switch how, sends := dslSends[a.Cmd.Name]; {
		case sends:
			v.Found(effect.Of(effect.SecretOut), "secret.sent", Span{}, "SECRET: its %s holds what looks like a secret (%s), and %s", arg, kind, how)
		case a.Cmd.Name == "COPY_TO_CLIPBOARD":
			// The clipboard alone is kept at Dangerous (the lead calibrates:
			// the clipboard is a way out, so the secret can leave).
			v.Found(effect.Of(effect.ReadSecret), "secret.literal", Span{}, "SECRET: puts what looks like a secret (%s) on the clipboard, which every app can read", kind)
		default:
			v.Found(effect.Of(effect.HoldSecret), "secret.literal", Span{}, "its %s holds what looks like a secret (%s)", arg, kind)
		}
	}
}

// planSecrets adds to a plan's total what only the whole plan shows: a
// literal secret in one action (a clipboard, a file, a note) and a way out
// in another (a URL opened, an email sent, a shortcut run): the secret can
// leave.
func planSecrets(total *Verdict, p *action.Plan, per []Verdict) {
	var holds, outs []int
	for i, v := range per {
		for _, r := range v.Reasons {
			if r.Rule == "secret.literal" {
				holds = append(holds, i)
				break
			}
		}
		if _, sends := dslSends[p.Actions[i].Cmd.Name]; sends {
			outs = append(outs, i)
		}
	}
	for _, h := range holds {
		for _, o := range outs {
			if o != h {
				total.Found(effect.Of(effect.SecretOut), "secret.sent", Span{}, "SECRET: line %d holds what looks like a secret and line %d sends something out of the Mac (%s): the secret can leave",
					p.Actions[h].Line, p.Actions[o].Line, strings.ToLower(strings.ReplaceAll(p.Actions[o].Cmd.Name, "_", " ")))
				return
			}
		}
	}
}
