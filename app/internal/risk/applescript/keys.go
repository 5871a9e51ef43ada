package applescript

import (
	"strconv"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// Keys: what `keystroke` and `key code` press, however the key is spelled:
// a literal, a variable, an item of a list, a handler's parameter, a
// loop over a list of codes, `character id …` or `ASCII character …`.

// maxKeys bounds the values one key argument is read as.
const maxKeys = 64

// keyValues returns the values a key argument can have, in order (a list
// looped over gives its elements); computed reports one that is not known.
func (an *asAn) keyValues(st []asToken, code bool) (vals []string, computed bool) {
	var walk func(e []asToken, depth int)
	walk = func(e []asToken, depth int) {
		for len(e) > 1 && e[0].isOp('(') && e[len(e)-1].isOp(')') {
			e = e[1 : len(e)-1]
		}
		switch {
		case len(vals) >= maxKeys || depth > 4:
			computed = true
		case len(e) > 1 && e[0].isOp('{'):
			for _, x := range listElems(e) {
				walk(x, depth+1)
			}
		case len(e) == 1 && (e[0].kind == asWord || e[0].kind == asVar) && an.isVar(an.name(e[0])):
			for d := an.firstDef(an.name(e[0])); d >= 0; d = an.defList[d].next {
				if x := an.defList[d].expr; x != nil {
					walk(x[:exprEnd(x)], depth+1)
				} else {
					computed = true
				}
			}
		case len(e) == 1 && e[0].kind == asWord && textConst[an.text(e[0])] == "":
			vals = append(vals, facts.KeyName(an.text(e[0]))) // keystroke delete
		default:
			vs, _ := an.template(e, depth)
			for _, v := range vs {
				if strings.Contains(v, rate.HoleUnquoted) || strings.Contains(v, rate.HoleQuoted) {
					computed = true
					continue
				}
				if code {
					v = "code:" + strings.TrimSpace(v)
				}
				vals = append(vals, facts.KeyName(v))
			}
		}
	}
	walk(st[:exprEnd(st)], 0)
	return vals, computed
}

// listElems splits a list literal {a, b, c} at its top-level commas.
func listElems(e []asToken) [][]asToken {
	out, _ := splitAtCommas(e, 0, nil)
	return out
}

// charCodes reads the codes of character id N, character id {…} and
// ASCII character N as text.
func (an *asAn) charCodes(e []asToken, depth int) (string, bool) {
	for len(e) > 1 && e[0].isOp('(') && e[len(e)-1].isOp(')') {
		e = e[1 : len(e)-1]
	}
	var b strings.Builder
	one := func(x []asToken) bool {
		vs, whole := an.template(x, depth+1)
		if whole || len(vs) != 1 {
			return false
		}
		n, err := strconv.Atoi(strings.TrimSpace(vs[0]))
		if err != nil || n <= 0 || n > 0x10FFFF {
			return false
		}
		b.WriteRune(rune(n))
		return true
	}
	if len(e) > 1 && e[0].isOp('{') {
		for _, x := range listElems(e) {
			if !one(x) {
				return "", false
			}
		}
		return b.String(), true
	}
	if len(e) == 1 && (e[0].kind == asWord || e[0].kind == asVar) && an.isVar(an.name(e[0])) {
		// character id codes, where set codes to {…}
		if d := an.firstDef(an.name(e[0])); d >= 0 && an.defList[d].next < 0 && an.defList[d].expr != nil && depth < 4 {
			x := an.defList[d].expr
			return an.charCodes(x[:exprEnd(x)], depth+1)
		}
		return "", false
	}
	if !one(e) {
		return "", false
	}
	return b.String(), true
}

// listItem reads item N of a list literal or of a variable set to one.
func (an *asAn) listItem(t []asToken) ([]asToken, bool) {
	k := 1
	neg := false
	if k < len(t) && t[k].isOp('-') {
		neg = true
		k++
	}
	if k+2 >= len(t) || t[k].kind != asNumber || t[k+1].kw != kwOf {
		return nil, false
	}
	n, err := strconv.Atoi(an.text(t[k]))
	if err != nil || n == 0 {
		return nil, false
	}
	src := t[k+2:]
	for len(src) > 1 && src[0].isOp('(') && src[len(src)-1].isOp(')') {
		src = src[1 : len(src)-1]
	}
	if len(src) == 1 && (src[0].kind == asWord || src[0].kind == asVar) {
		d := an.firstDef(an.name(src[0]))
		if d < 0 || an.defList[d].next >= 0 || an.defList[d].expr == nil {
			return nil, false
		}
		src = an.defList[d].expr
		src = src[:exprEnd(src)]
	}
	if len(src) < 2 || !src[0].isOp('{') {
		return nil, false
	}
	el := listElems(src)
	if neg {
		n = len(el) + 1 - n
	}
	if n < 1 || n > len(el) {
		return nil, false
	}
	return el[n-1], true
}
