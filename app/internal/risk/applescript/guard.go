package applescript

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// The guard for AppleScript (rate/guard.go has the rules): the paths and
// names in its string literals.

// asWrites are the verbs after which an AppleScript statement's paths are
// written; asTree, changed with everything inside them.
var (
	asWrites = map[string]bool{"write": true, "make": true, "save": true, "duplicate": true, "delete": true,
		"move": true, "eof": true, "replace": true, "rename": true, "export": true, "copy": true}
	asTree = map[string]bool{"delete": true, "move": true, "duplicate": true}
)

// guard applies the guard to every string literal of the script.
func (an *asAn) guard() {
	an.statements(func(st []asToken) {
		// What the statement does with its paths, worked out when it has
		// one.
		u, reads, known := rate.UseRead, false, false
		verbs := func() {
			if known {
				return
			}
			known = true
			for _, t := range st {
				if t.kind != asWord || t.end-t.start > 9 {
					continue
				}
				w := strings.ToLower(an.text(t))
				switch {
				case asTree[w]:
					u, reads = rate.UseTreeWrite, true
				case asWrites[w] && u != rate.UseTreeWrite:
					u, reads = rate.UseWrite, true
				case w == "read" || w == "open":
					reads = true
				}
			}
		}
		for k, t := range st {
			if t.kind != asString {
				continue
			}
			s := an.str(t)
			sp := tokSpan(t)
			if an.env.SelfApp(s) {
				an.add(effect.Of(effect.Refused), "as.self", sp, "blocked: the script names Airlock itself (%s): no action may drive, quit or click it", rate.Display(s))
				continue
			}
			if rate.NamesSelf(s) {
				an.add(effect.Of(effect.Refused), "as.own-keys", sp, "blocked: %s names Airlock's key-store items or its app: no action may touch them", rate.Display(s))
				continue
			}
			if _, ok := rate.ScriptPath(s); !ok {
				continue
			}
			verbs()
			if k > 0 && st[k-1].isOp('&') {
				for _, f := range rate.GuardScriptTail(an.env, s, u, true) {
					an.finding(f, sp)
				}
				continue
			}
			asPath := reads
			if k > 0 {
				switch st[k-1].kw {
				case kwFile, kwFolder, kwAlias, kwPosix, kwDisk, kwItem, kwPath:
					asPath = true
				}
			}
			for _, f := range rate.GuardScriptPath(an.env, s, u, asPath) {
				an.finding(f, sp)
			}
		}
	})
}

// finding adds a finding of the path guard (rate.GuardScriptPath …) at sp,
// with its effect.
func (an *asAn) finding(f rate.Finding, sp Span) {
	an.v.FoundText(f.Effect, "as."+f.Rule, sp, f.Text) // no guard rule is a one-item effect (perItem)
}
