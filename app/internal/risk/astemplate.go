package risk

import "strings"

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
	variants = []string{""}
	literal := false
	for _, term := range splitConcat(st) {
		parts, lit := an.term(term, depth)
		literal = literal || lit
		var next []string
		for _, v := range variants {
			for _, p := range parts {
				if len(next) < maxVariants {
					next = append(next, v+p)
				}
			}
		}
		variants = next
	}
	return variants, !literal
}

// exprEnd finds where an argument expression stops: at a parameter label
// of the command, a closing bracket, or the statement's end.
func exprEnd(st []asToken) int {
	depth := 0
	for i, t := range st {
		switch {
		case t.kind == asOp && (t.text == "(" || t.text == "{"):
			depth++
		case t.kind == asOp && (t.text == ")" || t.text == "}"):
			if depth == 0 {
				return i
			}
			depth--
		case t.kind == asOp && t.text == "," && depth == 0:
			return i
		case t.kind == asWord && depth == 0:
			switch t.text {
			case "with", "without", "administrator", "user", "password", "altering", "then", "else", "in", "given", "as", "using":
				if t.text == "as" && i+1 < len(st) && (st[i+1].text == "text" || st[i+1].text == "string" || st[i+1].text == "unicode") {
					return i
				}
				if t.text != "as" {
					return i
				}
			}
		}
	}
	return len(st)
}

// splitConcat splits an expression at its top-level & operators.
func splitConcat(st []asToken) [][]asToken {
	var out [][]asToken
	depth, start := 0, 0
	for i, t := range st {
		if t.kind != asOp {
			continue
		}
		switch t.text {
		case "(", "{":
			depth++
		case ")", "}":
			depth--
		case "&":
			if depth == 0 {
				out = append(out, st[start:i])
				start = i + 1
			}
		}
	}
	return append(out, st[start:])
}

// term evaluates one operand of &.
func (an *asAn) term(t []asToken, depth int) (parts []string, literal bool) {
	for len(t) > 1 && t[0].kind == asOp && t[0].text == "(" && t[len(t)-1].kind == asOp && t[len(t)-1].text == ")" {
		t = t[1 : len(t)-1]
	}
	// Trailing coercions: "…" as text.
	for len(t) > 2 && t[len(t)-2].kind == asWord && t[len(t)-2].text == "as" {
		t = t[:len(t)-2]
	}
	switch {
	case len(t) == 0:
		return []string{""}, false
	case len(t) == 1 && t[0].kind == asString:
		return []string{t[0].str()}, true
	case len(t) == 1 && t[0].kind == asNumber:
		return []string{t[0].text}, true
	case len(t) >= 3 && t[0].text == "quoted" && t[1].text == "form" && t[2].text == "of":
		rest := t[3:]
		if len(rest) == 1 && rest[0].kind == asString {
			return []string{shellQuote(rest[0].str())}, true
		}
		return []string{holeQuoted}, false
	case len(t) > 1 && t[0].kind == asOp && t[0].text == "(":
		vs, whole := an.template(t[1:], depth+1)
		return vs, !whole
	case len(t) == 1 && (t[0].kind == asWord || t[0].kind == asVar):
		first := an.firstDef(t[0].text)
		if first < 0 || depth >= 4 {
			return []string{holeUnquoted}, false
		}
		var out []string
		lit := false
		for k := first; k >= 0; k = an.defList[k].next {
			d := an.defList[k].expr
			if d == nil {
				out = append(out, holeUnquoted)
				continue
			}
			vs, whole := an.template(d, depth+1)
			lit = lit || !whole
			out = append(out, vs...)
		}
		if len(out) > maxVariants {
			out = out[:maxVariants]
		}
		return out, lit
	}
	// Anything else (POSIX path of x, item 1 of argv, a handler call …) is
	// computed text.
	return []string{holeUnquoted}, false
}

// shellQuote quotes s the way AppleScript's quoted form does.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
