package applescript

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// The guard for AppleScript (rate/guard.go has the rules): the paths and
// names in its string literals.

// asWrites are the verbs after which an AppleScript statement's paths are
// written; asTree, changed with everything inside them; asReads, read.
// They are vocabulary words (kfWrites, kfTree, kfReads), so the guard
// tests a word's flags, not its text.
var (
	asWrites = map[string]bool{"write": true, "make": true, "save": true, "duplicate": true, "delete": true,
		"move": true, "eof": true, "replace": true, "rename": true, "export": true, "copy": true}
	asTree  = map[string]bool{"delete": true, "move": true, "duplicate": true}
	asReads = map[string]bool{"read": true, "open": true}
)

// guard applies the guard to every string literal of the script. It
// visits only the literals (the lexer lists them), each with the
// statement that holds it, in the order of the script: no walk over
// every token.
func (an *asAn) guard() {
	toks, ends := an.lx.toks, an.lx.ends
	var g stmtGuard
	e, start := 0, int32(0)
	for _, k := range an.lx.strs {
		if ends[e] < k {
			for ends[e] < k {
				start = ends[e] + 1
				e++
			}
			g = stmtGuard{}
		}
		st := toks[start:ends[e]]
		an.guardString(st, int(k-start), &g)
	}
}

// stmtGuard is what a statement does with its paths, worked out (verbs)
// when the guard meets the first of its literals that names one.
type stmtGuard struct {
	u     rate.Use
	reads bool
	known bool
}

// verbs works out what the statement st does with its paths, once.
func (g *stmtGuard) verbs(an *asAn, st []asToken) {
	if g.known {
		return
	}
	g.known, g.u = true, rate.UseRead
	for _, t := range st {
		if t.kind != asWord || t.end-t.start > 9 {
			continue
		}
		f := pathUse(t.kw, an.text(t))
		switch {
		case f&kfTree != 0:
			g.u, g.reads = rate.UseTreeWrite, true
		case f&kfWrites != 0 && g.u != rate.UseTreeWrite:
			g.u, g.reads = rate.UseWrite, true
		case f&kfReads != 0:
			g.reads = true
		}
	}
}

// pathUse returns the flags of asWrites, asTree and asReads that the word
// with id kw and text w has. A word's ASCII text is lower case, so its
// id says it; a text with other letters is folded as Unicode folds it
// (the Kelvin sign is a k), and looked up by its folded form.
func pathUse(kw kwID, w string) uint16 {
	const use = kfWrites | kfTree | kfReads
	if kw != kwNone {
		return vocab.flags[kw] & use
	}
	for k := 0; k < len(w); k++ {
		if w[k] >= 0x80 {
			return vocab.flags[lookupKW(strings.ToLower(w))] & use
		}
	}
	return 0
}

// guardString applies the guard to the literal st[k] of the statement st.
func (an *asAn) guardString(st []asToken, k int, g *stmtGuard) {
	t := st[k]
	s := an.str(t)
	sp := tokSpan(t)
	if an.env.SelfApp(s) {
		an.add(effect.Of(effect.Refused), "as.self", sp, "blocked: the script names Airlock itself (%s): no action may drive, quit or click it", rate.Display(s))
		return
	}
	if what, ok := rate.SecurityPrompt(s); ok {
		an.add(effect.Of(effect.SecurityOff), "as.security-prompt", sp, "%s shows %s: a script that drives it answers for the person", rate.Display(s), what)
		return
	}
	if rate.NamesSelf(s) {
		an.add(effect.Of(effect.Refused), "as.own-keys", sp, "blocked: %s names Airlock's key-store items or its app: no action may touch them", rate.Display(s))
		return
	}
	if _, ok := rate.ScriptPath(s); !ok {
		return
	}
	g.verbs(an, st)
	if k > 0 && st[k-1].isOp('&') {
		for _, f := range rate.GuardScriptTail(an.env, s, g.u, true) {
			an.finding(f, sp)
		}
		return
	}
	asPath := g.reads
	if k > 0 {
		switch st[k-1].kw {
		case kwFile, kwFolder, kwAlias, kwPosix, kwDisk, kwItem, kwPath:
			asPath = true
		}
	}
	for _, f := range rate.GuardScriptPath(an.env, s, g.u, asPath) {
		an.finding(f, sp)
	}
}

// finding adds a finding of the path guard (rate.GuardScriptPath …) at sp,
// with its effect.
func (an *asAn) finding(f rate.Finding, sp Span) {
	an.v.FoundText(f.Effect, "as."+f.Rule, sp, f.Text) // no guard rule is a one-item effect (perItem)
}
