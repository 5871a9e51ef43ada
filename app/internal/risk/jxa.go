package risk

import (
	"context"
	"encoding/base64"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// JXA rates JavaScript for Automation. It finds what the script calls —
// however it is spelled: `app.doShellScript(…)`, `app['do'+'ShellScript']`,
// `var f = app.doShellScript; f(…)`, `Reflect.get(app, …)`, `.call`,
// `.apply`, unicode escapes in names — and rates it by the same rules as
// AppleScript: shell commands parsed, code evaluated from strings analysed
// or, when computed, Destructive.
func JXA(src string, env *Env) Verdict {
	env, end := begin(env, context.Background())
	v := jxaAt(src, env, 0)
	end(&v)
	v.Sort()
	return v
}

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

type jsKind uint8

const (
	jsIdent jsKind = iota
	jsString
	jsTemplate // `…${…}…`: val holds the text with holes
	jsNumber
	jsPunct
	jsRegex
)

type jsToken struct {
	kind       jsKind
	nl         bool // a line break comes before the token
	start, end int32
	// aux: for a bracket, the offset to its matching bracket (0 when it has
	// none); for a template with ${…}, 1 + its index in jsLex.tpls.
	aux  int32
	text string // identifiers (escapes decoded) and punctuators
	val  string // strings: decoded value
}

// jsTpl is a template literal's text and the tokens of its ${…}.
type jsTpl struct {
	parts []string // len(exprs)+1 pieces of text
	exprs [][]jsToken
}

type jsLex struct {
	toks         []jsToken
	subs         []Span // ${…} expressions inside templates, analysed on their own
	tpls         []jsTpl
	unterminated string
	unbalanced   bool
	tooDeep      bool // templates nested past jsMaxTemplateNest
	tooMany      bool // more than jsMaxTokens tokens: the rest were dropped
}

// jsMaxTokens bounds the tokens of one script: each costs the analysis
// hundreds of bytes, and a script of one-character tokens (!!!!…, -----…)
// inside the text budget would otherwise cost hundreds of MB. No script a
// person would approve comes near it.
const jsMaxTokens = 1 << 18

// jsOpen is an open bracket. regex: after its closer an operand is due, so
// a / starts a regular expression (the ) of `if (…)`, the } of a block).
type jsOpen struct {
	at    int
	regex bool
}

type jsLexer struct {
	lx      *jsLex
	src     string
	toks    []jsToken
	open    []jsOpen
	braces  int  // open { among open
	closeRe bool // the last closing bracket was one after which a / is a regex
	nl      bool
	nest    int // templates this lexer is inside
}

// jsMaxTemplateNest bounds templates nested in templates' ${…}.
const jsMaxTemplateNest = 32

func lexJS(src string) *jsLex {
	lx := &jsLex{}
	l := &jsLexer{lx: lx, src: src, toks: make([]jsToken, 0, min(len(src)/4+8, jsMaxTokens))}
	l.run(0, false)
	l.finish()
	lx.toks = l.toks
	return lx
}

func (l *jsLexer) finish() {
	if len(l.open) > 0 {
		l.lx.unbalanced = true
	}
}

func (l *jsLexer) emit(t jsToken) {
	t.nl = l.nl
	l.nl = false
	if len(l.toks) >= jsMaxTokens {
		l.lx.tooMany = true
		return
	}
	l.toks = append(l.toks, t)
}

// run lexes src from i. Inside a template's ${…} (sub) it stops after the
// } that closes it, and reports whether it found it.
func (l *jsLexer) run(i int, sub bool) (int, bool) {
	src := l.src
	n := len(src)
	for i < n {
		c := src[i]
		switch {
		case c == '\n' || c == '\r':
			l.nl = true
			i++
		case c == ' ' || c == '\t' || c == '\f' || c == '\v':
			i++
		case c == '/' && i+1 < n && src[i+1] == '/':
			// A line comment ends at any JavaScript line terminator,
			// U+2028 and U+2029 included.
			for i < n && src[i] != '\n' && src[i] != '\r' && !strings.HasPrefix(src[i:], "\u2028") && !strings.HasPrefix(src[i:], "\u2029") {
				i++
			}
		case c == '/' && i+1 < n && src[i+1] == '*':
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				l.lx.unterminated = "comment"
				i = n
			} else {
				if strings.ContainsAny(src[i:i+j+2], "\n\r\u2028\u2029") {
					l.nl = true
				}
				i += j + 4
			}
		case c == '\'' || c == '"':
			j, val, ok := jsStringAt(src, i)
			if !ok {
				l.lx.unterminated = "string"
			}
			l.emit(jsToken{kind: jsString, start: int32(i), end: int32(j), val: val})
			i = j
		case c == '`':
			i = l.template(i)
		case c == '/' && l.regexAllowed():
			if j, ok := jsRegexEnd(src, i); ok {
				l.emit(jsToken{kind: jsRegex, start: int32(i), end: int32(j)})
				i = j
			} else {
				// No closing / on the line: not a regex after all.
				l.punct(i, 1)
				i++
			}
		case c >= '0' && c <= '9':
			j := i + 1
			for j < n && (rate.IsWordByte(src[j]) || src[j] == '.') {
				j++
			}
			l.emit(jsToken{kind: jsNumber, start: int32(i), end: int32(j), text: src[i:j]})
			i = j
		case rate.IsWordByte(c) || c == '$' || c == '\\' || c >= 0x80:
			j, name := jsIdentAt(src, i)
			if j == i {
				r, size := utf8.DecodeRuneInString(src[i:])
				switch {
				case r == 0x2028 || r == 0x2029:
					l.nl = true
				case jsSpace(r):
				default:
					l.punct(i, size)
				}
				i += size
				continue
			}
			l.emit(jsToken{kind: jsIdent, start: int32(i), end: int32(j), text: name})
			i = j
		default:
			if sub && c == '}' && l.braces == 0 {
				return i + 1, true
			}
			l.punct(i, 1)
			i++
		}
	}
	return n, false
}

// jsSpace: the Unicode blanks JavaScript skips like a space.
func jsSpace(r rune) bool {
	switch {
	case r == 0xa0, r == 0x1680, r >= 0x2000 && r <= 0x200a, r == 0x202f, r == 0x205f, r == 0x3000, r == 0xfeff:
		return true
	}
	return false
}

var jsCloser = map[string]string{")": "(", "]": "[", "}": "{"}

func (l *jsLexer) punct(i, size int) {
	t := jsToken{kind: jsPunct, start: int32(i), end: int32(i + size), text: l.src[i : i+size]}
	idx := len(l.toks)
	switch t.text {
	case "(":
		l.open = append(l.open, jsOpen{at: idx, regex: l.controlHead()})
	case "[":
		l.open = append(l.open, jsOpen{at: idx})
	case "{":
		l.open = append(l.open, jsOpen{at: idx, regex: l.blockBrace()})
		l.braces++
	case ")", "]", "}":
		want := jsCloser[t.text]
		l.closeRe = false
		matched := false
		for k := len(l.open) - 1; k >= 0; k-- {
			o := l.open[k]
			if l.toks[o.at].text != want {
				continue
			}
			if k != len(l.open)-1 {
				l.lx.unbalanced = true
			}
			for _, p := range l.open[k:] {
				if l.toks[p.at].text == "{" {
					l.braces--
				}
			}
			off := int32(idx - o.at)
			l.toks[o.at].aux = off
			t.aux = -off
			l.closeRe = o.regex
			l.open = l.open[:k]
			matched = true
			break
		}
		if !matched {
			l.lx.unbalanced = true
		}
	}
	l.emit(t)
}

// controlHead: the ( about to open follows if, while, for or with, whose
// ) is followed by a statement (where a / starts a regex).
func (l *jsLexer) controlHead() bool {
	n := len(l.toks)
	if n == 0 || l.toks[n-1].kind != jsIdent {
		return false
	}
	switch l.toks[n-1].text {
	case "if", "while", "for", "with":
		return true
	case "await":
		return n > 1 && l.toks[n-2].text == "for"
	}
	return false
}

// blockBrace: the { about to open starts a block (a statement follows its
// }), not an object literal.
func (l *jsLexer) blockBrace() bool {
	n := len(l.toks)
	if n == 0 {
		return true
	}
	t := l.toks[n-1]
	switch t.kind {
	case jsIdent:
		switch t.text {
		case "return", "typeof", "case", "in", "of", "void", "delete", "new", "instanceof", "throw", "yield", "await":
			return false
		}
		return true // else, do, try, finally, class X, default
	case jsPunct:
		switch t.text {
		case ")":
			// The body of a function expression ends an operand: after
			// it a / divides. A declaration's body is a statement.
			o := n - 1 + int(t.aux)
			if t.aux >= 0 || o < 1 {
				return true
			}
			k := o - 1
			if l.toks[k].kind == jsIdent && l.toks[k].text != "function" && k > 0 && l.toks[k-1].text == "function" {
				k--
			}
			if l.toks[k].text != "function" {
				return true
			}
			for k > 0 && (l.toks[k-1].text == "async" || l.toks[k-1].text == "export" || l.toks[k-1].text == "default") {
				k--
			}
			if k == 0 {
				return true
			}
			switch l.toks[k-1].text {
			case ";", "{", "}", ")":
				return true
			}
			return l.toks[k].nl && jsOperand(l.toks[k-1])
		case ";", "{", "}":
			return true
		case ">":
			return n > 1 && l.toks[n-2].text == "=" && l.toks[n-2].end == t.start // =>
		case ":":
			// A label's block or a case's, or an object's value.
			if n < 3 {
				return true
			}
			before := l.toks[n-3]
			switch {
			case l.toks[n-2].kind == jsIdent && l.toks[n-2].text == "default":
				return true
			case before.kind == jsIdent && before.text == "case":
				return true
			case before.text == ",", before.text == "?":
				return false
			case before.text == "{":
				for k := len(l.open) - 1; k >= 0; k-- {
					if l.open[k].at == n-3 {
						return l.open[k].regex
					}
				}
				return false
			}
			return true
		}
	}
	return false
}

// jsRegexKeywords are the words after which an operand is due.
var jsRegexKeywords = map[string]bool{"return": true, "typeof": true, "case": true, "in": true, "of": true, "void": true,
	"delete": true, "new": true, "instanceof": true, "do": true, "else": true, "throw": true, "yield": true, "await": true}

// regexAllowed: a / starts a regular expression where an operand is due.
func (l *jsLexer) regexAllowed() bool {
	n := len(l.toks)
	if n == 0 {
		return true
	}
	t := l.toks[n-1]
	switch t.kind {
	case jsIdent:
		return jsRegexKeywords[t.text]
	case jsNumber, jsString, jsTemplate, jsRegex:
		return false
	}
	switch t.text {
	case ")", "]", "}":
		return l.closeRe
	case "+", "-":
		// a++ / 2 divides.
		if n >= 3 && l.toks[n-2].text == t.text && l.toks[n-2].end == t.start {
			p := l.toks[n-3]
			if p.kind == jsIdent && !jsRegexKeywords[p.text] || p.kind == jsNumber || p.text == ")" || p.text == "]" {
				return false
			}
		}
	}
	return true
}

// jsRegexEnd finds the end of the regular expression literal at src[i]
// ('/'), flags included; false when it does not close on its line.
func jsRegexEnd(src string, i int) (int, bool) {
	j := i + 1
	inClass := false
	for j < len(src) && src[j] != '\n' && src[j] != '\r' {
		switch src[j] {
		case '\\':
			if j+1 < len(src) && (src[j+1] == '\n' || src[j+1] == '\r') {
				return i, false // a line break cannot be escaped in a regex
			}
			j += 2
			continue
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '/':
			if !inClass {
				j++
				for j < len(src) && rate.IsWordByte(src[j]) {
					j++
				}
				return j, true
			}
		}
		j++
	}
	return i, false
}

// jsIdentAt reads an identifier, decoding \uXXXX and \u{…} escapes: in
// JavaScript `doShell\u0053cript` is doShellScript.
func jsIdentAt(src string, i int) (int, string) {
	j := i
	for j < len(src) && (rate.IsWordByte(src[j]) || src[j] == '$') {
		j++
	}
	if j == len(src) || src[j] != '\\' && src[j] < 0x80 {
		return j, src[i:j]
	}
	var b strings.Builder
	b.WriteString(src[i:j])
	for j < len(src) {
		c := src[j]
		switch {
		case rate.IsWordByte(c) || c == '$':
			b.WriteByte(c)
			j++
		case c == '\\' && j+1 < len(src) && src[j+1] == 'u':
			r, k, ok := jsUnicodeEscape(src, j+2)
			if !ok {
				return j, b.String()
			}
			b.WriteRune(r)
			j = k
		case c >= 0x80:
			r, size := utf8.DecodeRuneInString(src[j:])
			if !rate.IsUnicodeLetter(r) {
				return j, b.String()
			}
			b.WriteRune(r)
			j += size
		default:
			return j, b.String()
		}
	}
	return j, b.String()
}

func jsUnicodeEscape(src string, k int) (rune, int, bool) {
	if k < len(src) && src[k] == '{' {
		end := strings.IndexByte(src[k:], '}')
		if end < 0 {
			return 0, k, false
		}
		n, err := strconv.ParseUint(src[k+1:k+end], 16, 32)
		if err != nil {
			return 0, k, false
		}
		return rune(n), k + end + 1, true
	}
	if k+4 > len(src) {
		return 0, k, false
	}
	n, err := strconv.ParseUint(src[k:k+4], 16, 32)
	if err != nil {
		return 0, k, false
	}
	return rune(n), k + 4, true
}

// jsStringAt reads a quoted string literal and decodes its escapes.
func jsStringAt(src string, i int) (int, string, bool) {
	q := src[i]
	j := i + 1
	for j < len(src) && src[j] != q && src[j] != '\\' && src[j] != '\n' {
		j++
	}
	if j < len(src) && src[j] == q {
		return j + 1, src[i+1 : j], true
	}
	var b strings.Builder
	b.WriteString(src[i+1 : j])
	for j < len(src) {
		c := src[j]
		if c == q {
			return j + 1, b.String(), true
		}
		if c == '\n' {
			return j, b.String(), false
		}
		if c == '\\' && j+1 < len(src) {
			j = jsEscape(src, j, &b)
			continue
		}
		b.WriteByte(c)
		j++
	}
	return j, b.String(), false
}

// jsEscape decodes the escape at src[j] ('\\') into b.
func jsEscape(src string, j int, b *strings.Builder) int {
	e := src[j+1]
	switch e {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'v':
		b.WriteByte('\v')
	case '0':
		b.WriteByte(0)
	case '\n':
	case 'x':
		if j+4 <= len(src) {
			if n, err := strconv.ParseUint(src[j+2:j+4], 16, 8); err == nil {
				b.WriteByte(byte(n))
				return j + 4
			}
		}
		b.WriteByte('x')
	case 'u':
		if r, k, ok := jsUnicodeEscape(src, j+2); ok {
			b.WriteRune(r)
			return k
		}
		b.WriteByte('u')
	default:
		b.WriteByte(e)
	}
	return j + 2
}

// template reads a template literal. Each ${…} is lexed as JavaScript (so
// a } inside a string in it does not end it); it becomes a hole in the
// token's value and is recorded for folding and for separate analysis.
func (l *jsLexer) template(i int) int {
	src := l.src
	var b strings.Builder
	var tpl jsTpl
	j := i + 1
	for j < len(src) {
		c := src[j]
		switch {
		case c == '`':
			tpl.parts = append(tpl.parts, b.String())
			l.emitTemplate(i, j+1, tpl)
			return j + 1
		case c == '\\' && j+1 < len(src):
			j = jsEscape(src, j, &b)
		case c == '$' && j+1 < len(src) && src[j+1] == '{':
			if l.nest >= jsMaxTemplateNest {
				l.lx.tooDeep = true
				l.emitTemplate(i, len(src), tpl)
				return len(src)
			}
			tpl.parts = append(tpl.parts, b.String())
			b.Reset()
			sub := &jsLexer{lx: l.lx, src: src, nest: l.nest + 1}
			k, closed := sub.run(j+2, true)
			sub.finish()
			tpl.exprs = append(tpl.exprs, sub.toks)
			if !closed {
				l.lx.unterminated = "template literal"
				if l.nest == 0 {
					l.lx.subs = append(l.lx.subs, Span{Start: min(j+2, len(src)), End: len(src)})
				}
				tpl.parts = append(tpl.parts, "")
				l.emitTemplate(i, len(src), tpl)
				return len(src)
			}
			if l.nest == 0 {
				// Nested ${…} are analysed with the one around them.
				l.lx.subs = append(l.lx.subs, Span{Start: j + 2, End: k - 1})
			}
			j = k
		default:
			b.WriteByte(c)
			j++
		}
	}
	l.lx.unterminated = "template literal"
	tpl.parts = append(tpl.parts, b.String())
	l.emitTemplate(i, len(src), tpl)
	return len(src)
}

func (l *jsLexer) emitTemplate(start, end int, tpl jsTpl) {
	t := jsToken{kind: jsTemplate, start: int32(start), end: int32(end), val: strings.Join(tpl.parts, rate.HoleUnquoted)}
	if len(tpl.exprs) > 0 {
		l.lx.tpls = append(l.lx.tpls, tpl)
		t.aux = int32(len(l.lx.tpls))
	}
	l.emit(t)
}

// match returns the index of the bracket matching toks[i], or -1.
func jsMatch(toks []jsToken, i int) int {
	if i < 0 || i >= len(toks) || toks[i].kind != jsPunct || toks[i].aux == 0 {
		return -1
	}
	j := i + int(toks[i].aux)
	if j < 0 || j >= len(toks) {
		return -1
	}
	return j
}

// jsDef is one value a variable is given.
type jsDef struct {
	at    int32       // byte offset of the name
	idx   int         // token index of the name
	expr  []jsToken   // the value
	plus  [][]jsToken // text appended by x += … in straight-line code after it
	push  [][]jsToken // elements appended by x.push(…)
	self  bool        // x += … in a loop or branch: any value before, then plus
	elems bool        // for (x of expr): an element of expr
	hole  bool        // a value the analyzer cannot know
}

type jsParam struct {
	name string
	def  []jsToken // default value
	hole bool      // a rest parameter or a destructuring pattern
}

// jsFunc is a function (declaration, expression, arrow, method, catch
// clause): its parameters hide variables of the same name in its body.
type jsFunc struct {
	name       string // what calls it, "" when unknown
	params     []jsParam
	start, end int32 // byte range of the body
	from, to   int   // token range of the body
	decl       int   // token index of the name that is not a call (-1)
	head       int   // token index where a function expression starts (-1)
	entry      bool  // run(argv): called from outside the script
}

type jsKey struct {
	fn   int32 // function whose parameter it is, -1 for other variables
	name string
}

type jsFrame struct {
	key jsKey
	idx int // the definition being resolved
	dep int // the lowest frame whose state the result depends on
}

type jsMemoKey struct {
	key jsKey
	idx int
}

type jsSite struct {
	args    [][]jsToken
	escaped bool // the function is used other than by a plain call
}

type jsLoop struct {
	span     Span
	from, to int
}

type jsAn struct {
	terminal    bool     // the script drives a terminal: typed text runs
	loops       []jsLoop // loop bodies (and functions they call)
	src         string
	lx          *jsLex
	v           *Verdict
	env         *Env
	depth       int
	defs        map[string][]jsDef // every value assigned to a name
	alias       map[string]string  // var f = app.doShellScript: f stands for doShellScript
	funcs       []jsFunc
	funcByName  map[string][]int
	looped      map[int]bool     // functions whose bodies are loop bodies
	paramOf     map[string][]int // parameter name → functions that have it
	keyDefs     map[jsKey][]jsDef
	sites       map[string][]jsSite
	patternKeys map[int]bool // keys of destructuring patterns: not references
	frames      []jsFrame
	memo        map[jsMemoKey]jsVal
	work        int
	exhausted   bool
	with        bool // sloppy-mode with: bare names may be methods
	hasNSTask   bool
	nstaskAt    Span
	userTask    bool
	argsSeen    map[string]bool // arguments of computed calls analysed
	argBytes    int
	arrowEnds   map[int]int // arrowEnd, remembered
}

func jxaAt(src string, env *Env, depth int) Verdict {
	var v Verdict
	if rule, why, ok := env.Bounds().Enter(src, depth, "scripts"); !ok {
		if rule != "" {
			v.Add(level.Destructive, "jxa."+rule, Span{}, "%s", why)
		}
		return v
	}
	if rate.Nesting(src, false) > rate.MaxNesting {
		v.Add(level.Destructive, "jxa.too-deep", Span{}, "brackets nested more than %d deep: %s", rate.MaxNesting, rate.TooDeep)
		return v
	}
	if !utf8.ValidString(src) {
		v.Add(level.Dangerous, "jxa.invalid-utf8", Span{}, "script is not valid UTF-8: not fully analysed")
	}
	lx := lexJS(src)
	if lx.tooMany {
		v.Add(level.Destructive, "jxa.too-much", Span{}, "more than %d tokens: %s", jsMaxTokens, "too much to analyse")
		return v
	}
	an := &jsAn{src: src, lx: lx, v: &v, env: env, depth: depth, defs: map[string][]jsDef{}, alias: map[string]string{}}
	if lx.tooDeep {
		an.add(level.Destructive, "jxa.too-deep", Span{}, "template literals nested more than %d deep: not analysed", jsMaxTemplateNest)
	}
	if lx.unterminated != "" {
		an.add(level.Dangerous, "jxa.unterminated", Span{}, "unterminated %s: the script cannot be analysed reliably", lx.unterminated)
	} else if lx.unbalanced {
		an.add(level.Dangerous, "jxa.unbalanced", Span{}, "unbalanced brackets: the script cannot be analysed reliably")
	}
	an.collect()
	an.findLoops()
	an.scan()
	an.propertySets()
	an.unknownApps()
	an.literals()
	an.guard()
	if an.hasNSTask {
		an.nstask()
	}
	if an.exhausted {
		an.add(level.Dangerous, "jxa.fold-budget", Span{}, "string expressions too large or self-referencing to fold: parts are treated as computed at run time")
	}
	for _, sp := range lx.subs {
		inner := jxaAt(src[sp.Start:sp.End], env, depth+1)
		at := sp
		v.Merge(inner, &at)
	}
	return v
}

func (an *jsAn) add(l level.Level, rule string, sp Span, format string, args ...any) {
	an.v.Add(l, rule, sp, format, args...)
}

func jsSpan(t jsToken) Span { return Span{Start: int(t.start), End: int(t.end)} }

func jsSpanOf(ts []jsToken) Span {
	if len(ts) == 0 {
		return Span{}
	}
	return Span{Start: int(ts[0].start), End: int(ts[len(ts)-1].end)}
}

// jsKeywords cannot name a function or a variable.
var jsKeywords = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true, "function": true,
	"with": true, "return": true, "typeof": true, "var": true, "let": true, "const": true, "new": true, "delete": true,
	"void": true, "in": true, "of": true, "instanceof": true, "do": true, "else": true, "case": true, "throw": true,
	"yield": true, "await": true, "class": true, "try": true, "finally": true, "default": true, "this": true, "super": true}

// collect records definitions (x = expr, x += expr, for (x of …),
// destructuring), functions and their parameters, and aliases of methods.
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
		if _, ok := jsMembers[m]; ok && (dollar || !jsDollarOnly[m]) {
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
			if _, ok := jsMembers[key]; ok {
				an.alias[toks[k+2].text] = key
				an.markPatternKey(k)
				an.markPatternKey(k + 2)
			}
			continue
		}
		if t.kind != jsIdent || next != "," && next != "}" && next != "]" && next != "=" && k+1 != close {
			continue
		}
		if _, ok := jsMembers[t.text]; ok && obj && toks[k-1].text != ":" {
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
		for j > 0 && (toks[j].text == "." || toks[j].kind == jsIdent || toks[j].text == ")" || toks[j].text == "(") {
			j--
		}
		for k := j; k < i; k++ {
			if toks[k].kind == jsIdent && (apps[toks[k].text] || toks[k].text == "Application") {
				an.add(level.Caution, "jxa.set-property", jsSpan(toks[i]), "SET: changes %s of an application", toks[i].text)
				break
			}
		}
	}
}

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

// method calls a string or array method with folded arguments.
func (an *jsAn) method(v jsVal, name string, args []jsToken, depth int) jsVal {
	argv := jsSplitArgs(args)
	arg := func(n int) (string, bool) {
		if n >= len(argv) {
			return "", false
		}
		x := an.evalExpr(argv[n], depth)
		if !x.lit || x.arr || len(x.strs) != 1 || strings.Contains(x.strs[0], "__AIRLOCK_") {
			return "", false
		}
		return x.strs[0], true
	}
	num := func(n int) (int, bool) {
		s, ok := arg(n)
		if !ok {
			return 0, false
		}
		x, err := strconv.Atoi(s)
		return x, err == nil
	}
	if name == "pathTo" {
		// app.pathTo('home folder'): the receiver does not matter.
		s, ok := arg(0)
		if p, known := jsPathTo[strings.ToLower(s)]; ok && known {
			return jsStr(p)
		}
		return jsHole()
	}
	if v.arr {
		switch name {
		case "join":
			sep := ","
			if len(argv) > 0 {
				s, ok := arg(0)
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
			for _, a := range argv {
				x := an.evalExpr(a, depth)
				if x.arr {
					out.elems = append(out.elems, x.elems...)
				} else {
					out.elems = append(out.elems, an.strs(x))
				}
			}
			return out
		case "slice":
			a, ok := num(0)
			if !ok && len(argv) > 0 {
				return jsHole()
			}
			b := len(v.elems)
			if len(argv) > 1 {
				if b, ok = num(1); !ok {
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
	if v.sym != "" || !v.lit {
		return jsHole()
	}
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
		for _, a := range argv {
			v = an.concat(v, an.evalExpr(a, depth))
		}
		return v
	case "stringByAppendingPathComponent":
		if len(argv) == 0 {
			return jsHole()
		}
		v = jsMap(v, func(s string) string { return strings.TrimSuffix(s, "/") })
		return an.concat(an.concat(v, jsStr("/")), an.evalExpr(argv[0], depth))
	case "split":
		sep, ok := arg(0)
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
	case "replace", "replaceAll":
		if len(argv) < 2 || len(argv[0]) != 1 || argv[0][0].kind == jsRegex {
			return jsHole()
		}
		from, ok1 := arg(0)
		to, ok2 := arg(1)
		if !ok1 || !ok2 {
			return jsHole()
		}
		n := 1
		if name == "replaceAll" {
			n = -1
		}
		return jsMap(v, func(s string) string { return strings.Replace(s, from, to, n) })
	case "slice", "substring", "substr":
		if len(v.strs) != 1 || strings.Contains(v.strs[0], "__AIRLOCK_") {
			return jsHole()
		}
		s := v.strs[0]
		a, ok := num(0)
		if !ok {
			return jsHole()
		}
		b := len(s)
		if len(argv) > 1 {
			if b, ok = num(1); !ok {
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
	case "repeat":
		c, ok := num(0)
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

// jsMembers are the methods (and objects) the analyzer rates, with what a
// reference to one that is not followed to its call implies: a method
// handed around can be called anywhere. Variables holding any of them are
// followed (var f = app.empty; f()).
var jsMembers = map[string]level.Level{
	"doShellScript": level.Destructive, "eval": level.Destructive, "Function": level.Destructive, "runScript": level.Destructive,
	"system": level.Destructive, "popen": level.Destructive, "execv": level.Destructive, "execve": level.Destructive,
	"execvp": level.Destructive, "execl": level.Destructive, "execlp": level.Destructive, "posix_spawn": level.Destructive,
	"unlink": level.Destructive, "remove": level.Destructive, "rmdir": level.Destructive, "truncate": level.Destructive,
	"empty": level.Destructive, "emptyTrash": level.Destructive,
	"removeItemAtPathError": level.Destructive, "removeItemAtURLError": level.Destructive, "removeItemAtPath": level.Destructive, "removeItemAtURL": level.Destructive,
	"doScript": level.Dangerous, "doJavaScript": level.Dangerous, "execute": level.Dangerous, "send": level.Dangerous,
	"delete": level.Dangerous, "shutDown": level.Dangerous, "shutdown": level.Dangerous, "restart": level.Dangerous,
	"logOut": level.Dangerous, "sleep": level.Dangerous, "trashItemAtURLResultingItemURLError": level.Dangerous,
	"initWithSource": level.Safe, "initWithSourceError": level.Safe, "initWithSourceLanguage": level.Safe, "setTimeout": level.Safe,
	"setInterval": level.Safe, "constructor": level.Safe, "launch": level.Safe, "launchAndReturnError": level.Safe,
	"move": level.Safe, "write": level.Safe, "keystroke": level.Safe, "keyCode": level.Safe, "keyDown": level.Safe, "keyUp": level.Safe,
	"click": level.Safe, "perform": level.Safe, "openLocation": level.Safe, "setTheClipboardTo": level.Safe, "setVolume": level.Safe,
	"make": level.Safe, "push": level.Safe, "duplicate": level.Safe, "open": level.Safe, "quit": level.Safe, "read": level.Safe,
	"loginItems": level.Safe, "LoginItem": level.Safe, "openFile": level.Safe, "openURL": level.Safe, "launchApplication": level.Safe,
	"openForAccess": level.Safe, "writeToFileAtomicallyEncodingError": level.Safe, "writeToFileAtomically": level.Safe,
	"createFileAtPathContentsAttributes": level.Safe, "moveItemAtPathToPathError": level.Safe, "copyItemAtPathToPathError": level.Safe,
	"launchedTaskWithLaunchPathArguments": level.Safe, "NSClassFromString": level.Safe, "bindFunction": level.Safe,
}

// jsDollarOnly are C functions, rated only on $ (ObjC.import, bindFunction).
var jsDollarOnly = map[string]bool{"system": true, "popen": true, "execv": true, "execve": true, "execvp": true, "execl": true,
	"execlp": true, "posix_spawn": true, "unlink": true, "remove": true, "rmdir": true, "truncate": true}

// jsRef is a reference to a method the scan found.
type jsRef struct {
	i      int    // the token that ends it: the name, ] or the ) of Reflect.get(…)
	name   string // the method
	member bool   // reached by member access (.x, ['x'], Reflect.get) or a variable holding one
	dollar bool   // on $, the ObjC bridge
	alias  bool   // through a variable
}

// scan walks the tokens looking for calls and flags.
func (an *jsAn) scan() {
	toks := an.lx.toks
	b := an.env.Bounds()
	for i := 0; i < len(toks); i++ {
		if !b.Live() {
			return // stopped: end says so
		}
		t := toks[i]
		switch t.kind {
		case jsIdent:
			if an.patternKeys[i] {
				continue
			}
			if t.text == "NSTask" {
				an.noteNSTask(t)
			}
			if i > 0 && toks[i-1].text == "." {
				an.member(toks, jsRef{i: i, name: t.text, member: true, dollar: i > 1 && jsDollarAt(toks, i-2)})
				continue
			}
			if a, ok := an.alias[t.text]; ok && !an.definedAt(toks, i) {
				if a == jsComputed {
					if c := an.invocation(toks, i); c.ok {
						an.computedCall(toks, i, c)
					}
					continue
				}
				an.member(toks, jsRef{i: i, name: a, member: true, dollar: true, alias: true})
				continue
			}
			if t.text == "Reflect" && i+3 < len(toks) && toks[i+1].text == "." && toks[i+2].text == "get" && toks[i+3].text == "(" {
				an.reflectGet(toks, i)
			}
			if i+1 < len(toks) && toks[i+1].text == ":" && i > 0 && (toks[i-1].text == "{" || toks[i-1].text == ",") {
				// An object key: only the dialog and shell options matter.
				if t.text == "hiddenAnswer" || t.text == "administratorPrivileges" {
					an.member(toks, jsRef{i: i, name: t.text})
				}
				continue
			}
			an.member(toks, jsRef{i: i, name: t.text, member: an.with})
		case jsPunct:
			if t.text != "]" {
				continue
			}
			names, computed, dollar, ok := an.memberAt(toks, i)
			if !ok {
				// A computed key: {['hidden' + 'Answer']: true}
				if o := jsMatch(toks, i); o > 0 && i+1 < len(toks) && toks[i+1].text == ":" && (toks[o-1].text == "{" || toks[o-1].text == ",") {
					for _, n := range an.memberNames(toks[o+1 : i]) {
						if n == "hiddenAnswer" || n == "administratorPrivileges" {
							an.member(toks, jsRef{i: i, name: n})
						}
					}
				}
				continue
			}
			if computed {
				if c := an.invocation(toks, i); c.ok {
					an.computedCall(toks, i, c)
				}
				continue
			}
			for _, n := range names {
				an.member(toks, jsRef{i: i, name: n, member: true, dollar: dollar})
			}
		case jsString:
			if (t.val == "administratorPrivileges" || t.val == "hiddenAnswer") && i+1 < len(toks) && toks[i+1].text == ":" {
				an.member(toks, jsRef{i: i, name: t.val})
			}
		}
	}
}

// definedAt: toks[i] is the name being assigned, not a use of it.
func (an *jsAn) definedAt(toks []jsToken, i int) bool {
	if i > 0 && (toks[i-1].text == "var" || toks[i-1].text == "let" || toks[i-1].text == "const" || toks[i-1].text == "function") {
		return true
	}
	return i+2 < len(toks) && toks[i+1].text == "=" && toks[i+2].text != "=" && toks[i+2].text != ">"
}

// reflectGet treats Reflect.get(x, 'name') as member access.
func (an *jsAn) reflectGet(toks []jsToken, i int) {
	c := jsMatch(toks, i+3)
	if c < 0 {
		return
	}
	args := jsSplitArgs(toks[i+4 : c])
	if len(args) < 2 {
		return
	}
	dollar := len(args[0]) == 1 && args[0][0].text == "$"
	for _, n := range an.memberNames(args[1]) {
		if n == jsComputed {
			if inv := an.invocation(toks, c); inv.ok {
				an.computedCall(toks, c, inv)
			}
			return
		}
		an.member(toks, jsRef{i: c, name: n, member: true, dollar: dollar})
	}
}

func (an *jsAn) noteNSTask(t jsToken) {
	if !an.hasNSTask {
		an.hasNSTask = true
		an.nstaskAt = jsSpan(t)
	}
}

// jsCall is how a reference is called, if it is.
type jsCall struct {
	ok    bool
	first []jsToken // the first argument
	all   []jsToken // the arguments
	args  [][]jsToken
	known bool // the arguments are written out, not an array built at run time
}

func jsCallOf(args []jsToken) jsCall {
	c := jsCall{ok: true, all: args, args: jsSplitArgs(args), known: true}
	if len(c.args) > 0 {
		c.first = c.args[0]
	}
	return c
}

// invocation finds how the reference ending at toks[i] is called:
// directly, with .call, .apply or .bind(…)(…), or by Reflect.apply.
func (an *jsAn) invocation(toks []jsToken, i int) jsCall {
	n := len(toks)
	if i+1 < n && toks[i+1].text == "(" {
		if c := jsMatch(toks, i+1); c > 0 {
			return jsCallOf(toks[i+2 : c])
		}
		return jsCallOf(toks[i+2:])
	}
	if i+3 < n && toks[i+1].text == "." && toks[i+3].text == "(" {
		c := jsMatch(toks, i+3)
		if c < 0 {
			c = n
		}
		args := jsSplitArgs(toks[i+4 : c])
		switch toks[i+2].text {
		case "call":
			if len(args) <= 1 {
				return jsCall{ok: true, known: true}
			}
			return jsCallOf(toks[i+4+len(args[0])+1 : c])
		case "apply":
			if len(args) < 2 {
				return jsCall{ok: true, known: true}
			}
			a := jsStripParens(args[1])
			if len(a) >= 2 && a[0].text == "[" && jsMatch(a, 0) == len(a)-1 {
				return jsCallOf(a[1 : len(a)-1])
			}
			return jsCall{ok: true, first: a, all: a, args: [][]jsToken{a}}
		case "bind":
			if c < n-1 && toks[c+1].text == "(" {
				if c2 := jsMatch(toks, c+1); c2 > 0 {
					if len(args) > 1 {
						return jsCallOf(toks[i+4+len(args[0])+1 : c])
					}
					return jsCallOf(toks[c+2 : c2])
				}
			}
		}
		return jsCall{}
	}
	// Reflect.apply(ref, this, [args])
	s := jsChainStart(toks, i)
	if i+1 < n && toks[i+1].text == "," && s >= 4 && toks[s-1].text == "(" && toks[s-2].text == "apply" && toks[s-3].text == "." && toks[s-4].text == "Reflect" {
		c := jsMatch(toks, s-1)
		if c < 0 {
			c = n
		}
		args := jsSplitArgs(toks[s:c])
		if len(args) < 3 {
			return jsCall{ok: true, known: true}
		}
		a := jsStripParens(args[2])
		if len(a) >= 2 && a[0].text == "[" && jsMatch(a, 0) == len(a)-1 {
			return jsCallOf(a[1 : len(a)-1])
		}
		return jsCall{ok: true, first: a, all: a, args: [][]jsToken{a}}
	}
	return jsCall{}
}

// jsChainStart walks back from toks[i] over a member chain (a.b[c](d).e)
// to its first token.
func jsChainStart(toks []jsToken, i int) int {
	k := i
	for steps := 0; k > 0 && steps < 256; steps++ {
		t := toks[k]
		switch {
		case t.text == "]" || t.text == ")":
			o := jsMatch(toks, k)
			if o <= 0 || !jsOperand(toks[o-1]) {
				return max(o, 0)
			}
			k = o - 1
		case t.kind == jsIdent || t.kind == jsString:
			if k >= 2 && toks[k-1].text == "." && jsOperand(toks[k-2]) {
				k -= 2
				continue
			}
			if k >= 3 && toks[k-1].text == "." && toks[k-2].text == "?" && jsOperand(toks[k-3]) {
				k -= 3
				continue
			}
			return k
		default:
			return k
		}
	}
	return k
}

// aliasedAt reports that the reference at toks[i] is the value of an
// assignment the analyzer follows (var f = app.doShellScript).
func (an *jsAn) aliasedAt(toks []jsToken, i int) bool {
	s := jsChainStart(toks, i)
	return s >= 2 && toks[s-1].text == "=" && toks[s-2].kind == jsIdent && an.alias[toks[s-2].text] != ""
}

// computedCall rates a call of a method whose name is not known: at least
// Dangerous, and what its arguments would do if they are commands or code.
func (an *jsAn) computedCall(toks []jsToken, i int, c jsCall) {
	sp := jsSpan(toks[i])
	an.add(level.Dangerous, "jxa.computed-call", sp, "calls a method whose name is computed at run time")
	if an.depth+1 > rate.MaxDepth {
		return
	}
	for _, a := range c.args {
		v := an.evalExpr(a, 0)
		if !v.lit {
			continue
		}
		for _, s := range an.strs(v) {
			if strings.Trim(s, " ") == "" || an.argsSeen[s] {
				continue
			}
			if an.argBytes += len(s); an.argBytes > jsMaxArgBytes {
				an.add(level.Destructive, "jxa.computed-call-arg", sp, "calls methods whose names are computed at run time with more text than Airlock analyses")
				return
			}
			if an.argsSeen == nil {
				an.argsSeen = map[string]bool{}
			}
			an.argsSeen[s] = true
			var w Verdict
			an.env.Languages().Shell(&w, s, an.env, nil, an.depth+1)
			js := jxaAt(s, an.env, an.depth+1)
			as := an.env.Languages().AppleScript(s, an.env, an.depth+1)
			for _, x := range []Verdict{w, js, as} {
				if x.Level >= level.Destructive {
					an.add(level.Destructive, "jxa.computed-call-arg", sp, "calls a method whose name is computed at run time with %s, which %s", jsQuote(s), jsTop(x))
					break
				}
			}
		}
	}
}

func jsQuote(s string) string {
	s = strings.ReplaceAll(s, rate.HoleUnquoted, "…")
	if len(s) > 60 {
		cut := 60
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strconv.Quote(s)
}

func jsTop(v Verdict) string {
	best := ""
	var l level.Level
	for _, r := range v.Reasons {
		if r.Level > l || best == "" {
			best, l = r.Text, r.Level
		}
	}
	if best == "" {
		return "is " + v.Level.String()
	}
	return "would be: " + best
}

// unfollowed rates a reference to a method that is not called where it is
// taken nor stored in a variable the analyzer follows.
func (an *jsAn) unfollowed(toks []jsToken, r jsRef, sp Span) {
	l := jsMembers[r.name]
	if l <= level.Safe || !(r.member || r.alias) || an.aliasedAt(toks, r.i) {
		return
	}
	an.add(l, "jxa.method-ref", sp, "takes a reference to %s that is not followed: cannot tell what it runs or does", r.name)
}

// calledMember reports a member reference (.x, ['x']) that is called here;
// a member reference that is not followed to a call is reported as such.
func (an *jsAn) calledMember(toks []jsToken, i int, r jsRef, sp Span) bool {
	if !r.member {
		return false
	}
	if c := an.invocation(toks, i); !c.ok {
		an.unfollowed(toks, r, sp)
		return false
	}
	return true
}

func (an *jsAn) member(toks []jsToken, r jsRef) {
	i, name := r.i, r.name
	t := toks[i]
	sp := jsSpan(t)
	switch name {
	case "doShellScript":
		an.add(level.Dangerous, "jxa.shell", sp, "SHELL COMMAND: doShellScript runs a shell command")
		c := an.invocation(toks, i)
		if !c.ok {
			if an.aliasedAt(toks, i) {
				return
			}
			an.add(level.Destructive, "jxa.shell-ref", sp, "takes a reference to doShellScript that is not followed: cannot tell what it runs")
			return
		}
		if !c.known {
			an.add(level.Destructive, "jxa.shell-computed", sp, "SHELL COMMAND computed at run time: cannot tell what it runs")
			return
		}
		an.shell(c.first, sp, true)
	case "doScript":
		c := an.invocation(toks, i)
		if !c.ok {
			an.unfollowed(toks, r, sp)
			return
		}
		an.add(level.Caution, "jxa.terminal", sp, "TERMINAL: doScript runs a command in a live Terminal shell")
		vs, whole := an.template(c.first, 0)
		if whole || !c.known {
			an.add(level.Dangerous, "jxa.terminal-computed", sp, "TERMINAL: runs a command computed at run time")
			return
		}
		for _, s := range vs {
			an.env.Languages().Shell(an.v, s, an.env, &sp, an.depth+1)
		}
	case "write":
		c := an.invocation(toks, i)
		if !c.ok {
			return
		}
		first := jsStripParens(c.first)
		if len(first) > 2 && first[0].text == "{" {
			// iTerm: session.write({text: '…'})
			for j := 1; j+2 < len(first); j++ {
				if first[j].text == "text" && first[j+1].text == ":" {
					an.add(level.Caution, "jxa.terminal", sp, "TERMINAL: write runs a command in a live iTerm shell")
					vs, whole := an.template(first[j+2:jsExprEnd(first, j+2)], 0)
					if whole {
						an.add(level.Dangerous, "jxa.terminal-computed", sp, "TERMINAL: runs a command computed at run time")
					}
					for _, s := range vs {
						an.env.Languages().Shell(an.v, s, an.env, &sp, an.depth+1)
					}
				}
			}
			return
		}
		// StandardAdditions: app.write(text, {to: file})
		for _, a := range c.args[min(1, len(c.args)):] {
			if v := jsObjectValue(a, "to"); v != nil {
				an.add(level.Caution, "jxa.write", sp, "WRITE: write writes a file")
				an.pathArgs(jsCall{ok: true, args: [][]jsToken{v}}, true, 0)
			}
		}
	case "system", "popen", "execv", "execve", "execvp", "execl", "execlp", "posix_spawn":
		if !r.dollar {
			return
		}
		c := an.invocation(toks, i)
		if !c.ok {
			an.unfollowed(toks, r, sp)
			return
		}
		an.add(level.Dangerous, "jxa.system", sp, "SHELL COMMAND: %s runs a program", name)
		if !c.known {
			an.add(level.Destructive, "jxa.shell-computed", sp, "SHELL COMMAND computed at run time: cannot tell what it runs")
			return
		}
		an.shell(c.first, sp, true)
	case "unlink", "remove", "rmdir", "truncate":
		if !r.dollar {
			return
		}
		c := an.invocation(toks, i)
		if !c.ok {
			an.unfollowed(toks, r, sp)
			return
		}
		what := "a file"
		if v := an.evalExpr(c.first, 0); v.lit {
			what = rate.Display(strings.ReplaceAll(an.strs(v)[0], rate.HoleUnquoted, "…"))
		}
		if name == "truncate" {
			an.add(level.Destructive, "jxa.truncate", sp, "TRUNCATE: truncate cuts %s short, destroying its contents", what)
			return
		}
		an.add(level.Destructive, "jxa.unlink", sp, "DELETE: %s permanently deletes %s (not to the Trash)", name, what)
	case "eval", "Function", "runScript", "initWithSource", "initWithSourceError", "initWithSourceLanguage", "setTimeout", "setInterval", "constructor":
		if name == "constructor" {
			name = "Function"
		}
		c := an.invocation(toks, i)
		if !c.ok {
			if (name == "eval" || name == "Function") && t.text != "constructor" && !an.aliasedAt(toks, i) {
				an.add(level.Destructive, "jxa.eval-ref", sp, "takes a reference to %s that is not followed: cannot tell what it runs", name)
			}
			return
		}
		first := c.first
		if name == "Function" && len(c.args) > 0 {
			// new Function('a', 'b', body): the body is the last argument.
			first = c.args[len(c.args)-1]
		}
		if name == "setTimeout" || name == "setInterval" {
			if len(first) == 0 || first[0].kind != jsString && first[0].kind != jsTemplate {
				return
			}
		}
		if !c.known {
			an.add(level.Destructive, "jxa.eval-computed", sp, "%s runs code computed at run time (downloaded, decoded or built): cannot tell what it does", name)
			return
		}
		an.evalCode(name, first, c, sp)
	case "removeItemAtPathError", "removeItemAtURLError", "removeItemAtPath", "removeItemAtURL":
		an.add(level.Destructive, "jxa.remove", sp, "DELETE: NSFileManager %s permanently deletes (not to the Trash), folders included", name)
	case "trashItemAtURLResultingItemURLError":
		an.add(level.Dangerous, "jxa.trash", sp, "DELETE: moves an item to the Trash")
	case "writeToFileAtomicallyEncodingError", "writeToFileAtomically", "writeToURLAtomicallyEncodingError", "writeToURLAtomically",
		"writeToFileOptionsError", "writeToURLOptionsError", "createFileAtPathContentsAttributes",
		"createDirectoryAtPathWithIntermediateDirectoriesAttributesError", "createDirectoryAtURLWithIntermediateDirectoriesAttributesError",
		"createSymbolicLinkAtPathWithDestinationPathError", "moveItemAtPathToPathError", "moveItemAtURLToURLError",
		"copyItemAtPathToPathError", "copyItemAtURLToURLError", "linkItemAtPathToPathError":
		an.add(level.Caution, "jxa.write", sp, "WRITE: %s writes files", name)
		c := an.invocation(toks, i)
		switch {
		case strings.HasPrefix(name, "move"):
			an.pathArgs(c, true, 0, 1)
		case strings.HasPrefix(name, "copy"), strings.HasPrefix(name, "link"):
			an.pathArgs(c, false, 0)
			an.pathArgs(c, true, 1)
		default:
			an.pathArgs(c, true, 0)
		}
	case "openForAccess":
		c := an.invocation(toks, i)
		if len(c.args) > 1 {
			if v := jsObjectValue(c.args[1], "writePermission"); v != nil && !jsFalsy(v) {
				an.add(level.Caution, "jxa.write", sp, "WRITE: openForAccess opens a file for writing")
				an.pathArgs(c, true, 0)
				return
			}
		}
		an.pathArgs(c, false, 0)
	case "stringWithContentsOfFileEncodingError", "stringWithContentsOfFile", "dataWithContentsOfFile", "contentsAtPath", "read",
		"dataWithContentsOfURL", "stringWithContentsOfURLEncodingError":
		c := an.invocation(toks, i)
		if strings.Contains(name, "URL") {
			if v := an.evalExpr(c.first, 0); !v.lit || !strings.HasPrefix(strings.ToLower(an.strs(v)[0]), "file:") && !strings.HasPrefix(an.strs(v)[0], "/") && !strings.HasPrefix(an.strs(v)[0], "~") {
				an.add(level.Caution, "jxa.network", sp, "NETWORK: fetches from the network")
			}
		}
		an.pathArgs(c, false, 0)
	case "dataTaskWithURL", "dataTaskWithRequest", "curl":
		an.add(level.Caution, "jxa.network", sp, "NETWORK: fetches from the network")
	case "delete":
		c := an.invocation(toks, i)
		if !r.member {
			return
		}
		if !c.ok {
			an.unfollowed(toks, r, sp)
			return
		}
		if an.bulkArgs(c.all) || an.inLoop(t) {
			an.add(level.Destructive, "jxa.bulk-delete", sp, "BULK DELETE: This will delete multiple files/folders. This action may be irreversible.")
			return
		}
		an.add(level.Dangerous, "jxa.delete", sp, "DELETE: Will delete a file or folder (goes to Trash)")
	case "move":
		c := an.invocation(toks, i)
		if !c.ok || !r.member {
			return
		}
		trash := false
		for _, x := range c.all {
			if x.kind == jsIdent && x.text == "trash" {
				trash = true
			}
		}
		switch bulk := an.bulkArgs(c.all) || an.inLoop(t); {
		case bulk && trash:
			an.add(level.Destructive, "jxa.bulk-trash", sp, "BULK DELETE: moves multiple items to the Trash")
		case trash:
			an.add(level.Dangerous, "jxa.trash", sp, "DELETE: moves items to the Trash")
		case bulk:
			an.add(level.Dangerous, "jxa.bulk-move", sp, "BULK MOVE: Will move multiple files/folders")
		default:
			an.add(level.Caution, "jxa.move", sp, "MOVE: moves files or objects")
		}
	case "empty", "emptyTrash":
		if !an.calledMember(toks, i, r, sp) {
			return
		}
		an.add(level.Destructive, "jxa.empty-trash", sp, "EMPTY TRASH: Permanently deletes all items in Trash")
	case "shutDown", "restart", "sleep", "logOut", "shutdown":
		if !an.calledMember(toks, i, r, sp) {
			return
		}
		an.add(level.Dangerous, "jxa.power", sp, "SYSTEM POWER: Will shutdown, restart, log out or sleep the Mac")
	case "quit":
		if c := an.invocation(toks, i); !c.ok || !r.member {
			return
		}
		if an.inLoop(t) {
			an.add(level.Dangerous, "jxa.quit-all", sp, "QUIT ALL: quits applications in a loop (unsaved work can be lost)")
			return
		}
		an.add(level.Caution, "jxa.quit", sp, "QUIT: quits an application")
	case "keystroke":
		an.add(level.Caution, "jxa.keystroke", sp, "KEYSTROKE: Simulates keyboard input")
		an.keys(toks, i, false, sp)
		c := an.invocation(toks, i)
		if an.terminal && c.ok && !strings.Contains(tokensText(c.all), "using") {
			an.add(level.Dangerous, "jxa.typed-command", sp, "TERMINAL: types text into a terminal window, where it runs as a command")
			vs, whole := an.template(c.first, 0)
			if !whole {
				for _, s := range vs {
					an.env.Languages().Shell(an.v, s, an.env, &sp, an.depth+1)
				}
			}
		}
	case "keyCode", "keyDown", "keyUp":
		an.add(level.Caution, "jxa.keycode", sp, "KEY CODE: Simulates key presses")
		if name == "keyCode" {
			an.keys(toks, i, true, sp)
		}
	case "click", "perform":
		c := an.invocation(toks, i)
		if !c.ok {
			return
		}
		an.add(level.Caution, "jxa.click", sp, "CLICK: Simulates a mouse click")
		if an.menuByPosition(toks, i) {
			an.add(level.Dangerous, "jxa.menu-position", sp, "CLICK: chooses a menu item by its position: cannot tell which command it is")
		}
		if l, label, why := an.labels(toks, i, c); l >= level.Dangerous {
			an.add(l, "jxa.menu-item", sp, "CLICK: chooses %s, which %s", jsQuote(label), why)
		}
	case "send":
		if !an.calledMember(toks, i, r, sp) {
			return
		}
		if an.inLoop(t) {
			an.add(level.Destructive, "jxa.bulk-email", sp, "BULK EMAIL: sends messages in a loop over many items")
			return
		}
		an.add(level.Dangerous, "jxa.send", sp, "SEND: sends an email or message as you")
	case "doJavaScript", "execute":
		if !an.calledMember(toks, i, r, sp) {
			return
		}
		an.add(level.Dangerous, "jxa.javascript", sp, "JAVASCRIPT: runs JavaScript inside a web page, with your logged-in session")
	case "administratorPrivileges", "hiddenAnswer":
		if i+2 >= len(toks) || jsFalsy(toks[i+2:i+3]) {
			return
		}
		if op := toks[i+1].text; op != ":" && !(op == "=" && toks[i+2].text != "=") {
			return
		}
		if name == "hiddenAnswer" {
			an.add(level.Dangerous, "jxa.password-prompt", sp, "PASSWORD PROMPT: asks for hidden input (a password) in a dialog that can imitate the system: possible phishing")
			return
		}
		an.add(level.Dangerous, "jxa.admin", sp, "ADMIN: runs with administrator privileges (as root)")
	case "openLocation", "openFile", "openURL", "openFileWithApplication", "launchApplication", "openURLConfigurationCompletionHandler",
		"openURLsWithApplicationAtURLConfigurationCompletionHandler", "openApplicationAtURLConfigurationCompletionHandler",
		"openFileWithApplicationAndDeactivate", "openURLWithAppBundleIdentifierOptionsAdditionalEventParamDescriptorLaunchIdentifier":
		c := an.invocation(toks, i)
		if !c.ok {
			return
		}
		an.openTarget(c, sp, name == "openLocation")
	case "setTheClipboardTo":
		an.add(level.Caution, "jxa.clipboard", sp, "CLIPBOARD: replaces the clipboard")
	case "setVolume":
		an.add(level.Caution, "jxa.volume", sp, "VOLUME: changes the sound volume")
	case "make", "push", "duplicate", "play", "pause", "playpause", "stop", "nextTrack", "previousTrack", "backTrack",
		"fastForward", "rewind", "resume", "reload", "open", "close", "save", "print", "startScreenSaver", "eject":
		c := an.invocation(toks, i)
		if !c.ok || !r.member {
			return
		}
		if name == "make" && an.makesLoginItem(c.all) {
			an.add(level.Destructive, "jxa.login-item", sp, "PERSISTENCE: adds a login item that starts at every login")
			return
		}
		if name == "open" {
			an.openTarget(c, sp, false)
			return
		}
		if name == "push" && an.arrayVar(toks[jsChainStart(toks, i)]) {
			return // a JavaScript array, not an application's elements
		}
		an.add(level.Caution, "jxa."+strings.ToLower(name), sp, "%s: changes application state", strings.ToUpper(name))
	case "loginItems":
		for _, m := range an.nextMembers(toks, i, 4) {
			if m == "push" || m == "make" || m == "unshift" || m == "splice" {
				an.add(level.Destructive, "jxa.login-item", sp, "PERSISTENCE: adds a login item that starts at every login")
				return
			}
		}
	case "LoginItem":
		for _, x := range toks[i:min(len(toks), i+12)] {
			if x.text == "push" || x.text == "make" {
				an.add(level.Destructive, "jxa.login-item", sp, "PERSISTENCE: adds a login item that starts at every login")
				return
			}
		}
	case "NSTask", "launchedTaskWithLaunchPathArguments", "launchedTaskWithExecutableURLArgumentsErrorTerminationHandler":
		an.noteNSTask(t)
	case "NSClassFromString":
		c := an.invocation(toks, i)
		if !c.ok {
			return
		}
		end := i + 1
		if m := jsMatch(toks, i+1); m > 0 {
			end = m
		}
		for _, n := range an.memberNames(c.first) {
			if n == jsComputed {
				an.add(level.Dangerous, "jxa.objc-class", sp, "looks up an Objective-C class by a name computed at run time")
				return
			}
			switch n {
			case "NSTask", "NSUserUnixTask", "NSUserAppleScriptTask", "NSUserAutomatorTask":
				an.member(toks, jsRef{i: end, name: n, member: true})
			}
		}
	case "NSUserUnixTask", "NSUserAppleScriptTask", "NSUserAutomatorTask":
		an.userTask = true
		an.add(level.Dangerous, "jxa.user-task", sp, "SCRIPT: %s runs a script file from ~/Library/Application Scripts", name)
	case "initWithURLError", "initWithContentsOfURLError":
		c := an.invocation(toks, i)
		if !c.ok || name == "initWithURLError" && !an.userTask {
			return
		}
		if name == "initWithContentsOfURLError" {
			an.add(level.Dangerous, "jxa.script-file", sp, "SCRIPT: runs the script in a file")
		}
		if v := an.evalExpr(c.first, 0); !v.lit {
			an.add(level.Destructive, "jxa.script-file-computed", sp, "SCRIPT: runs a script file whose path is computed at run time")
		}
	case "bindFunction":
		c := an.invocation(toks, i)
		if !c.ok {
			return
		}
		for _, n := range an.memberNames(c.first) {
			switch {
			case n == jsComputed:
				an.add(level.Dangerous, "jxa.bind-function", sp, "binds a C function whose name is computed at run time")
			case jsDollarOnly[n]:
				an.add(level.Dangerous, "jxa.bind-function", sp, "binds the C function %s, which runs programs or deletes files", n)
			default:
				an.add(level.Caution, "jxa.bind-function", sp, "binds the C function %s", jsQuote(n))
			}
		}
	}
}

// arrayVar: t is a variable only ever given array literals.
func (an *jsAn) arrayVar(t jsToken) bool {
	ds := an.defs[t.text]
	if t.kind != jsIdent || len(ds) == 0 {
		return false
	}
	for _, d := range ds {
		if len(d.expr) == 0 || d.expr[0].text != "[" || jsMatch(d.expr, 0) != len(d.expr)-1 {
			return false
		}
	}
	return true
}

// jsFalsy: a value written as false, 0, null, undefined or ”.
func jsFalsy(v []jsToken) bool {
	if len(v) != 1 {
		return false
	}
	switch t := v[0]; {
	case t.kind == jsIdent:
		return t.text == "false" || t.text == "null" || t.text == "undefined"
	case t.kind == jsNumber:
		return t.text == "0"
	case t.kind == jsString:
		return t.val == ""
	}
	return false
}

// jsObjectValue returns the value of key in an object literal.
func jsObjectValue(obj []jsToken, key string) []jsToken {
	obj = jsStripParens(obj)
	if len(obj) < 2 || obj[0].text != "{" {
		return nil
	}
	inner := obj[1:]
	if m := jsMatch(obj, 0); m > 0 {
		inner = obj[1:m]
	}
	for _, e := range jsSplitArgs(inner) {
		if len(e) > 2 && e[1].text == ":" && (e[0].kind == jsIdent && e[0].text == key || e[0].kind == jsString && e[0].val == key) {
			return e[2:]
		}
	}
	return nil
}

// makesLoginItem: make({new: 'loginItem', …}) or make(…, at: loginItems).
func (an *jsAn) makesLoginItem(all []jsToken) bool {
	for _, x := range all {
		if x.kind == jsIdent && x.text == "loginItems" {
			return true
		}
	}
	for _, a := range jsSplitArgs(all) {
		if v := jsObjectValue(a, "new"); v != nil {
			for _, s := range an.strs(an.evalExpr(v, 0)) {
				if strings.ReplaceAll(strings.ToLower(s), " ", "") == "loginitem" {
					return true
				}
			}
		}
	}
	return false
}

// nextMembers lists the member names that follow toks[i] in its chain.
func (an *jsAn) nextMembers(toks []jsToken, i, n int) []string {
	var out []string
	k := i
	for steps := 0; steps < n && k+1 < len(toks); steps++ {
		switch {
		case toks[k+1].text == "." && k+2 < len(toks) && toks[k+2].kind == jsIdent:
			out = append(out, toks[k+2].text)
			k += 2
		case toks[k+1].text == "[":
			m := jsMatch(toks, k+1)
			if m < 0 {
				return out
			}
			out = append(out, an.memberNames(toks[k+2:m])...)
			k = m
		case toks[k+1].text == "(":
			m := jsMatch(toks, k+1)
			if m < 0 {
				return out
			}
			k = m
		default:
			return out
		}
	}
	return out
}

// bulkArgs: a call's arguments are a whole collection, directly or through
// a variable (var xs = F.desktop.items(); F.delete(xs)).
func (an *jsAn) bulkArgs(all []jsToken) bool {
	if jsBulk(all) {
		return true
	}
	for k, x := range all {
		if x.kind != jsIdent || k > 0 && all[k-1].text == "." {
			continue
		}
		for _, d := range an.defs[x.text] {
			if jsBulk(d.expr) {
				return true
			}
		}
	}
	return false
}

// labels finds the most dangerous label (menu item, button) named in the
// chain a click is made on, or in its arguments, following variables once.
func (an *jsAn) labels(toks []jsToken, i int, c jsCall) (level.Level, string, string) {
	best, label, why := level.Safe, "", ""
	consider := func(s string) {
		if strings.Contains(s, "__AIRLOCK_") {
			return
		}
		if l, w := facts.MenuItemRisk(s); l > best {
			best, label, why = l, s, w
		}
	}
	var walk func(ts []jsToken, follow bool)
	walk = func(ts []jsToken, follow bool) {
		for k := 0; k < len(ts); k++ {
			x := ts[k]
			switch {
			case x.kind == jsString:
				consider(x.val)
			case x.kind == jsPunct && (x.text == "[" || x.text == "("):
				if m := jsMatch(ts, k); m > k+1 {
					if v := an.evalExpr(ts[k+1:m], 0); v.lit {
						for _, s := range an.strs(v) {
							consider(s)
						}
					}
				}
			case follow && x.kind == jsIdent && (k == 0 || ts[k-1].text != "."):
				for _, d := range an.defs[x.text] {
					walk(d.expr, false)
				}
			}
		}
	}
	walk(toks[jsChainStart(toks, i):i], true)
	walk(c.all, true)
	return best, label, why
}

// jsRunsWhenOpened: files that run something when opened.
var jsRunsWhenOpened = []string{".command", ".tool", ".app", ".sh", ".pkg", ".mpkg", ".mobileconfig", ".shortcut", ".workflow", ".terminal"}

func jsOpensProgram(p string) bool {
	p = strings.TrimRight(strings.ToLower(strings.TrimSpace(p)), "/")
	for _, ext := range jsRunsWhenOpened {
		if strings.HasSuffix(p, ext) {
			if ext == ".app" && (strings.HasPrefix(p, "/applications/") || strings.HasPrefix(p, "/system/applications/") ||
				strings.HasPrefix(p, "file:///applications/") || strings.HasPrefix(p, "file:///system/applications/")) {
				return false // an installed application: launching it
			}
			return true
		}
	}
	return false
}

// openTarget rates opening a URL or a file: by its scheme, and Dangerous
// for a file that runs when opened (setup.command, a .pkg, a profile).
func (an *jsAn) openTarget(c jsCall, sp Span, location bool) {
	worst, why := level.Safe, ""
	if v := an.evalExpr(c.first, 0); v.lit {
		for _, s := range an.strs(v) {
			low := strings.ToLower(strings.TrimSpace(s))
			l, w := level.Caution, ""
			if scheme, ok := facts.URLScheme(low); ok && !strings.HasPrefix(low, "/") && !strings.HasPrefix(low, "~") {
				l, w = facts.SchemeRisk(scheme)
			}
			if jsOpensProgram(low) {
				l, w = level.Dangerous, "opens "+rate.Display(strings.ReplaceAll(s, rate.HoleUnquoted, "…"))+", a file that runs a program or installs something when opened"
			}
			if l > worst || why == "" && w != "" {
				worst, why = max(l, worst), w
			}
		}
	}
	switch {
	case why != "":
		an.add(worst, "jxa.open-url", sp, "OPEN: %s", why)
	case location:
		an.add(level.Caution, "jxa.open-url", sp, "OPEN URL: opens a web page")
	default:
		an.add(level.Caution, "jxa.open", sp, "OPEN: opens a file, folder, application or page")
	}
}

// pathArgs classifies the paths given as the arguments which (folded; a
// computed start of a path is taken to be the home folder).
func (an *jsAn) pathArgs(c jsCall, write bool, which ...int) {
	for _, n := range which {
		if n >= len(c.args) || len(c.args[n]) == 0 {
			continue
		}
		a := c.args[n]
		v := an.evalExpr(a, 0)
		if !v.lit {
			continue
		}
		sp := jsSpanOf(a)
		for _, p := range an.strs(v) {
			p = strings.TrimPrefix(p, "file://")
			if strings.HasPrefix(p, rate.HoleUnquoted+"/") {
				p = "~" + p[len(rate.HoleUnquoted):]
			}
			z := rate.ClassifyPath(an.env, p)
			shown := rate.Display(strings.ReplaceAll(p, rate.HoleUnquoted, "…"))
			if !strings.Contains(p, rate.HoleUnquoted) {
				u := rate.UseRead
				if write {
					u = rate.UseWrite
				}
				for _, f := range rate.GuardScriptPath(an.env, p, u, true) {
					an.add(f.Level, "jxa."+f.Rule, sp, "%s", f.Text)
				}
			}
			switch {
			case write && z.Kind == rate.ZonePersistence:
				an.add(level.Destructive, "jxa.persistence", sp, "writes %s: %s runs code automatically (persistence)", shown, z.Detail)
			case write && (z.Kind == rate.ZoneSystem || z.Kind == rate.ZoneCredential):
				an.add(level.Destructive, "jxa.protected-write", sp, "writes %s, inside %s", shown, z.Detail)
			case !write && z.Kind == rate.ZoneCredential && !z.Pub:
				an.add(level.Dangerous, "jxa.secret-read", sp, "reads %s, inside %s", shown, z.Detail)
			}
		}
	}
}

// findLoops records loop bodies — for, for…of, while, do…while, and the
// callbacks of forEach, map and the like — and the bodies of functions
// called from them. A delete or send inside one is a bulk action. It also
// notes a script that drives a terminal.
func (an *jsAn) findLoops() {
	toks := an.lx.toks
	for i, t := range toks {
		if t.kind != jsIdent {
			continue
		}
		switch t.text {
		case "forEach", "map", "every", "some", "filter", "reduce", "reduceRight", "flatMap", "find", "findIndex", "findLast", "findLastIndex":
			if i == 0 || toks[i-1].text != "." || i+1 >= len(toks) || toks[i+1].text != "(" {
				continue
			}
			c := jsMatch(toks, i+1)
			if c < 0 {
				c = len(toks)
			}
			if c > i+2 {
				an.addLoop(i+2, c-1)
				if args := jsSplitArgs(toks[i+2 : c]); len(args) > 0 && len(args[0]) == 1 && args[0][0].kind == jsIdent {
					an.loopFunc(args[0][0].text)
				}
			}
		case "for", "while":
			o := i + 1
			if o < len(toks) && toks[o].text == "await" {
				o++
			}
			if o < len(toks) && toks[o].text == "(" {
				if c := jsMatch(toks, o); c > 0 {
					an.loopBody(c + 1)
				}
			}
		case "do":
			an.loopBody(i + 1)
		case "Application":
			if i+1 >= len(toks) || toks[i+1].text != "(" || i > 0 && toks[i-1].text == "." {
				continue
			}
			c := jsMatch(toks, i+1)
			if c < 0 {
				continue
			}
			args := toks[i+2 : c]
			if len(args) == 1 && args[0].kind == jsString {
				if err := sanitize.Strict("app", args[0].val); err != nil {
					an.add(level.Blocked, "jxa.app-name", jsSpan(args[0]), "%s", err.Error())
				}
			}
			for _, n := range an.appNames(args) {
				if jsTerminal(n) {
					an.terminal = true
				}
			}
		}
	}
	// Functions called from a loop body run in the loop too. Each token is
	// looked at once however deeply loops nest.
	var seen []bool
	for done := 0; done < len(an.loops); done++ {
		if seen == nil {
			seen = make([]bool, len(toks))
		}
		lp := an.loops[done]
		for k := lp.from; k <= lp.to && k+1 < len(toks); k++ {
			if seen[k] {
				continue
			}
			seen[k] = true
			if toks[k].kind == jsIdent && toks[k+1].text == "(" && (k == 0 || toks[k-1].text != ".") {
				an.loopFunc(toks[k].text)
			}
		}
	}
	an.mergeLoops()
}

// mergeLoops turns the loop bodies into sorted disjoint spans for inLoop.
func (an *jsAn) mergeLoops() {
	if len(an.loops) < 2 {
		return
	}
	sort.Slice(an.loops, func(a, b int) bool { return an.loops[a].span.Start < an.loops[b].span.Start })
	out := an.loops[:1]
	for _, lp := range an.loops[1:] {
		last := &out[len(out)-1]
		if lp.span.Start <= last.span.End {
			last.span.End = max(last.span.End, lp.span.End)
			last.to = max(last.to, lp.to)
			continue
		}
		out = append(out, lp)
	}
	an.loops = out
}

func (an *jsAn) addLoop(from, to int) {
	toks := an.lx.toks
	if from > to || to >= len(toks) {
		return
	}
	an.loops = append(an.loops, jsLoop{span: Span{Start: int(toks[from].start), End: int(toks[to].end)}, from: from, to: to})
}

// loopBody records the statement or block at toks[k] as a loop body.
func (an *jsAn) loopBody(k int) {
	toks := an.lx.toks
	if k >= len(toks) {
		return
	}
	if toks[k].text == "{" {
		if m := jsMatch(toks, k); m > 0 {
			an.addLoop(k, m)
		} else {
			an.addLoop(k, len(toks)-1)
		}
		return
	}
	if e := jsExprEnd(toks, k); e > k {
		an.addLoop(k, e-1)
	}
}

// loopFunc records the body of the functions named name as loop bodies.
func (an *jsAn) loopFunc(name string) {
	fs := an.funcByName[name]
	if len(fs) == 0 || an.looped[-1-fs[0]] {
		return
	}
	if an.looped == nil {
		an.looped = map[int]bool{}
	}
	an.looped[-1-fs[0]] = true // the name is done
	for _, fi := range fs {
		f := &an.funcs[fi]
		if f.entry || an.looped[fi] {
			continue
		}
		an.looped[fi] = true
		an.addLoop(f.from, f.to)
	}
}

func (an *jsAn) inLoop(t jsToken) bool {
	k := sort.Search(len(an.loops), func(k int) bool { return an.loops[k].span.End >= int(t.end) })
	return k < len(an.loops) && an.loops[k].span.Start <= int(t.start)
}

// appNames folds the argument of Application(…).
func (an *jsAn) appNames(args []jsToken) []string {
	if len(args) == 1 && args[0].kind == jsString {
		return []string{args[0].val}
	}
	v := an.evalExpr(args, 0)
	if !v.lit {
		return nil
	}
	var out []string
	for _, s := range an.strs(v) {
		if !strings.Contains(s, "__AIRLOCK_") {
			out = append(out, s)
		}
	}
	return out
}

// jsTerminal reports a terminal application, by name, bundle id or path:
// the AppleScript analyzer's list, one table for both.
func jsTerminal(name string) bool { return facts.IsTerminal(name) }

// unknownApps rates commands to applications Airlock does not know,
// anywhere in a chain rooted at one: Application('X').documents[0].upload(…),
// or through variables holding it or a part of it.
func (an *jsAn) unknownApps() {
	toks := an.lx.toks
	var roots map[string]string
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.kind != jsIdent || t.text != "Application" || toks[i+1].text != "(" || i > 0 && toks[i-1].text == "." {
			continue
		}
		c := jsMatch(toks, i+1)
		if c < 0 || c == i+2 {
			continue
		}
		name, unknown := an.unknownAppName(toks[i+2 : c])
		if !unknown {
			continue
		}
		an.walkChain(toks, c, name)
		if i >= 2 && toks[i-1].text == "=" && toks[i-2].kind == jsIdent {
			if roots == nil {
				roots = map[string]string{}
			}
			roots[toks[i-2].text] = name
		}
	}
	if len(roots) == 0 {
		return
	}
	// Variables holding a part of one: var d = t.documents[0]
	for round := 0; round < 4; round++ {
		added := false
		for name, defs := range an.defs {
			if _, ok := roots[name]; ok {
				continue
			}
			for _, d := range defs {
				if len(d.expr) > 0 && d.expr[0].kind == jsIdent && roots[d.expr[0].text] != "" {
					roots[name] = roots[d.expr[0].text]
					added = true
					break
				}
			}
		}
		if !added {
			break
		}
	}
	for k, t := range toks {
		if t.kind != jsIdent {
			continue
		}
		app, ok := roots[t.text]
		if !ok || k > 0 && toks[k-1].text == "." || an.definedAt(toks, k) {
			continue
		}
		an.walkChain(toks, k, app)
	}
}

// unknownAppName folds the name given to Application(…): unknown when
// Airlock does not know it or cannot tell it.
func (an *jsAn) unknownAppName(args []jsToken) (string, bool) {
	names := an.appNames(args)
	if len(names) == 0 {
		return "(an application named at run time)", true
	}
	for _, n := range names {
		if strings.TrimSpace(n) != "" && facts.AppInfo(n) == nil {
			return n, true
		}
	}
	return "", false
}

// walkChain rates the calls in the chain after toks[k], made on an
// application Airlock does not know.
func (an *jsAn) walkChain(toks []jsToken, k int, app string) {
	var prev []string
	for steps := 0; steps < 64 && k+1 < len(toks); steps++ {
		var names []string
		switch {
		case toks[k+1].text == "." && k+2 < len(toks) && toks[k+2].kind == jsIdent:
			names = []string{toks[k+2].text}
			k += 2
		case toks[k+1].text == "[":
			m := jsMatch(toks, k+1)
			if m < 0 {
				return
			}
			names = an.memberNames(toks[k+2 : m])
			k = m
		default:
			return
		}
		if k+1 < len(toks) && toks[k+1].text == "(" {
			called := names
			if len(names) == 1 && (names[0] == "call" || names[0] == "apply" || names[0] == "bind") {
				called = prev
			}
			for _, n := range called {
				if n != jsComputed && !jsAppRead(n) {
					an.add(level.Dangerous, "jxa.unknown-app", jsSpan(toks[k]), "command %q to %q, an application Airlock does not know", n, app)
				}
			}
			m := jsMatch(toks, k+1)
			if m < 0 {
				return
			}
			k = m
		}
		prev = names
	}
}

// jsSelectors pick elements or work on the JavaScript values a command
// returns: they do nothing to the application.
var jsSelectors = map[string]bool{"whose": true, "byName": true, "byId": true, "at": true, "map": true, "forEach": true,
	"filter": true, "find": true, "some": true, "every": true, "join": true, "slice": true, "concat": true, "indexOf": true,
	"includes": true, "toString": true, "split": true, "trim": true, "replace": true, "reduce": true, "sort": true,
	"reverse": true, "valueOf": true, "toLowerCase": true, "toUpperCase": true, "startsWith": true, "endsWith": true,
	"push": true, "length": true}

func jsAppRead(n string) bool {
	return facts.GenericVerbs[strings.ToLower(n)] || jsReads(n) || jsSelectors[n]
}

// jsReads: JXA property reads are calls too (app.name(), app.windows()).
func jsReads(verb string) bool {
	if verb == "" {
		return true
	}
	c := verb[0]
	if c >= 'A' && c <= 'Z' {
		return false
	}
	low := strings.ToLower(verb)
	for _, p := range []string{"get", "is", "count", "exists", "name", "id", "windows", "documents", "properties", "version", "frontmost", "running", "activate", "launch", "includestandardadditions"} {
		if strings.HasPrefix(low, p) {
			return true
		}
	}
	return false
}

// jsBulk reports a collection among the tokens: items, files(), notes …
// referenced whole (no [index], .byName, .at), or filtered with whose.
func jsBulk(all []jsToken) bool {
	for k, x := range all {
		if x.kind != jsIdent {
			continue
		}
		switch x.text {
		case "whose", "every", "entireContents":
			return true
		case "items", "files", "folders", "documents", "notes", "events", "reminders", "contacts", "people",
			"messages", "diskItems", "aliasFiles", "applicationProcesses", "processes", "windows", "tabs", "tracks", "photos", "mediaItems":
			next := ""
			if k+1 < len(all) {
				next = all[k+1].text
			}
			switch next {
			case "(":
				if k+2 < len(all) && all[k+2].text == ")" {
					return true // items(): every item
				}
			case "[", ".":
				if next == "." && k+2 < len(all) && (all[k+2].text == "length" || all[k+2].text == "forEach") {
					return true
				}
			default:
				return true // the collection itself, passed as a value
			}
		}
	}
	return false
}

// shell rates a shell command given as a JavaScript expression.
func (an *jsAn) shell(expr []jsToken, sp Span, computedDestructive bool) {
	before := an.exhausted
	vs, whole := an.template(expr, 0)
	if whole {
		l := level.Dangerous
		if computedDestructive {
			l = level.Destructive
		}
		an.add(l, "jxa.shell-computed", sp, "SHELL COMMAND computed at run time: cannot tell what it runs")
		return
	}
	if an.exhausted && !before {
		an.add(level.Destructive, "jxa.shell-computed", sp, "SHELL COMMAND too large or self-referencing to fold: cannot tell all it runs")
	}
	for _, c := range vs {
		an.env.Languages().Shell(an.v, c, an.env, &sp, an.depth+1)
	}
}

// evalCode rates code run from a string: literal code is analysed, code
// computed at run time is Destructive.
func (an *jsAn) evalCode(name string, first []jsToken, c jsCall, sp Span) {
	vs, whole := an.template(first, 0)
	if whole || len(vs) == 0 {
		an.add(level.Destructive, "jxa.eval-computed", sp, "%s runs code computed at run time (downloaded, decoded or built): cannot tell what it does", name)
		return
	}
	if an.depth+1 > rate.MaxDepth {
		an.add(level.Destructive, "jxa.too-deep", sp, "scripts nested more than %d deep: %s", rate.MaxDepth, rate.TooDeep)
		return
	}
	appleScript, js := false, true
	switch name {
	case "initWithSource", "initWithSourceError":
		appleScript, js = true, false
	case "runScript":
		appleScript, js = true, false
		for k := 0; k+2 < len(c.all); k++ {
			if c.all[k].text == "in" && c.all[k+1].text == ":" && c.all[k+2].kind == jsString && strings.EqualFold(c.all[k+2].val, "javascript") {
				appleScript, js = false, true
			}
		}
	case "initWithSourceLanguage":
		// OSAScript: the language is named in the other arguments.
		appleScript, js = true, true
		for _, a := range c.args[min(1, len(c.args)):] {
			for _, x := range a {
				switch strings.ToLower(x.val) {
				case "javascript":
					appleScript, js = false, true
				case "applescript":
					appleScript, js = true, false
				}
			}
		}
	}
	an.add(level.Caution, "jxa.eval", sp, "%s runs code from a string", name)
	for _, code := range vs {
		if strings.Contains(code, "__AIRLOCK_") {
			an.add(level.Destructive, "jxa.eval-computed", sp, "%s runs code partly computed at run time", name)
		}
		if appleScript {
			inner := an.env.Languages().AppleScript(code, an.env, an.depth+1)
			an.v.Merge(inner, &sp)
		}
		if js {
			inner := jxaAt(code, an.env, an.depth+1)
			an.v.Merge(inner, &sp)
		}
	}
}

// nstask rates NSTask: the launch path and argument list, folded, are
// analysed as a command; otherwise the program is unknown.
func (an *jsAn) nstask() {
	toks := an.lx.toks
	sp := an.nstaskAt
	var paths, argvs []jsVal
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.kind != jsIdent {
			continue
		}
		value := func() []jsToken {
			if toks[i+1].text == "=" && i+2 < len(toks) && toks[i+2].text != "=" {
				return toks[i+2 : jsExprEnd(toks, i+2)]
			}
			if c := an.invocation(toks, i); c.ok {
				return c.first
			}
			return nil
		}
		switch t.text {
		case "launchPath", "executableURL", "setLaunchPath", "setExecutableURL":
			if e := value(); e != nil {
				paths = append(paths, an.evalExpr(e, 0))
				sp = jsSpan(t)
			}
		case "arguments", "setArguments":
			if e := value(); e != nil {
				argvs = append(argvs, an.evalExpr(e, 0))
			}
		case "launchedTaskWithLaunchPathArguments", "launchedTaskWithExecutableURLArgumentsErrorTerminationHandler":
			if c := an.invocation(toks, i); c.ok {
				sp = jsSpan(t)
				if len(c.args) > 0 {
					paths = append(paths, an.evalExpr(c.args[0], 0))
				}
				if len(c.args) > 1 {
					argvs = append(argvs, an.evalExpr(c.args[1], 0))
				}
			}
		}
	}
	an.add(level.Dangerous, "jxa.nstask", sp, "NSTask: runs a program")
	computed := len(paths) == 0
	if len(argvs) == 0 {
		argvs = []jsVal{{arr: true, lit: true}}
	}
	runs := 0
	for _, p := range paths {
		if !p.lit {
			computed = true
			continue
		}
		for _, ps := range an.strs(p) {
			if ps == "" || strings.Contains(ps, "__AIRLOCK_") {
				computed = true
				continue
			}
			for _, a := range argvs {
				if !a.arr {
					computed = true
					continue
				}
				argv := []string{ps}
				for _, e := range a.elems {
					if len(e) == 0 || jsIsHole(e[0]) {
						computed = true
						continue
					}
					argv = append(argv, e[0])
				}
				if runs < 8 {
					runs++
					w := ShellArgv(argv, an.env)
					an.v.Merge(w, &sp)
				}
			}
		}
	}
	if computed {
		an.add(level.Destructive, "jxa.nstask-computed", sp, "NSTask runs a program or arguments computed at run time: cannot tell what runs")
	}
}

// jsLiteralNames are methods whose name in a string, used other than as a
// constant key or shown text, can be called by a computed name.
var jsLiteralNames = map[string]bool{"doShellScript": true, "doScript": true, "doJavaScript": true, "runScript": true,
	"eval": true, "empty": true, "emptyTrash": true, "delete": true, "send": true, "execute": true, "shutDown": true,
	"restart": true, "logOut": true, "removeItemAtPathError": true, "removeItemAtURLError": true, "removeItemAtPath": true,
	"removeItemAtURL": true, "NSTask": true, "NSAppleScript": true, "OSAScript": true, "NSUserUnixTask": true,
	"NSUserAppleScriptTask": true, "hiddenAnswer": true, "administratorPrivileges": true, "system": true,
	"launchedTaskWithLaunchPathArguments": true}

// jsTextCalls take text to show or say.
var jsTextCalls = map[string]bool{"displayDialog": true, "displayAlert": true, "displayNotification": true, "chooseFromList": true,
	"say": true, "log": true, "setTheClipboardTo": true}

// literals rates strings that name a rated method, in a script that can
// call a method by a computed name (x[expr](…), Reflect, call/apply of a
// lookup): there the string may become the call. Elsewhere it is text.
func (an *jsAn) literals() {
	toks := an.lx.toks
	if !jsCallsByName(toks) {
		return
	}
	for i, t := range toks {
		if t.kind != jsString || !jsLiteralNames[t.val] {
			continue
		}
		if i+1 < len(toks) && toks[i+1].text == ":" && i > 0 && (toks[i-1].text == "{" || toks[i-1].text == ",") {
			continue // an object key
		}
		if i > 1 && toks[i-1].text == "[" && i+1 < len(toks) && toks[i+1].text == "]" && jsOperand(toks[i-2]) {
			continue // a constant member key: rated as the member
		}
		if an.textArg(toks, i) {
			continue
		}
		an.add(level.Dangerous, "jxa.method-name", jsSpan(t), "names the method %q in a string: it can be called by a computed name", t.val)
	}
}

// textArg: toks[i] is inside the arguments of a call that shows text.
func (an *jsAn) textArg(toks []jsToken, i int) bool {
	for k, steps := i-1, 0; k >= 0 && steps < 64; k, steps = k-1, steps+1 {
		x := toks[k]
		if x.kind != jsPunct {
			continue
		}
		switch x.text {
		case ")", "]", "}":
			if o := jsMatch(toks, k); o >= 0 {
				k = o
			}
		case "(":
			return k > 0 && jsTextCalls[toks[k-1].text]
		case ";":
			return false
		}
	}
	return false
}

func tokensText(ts []jsToken) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.text)
		b.WriteByte(' ')
	}
	return b.String()
}

// jsCallsByName reports a computed member access (obj[expr] where expr is
// not a single literal) or a reflective call (Reflect, Function.prototype
// call/apply/bind on a looked-up name, ObjC.bindFunction).
func jsCallsByName(toks []jsToken) bool {
	for i, t := range toks {
		switch {
		case t.kind == jsIdent && (t.text == "Reflect" || t.text == "bindFunction" || t.text == "NSClassFromString" || t.text == "NSSelectorFromString"):
			return true
		case t.text == "[" && i > 0 && jsOperand(toks[i-1]):
			// obj[ … ]: a literal or number index alone is not computed.
			if i+2 < len(toks) && toks[i+2].text == "]" && (toks[i+1].kind == jsString || toks[i+1].kind == jsNumber) {
				continue
			}
			return true
		}
	}
	return false
}
