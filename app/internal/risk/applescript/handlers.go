package applescript

import "github.com/airlockhq/airlock/app/internal/risk/effect"

// Handlers: what a script's own handlers are given and how often they run.
//
// A handler's positional parameters (on zap(f, mods)) hold what its calls
// pass: each call's argument is a definition of the parameter, so a key, a
// label or a shell command handed to a handler is read where it is used.
// A parameter keeps a computed definition unless every mention of the
// handler is a plain call whose arguments line up.
//
// A handler that deletes, trashes, sends or quits one thing does it many
// times when it is called in a loop or recursively (or from a handler that
// is): its one-item effect is then a bulk one.

// asHandler is a handler with positional parameters, as collect reads it:
// they are asAn.params[from:to].
type asHandler struct {
	name     asName
	from, to int32
}

// asCall is a call name(…) as collect reads it: toks starts at the name.
type asCall struct {
	name asName
	toks []asToken
}

// asRunCall is a call seen while rating: who calls whom, and whether the
// call is repeated (inside a loop).
type asRunCall struct {
	caller, callee asName
	bulk           bool
}

// asEffect is a one-item effect met inside a handler.
type asEffect struct {
	handler asName
	fx      effect.Effect
	rule    string
	sp      Span
}

// asReturn is an expression a handler returns.
type asReturn struct {
	handler asName
	expr    []asToken
}

// maxBound bounds the handlers whose parameters are bound to their calls;
// the parameters of any others stay computed.
const maxBound = 16

// bindCalls gives each handler parameter the arguments its calls pass.
func (an *asAn) bindCalls() {
	var buf [8][]asToken
	for hi, h := range an.handlers {
		params := an.params[h.from:h.to]
		// Only a handler with a few calls, all of them seen (it is never
		// mentioned bare), is bound.
		var use uint8
		if int(h.name) < len(an.uses) {
			use = an.uses[h.name]
		}
		n := use &^ usedBare
		complete := hi < maxBound && n > 0 && n <= maxDefs && use&usedBare == 0
		for _, c := range an.calls {
			if !complete {
				break
			}
			if c.name != h.name {
				continue
			}
			args := callArgs(c.toks, buf[:0])
			if len(args) != len(params) {
				complete = false
				break
			}
			for k, p := range params {
				if mentionsName(an, args[k], p) {
					// zap(x) inside zap, or a caller's variable of the same
					// name: what it holds is the parameter's other values.
					continue
				}
				an.def(p, args[k])
			}
		}
		if !complete {
			for _, p := range params {
				an.def(p, nil)
			}
		}
	}
}

// handlerDef reports whether the statement st defines a handler (on x …,
// to x …; collectDef's case): the word at its start is on or to, the
// next a name other than error.
func handlerDef(st []asToken) bool {
	return len(st) > 1 && (st[0].kind == asWord || st[0].kind == asVar) && (st[0].kw == kwOn || st[0].kw == kwTo) &&
		(st[1].kind == asWord || st[1].kind == asVar) && st[1].kw != kwError
}

// positional reports whether the handler st defines (handlerDef) takes
// positional parameters, on foo(a, b): its parameters are bound to its
// calls (bindCalls).
func (an *asAn) positional(st []asToken) bool {
	return len(st) > 2 && st[2].isOp('(') && an.text(st[1]) != "run"
}

// markHandlers notes, before collect reads the script, the names of the
// handlers with positional parameters (handlerDef and positional, as
// collectHandler reads them): bindCalls reads how those names are used
// (asAn.uses, asAn.calls) and no other's, so collect notes no other's.
// A handler whose name the lexer did not give (|pipe quoted|, non-ASCII)
// would be named here, earlier than collect names it, which would number
// the script's names in another order: then every name is noted, as
// before (allBound).
func (an *asAn) markHandlers() {
	toks := an.lx.toks
	start := int32(0)
	for _, e := range an.lx.ends {
		if st := toks[start:e]; handlerDef(st) && an.positional(st) {
			name := st[1].name
			if name == 0 {
				an.allBound = true
				return
			}
			if w := int(name) / 64; w >= len(an.binds) {
				an.binds = append(an.binds, make([]uint64, w+1-len(an.binds))...)
			}
			an.binds[name/64] |= 1 << (name % 64)
		}
		start = e + 1
	}
}

// bound reports whether name is one markHandlers noted.
func (an *asAn) bound(name asName) bool {
	w := int(name) / 64
	return an.allBound || w < len(an.binds) && an.binds[w]&(1<<(name%64)) != 0
}

// usedBare marks, in asAn.uses, a name mentioned other than by a
// handler's definition, its end or a call name(…): if it names a handler,
// the handler is passed around as a value, and its calls cannot all be
// seen. The other bits count the name's calls.
const usedBare = 0x80

// growUses makes room in an.uses for name and returns it.
func (an *asAn) growUses(name asName) []uint8 {
	an.uses = append(an.uses, make([]uint8, int(name)+1-len(an.uses)+len(an.uses)/2)...)
	return an.uses
}

// callArgs splits the arguments of name(a, b) at its top-level commas;
// none when the parentheses are not closed.
func callArgs(toks []asToken, out [][]asToken) [][]asToken {
	if len(toks) < 3 || !toks[1].isOp('(') {
		return out
	}
	out, closed := splitAtCommas(toks, 1, out)
	if !closed {
		return out[:0]
	}
	return out
}

// splitAtCommas appends to out the parts of the bracketed group that opens
// at toks[open], split at its top-level commas; closed is false when the
// group does not close (out then holds the parts before the last comma).
func splitAtCommas(toks []asToken, open int, out [][]asToken) (_ [][]asToken, closed bool) {
	depth, from := 0, open+1
	for k := open; k < len(toks); k++ {
		t := toks[k]
		if t.kind != asOp {
			continue
		}
		switch t.op {
		case '(', '{', '[':
			depth++
		case ')', '}', ']':
			depth--
			if depth == 0 {
				if k > from {
					out = append(out, toks[from:k])
				}
				return out, true
			}
		case ',':
			if depth == 1 {
				out = append(out, toks[from:k])
				from = k + 1
			}
		}
	}
	return out, false
}

// currentHandler is the handler whose body is being rated, or 0.
func (an *asAn) currentHandler() asName {
	for i := len(an.stack) - 1; i >= 0; i-- {
		if an.stack[i].kind == "handler" {
			return an.stack[i].handler
		}
	}
	return 0
}

// noteCall records a call of one of the script's handlers: st[i] is a
// word followed by "(" (scan calls it as it reads a statement).
func (an *asAn) noteCall(t asToken) {
	s := an.lookup(an.name(t))
	if s == nil || !s.isSub {
		return
	}
	an.runCalls = append(an.runCalls, asRunCall{caller: an.currentHandler(), callee: s.name, bulk: an.loopBulk()})
}

// perItem lists the one-item rules whose effect is a bulk one when
// repeated, with the rule and warning it then has: its effect is the one
// item's, made Bulk.
var perItem = map[string]struct {
	rule, text string
}{
	"as.delete":                {"as.bulk-delete", "BULK DELETE: a handler that deletes is called for many items (in a loop or recursively)"},
	"as.delete-permanent":      {"as.bulk-delete", "BULK DELETE: a handler that deletes permanently is called for many items (in a loop or recursively)"},
	"as.objc-remove":           {"as.bulk-delete", "BULK DELETE: a handler that deletes permanently is called for many items (in a loop or recursively)"},
	"as.objc-trash":            {"as.bulk-trash", "BULK DELETE: a handler that moves to the Trash is called for many items (in a loop or recursively)"},
	"as.trash":                 {"as.bulk-trash", "BULK DELETE: a handler that moves to the Trash is called for many items (in a loop or recursively)"},
	"egress.as.send":           {"egress.as.bulk-email", "BULK EMAIL: a handler that sends is called many times (in a loop or recursively)"},
	"as.quit":                  {"as.quit-all", "QUIT ALL APPS: a handler that quits is called in a loop or recursively"},
	"as.shortcut-quit":         {"as.quit-all", "QUIT ALL APPS: a handler that types Command-Q is called in a loop or recursively"},
	"as.shortcut-trash":        {"as.bulk-trash", "BULK DELETE: a handler that types Command-Delete in the Finder is called in a loop or recursively"},
	"as.move":                  {"as.bulk-move", "BULK MOVE: a handler that moves is called for many items (in a loop or recursively)"},
	"as.click-menu-positional": {"as.click-menu-positional", "CLICK: a handler that clicks a menu item chosen at run time is called in a loop"},
}

// effect records a one-item effect of the handler being rated.
func (an *asAn) effect(e effect.Effect, rule string, sp Span) {
	if h := an.currentHandler(); h != 0 {
		if _, ok := perItem[rule]; ok {
			an.effects = append(an.effects, asEffect{handler: h, fx: e, rule: rule, sp: sp})
		}
	}
}

// repeatedEffects rates the one-item effects of handlers that run many
// times: called in a loop, recursively, or by a handler that is.
func (an *asAn) repeatedEffects() {
	if len(an.effects) == 0 {
		return
	}
	many := map[asName]bool{}
	for _, c := range an.runCalls {
		if c.bulk || c.caller == c.callee {
			many[c.callee] = true
		}
	}
	for changed := true; changed; {
		changed = false
		for _, c := range an.runCalls {
			if many[c.caller] && !many[c.callee] {
				many[c.callee] = true
				changed = true
			}
		}
	}
	for _, e := range an.effects {
		if many[e.handler] {
			b := perItem[e.rule]
			an.add(e.fx.With(effect.Bulk), b.rule, e.sp, "%s", b.text)
		}
	}
}

// isSub reports a word that names one of the script's handlers.
func (an *asAn) isSub(t asToken) bool {
	if t.kind != asWord && t.kind != asVar {
		return false
	}
	s := an.lookup(an.name(t))
	return s != nil && s.isSub
}

// mentionsName reports the name n among the words of e.
func mentionsName(an *asAn, e []asToken, n asName) bool {
	for _, t := range e {
		if (t.kind == asWord || t.kind == asVar) && an.name(t) == n {
			return true
		}
	}
	return false
}
