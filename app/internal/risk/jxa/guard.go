package jxa

import (
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// guard applies the guard to every string literal of a JXA script:
// names of Airlock itself, its own files anywhere, and credential stores
// and system folders in Path(…) and the file APIs (pathArgs).
func (an *jsAn) guard() {
	toks := an.lx.toks
	for i, t := range toks {
		if t.kind != jsString {
			continue
		}
		sp := jsSpan(t)
		if an.env.SelfApp(t.val) {
			an.add(effect.Of(effect.Refused), "jxa.self", sp, "blocked: the script names Airlock itself (%s): no action may drive, quit or click it", rate.Display(t.val))
			continue
		}
		if what, ok := rate.SecurityPrompt(t.val); ok {
			an.add(effect.Of(effect.SecurityOff), "jxa.security-prompt", sp, "%s shows %s: a script that drives it answers for the person", rate.Display(t.val), what)
			continue
		}
		if rate.NamesSelf(t.val) {
			an.add(effect.Of(effect.Refused), "jxa.own-keys", sp, "blocked: %s names Airlock's key-store items or its app: no action may touch them", rate.Display(t.val))
			continue
		}
		if i > 0 && toks[i-1].kind == jsPunct && toks[i-1].text == "+" {
			for _, f := range rate.GuardScriptTail(an.env, t.val, rate.UseRead, true) {
				an.guardFinding(f, sp)
			}
			continue
		}
		asPath := i > 1 && toks[i-1].text == "(" && (toks[i-2].text == "Path" || toks[i-2].text == "fileURLWithPath" || toks[i-2].text == "stringWithString")
		for _, f := range rate.GuardScriptPath(an.env, t.val, rate.UseRead, asPath) {
			an.guardFinding(f, sp)
		}
	}
}
