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
// every token. A script of guardMemoFrom literals or more has the guard's
// answer for each literal kept (guardMemo): a large script repeats the
// same few texts, and the answer depends only on the text and on what its
// statement does with it.
func (an *asAn) guard() {
	toks, ends := an.lx.toks, an.lx.ends
	var g stmtGuard
	memo := len(an.lx.strs) >= guardMemoFrom
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
		if memo {
			an.guardStringMemo(st, int(k-start), &g)
		} else {
			an.guardString(st, int(k-start), &g)
		}
	}
}

// guardMemoFrom is how many literals a script has before the guard keeps
// its answers: below it, looking answers up costs more than the few
// repeated texts save. A variable, so that the tests can hold the two
// ways to the same reasons (FuzzGuardMemo).
var guardMemoFrom = 128

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
	lit := literalGuard(an.env, s)
	if lit.kind != litPath {
		an.literalReason(lit, s, sp)
		return
	}
	g.verbs(an, st)
	for _, f := range an.pathGuard(guardKeyOf(st, k, s, g)) {
		an.finding(f, sp)
	}
}

// guardStringMemo is guardString with the answers kept: what a literal is
// (literalGuard), by its text, and the path guard's findings, by the text
// and its use (guardKey). It adds the reasons guardString adds, in the
// same order.
func (an *asAn) guardStringMemo(st []asToken, k int, g *stmtGuard) {
	t := st[k]
	s := an.str(t)
	sp := tokSpan(t)
	lit, ok := an.literals[s]
	if !ok {
		lit = literalGuard(an.env, s)
		if an.literals == nil {
			an.literals = map[string]litGuard{}
		}
		an.literals[s] = lit
	}
	if lit.kind != litPath {
		an.literalReason(lit, s, sp)
		return
	}
	g.verbs(an, st)
	key := guardKeyOf(st, k, s, g)
	fs, ok := an.pathGuards[key]
	if !ok {
		fs = an.pathGuard(key)
		if an.pathGuards == nil {
			an.pathGuards = map[guardKey][]rate.Finding{}
		}
		an.pathGuards[key] = fs
	}
	for _, f := range fs {
		an.finding(f, sp)
	}
}

// litGuard is what the guard makes of a literal's text alone: one that
// names Airlock, a security prompt's process (what: what it asks), or
// Airlock's key-store items; else a path (litPath) or nothing to guard.
type litGuard struct {
	kind uint8
	what string
}

const (
	litNone    = iota // no path, nothing named
	litSelf           // Airlock itself (rate.SelfApp)
	litPrompt         // a security prompt's process (rate.SecurityPrompt)
	litOwnKeys        // Airlock's key-store items (rate.NamesSelf)
	litPath           // a path (rate.ScriptPath)
)

// literalGuard reads the literal s, in the order guardString's checks
// come: the first that holds is its kind.
func literalGuard(env *Env, s string) litGuard {
	if env.SelfApp(s) {
		return litGuard{kind: litSelf}
	}
	if what, ok := rate.SecurityPrompt(s); ok {
		return litGuard{kind: litPrompt, what: what}
	}
	if rate.NamesSelf(s) {
		return litGuard{kind: litOwnKeys}
	}
	if _, ok := rate.ScriptPath(s); ok {
		return litGuard{kind: litPath}
	}
	return litGuard{}
}

// literalReason adds the reason of a literal s at sp that is no path
// (litSelf, litPrompt, litOwnKeys; litNone adds none).
func (an *asAn) literalReason(lit litGuard, s string, sp Span) {
	switch lit.kind {
	case litSelf:
		an.add(effect.Of(effect.Refused), "as.self", sp, "blocked: the script names Airlock itself (%s): no action may drive, quit or click it", rate.Display(s))
	case litPrompt:
		an.add(effect.Of(effect.SecurityOff), "as.security-prompt", sp, "%s shows %s: a script that drives it answers for the person", rate.Display(s), lit.what)
	case litOwnKeys:
		an.add(effect.Of(effect.Refused), "as.own-keys", sp, "blocked: %s names Airlock's key-store items or its app: no action may touch them", rate.Display(s))
	}
}

// guardKey is what the path guard's findings for a literal path depend
// on: its text, what the statement does with its paths, whether it ends a
// path computed at run time (it follows an &), and whether it is plainly
// used as a path.
type guardKey struct {
	s            string
	u            rate.Use
	tail, asPath bool
}

// guardKeyOf is the guardKey of the literal path s, st[k], whose statement
// g has read (stmtGuard.verbs).
func guardKeyOf(st []asToken, k int, s string, g *stmtGuard) guardKey {
	if k > 0 && st[k-1].isOp('&') {
		return guardKey{s: s, u: g.u, tail: true}
	}
	asPath := g.reads
	if k > 0 {
		switch st[k-1].kw {
		case kwFile, kwFolder, kwAlias, kwPosix, kwDisk, kwItem, kwPath:
			asPath = true
		}
	}
	return guardKey{s: s, u: g.u, asPath: asPath}
}

// pathGuard returns the path guard's findings for a literal path.
func (an *asAn) pathGuard(key guardKey) []rate.Finding {
	if key.tail {
		return rate.GuardScriptTail(an.env, key.s, key.u, true)
	}
	return rate.GuardScriptPath(an.env, key.s, key.u, key.asPath)
}

// finding adds a finding of the path guard (rate.GuardScriptPath …) at sp,
// with its effect.
func (an *asAn) finding(f rate.Finding, sp Span) {
	an.v.FoundText(f.Effect, "as."+f.Rule, sp, f.Text) // no guard rule is a one-item effect (perItem)
}
