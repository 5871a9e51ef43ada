package jxa

import (
	"encoding/base64"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// Folding: the values strings can have, computed from literals, variables,
// concatenations, templates, array joins and the decoders scripts hide
// text with. What cannot be known is a hole, and fails closed.

// Bounds of constant folding. Past the work budget, and for a variable met
// again while it is being resolved, a value is computed (a hole): the
// analysis fails closed instead of taking exponential time.
const (
	jsWorkBudget  = 50000     // term evaluations per analysis
	jsMaxVariants = 16        // spellings kept of one value
	jsMaxFold     = 8 << 10   // bytes of one folded string
	jsMaxNest     = 48        // nested resolutions of variables
	jsMaxArgBytes = 256 << 10 // text of computed calls' arguments analysed
	jsComputed    = "\x00computed"
)

// jsVal is what the folder knows of a value: string spellings, an array's
// elements, or a global it knows ($.NSString.alloc, atob …).
type jsVal struct {
	strs  []string   // string variants
	elems [][]string // array elements, each with its variants
	arr   bool
	sym   string
	lit   bool // some of the text is known
}

func jsHole() jsVal          { return jsVal{strs: []string{rate.HoleUnquoted}} }
func jsStr(s string) jsVal   { return jsVal{strs: []string{s}, lit: true} }
func jsIsHole(s string) bool { return s == rate.HoleUnquoted }

// strings returns the value's string variants (an array joins with ",").
func (an *jsAn) strs(v jsVal) []string {
	if v.arr {
		return an.join(v.elems, ",")
	}
	if v.sym != "" || len(v.strs) == 0 {
		return []string{rate.HoleUnquoted}
	}
	return v.strs
}

// jsGlobals are the names the folder evaluates when the script does not
// define them.
var jsGlobals = map[string]bool{"$": true, "ObjC": true, "String": true, "Path": true, "atob": true, "unescape": true,
	"decodeURIComponent": true, "decodeURI": true}

// template evaluates a string expression: literals, constant variables,
// string methods and decoders fold; anything else becomes an unquoted hole
// (JavaScript has no quoting). whole: nothing of it is known.
func (an *jsAn) template(expr []jsToken, depth int) ([]string, bool) {
	if len(expr) == 0 {
		return nil, true
	}
	v := an.evalExpr(expr, depth)
	return an.strs(v), !v.lit
}

func (an *jsAn) spend() bool {
	an.work++
	if an.work > jsWorkBudget || !an.env.Bounds().Live() {
		an.exhausted = true
		return false
	}
	return true
}

func jsStripParens(t []jsToken) []jsToken {
	for len(t) > 2 && t[0].text == "(" && jsMatch(t, 0) == len(t)-1 {
		t = t[1 : len(t)-1]
	}
	return t
}

func (an *jsAn) evalExpr(expr []jsToken, depth int) jsVal {
	if len(expr) == 0 || depth > jsMaxNest || !an.spend() {
		return jsHole()
	}
	expr = jsStripParens(expr)
	var plus, ors []int
	q, eq := -1, -1
	for j := 0; j < len(expr); j++ {
		t := expr[j]
		if t.kind != jsPunct {
			continue
		}
		if m := jsMatch(expr, j); m > j {
			j = m
			continue
		}
		switch t.text {
		case "+":
			if !(j+1 < len(expr) && expr[j+1].text == "=" && expr[j+1].start == t.end) {
				plus = append(plus, j)
			}
		case "?":
			switch {
			case j+1 < len(expr) && expr[j+1].text == "?" && expr[j+1].start == t.end:
				ors = append(ors, j)
				j++
			case j+1 < len(expr) && expr[j+1].text == ".":
			case q < 0:
				q = j
			}
		case "|":
			if j+1 < len(expr) && expr[j+1].text == "|" && expr[j+1].start == t.end {
				ors = append(ors, j)
				j++
			}
		case "=":
			prev, next := "", ""
			if j > 0 && expr[j-1].end == t.start {
				prev = expr[j-1].text
			}
			if j+1 < len(expr) && expr[j+1].start == t.end {
				next = expr[j+1].text
			}
			if eq < 0 && q < 0 && next != "=" && next != ">" && !strings.Contains("=<>!+-*/%&|^", prev) {
				eq = j
			}
		}
	}
	switch {
	case eq >= 0:
		return an.evalExpr(expr[eq+1:], depth)
	case q >= 0:
		colon, nest := -1, 0
		for j := q + 1; j < len(expr) && colon < 0; j++ {
			if m := jsMatch(expr, j); m > j {
				j = m
				continue
			}
			switch expr[j].text {
			case "?":
				if !(j+1 < len(expr) && (expr[j+1].text == "." || expr[j+1].text == "?")) {
					nest++
				}
			case ":":
				if nest == 0 {
					colon = j
				}
				nest--
			}
		}
		if colon < 0 {
			return jsHole()
		}
		return an.union(an.evalExpr(expr[q+1:colon], depth), an.evalExpr(expr[colon+1:], depth))
	case len(ors) > 0:
		var out jsVal
		start := 0
		for _, o := range append(ors, len(expr)) {
			out = an.union(out, an.evalExpr(expr[start:o], depth))
			start = o + 2
		}
		return out
	case len(plus) == 0:
		return an.evalTerm(expr, depth)
	}
	out := jsStr("")
	out.lit = false
	start := 0
	for _, p := range append(plus, len(expr)) {
		out = an.concat(out, an.evalTerm(expr[start:p], depth))
		start = p + 1
	}
	return out
}

// jsConcat joins two values' spellings. Past jsMaxVariants combinations
// every spelling of each side still appears once.
func (an *jsAn) concat(a, b jsVal) jsVal {
	as, bs := an.strs(a), an.strs(b)
	out := jsVal{lit: a.lit || b.lit}
	if len(as)*len(bs) <= jsMaxVariants {
		out.strs = make([]string, 0, len(as)*len(bs))
		for _, x := range as {
			for _, y := range bs {
				out.strs = append(out.strs, an.cat(x, y))
			}
		}
		return out
	}
	n := max(len(as), len(bs), jsMaxVariants)
	for k := 0; k < n && k < 4*jsMaxVariants; k++ {
		out.strs = append(out.strs, an.cat(as[k%len(as)], bs[k%len(bs)]))
	}
	return out
}

// jsCat concatenates, keeping the result under jsMaxFold: the cut-off rest
// is a hole.
func (an *jsAn) cat(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	an.work += (len(a) + len(b)) >> 8
	if an.work > jsWorkBudget {
		an.exhausted = true
		if strings.HasSuffix(a, rate.HoleUnquoted) {
			return a
		}
		return a + rate.HoleUnquoted
	}
	if len(a)+len(b) <= jsMaxFold {
		return a + b
	}
	if len(a) >= jsMaxFold {
		return a
	}
	cut := jsMaxFold - len(a)
	for cut > 0 && !utf8.RuneStart(b[cut]) {
		cut--
	}
	return a + b[:cut] + rate.HoleUnquoted
}

// jsUnion is either value. Spellings past jsMaxVariants are replaced by a
// hole: what is not analysed counts as computed.
func (an *jsAn) union(a, b jsVal) jsVal {
	if len(a.strs) == 0 && !a.arr && a.sym == "" {
		return b
	}
	if a.arr && b.arr {
		return b
	}
	out := jsVal{lit: a.lit || b.lit}
	seen := map[string]bool{}
	for _, s := range append(append([]string(nil), an.strs(a)...), an.strs(b)...) {
		if seen[s] {
			continue
		}
		seen[s] = true
		if len(out.strs) == jsMaxVariants-1 {
			out.strs = append(out.strs, rate.HoleUnquoted)
			break
		}
		out.strs = append(out.strs, s)
	}
	return out
}

// jsJoin joins array elements with sep.
func (an *jsAn) join(elems [][]string, sep string) []string {
	out := []string{""}
	for k, e := range elems {
		if len(e) == 0 {
			e = []string{rate.HoleUnquoted}
		}
		var next []string
		if len(out)*len(e) <= jsMaxVariants {
			for _, x := range out {
				for _, y := range e {
					if k > 0 {
						x2 := an.cat(x, sep)
						next = append(next, an.cat(x2, y))
					} else {
						next = append(next, an.cat(x, y))
					}
				}
			}
		} else {
			for m := 0; m < max(len(out), len(e)); m++ {
				x := out[m%len(out)]
				if k > 0 {
					x = an.cat(x, sep)
				}
				next = append(next, an.cat(x, e[m%len(e)]))
			}
		}
		out = next
	}
	return out
}

func (an *jsAn) evalTerm(t []jsToken, depth int) jsVal {
	if len(t) == 0 || !an.spend() {
		return jsHole()
	}
	var v jsVal
	k := 1
	switch t0 := t[0]; {
	case t0.kind == jsString:
		v = jsStr(t0.val)
	case t0.kind == jsTemplate:
		v = an.evalTemplate(t0, depth)
	case t0.kind == jsNumber:
		v = jsStr(t0.text)
	case t0.text == "(":
		m := jsMatch(t, 0)
		if m < 0 {
			return jsHole()
		}
		v = an.evalExpr(t[1:m], depth+1)
		k = m + 1
	case t0.text == "[":
		m := jsMatch(t, 0)
		if m < 0 {
			return jsHole()
		}
		v = an.evalArray(t[1:m], depth)
		k = m + 1
	case t0.kind == jsIdent:
		if jsGlobals[t0.text] && len(an.defs[t0.text]) == 0 {
			v = jsVal{sym: t0.text}
		} else {
			v = an.identValues(t0.text, t0.start, depth)
		}
	default:
		return jsHole()
	}
	for k < len(t) {
		switch {
		case t[k].text == "?" && k+1 < len(t) && t[k+1].text == ".":
			k++
		case t[k].text == "." && k+1 < len(t) && t[k+1].kind == jsIdent:
			name := t[k+1].text
			k += 2
			if k < len(t) && t[k].text == "(" {
				m := jsMatch(t, k)
				if m < 0 {
					return jsHole()
				}
				if v.sym != "" {
					v = an.symCall(v.sym+"."+name, t[k+1:m], depth)
				} else {
					v = an.method(v, name, t[k+1:m], depth)
				}
				k = m + 1
			} else {
				v = jsProp(v, name)
			}
		case t[k].text == "(" && v.sym != "":
			m := jsMatch(t, k)
			if m < 0 {
				return jsHole()
			}
			v = an.symCall(v.sym, t[k+1:m], depth)
			k = m + 1
		case t[k].text == "[":
			m := jsMatch(t, k)
			if m < 0 {
				return jsHole()
			}
			idx := an.evalExpr(t[k+1:m], depth)
			n := -1
			if idx.lit && len(idx.strs) == 1 {
				if x, err := strconv.Atoi(idx.strs[0]); err == nil {
					n = x
				}
			}
			switch {
			case v.arr && n >= 0 && n < len(v.elems):
				v = jsVal{strs: v.elems[n], lit: true}
			case !v.arr && v.sym == "" && n >= 0 && len(v.strs) == 1 && n < len(v.strs[0]) && v.lit:
				v = jsStr(v.strs[0][n : n+1])
			default:
				v = jsHole()
			}
			k = m + 1
		default:
			return jsHole()
		}
	}
	if v.sym != "" {
		return jsHole()
	}
	return v
}

func (an *jsAn) evalTemplate(t jsToken, depth int) jsVal {
	if t.aux <= 0 || int(t.aux) > len(an.lx.tpls) {
		return jsVal{strs: []string{t.val}, lit: t.val != rate.HoleUnquoted}
	}
	tpl := an.lx.tpls[t.aux-1]
	v := jsStr(tpl.parts[0])
	v.lit = tpl.parts[0] != ""
	for k, e := range tpl.exprs {
		v = an.concat(v, an.evalExpr(e, depth+1))
		if k+1 < len(tpl.parts) {
			v = an.concat(v, jsVal{strs: []string{tpl.parts[k+1]}, lit: tpl.parts[k+1] != ""})
		}
	}
	return v
}

// evalArray evaluates the inside of an array literal.
func (an *jsAn) evalArray(inner []jsToken, depth int) jsVal {
	v := jsVal{arr: true, lit: true}
	for _, e := range jsSplitArgs(inner) {
		if len(v.elems) >= 256 {
			v.elems = append(v.elems, []string{rate.HoleUnquoted})
			break
		}
		if len(e) > 3 && e[0].text == "." && e[1].text == "." && e[2].text == "." {
			x := an.evalExpr(e[3:], depth)
			if x.arr {
				v.elems = append(v.elems, x.elems...)
			} else {
				v.elems = append(v.elems, []string{rate.HoleUnquoted})
			}
			continue
		}
		if len(e) == 0 {
			continue
		}
		x := an.evalExpr(e, depth)
		if !x.lit {
			v.elems = append(v.elems, []string{rate.HoleUnquoted})
			continue
		}
		v.elems = append(v.elems, an.strs(x))
	}
	return v
}

// jsProp reads a property: ObjC conversions keep the text.
func jsProp(v jsVal, name string) jsVal {
	if v.sym != "" {
		return jsVal{sym: v.sym + "." + name}
	}
	if v.arr {
		return jsHole()
	}
	switch name {
	case "js", "stringByExpandingTildeInPath", "stringByStandardizingPath", "stringByResolvingSymlinksInPath", "path",
		"absoluteString", "UTF8String", "description", "stringByRemovingPercentEncoding":
		return v
	case "lowercaseString":
		return jsMap(v, strings.ToLower)
	case "uppercaseString":
		return jsMap(v, strings.ToUpper)
	}
	return jsHole()
}

func jsMap(v jsVal, f func(string) string) jsVal {
	out := jsVal{lit: v.lit, strs: make([]string, len(v.strs))}
	for i, s := range v.strs {
		if strings.Contains(s, "__AIRLOCK_") {
			out.strs[i] = s
			continue
		}
		out.strs[i] = f(s)
	}
	return out
}

// jsArgs are the arguments of a call whose value is folded.
type jsArgs struct {
	an    *jsAn
	argv  [][]jsToken
	depth int
}

// str is argument n, when it is one known string.
func (ar jsArgs) str(n int) (string, bool) {
	if n >= len(ar.argv) {
		return "", false
	}
	x := ar.an.evalExpr(ar.argv[n], ar.depth)
	if !x.lit || x.arr || len(x.strs) != 1 || strings.Contains(x.strs[0], "__AIRLOCK_") {
		return "", false
	}
	return x.strs[0], true
}

// num is argument n, when it is one known integer.
func (ar jsArgs) num(n int) (int, bool) {
	s, ok := ar.str(n)
	if !ok {
		return 0, false
	}
	x, err := strconv.Atoi(s)
	return x, err == nil
}

// method calls a string or array method with folded arguments.
func (an *jsAn) method(v jsVal, name string, args []jsToken, depth int) jsVal {
	ar := jsArgs{an: an, argv: jsSplitArgs(args), depth: depth}
	if name == "pathTo" {
		// app.pathTo('home folder'): the receiver does not matter.
		s, ok := ar.str(0)
		if p, known := jsPathTo[strings.ToLower(s)]; ok && known {
			return jsStr(p)
		}
		return jsHole()
	}
	if v.arr {
		return an.arrayMethod(v, name, ar)
	}
	if v.sym != "" || !v.lit {
		return jsHole()
	}
	return an.stringMethod(v, name, ar)
}

// arrayMethod calls an array method: join, reverse, concat, slice.
func (an *jsAn) arrayMethod(v jsVal, name string, ar jsArgs) jsVal {
	switch name {
	case "join":
		sep := ","
		if len(ar.argv) > 0 {
			s, ok := ar.str(0)
			if !ok {
				return jsHole()
			}
			sep = s
		}
		return jsVal{strs: an.join(v.elems, sep), lit: true}
	case "reverse":
		out := jsVal{arr: true, lit: true, elems: make([][]string, len(v.elems))}
		for i, e := range v.elems {
			out.elems[len(v.elems)-1-i] = e
		}
		return out
	case "concat":
		out := jsVal{arr: true, lit: true, elems: append([][]string(nil), v.elems...)}
		for _, a := range ar.argv {
			x := an.evalExpr(a, ar.depth)
			if x.arr {
				out.elems = append(out.elems, x.elems...)
			} else {
				out.elems = append(out.elems, an.strs(x))
			}
		}
		return out
	case "slice":
		a, ok := ar.num(0)
		if !ok && len(ar.argv) > 0 {
			return jsHole()
		}
		b := len(v.elems)
		if len(ar.argv) > 1 {
			if b, ok = ar.num(1); !ok {
				return jsHole()
			}
		}
		a, b = jsRange(a, b, len(v.elems))
		return jsVal{arr: true, lit: true, elems: v.elems[a:b]}
	case "toString":
		return jsVal{strs: an.join(v.elems, ","), lit: true}
	}
	return jsHole()
}

// stringMethod calls a string method (or NSString's appending ones).
func (an *jsAn) stringMethod(v jsVal, name string, ar jsArgs) jsVal {
	switch name {
	case "toString", "valueOf", "js", "normalize":
		return v
	case "trim", "trimStart", "trimEnd":
		return jsMap(v, strings.TrimSpace)
	case "toLowerCase", "toLocaleLowerCase":
		return jsMap(v, strings.ToLower)
	case "toUpperCase", "toLocaleUpperCase":
		return jsMap(v, strings.ToUpper)
	case "concat", "stringByAppendingString":
		for _, a := range ar.argv {
			v = an.concat(v, an.evalExpr(a, ar.depth))
		}
		return v
	case "stringByAppendingPathComponent":
		if len(ar.argv) == 0 {
			return jsHole()
		}
		v = jsMap(v, func(s string) string { return strings.TrimSuffix(s, "/") })
		return an.concat(an.concat(v, jsStr("/")), an.evalExpr(ar.argv[0], ar.depth))
	case "split":
		return jsSplit(v, ar)
	case "replace", "replaceAll":
		return jsReplace(v, name, ar)
	case "slice", "substring", "substr":
		return jsSubstring(v, name, ar)
	case "repeat":
		c, ok := ar.num(0)
		if !ok || c < 0 || c > 64 {
			return jsHole()
		}
		return jsMap(v, func(s string) string {
			if len(s)*c > jsMaxFold {
				return s + rate.HoleUnquoted
			}
			return strings.Repeat(s, c)
		})
	}
	return jsHole()
}

// jsSplit is v.split(sep) for a literal separator: an array of at most
// 256 strings.
func jsSplit(v jsVal, ar jsArgs) jsVal {
	sep, ok := ar.str(0)
	if !ok || len(v.strs) != 1 || strings.Contains(v.strs[0], "__AIRLOCK_") {
		return jsHole()
	}
	parts := strings.Split(v.strs[0], sep)
	if len(parts) > 256 {
		return jsHole()
	}
	out := jsVal{arr: true, lit: true}
	for _, p := range parts {
		out.elems = append(out.elems, []string{p})
	}
	return out
}

// jsReplace is v.replace(from, to) and replaceAll for literal strings (a
// regular expression is computed).
func jsReplace(v jsVal, name string, ar jsArgs) jsVal {
	if len(ar.argv) < 2 || len(ar.argv[0]) != 1 || ar.argv[0][0].kind == jsRegex {
		return jsHole()
	}
	from, ok1 := ar.str(0)
	to, ok2 := ar.str(1)
	if !ok1 || !ok2 {
		return jsHole()
	}
	n := 1
	if name == "replaceAll" {
		n = -1
	}
	return jsMap(v, func(s string) string { return strings.Replace(s, from, to, n) })
}

// jsSubstring is v.slice, substring and substr with literal bounds, as
// JavaScript reads them (negative from the end; substring swaps).
func jsSubstring(v jsVal, name string, ar jsArgs) jsVal {
	if len(v.strs) != 1 || strings.Contains(v.strs[0], "__AIRLOCK_") {
		return jsHole()
	}
	s := v.strs[0]
	a, ok := ar.num(0)
	if !ok {
		return jsHole()
	}
	b := len(s)
	if len(ar.argv) > 1 {
		if b, ok = ar.num(1); !ok {
			return jsHole()
		}
		if name == "substr" {
			b = a + b
		}
	}
	if name == "substring" {
		a, b = max(a, 0), max(b, 0)
		if a > b {
			a, b = b, a
		}
	}
	a, b = jsRange(a, b, len(s))
	return jsStr(s[a:b])
}

func jsRange(a, b, n int) (int, int) {
	if a < 0 {
		a += n
	}
	if b < 0 {
		b += n
	}
	a = min(max(a, 0), n)
	b = min(max(b, 0), n)
	if b < a {
		b = a
	}
	return a, b
}

// jsPathTo: StandardAdditions pathTo(…) of the folders a path is judged by.
var jsPathTo = map[string]string{"home folder": "~", "desktop": "~/Desktop", "desktop folder": "~/Desktop",
	"documents folder": "~/Documents", "downloads folder": "~/Downloads", "library folder": "~/Library",
	"application support": "~/Library/Application Support", "launch agents": "~/Library/LaunchAgents",
	"preferences": "~/Library/Preferences", "temporary items": "/tmp", "startup items": "~/Library/StartupItems"}

// symCall calls a global the folder knows: wrappers that keep their
// argument ($(…), Path(…), NSString and NSURL constructors) and decoders.
func (an *jsAn) symCall(sym string, args []jsToken, depth int) jsVal {
	argv := jsSplitArgs(args)
	first := func() jsVal {
		if len(argv) == 0 {
			return jsHole()
		}
		return an.evalExpr(argv[0], depth+1)
	}
	switch sym {
	case "$", "ObjC.unwrap", "ObjC.wrap", "ObjC.deepUnwrap", "Path", "String", "$.NSString.alloc.initWithUTF8String",
		"$.NSString.alloc.initWithString", "$.NSString.stringWithString", "$.NSString.stringWithUTF8String",
		"$.NSURL.fileURLWithPath", "$.NSURL.URLWithString", "$.NSURL.alloc.initFileURLWithPath", "$.NSURL.alloc.initWithString",
		"$.NSURL.fileURLWithPathIsDirectory", "$.NSMutableString.stringWithString", "$.NSArray.arrayWithArray":
		return first()
	case "$.NSHomeDirectory":
		return jsStr("~")
	case "$.NSTemporaryDirectory":
		return jsStr("/tmp/")
	case "$.getenv":
		x := first()
		if x.lit && len(x.strs) == 1 {
			switch x.strs[0] {
			case "HOME":
				return jsStr("~")
			case "TMPDIR":
				return jsStr("/tmp/")
			}
		}
		return jsHole()
	case "$.NSString.pathWithComponents":
		x := first()
		if !x.arr {
			return jsHole()
		}
		return jsVal{strs: an.join(x.elems, "/"), lit: true}
	case "atob", "unescape", "decodeURIComponent", "decodeURI", "$.NSString.alloc.initWithBase64EncodedStringOptions":
		x := first()
		if !x.lit || x.arr {
			return jsHole()
		}
		out := jsVal{lit: true}
		for _, s := range x.strs {
			d, ok := jsDecode(sym, s)
			if !ok {
				return jsHole()
			}
			out.strs = append(out.strs, d)
		}
		return out
	case "String.fromCharCode", "String.fromCodePoint":
		var b strings.Builder
		for _, a := range argv {
			x := an.evalExpr(a, depth+1)
			if !x.lit || len(x.strs) != 1 {
				return jsHole()
			}
			n, err := strconv.ParseInt(x.strs[0], 0, 32)
			if err != nil || n < 0 || n > utf8.MaxRune {
				return jsHole()
			}
			b.WriteRune(rune(n))
		}
		return jsStr(b.String())
	}
	return jsHole()
}

// jsDecode decodes a literal the way atob, unescape and decodeURIComponent do.
func jsDecode(fn, s string) (string, bool) {
	if strings.Contains(s, "__AIRLOCK_") {
		return "", false
	}
	switch fn {
	case "atob", "$.NSString.alloc.initWithBase64EncodedStringOptions":
		clean := strings.Map(func(r rune) rune {
			if r == ' ' || r == '\n' || r == '\r' || r == '\t' {
				return -1
			}
			return r
		}, s)
		clean = strings.TrimRight(clean, "=")
		b, err := base64.RawStdEncoding.DecodeString(clean)
		if err != nil {
			return "", false
		}
		return string(b), true
	case "unescape":
		var b strings.Builder
		for i := 0; i < len(s); i++ {
			if s[i] == '%' {
				if i+5 < len(s) && s[i+1] == 'u' {
					if n, err := strconv.ParseUint(s[i+2:i+6], 16, 32); err == nil {
						b.WriteRune(rune(n))
						i += 5
						continue
					}
				}
				if i+2 < len(s) {
					if n, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
						b.WriteByte(byte(n))
						i += 2
						continue
					}
				}
			}
			b.WriteByte(s[i])
		}
		return b.String(), true
	}
	d, err := url.PathUnescape(s)
	return d, err == nil
}

// identValues is what a variable may hold at byte offset pos: the values of
// its definitions in scope (a function's parameters: the arguments of its
// calls). A variable met again while it is being resolved stands for the
// values defined before the one being resolved (x = x + 'a'), or none.
func (an *jsAn) identValues(name string, pos int32, depth int) jsVal {
	key := an.scopeOf(name, pos)
	defs := an.defsFor(key)
	limit := len(defs)
	for fi := len(an.frames) - 1; fi >= 0; fi-- {
		if an.frames[fi].key == key {
			limit = an.frames[fi].idx
			top := &an.frames[len(an.frames)-1]
			top.dep = min(top.dep, fi)
			break
		}
	}
	if limit == 0 {
		return jsHole()
	}
	if limit == 1 {
		return an.defValue(key, 0, defs[0], depth)
	}
	vals := make([]jsVal, limit)
	arrays := true
	for idx := 0; idx < limit; idx++ {
		vals[idx] = an.defValue(key, idx, defs[idx], depth)
		arrays = arrays && vals[idx].arr
	}
	if arrays {
		return vals[limit-1]
	}
	var out jsVal
	for idx := limit - 1; idx >= 0; idx-- {
		out = an.union(out, vals[idx])
	}
	return out
}

func (an *jsAn) defValue(key jsKey, idx int, d jsDef, depth int) jsVal {
	mk := jsMemoKey{key, idx}
	if v, ok := an.memo[mk]; ok {
		return v
	}
	pos := len(an.frames)
	an.frames = append(an.frames, jsFrame{key: key, idx: idx, dep: pos})
	var v jsVal
	switch {
	case d.hole:
		v = jsHole()
	case d.self:
		v = an.identValues(key.name, d.at, depth+1)
	case d.elems:
		x := an.evalExpr(d.expr, depth+1)
		if x.arr && len(x.elems) > 0 {
			for _, e := range x.elems {
				v = an.union(v, jsVal{strs: e, lit: true})
			}
		} else {
			v = jsHole()
		}
	default:
		v = an.evalExpr(d.expr, depth+1)
	}
	for _, p := range d.plus {
		v = an.concat(v, an.evalExpr(p, depth+1))
	}
	if len(d.push) > 0 && v.arr {
		v.elems = append([][]string(nil), v.elems...)
		for _, p := range d.push {
			for _, e := range jsSplitArgs(p) {
				x := an.evalExpr(e, depth+1)
				if !x.lit {
					v.elems = append(v.elems, []string{rate.HoleUnquoted})
				} else {
					v.elems = append(v.elems, an.strs(x))
				}
			}
		}
	}
	f := an.frames[pos]
	an.frames = an.frames[:pos]
	if pos > 0 && f.dep < an.frames[pos-1].dep {
		an.frames[pos-1].dep = f.dep
	}
	if f.dep >= pos {
		if an.memo == nil {
			an.memo = map[jsMemoKey]jsVal{}
		}
		an.memo[mk] = v
	}
	return v
}

// scopeOf: the innermost function around pos with a parameter of that name.
func (an *jsAn) scopeOf(name string, pos int32) jsKey {
	best := -1
	for _, fi := range an.paramOf[name] {
		f := &an.funcs[fi]
		if pos >= f.start && pos < f.end && (best < 0 || f.start >= an.funcs[best].start) {
			best = fi
		}
	}
	return jsKey{fn: int32(best), name: name}
}

func (an *jsAn) defsFor(key jsKey) []jsDef {
	if len(an.paramOf[key.name]) == 0 {
		return an.defs[key.name]
	}
	if ds, ok := an.keyDefs[key]; ok {
		return ds
	}
	var ds []jsDef
	if key.fn >= 0 {
		ds = an.paramValues(int(key.fn), key.name)
	}
	for _, d := range an.defs[key.name] {
		if an.scopeOf(key.name, d.at) == key {
			ds = append(ds, d)
		}
	}
	if an.keyDefs == nil {
		an.keyDefs = map[jsKey][]jsDef{}
	}
	an.keyDefs[key] = ds
	return ds
}

// paramValues: the values a parameter receives — its default, the
// arguments of the calls of its function, and a hole when the function is
// called from where the analyzer cannot see.
func (an *jsAn) paramValues(fn int, name string) []jsDef {
	f := &an.funcs[fn]
	pi := -1
	for k, p := range f.params {
		if p.name == name {
			pi = k
		}
	}
	if pi < 0 {
		return []jsDef{{hole: true}}
	}
	p := f.params[pi]
	var out []jsDef
	hole := p.hole || f.name == "" || f.entry
	if f.name == "" && pi == 0 && !p.hole {
		// [a, b].forEach(function (x) {…}): x is an element.
		if recv := an.callbackOf(f.head); recv != nil {
			out = append(out, jsDef{at: recv[0].start, expr: recv, elems: true})
			hole = false
		}
	}
	if p.def != nil {
		out = append(out, jsDef{at: p.def[0].start, expr: p.def})
	}
	if f.name != "" {
		sites := an.callSites(f.name)
		if len(sites) == 0 {
			hole = true
		}
		for _, s := range sites {
			if s.escaped {
				hole = true
				continue
			}
			if pi < len(s.args) && len(s.args[pi]) > 0 {
				a := s.args[pi]
				if len(a) > 0 && a[0].text == "." {
					hole = true // ...spread
					continue
				}
				out = append(out, jsDef{at: a[0].start, expr: a})
			} else if p.def == nil {
				hole = true
			}
		}
	}
	if hole {
		out = append(out, jsDef{hole: true})
	}
	return out
}

// callbackOf returns the receiver when the function expression starting
// at toks[head] is the callback of forEach, map and the like.
func (an *jsAn) callbackOf(head int) []jsToken {
	toks := an.lx.toks
	if head < 4 || toks[head-1].text != "(" || toks[head-3].text != "." {
		return nil
	}
	switch toks[head-2].text {
	case "forEach", "map", "filter", "some", "every", "find", "findIndex", "flatMap", "findLast", "findLastIndex":
	default:
		return nil
	}
	s := jsChainStart(toks, head-4)
	if s > head-4 {
		return nil
	}
	return toks[s : head-3]
}

// callSites lists the calls of functions by name: their arguments, or
// escaped when the function is passed around instead of called.
func (an *jsAn) callSites(name string) []jsSite {
	if an.sites == nil {
		an.sites = map[string][]jsSite{}
		named := map[string]bool{}
		decls := map[int]bool{}
		for _, f := range an.funcs {
			if f.name != "" {
				named[f.name] = true
				decls[f.decl] = true
			}
		}
		toks := an.lx.toks
		for i, t := range toks {
			if t.kind != jsIdent || !named[t.text] || decls[i] || i > 0 && (toks[i-1].text == "." || toks[i-1].text == "function") {
				continue
			}
			s := jsSite{escaped: true}
			switch {
			case i+1 < len(toks) && toks[i+1].text == "(":
				if c := jsMatch(toks, i+1); c > 0 {
					s = jsSite{args: jsSplitArgs(toks[i+2 : c])}
				}
			case i+3 < len(toks) && toks[i+1].text == "." && toks[i+2].text == "call" && toks[i+3].text == "(":
				if c := jsMatch(toks, i+3); c > 0 {
					if args := jsSplitArgs(toks[i+4 : c]); len(args) > 0 {
						s = jsSite{args: args[1:]}
					}
				}
			}
			an.sites[t.text] = append(an.sites[t.text], s)
			an.work += 1
		}
	}
	return an.sites[name]
}
