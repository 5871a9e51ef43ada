package applescript

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// maxFoldWork bounds the variable look-ups one analysis spends on folding
// commands; past it every further variable is computed text (fail closed).
const maxFoldWork = 20_000

// maxVariants bounds how many spellings of one computed command are
// analysed (a variable set in several places has several).
const maxVariants = 8

// template turns an AppleScript expression into the shell text it builds:
// literal strings stay, `quoted form of x` becomes a quoted hole, anything
// else computed becomes an unquoted hole. Variables are followed to what
// the script assigns them. whole reports that nothing of the command is
// literal at all.
func (an *asAn) template(st []asToken, depth int) (variants []string, whole bool) {
	end := exprEnd(st)
	st = st[:end]
	if len(st) == 0 {
		return nil, true
	}
	// The common case: one string literal.
	if len(st) == 1 && st[0].kind == asString {
		return []string{an.str(st[0])}, false
	}
	// One spelling, built in place (on the stack while it is short),
	// until a variable with several definitions forks it.
	var room [128]byte
	b := room[:0]
	literal := false
	for rest := st; rest != nil; {
		var term []asToken
		term, rest = nextConcat(rest)
		one, many, lit := an.term(term, depth)
		literal = literal || lit
		if many == nil {
			if variants == nil {
				b = append(b, one...)
			} else {
				for k := range variants {
					variants[k] += one
				}
			}
			continue
		}
		if variants == nil {
			variants = []string{string(b)}
		}
		var next []string
		for _, v := range variants {
			for _, p := range many {
				next = append(next, v+p)
			}
		}
		if len(next) > maxVariants {
			next = append(next[:maxVariants-1], rate.HoleUnquoted) // the rest: computed
		}
		variants = next
	}
	if variants == nil {
		variants = []string{string(b)}
	}
	return variants, !literal
}

// exprEnd finds where an argument expression stops: at a parameter label
// of the command, a closing bracket, or the statement's end.
func exprEnd(st []asToken) int {
	depth := 0
	for i, t := range st {
		switch {
		case t.kind == asOp && (t.op == '(' || t.op == '{'):
			depth++
		case t.kind == asOp && (t.op == ')' || t.op == '}'):
			if depth == 0 {
				return i
			}
			depth--
		case t.isOp(',') && depth == 0:
			return i
		case t.kind == asWord && depth == 0:
			switch t.kw {
			case kwWith, kwWithout, kwAdministrator, kwUser, kwPassword, kwAltering, kwThen, kwElse, kwIn, kwGiven, kwAs, kwUsing:
				if t.kw == kwAs && i+1 < len(st) && (st[i+1].kw == kwText || st[i+1].kw == kwString || st[i+1].kw == kwUnicode) {
					return i
				}
				if t.kw != kwAs {
					return i
				}
			}
		}
	}
	return len(st)
}

// nextConcat returns the first operand of a top-level & chain and the
// rest after its &, or nil rest at the end.
func nextConcat(st []asToken) (term, rest []asToken) {
	depth := 0
	for i, t := range st {
		if t.kind != asOp {
			continue
		}
		switch t.op {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
		case '&':
			if depth == 0 {
				return st[:i], st[i+1:]
			}
		}
	}
	return st, nil
}

// term evaluates one operand of &: one spelling, or several (many) when
// it names a variable assigned in several places.
func (an *asAn) term(t []asToken, depth int) (one string, many []string, literal bool) {
	for len(t) > 1 && t[0].isOp('(') && matchClose(t) == len(t)-1 {
		// Only brackets that close each other: (a) & (b) is no one term.
		t = t[1 : len(t)-1]
	}
	// Trailing coercions: "…" as text.
	for len(t) > 2 && t[len(t)-2].kind == asWord && t[len(t)-2].kw == kwAs {
		t = t[:len(t)-2]
	}
	if _, rest := nextConcat(t); rest != nil && depth < 4 {
		// ((POSIX path of (path to home folder)) & "Downloads/" & n),
		// ("notes" & ".txt"): the joins inside the brackets, every term,
		// not the first alone (the path's name was left out of it).
		vs, whole := an.template(t, depth+1)
		if len(vs) == 1 {
			return vs[0], nil, !whole
		}
		return "", vs, !whole
	}
	switch {
	case len(t) == 0:
		return "", nil, false
	case len(t) == 1 && t[0].kind == asString:
		return an.str(t[0]), nil, true
	case len(t) == 1 && t[0].kind == asNumber:
		return an.text(t[0]), nil, true
	case len(t) >= 3 && t[0].kw == kwQuoted && t[1].kw == kwForm && t[2].kw == kwOf:
		rest := t[3:]
		if len(rest) == 1 && rest[0].kind == asString {
			return shellQuote(an.str(rest[0])), nil, true
		}
		if p, ok := an.posixPath(rest); ok {
			return shellQuotePath(p), nil, true
		}
		if depth < 4 {
			// quoted form of (POSIX path of (path to …) & "LaunchAgents/x"),
			// or of a variable set so: the text it quotes, when every part
			// of it is known.
			if vs, whole := an.template(rest, depth+1); len(vs) == 1 && !whole && !strings.Contains(vs[0], rate.HoleQuoted) &&
				!strings.Contains(vs[0], rate.HoleUnquoted) && !strings.Contains(vs[0], rate.HoleMark) {
				return shellQuotePath(vs[0]), nil, true
			}
		}
		return rate.HoleQuoted, nil, false
	case len(t) > 2 && (t[0].kw == kwCharacter && t[1].kw == kwId || t[0].kw == kwAscii && t[1].kw == kwCharacter):
		// character id {114, 109}, ASCII character 8: text spelled in codes.
		if s, ok := an.charCodes(t[2:], depth); ok {
			return s, nil, true
		}
		return rate.HoleUnquoted, nil, false
	case len(t) > 3 && t[0].kw == kwItem && depth < 4:
		if x, ok := an.listItem(t); ok {
			vs, whole := an.template(x, depth+1)
			if len(vs) == 1 {
				return vs[0], nil, !whole
			}
			return "", vs, !whole
		}
		return rate.HoleUnquoted, nil, false
	case len(t) > 2 && t[1].isOp('(') && t[len(t)-1].isOp(')') && an.isSub(t[0]) && depth < 4:
		// lbl(): what the handler returns.
		var out []string
		lit := false
		for _, r := range an.returns {
			if r.handler == an.name(t[0]) {
				vs, whole := an.template(r.expr, depth+1)
				lit = lit || !whole
				out = append(out, vs...)
			}
		}
		if len(out) == 0 || len(out) > maxVariants {
			return rate.HoleUnquoted, nil, false
		}
		if len(out) == 1 {
			return out[0], nil, lit
		}
		return "", out, lit
	case len(t) == 1 && t[0].kind == asWord && textConst[an.text(t[0])] != "" && !an.isVar(an.name(t[0])):
		return textConst[an.text(t[0])], nil, true
	case len(t) > 1 && t[0].isOp('('):
		vs, whole := an.template(t[1:], depth+1)
		if len(vs) == 1 {
			return vs[0], nil, !whole
		}
		return "", vs, !whole
	case len(t) == 1 && (t[0].kind == asWord || t[0].kind == asVar):
		name := an.name(t[0])
		first := an.firstDef(name)
		// A variable being resolved refers to itself (set a to a & a), or
		// the work budget is spent: what it holds is computed.
		an.foldWork++
		if first < 0 || depth >= 4 || an.lookup(name).resolving || an.foldWork > maxFoldWork {
			return rate.HoleUnquoted, nil, false
		}
		an.lookup(name).resolving = true
		defer func() { an.lookup(name).resolving = false }()
		var out []string
		lit := false
		for k := first; k >= 0; k = an.defList[k].next {
			d := an.defList[k].expr
			if d == nil {
				out = append(out, rate.HoleUnquoted)
				continue
			}
			vs, whole := an.template(d, depth+1)
			lit = lit || !whole
			out = append(out, vs...)
		}
		if len(out) > maxVariants {
			// Not every spelling is analysed: the ones left out count as
			// computed text (fail closed).
			out = append(out[:maxVariants-1], rate.HoleUnquoted)
		}
		if len(out) == 1 {
			return out[0], nil, lit
		}
		return "", out, lit
	}
	// POSIX path of a path foldPath reads: that path.
	if p, ok := an.posixPath(t); ok {
		return p, nil, true
	}
	// Anything else (POSIX path of x it cannot read, item 1 of argv, a
	// handler call …) is computed text.
	return rate.HoleUnquoted, nil, false
}

// posixPath is the path t gives when t is POSIX path of a path foldPath
// reads ((file ".env" of folder "app" of home) as alias, an alias of path
// to …), or a variable whose one definition is such a term: "~/…" in the
// home, as the shell spells it. ok is false for anything else.
func (an *asAn) posixPath(t []asToken) (string, bool) {
	if len(t) == 1 && (t[0].kind == asWord || t[0].kind == asVar) {
		d := an.firstDef(an.name(t[0]))
		if d < 0 || an.defList[d].next >= 0 {
			return "", false // no definition, or several
		}
		t = an.defList[d].expr
	}
	if joined(t) {
		return "", false // (POSIX path of (path to …)) & "LaunchAgents/x": more than the path
	}
	t = trimOpen(t)
	if len(t) > 2 && strings.EqualFold(an.text(t[0]), "home") && strings.EqualFold(an.text(t[1]), "directory") && t[2].kw == kwOf {
		return "~", true // home directory of (system info): the home folder's POSIX path, no slash after it
	}
	if len(t) < 4 || t[0].kw != kwPosix || t[1].kw != kwPath || t[2].kw != kwOf {
		return "", false
	}
	p := an.foldPath(t[3:], 0)
	return p, p != ""
}

// joined reports an expression whose top level, inside the parentheses
// that enclose all of it, joins operands with &.
func joined(t []asToken) bool {
	_, rest := nextConcat(unwrap(t))
	return rest != nil
}

// unwrap is t without the parentheses that enclose all of it.
func unwrap(t []asToken) []asToken {
	for len(t) > 1 && t[0].isOp('(') && matchClose(t) == len(t)-1 {
		t = t[1 : len(t)-1]
	}
	return t
}

// posixOf is t without POSIX path of and the parentheses before it.
func posixOf(t []asToken) []asToken {
	for len(t) > 0 && (t[0].op == '(' || t[0].kw == kwPosix || t[0].kw == kwPath && len(t) > 1 && t[1].kw == kwOf || t[0].kw == kwOf) {
		t = t[1:]
	}
	return t
}

// shellQuotePath is p quoted as quoted form quotes it, the home's ~/ left
// outside the quotes, where the shell reads it as the home.
func shellQuotePath(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return "~/" + shellQuote(rest)
	}
	return shellQuote(p)
}

// textConst are AppleScript's text constants.
var textConst = map[string]string{"return": "\n", "linefeed": "\n", "tab": "\t", "space": " ", "quote": "\""}

// shellQuote quotes s the way AppleScript's quoted form does.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
