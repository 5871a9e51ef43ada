package jxa

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// methods, destructuring patterns, functions and their parameters.
func (an *jsAn) collect() {
	toks := an.lx.toks
	paramEnd := -1 // x = … inside a parameter list is a default value
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.kind == jsPunct {
			switch t.text {
			case "{", "[":
				c := jsMatch(toks, i)
				if c > 0 && c+2 < len(toks) && toks[c+1].text == "=" && toks[c+2].text != "=" && toks[c+2].text != ">" &&
					(t.text == "{" || i == 0 || !jsOperand(toks[i-1])) {
					an.pattern(toks, i, c)
				}
			case "=":
				if i+1 < len(toks) && toks[i+1].text == ">" && toks[i+1].start == t.end {
					an.arrow(toks, i)
				}
			}
			continue
		}
		if t.kind != jsIdent {
			continue
		}
		switch t.text {
		case "with":
			if i+1 < len(toks) && toks[i+1].text == "(" {
				an.with = true
			}
			continue
		case "function":
			if e := an.function(toks, i); e > paramEnd {
				paramEnd = e
			}
			continue
		case "catch":
			if o := i + 1; o < len(toks) && toks[o].text == "(" {
				if c := jsMatch(toks, o); c > 0 && c+1 < len(toks) && toks[c+1].text == "{" {
					an.addFunc(jsFunc{params: an.params(toks, o+1, c), decl: -1, head: -1}, toks, c+1)
					paramEnd = max(paramEnd, c)
				}
			}
			continue
		case "for":
			an.loopVar(toks, i)
			continue
		}
		if i <= paramEnd || i > 0 && (toks[i-1].text == "." || toks[i-1].text == "function") {
			continue
		}
		// A method: name(params) { body } in a class or an object literal.
		if i+1 < len(toks) && toks[i+1].text == "(" && !jsKeywords[t.text] && (i == 0 || jsMethodPrev(toks[i-1])) {
			if c := jsMatch(toks, i+1); c > 0 && c+1 < len(toks) && toks[c+1].text == "{" {
				an.addFunc(jsFunc{params: an.params(toks, i+2, c), decl: -1, head: -1}, toks, c+1)
				paramEnd = max(paramEnd, c)
				continue
			}
		}
		an.assignment(toks, i)
	}
}

func jsMethodPrev(p jsToken) bool {
	switch p.text {
	case "{", ",", "}", ";", "static", "async", "get", "set", "*":
		return true
	}
	return false
}

// jsOperand: the token ends an operand (what follows it is an operator).
func jsOperand(t jsToken) bool {
	switch t.kind {
	case jsIdent:
		return !jsKeywords[t.text] || t.text == "this" || t.text == "super"
	case jsString, jsTemplate, jsNumber, jsRegex:
		return true
	}
	return t.text == ")" || t.text == "]" || t.text == "}"
}

// assignment records x = expr, x += expr and x.push(…) at toks[i].
func (an *jsAn) assignment(toks []jsToken, i int) {
	if i+2 >= len(toks) {
		return
	}
	t := toks[i]
	name := t.text
	a, b := toks[i+1], toks[i+2]
	switch {
	case a.text == "=" && b.text != "=" && !(b.text == ">" && b.start == a.end):
		end := jsExprEnd(toks, i+2)
		expr := toks[i+2 : end]
		an.defs[name] = append(an.defs[name], jsDef{at: t.start, idx: i, expr: expr})
		an.aliasDef(name, expr)
	case a.text == "+" && b.text == "=" && b.start == a.end:
		end := jsExprEnd(toks, i+3)
		expr := toks[i+3 : end]
		ds := an.defs[name]
		if n := len(ds); n > 0 && !ds[n-1].self && !ds[n-1].elems && !ds[n-1].hole && an.straight(toks, ds[n-1].idx, i) {
			ds[n-1].plus = append(ds[n-1].plus, expr)
			ds[n-1].idx = i
		} else {
			an.defs[name] = append(ds, jsDef{at: t.start, idx: i, self: true, plus: [][]jsToken{expr}})
		}
	case b.text == "=" && b.start == a.end && strings.Contains("-*/%|&^", a.text) && a.kind == jsPunct && !(i+3 < len(toks) && toks[i+3].text == "="):
		an.defs[name] = append(an.defs[name], jsDef{at: t.start, idx: i, hole: true})
	case a.text == "." && b.text == "push" && i+3 < len(toks) && toks[i+3].text == "(":
		ds := an.defs[name]
		if n := len(ds); n > 0 && len(ds[n-1].expr) > 0 && ds[n-1].expr[0].text == "[" {
			if c := jsMatch(toks, i+3); c > 0 {
				ds[n-1].push = append(ds[n-1].push, toks[i+4:c])
			}
		}
	}
}

// straight reports that the statement at toks[i] follows the one at
// toks[from] in the same block, not in a branch or a loop of its own.
func (an *jsAn) straight(toks []jsToken, from, i int) bool {
	if i > 0 {
		switch p := toks[i-1]; p.text {
		case ")":
			if o := jsMatch(toks, i-1); o > 0 {
				switch toks[o-1].text {
				case "if", "while", "for", "with":
					return false
				}
			}
		case "else", "do", ":", "(", "?", "&", "|", ",":
			return false
		}
	}
	for k := i - 1; k > from; k-- {
		switch toks[k].text {
		case ")", "]", "}":
			o := jsMatch(toks, k)
			if o < 0 {
				return false
			}
			if o <= from {
				return false // the definition is inside a block that ends here
			}
			k = o
		case "{", "(", "[":
			return false // the statement is inside a block that opens after it
		}
	}
	return true
}

// aliasDef notes a variable that holds a method: var f = app.doShellScript,
// var run = app.doShellScript.bind(app), var f = app[m], var e = eval.
func (an *jsAn) aliasDef(name string, expr []jsToken) {
	if len(expr) == 0 {
		return
	}
	last := len(expr) - 1
	if expr[last].text == ")" {
		if o := jsMatch(expr, last); o >= 2 && expr[o-1].text == "bind" && expr[o-2].text == "." {
			last = o - 3
		} else if o >= 3 && expr[o-1].text == "get" && expr[o-2].text == "." && expr[o-3].text == "Reflect" {
			if args := jsSplitArgs(expr[o+1 : last]); len(args) >= 2 {
				an.aliasNames(name, an.memberNames(args[1]), len(args[0]) == 1 && args[0][0].text == "$")
			}
			return
		}
	}
	if last < 0 {
		return
	}
	if names, computed, dollar, ok := an.memberAt(expr, last); ok {
		if computed {
			an.alias[name] = jsComputed
			return
		}
		an.aliasNames(name, names, dollar)
		return
	}
	x := expr[last]
	if x.kind != jsIdent {
		return
	}
	switch {
	case x.text == "constructor":
		an.alias[name] = "Function"
	case last == 0 && (x.text == "Function" || x.text == "eval"):
		an.alias[name] = x.text
	case last == 0 && an.alias[x.text] != "" && x.text != name:
		an.alias[name] = an.alias[x.text]
	}
}

func (an *jsAn) aliasNames(name string, names []string, dollar bool) {
	for _, m := range names {
		if m == jsComputed {
			an.alias[name] = jsComputed
			return
		}
		if row := rowOf(m); row.follow && (dollar || !row.cfunc) {
			an.alias[name] = m
		}
	}
}

// pattern records a destructuring assignment {a, b: c} = x or [a, b] = x:
// the names get values the analyzer does not know, and {doShellScript: sh}
// makes sh stand for the method.
func (an *jsAn) pattern(toks []jsToken, open, close int) {
	obj := toks[open].text == "{"
	for k := open + 1; k < close; k++ {
		t := toks[k]
		if m := jsMatch(toks, k); m > k && t.text != "{" && t.text != "[" {
			k = m
			continue
		}
		if t.kind != jsIdent && t.kind != jsString {
			continue
		}
		next := ""
		if k+1 < close {
			next = toks[k+1].text
		}
		if obj && next == ":" && k+2 < close && toks[k+2].kind == jsIdent {
			// key: alias
			key := t.text
			if t.kind == jsString {
				key = t.val
			}
			if rowOf(key).follow {
				an.alias[toks[k+2].text] = key
				an.markPatternKey(k)
				an.markPatternKey(k + 2)
			}
			continue
		}
		if t.kind != jsIdent || next != "," && next != "}" && next != "]" && next != "=" && k+1 != close {
			continue
		}
		if rowOf(t.text).follow && obj && toks[k-1].text != ":" {
			// {doShellScript} = app: shorthand for {doShellScript: doShellScript}
			an.alias[t.text] = t.text
			an.markPatternKey(k)
		}
		an.defs[t.text] = append(an.defs[t.text], jsDef{at: t.start, idx: k, hole: true})
	}
}

func (an *jsAn) markPatternKey(k int) {
	if an.patternKeys == nil {
		an.patternKeys = map[int]bool{}
	}
	an.patternKeys[k] = true
}

// function records `function name(params) { body }` at toks[i] and
// returns the index of the ) that ends its parameters.
func (an *jsAn) function(toks []jsToken, i int) int {
	j := i + 1
	if j < len(toks) && toks[j].text == "*" {
		j++
	}
	name, decl := "", -1
	if j < len(toks) && toks[j].kind == jsIdent {
		name, decl = toks[j].text, j
		j++
	}
	if j >= len(toks) || toks[j].text != "(" {
		return i
	}
	pc := jsMatch(toks, j)
	if pc < 0 || pc+1 >= len(toks) || toks[pc+1].text != "{" {
		return max(pc, i)
	}
	if name == "" && i >= 2 && toks[i-1].text == "=" && toks[i-2].kind == jsIdent {
		name, decl = toks[i-2].text, i-2
	}
	an.addFunc(jsFunc{name: name, params: an.params(toks, j+1, pc), decl: decl, head: i, entry: name == "run"}, toks, pc+1)
	return pc
}

// arrow records (params) => body at the = of =>.
func (an *jsAn) arrow(toks []jsToken, i int) {
	if i == 0 || i+2 >= len(toks) {
		return
	}
	var params []jsParam
	pfrom := i - 1
	switch p := toks[i-1]; {
	case p.text == ")":
		o := jsMatch(toks, i-1)
		if o < 0 {
			return
		}
		params = an.params(toks, o+1, i-1)
		pfrom = o
		// Defaults were recorded as assignments: they belong to the parameters.
		for _, pr := range params {
			ds := an.defs[pr.name]
			for k := len(ds) - 1; k >= 0; k-- {
				if ds[k].at >= toks[o].start && ds[k].at < toks[i].start {
					ds = append(ds[:k:k], ds[k+1:]...)
				}
			}
			if len(ds) == 0 {
				delete(an.defs, pr.name)
			} else {
				an.defs[pr.name] = ds
			}
		}
	case p.kind == jsIdent:
		params = []jsParam{{name: p.text}}
	default:
		return
	}
	f := jsFunc{params: params, decl: -1, head: pfrom}
	q := pfrom - 1
	if q >= 0 && toks[q].text == "async" {
		f.head = q
	}
	if q >= 0 && toks[q].text == "async" {
		q--
	}
	if q >= 1 && toks[q].text == "=" && toks[q-1].kind == jsIdent {
		f.name, f.decl = toks[q-1].text, q-1
	}
	body := i + 2
	if toks[body].text == "{" {
		an.addFunc(f, toks, body)
		return
	}
	end := an.arrowEnd(toks, body)
	if end <= body {
		return
	}
	f.start, f.end = toks[body].start, toks[end-1].end
	f.from, f.to = body, end-1
	an.registerFunc(f)
}

// arrowEnd is jsExprEnd for the body of an arrow function without braces
// at toks[body]. In x => y => z => …, each body holds the next arrow and
// ends where it ends: the end is found once for the chain and kept, where
// scanning each body anew would cost n arrows n² steps.
func (an *jsAn) arrowEnd(toks []jsToken, body int) int {
	if e, ok := an.arrowEnds[body]; ok {
		return e
	}
	chain := []int{body}
	end := -1
	// The lexer gives => as "=" and ">".
	arrowAt := func(k int) bool {
		return k+2 < len(toks) && toks[k].text == "=" && toks[k+1].text == ">" && toks[k+1].start == toks[k].end
	}
	for b := body; end < 0; {
		next := -1
		switch {
		case toks[b].kind == jsIdent && arrowAt(b+1):
			next = b + 3
		case toks[b].text == "(" && toks[b].aux > 0:
			if c := b + int(toks[b].aux); arrowAt(c + 1) {
				next = c + 3
			}
		}
		if next < 0 || toks[next].text == "{" {
			end = jsExprEnd(toks, b)
			break
		}
		if e, ok := an.arrowEnds[next]; ok {
			end = e
			break
		}
		chain = append(chain, next)
		b = next
	}
	if an.arrowEnds == nil {
		an.arrowEnds = map[int]int{}
	}
	for _, b := range chain {
		an.arrowEnds[b] = end
	}
	return end
}

// addFunc records f with its body the block opening at toks[open].
func (an *jsAn) addFunc(f jsFunc, toks []jsToken, open int) {
	c := jsMatch(toks, open)
	if c < 0 {
		c = len(toks) - 1
	}
	f.start, f.end = toks[open].start, toks[c].end
	f.from, f.to = open, c
	an.registerFunc(f)
}

func (an *jsAn) registerFunc(f jsFunc) {
	idx := len(an.funcs)
	an.funcs = append(an.funcs, f)
	if f.name != "" {
		if an.funcByName == nil {
			an.funcByName = map[string][]int{}
		}
		an.funcByName[f.name] = append(an.funcByName[f.name], idx)
	}
	for _, p := range f.params {
		if an.paramOf == nil {
			an.paramOf = map[string][]int{}
		}
		an.paramOf[p.name] = append(an.paramOf[p.name], idx)
	}
}

// params reads a parameter list toks[from:to].
func (an *jsAn) params(toks []jsToken, from, to int) []jsParam {
	var out []jsParam
	for _, p := range jsSplitArgs(toks[from:to]) {
		if len(p) == 0 {
			continue
		}
		switch {
		case p[0].kind == jsIdent && len(p) == 1:
			out = append(out, jsParam{name: p[0].text})
		case p[0].kind == jsIdent && len(p) > 2 && p[1].text == "=":
			out = append(out, jsParam{name: p[0].text, def: p[2:]})
		default:
			// ...rest, {a, b}, [a, b]: every name in it, values unknown.
			for k, x := range p {
				if x.kind == jsIdent && (k+1 == len(p) || p[k+1].text != ":") {
					out = append(out, jsParam{name: x.text, hole: true})
				}
			}
		}
	}
	return out
}

// loopVar records for (x of expr) and for (x in expr) at toks[i].
func (an *jsAn) loopVar(toks []jsToken, i int) {
	o := i + 1
	if o < len(toks) && toks[o].text == "await" {
		o++
	}
	if o >= len(toks) || toks[o].text != "(" {
		return
	}
	c := jsMatch(toks, o)
	if c < 0 {
		return
	}
	k := o + 1
	if k < c && (toks[k].text == "var" || toks[k].text == "let" || toks[k].text == "const") {
		k++
	}
	if k+1 >= c {
		return
	}
	switch {
	case toks[k].kind == jsIdent && toks[k+1].text == "of":
		an.defs[toks[k].text] = append(an.defs[toks[k].text], jsDef{at: toks[k].start, idx: k, expr: toks[k+2 : c], elems: true})
	case toks[k].kind == jsIdent && toks[k+1].text == "in":
		an.defs[toks[k].text] = append(an.defs[toks[k].text], jsDef{at: toks[k].start, idx: k, hole: true})
	case toks[k].text == "[" || toks[k].text == "{":
		if m := jsMatch(toks, k); m > 0 && m+1 < c && (toks[m+1].text == "of" || toks[m+1].text == "in") {
			for _, x := range toks[k+1 : m] {
				if x.kind == jsIdent {
					an.defs[x.text] = append(an.defs[x.text], jsDef{at: x.start, idx: k, hole: true})
				}
			}
		}
	}
}

// jsExprEnd finds the end of the expression starting at i: a ; , ) ] }
// at depth zero, a var/let/const, or a line break between two operands
// (automatic semicolon insertion).
func jsExprEnd(toks []jsToken, i int) int {
	for j := i; j < len(toks); j++ {
		t := &toks[j]
		switch t.kind {
		case jsPunct:
			switch t.text {
			case "(", "[", "{":
				if t.aux > 0 && j+int(t.aux) < len(toks) {
					if j > i && t.nl && t.text == "{" && jsOperand(toks[j-1]) {
						return j
					}
					j += int(t.aux)
					continue
				}
				return len(toks)
			case ")", "]", "}", ";", ",":
				return j
			}
		case jsIdent:
			if j > i && (t.text == "var" || t.text == "let" || t.text == "const") {
				return j
			}
			if j > i && t.nl && jsOperand(toks[j-1]) && t.text != "in" && t.text != "of" && t.text != "instanceof" {
				return j
			}
		default:
			if j > i && t.nl && jsOperand(toks[j-1]) {
				return j
			}
		}
	}
	return len(toks)
}

// jsSplitArgs splits a list at its top-level commas.
func jsSplitArgs(ts []jsToken) [][]jsToken {
	if len(ts) == 0 {
		return nil
	}
	var out [][]jsToken
	start := 0
	for j := 0; j < len(ts); j++ {
		if m := jsMatch(ts, j); m > j {
			j = m
			continue
		}
		if ts[j].text == "," && ts[j].kind == jsPunct {
			out = append(out, ts[start:j])
			start = j + 1
		}
	}
	return append(out, ts[start:])
}

// memberAt returns the member names a token ends: .name, or [expr] after an
// operand, folded (several spellings when the key has several values).
// computed: the key is not known. dollar: the receiver is $, the ObjC bridge.
func (an *jsAn) memberAt(toks []jsToken, i int) (names []string, computed, dollar, ok bool) {
	t := toks[i]
	if t.kind == jsIdent && i > 0 && toks[i-1].text == "." {
		return []string{t.text}, false, i > 1 && jsDollarAt(toks, i-2), true
	}
	if t.text != "]" || t.kind != jsPunct {
		return nil, false, false, false
	}
	o := jsMatch(toks, i)
	if o < 1 {
		return nil, false, false, false
	}
	p := toks[o-1]
	if !(p.kind == jsIdent && !jsKeywords[p.text] || p.kind == jsIdent && p.text == "this" || p.text == ")" || p.text == "]" || p.kind == jsString || p.kind == jsTemplate) {
		return nil, false, false, false
	}
	names = an.memberNames(toks[o+1 : i])
	for _, n := range names {
		if n == jsComputed {
			return nil, true, jsDollarAt(toks, o-1), true
		}
	}
	return names, false, jsDollarAt(toks, o-1), true
}

// memberNames folds a member key; jsComputed stands for one not known.
func (an *jsAn) memberNames(key []jsToken) []string {
	if len(key) == 1 && (key[0].kind == jsString || key[0].kind == jsNumber) {
		if key[0].kind == jsNumber {
			return []string{key[0].text}
		}
		return []string{key[0].val}
	}
	v := an.evalExpr(key, 0)
	strs := an.strs(v)
	if !v.lit {
		return []string{jsComputed}
	}
	out := make([]string, 0, len(strs))
	for _, s := range strs {
		if strings.Contains(s, "__AIRLOCK_") {
			return []string{jsComputed}
		}
		out = append(out, s)
	}
	return out
}

func jsDollarAt(toks []jsToken, k int) bool {
	return k >= 0 && toks[k].text == "$" && (k == 0 || toks[k-1].text != ".")
}

// propertySets rates `app.something.property = value` on an application
// object: a change of its state (Caution).
func (an *jsAn) propertySets() {
	toks := an.lx.toks
	apps := map[string]bool{}
	for name, defs := range an.defs {
		for _, d := range defs {
			if len(d.expr) > 0 && d.expr[0].kind == jsIdent && d.expr[0].text == "Application" {
				apps[name] = true
			}
		}
	}
	for i := 0; i+1 < len(toks); i++ {
		if toks[i+1].text != "=" || i+2 < len(toks) && (toks[i+2].text == "=" || toks[i+2].text == ">") || toks[i].kind != jsIdent || i < 2 || toks[i-1].text != "." {
			continue
		}
		if toks[i].text == "includeStandardAdditions" {
			continue
		}
		// Walk back to the root of the chain.
		j := i - 1
		for j > 0 && (toks[j].text == "." || toks[j].kind == jsIdent || toks[j].text == ")" || toks[j].text == "(" || toks[j].text == "]") {
			if toks[j].text == "]" {
				if o := jsMatch(toks, j); o > 0 {
					j = o // windows[0]: over the index
				}
			}
			j--
		}
		for k := j; k < i; k++ {
			if toks[k].kind == jsIdent && (apps[toks[k].text] || toks[k].text == "Application") {
				if jsSecurityProperty(toks[j : i+1]) {
					an.add(effect.Of(effect.SecurityOff), "jxa.security-off", jsSpan(toks[i]), "SECURITY: changes %s of the Mac's security preferences (password on wake, automatic login …)", toks[i].text)
					break
				}
				if strings.EqualFold(toks[i].text, "url") {
					an.add(effect.Of(effect.Egress), "egress.jxa.navigate", jsSpan(toks[i]), "NAVIGATE: sends a browser to a URL (what it carries leaves the Mac)")
					break
				}
				an.add(effect.Of(effect.AppState), "jxa.set-property", jsSpan(toks[i]), "SET: changes %s of an application", toks[i].text)
				break
			}
		}
	}
}

// jsSecurityProperties are System Events' security preferences: changing
// one changes how the Mac is protected (DESIGN.md: security controls).
var jsSecurityProperties = map[string]bool{"securityPreferences": true, "automaticLogin": true,
	"requirePasswordToWake": true, "requirePasswordToUnlock": true, "logOutWhenInactive": true,
	"logOutWhenInactiveInterval": true, "secureVirtualMemory": true}

func jsSecurityProperty(chain []jsToken) bool {
	for _, t := range chain {
		if t.kind == jsIdent && jsSecurityProperties[t.text] {
			return true
		}
	}
	return false
}
