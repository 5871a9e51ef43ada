package risk

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// The guard for AppleScript and JXA (rate/guard.go has the rules): the
// paths and names in their string literals.

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
				an.add(level.Blocked, "as.self", sp, "blocked: the script names Airlock itself (%s): no action may drive, quit or click it", rate.Display(s))
				continue
			}
			if rate.NamesSelf(s) {
				an.add(level.Blocked, "as.own-keys", sp, "blocked: %s names Airlock's key-store items or its app: no action may touch them", rate.Display(s))
				continue
			}
			if _, ok := rate.ScriptPath(s); !ok {
				continue
			}
			verbs()
			if k > 0 && st[k-1].isOp('&') {
				for _, f := range rate.GuardScriptTail(an.env, s, u, true) {
					an.add(f.Level, "as."+f.Rule, sp, "%s", f.Text)
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
				an.add(f.Level, "as."+f.Rule, sp, "%s", f.Text)
			}
		}
	})
}

// guardJS applies the guard to every string literal of a JXA script:
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
			an.add(level.Blocked, "jxa.self", sp, "blocked: the script names Airlock itself (%s): no action may drive, quit or click it", rate.Display(t.val))
			continue
		}
		if rate.NamesSelf(t.val) {
			an.add(level.Blocked, "jxa.own-keys", sp, "blocked: %s names Airlock's key-store items or its app: no action may touch them", rate.Display(t.val))
			continue
		}
		if i > 0 && toks[i-1].kind == jsPunct && toks[i-1].text == "+" {
			for _, f := range rate.GuardScriptTail(an.env, t.val, rate.UseRead, true) {
				an.add(f.Level, "jxa."+f.Rule, sp, "%s", f.Text)
			}
			continue
		}
		asPath := i > 1 && toks[i-1].text == "(" && (toks[i-2].text == "Path" || toks[i-2].text == "fileURLWithPath" || toks[i-2].text == "stringWithString")
		for _, f := range rate.GuardScriptPath(an.env, t.val, rate.UseRead, asPath) {
			an.add(f.Level, "jxa."+f.Rule, sp, "%s", f.Text)
		}
	}
}
