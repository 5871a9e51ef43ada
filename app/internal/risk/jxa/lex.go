package jxa

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// The lexer: JavaScript read into tokens, with strings decoded, templates
// split into their parts and brackets matched.

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
	subs         []rate.Span // ${…} expressions inside templates, analysed on their own
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
			for j < n && (isWordByte(src[j]) || src[j] == '.') {
				j++
			}
			l.emit(jsToken{kind: jsNumber, start: int32(i), end: int32(j), text: src[i:j]})
			i = j
		case isWordByte(c) || c == '$' || c == '\\' || c >= 0x80:
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
				for j < len(src) && isWordByte(src[j]) {
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
	for j < len(src) && (isWordByte(src[j]) || src[j] == '$') {
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
		case isWordByte(c) || c == '$':
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
			if !isUnicodeLetter(r) {
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
					l.lx.subs = append(l.lx.subs, rate.Span{Start: min(j+2, len(src)), End: len(src)})
				}
				tpl.parts = append(tpl.parts, "")
				l.emitTemplate(i, len(src), tpl)
				return len(src)
			}
			if l.nest == 0 {
				// Nested ${…} are analysed with the one around them.
				l.lx.subs = append(l.lx.subs, rate.Span{Start: j + 2, End: k - 1})
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
