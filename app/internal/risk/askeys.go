package risk

import (
	"strconv"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// Keys: what `keystroke` and `key code` press, however the key is spelled:
// a literal, a variable, an item of a list, a handler's parameter, a
// loop over a list of codes, `character id …` or `ASCII character …`.

// keyNames names the key codes (US layout) whose shortcuts mean something
// to the analyzer, and the letters and signs a typed command is made of.
var keyNames = map[int]string{
	0: "a", 1: "s", 2: "d", 3: "f", 4: "h", 5: "g", 6: "z", 7: "x", 8: "c", 9: "v", 11: "b", 12: "q",
	13: "w", 14: "e", 15: "r", 16: "y", 17: "t", 18: "1", 19: "2", 20: "3", 21: "4", 22: "6", 23: "5",
	24: "=", 25: "9", 26: "7", 27: "-", 28: "8", 29: "0", 30: "]", 31: "o", 32: "u", 33: "[", 34: "i",
	35: "p", 36: "\n", 37: "l", 38: "j", 39: "'", 40: "k", 41: ";", 42: "\\", 43: ",", 44: "/", 45: "n",
	46: "m", 47: ".", 49: " ", 50: "`", 51: "delete", 53: "escape", 76: "\n", 117: "delete",
}

// shifted is what a key types with Shift down.
var shifted = map[string]string{"`": "~", "1": "!", "7": "&", "\\": "|", ";": ":", "'": "\"", ",": "<", ".": ">", "/": "?", "-": "_", "=": "+", "9": "(", "0": ")", "8": "*", "4": "$", "3": "#", "2": "@"}

// keyName reads a key value: "code:N" for key codes, else the typed text.
func keyName(v string) string {
	if c, ok := strings.CutPrefix(v, "code:"); ok {
		if n, err := strconv.Atoi(c); err == nil {
			if k, ok := keyNames[n]; ok {
				return k
			}
		}
		return v
	}
	switch v = strings.ToLower(v); v {
	case "\b", "\x7f":
		return "delete"
	case "\x1b":
		return "escape"
	case "\r":
		return "\n"
	}
	return v
}

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
			vals = append(vals, keyName(an.text(e[0]))) // keystroke delete
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
				vals = append(vals, keyName(v))
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
