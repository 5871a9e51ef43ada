package interp

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// The tokenizer: one per language, sharing this code and differing by
// syntax (comments, quotes, interpolation) and by a few forms of their own
// (Python's triple quotes and prefixes, Perl's q// family and here-docs,
// Ruby's % literals, Lua's long brackets, Swift's raw strings). It reads
// strings with their escapes decoded and interpolated parts as Hole, and
// hands the code inside interpolations ("#{…}", "${…}", "\(…)", f"{…}",
// @{[ … ]}) back to be read on its own.

type tkind uint8

const (
	tIdent tkind = iota + 1 // a name; Perl's and PHP's variables keep their sigil ($x, @ARGV)
	tStr                    // a string: text decoded, Hole where interpolated
	tNum
	tPunct // an operator or bracket; "\n" where a line break ends a statement
)

type tok struct {
	kind tkind
	text string
	lit  bool // tStr: nothing in it is interpolated
	run  bool // tStr: a command the shell runs (`…`, qx//, %x())
	off  int
}

func (t tok) is(s string) bool { return t.kind == tPunct && t.text == s }

// syntax is what the shared tokenizer needs to know of a language.
type syntax struct {
	line    []string    // line comments
	block   [][2]string // block comments
	quotes  string      // string quotes
	interp  string      // quotes whose strings interpolate
	run     string      // quotes whose strings are commands
	nlEnds  bool        // a line break ends a statement
	sigils  string      // characters that start a variable's name
	dotName bool        // "." may be part of a name (R: file.remove)
	bang    bool        // a name may end in ! or ? (Ruby: rm_rf!, exist?)
}

var syntaxes = map[Lang]syntax{
	Python: {line: []string{"#"}, quotes: `'"`, nlEnds: true},
	Perl:   {line: []string{"#"}, quotes: "'\"`", interp: "\"`", run: "`", sigils: "$@"},
	Ruby:   {line: []string{"#"}, quotes: "'\"`", interp: "\"`", run: "`", nlEnds: true, bang: true},
	PHP:    {line: []string{"//", "#"}, block: [][2]string{{"/*", "*/"}}, quotes: "'\"`", interp: "\"`", run: "`", sigils: "$"},
	JS:     {line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: "'\"`", interp: "`", nlEnds: true},
	Swift:  {line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: `"`, interp: `"`, nlEnds: true},
	Lua:    {line: []string{"--"}, quotes: `'"`, nlEnds: true},
	R:      {line: []string{"#"}, quotes: `'"`, nlEnds: true, dotName: true},
}

// lexer is one reading of a program.
type lexer struct {
	lang   Lang
	syn    syntax
	src    string
	i      int
	toks   []tok
	nested []nestedCode // code inside interpolations, read on its own
	docs   []heredoc    // here-documents whose bodies start on the next line
	full   bool         // MaxTokens reached
}

type nestedCode struct {
	code string
	off  int
}

// lex reads src as lang.
func lex(lang Lang, src string) *lexer {
	src = lineBreaks(lang, src)
	lx := &lexer{lang: lang, syn: syntaxes[lang], src: src}
	if strings.HasPrefix(src, "#!") {
		lx.skipLine()
	}
	for lx.i < len(src) && !lx.full {
		lx.next()
	}
	return lx
}

// lineBreaks is src with the other characters lang ends a line at, and
// so a line comment, written as "\n": Python reads a lone carriage return
// as a line break, JavaScript a carriage return and U+2028 and U+2029 too
// (x = 1 // c<CR>require(…) runs the require). Each keeps its length, so
// offsets stay those of src: "\r" becomes "\n", U+2028 "\n" and two
// blanks.
func lineBreaks(lang Lang, src string) string {
	if lang != Python && lang != JS {
		return src
	}
	if strings.IndexByte(src, '\r') >= 0 {
		src = strings.ReplaceAll(src, "\r", "\n")
	}
	if lang == JS && (strings.Contains(src, "\u2028") || strings.Contains(src, "\u2029")) {
		src = strings.NewReplacer("\u2028", "\n  ", "\u2029", "\n  ").Replace(src)
	}
	return src
}

func (lx *lexer) emit(t tok) {
	if len(lx.toks) >= MaxTokens {
		lx.full = true
		return
	}
	lx.toks = append(lx.toks, t)
}

func (lx *lexer) skipLine() {
	for lx.i < len(lx.src) && lx.src[lx.i] != '\n' {
		lx.i++
	}
}

// atLineStart reports that nothing but blanks precedes i on its line.
func (lx *lexer) atLineStart() bool {
	for j := lx.i - 1; j >= 0; j-- {
		switch lx.src[j] {
		case '\n':
			return true
		case ' ', '\t':
		default:
			return false
		}
	}
	return true
}

// next reads one token (or a comment, or blanks).
func (lx *lexer) next() {
	src, c := lx.src, lx.src[lx.i]
	switch {
	case c == '\n':
		if lx.syn.nlEnds {
			lx.emit(tok{kind: tPunct, text: "\n", off: lx.i})
		}
		if len(lx.docs) > 0 {
			lx.heredocBodies()
			return
		}
		lx.i++
	case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\\' && lx.i+1 < len(src) && src[lx.i+1] == '\n':
		lx.i++
	case lx.comment():
	case lx.special():
	case strings.IndexByte(lx.syn.quotes, c) >= 0:
		lx.quoted(c)
	case c >= '0' && c <= '9':
		lx.number()
	case lx.sigil(c):
		lx.variable()
	case isNameByte(c) || c >= utf8.RuneSelf || c == '$':
		lx.name()
	default:
		lx.punct()
	}
}

// number reads a number at i (digits, names' bytes and decimal points).
func (lx *lexer) number() {
	src, j := lx.src, lx.i
	for j < len(src) && (isNameByte(src[j]) || src[j] == '.' && j+1 < len(src) && src[j+1] >= '0' && src[j+1] <= '9') {
		j++
	}
	lx.emit(tok{kind: tNum, text: src[lx.i:j], off: lx.i})
	lx.i = j
}

// sigil reports that c at i is a variable's sigil ($x, @a, %h, ${…}, $$,
// $#a, $!, $@, $<, $0, $_) in a language that has them.
func (lx *lexer) sigil(c byte) bool {
	src := lx.src
	if strings.IndexByte(lx.syn.sigils, c) < 0 || lx.i+1 >= len(src) {
		return false
	}
	n := src[lx.i+1]
	return isNameByte(n) || n == '{' || n == '$' || n == '#' || strings.IndexByte("!@<0_", n) >= 0
}

// comment skips a comment at i, reporting whether there was one.
func (lx *lexer) comment() bool {
	rest := lx.src[lx.i:]
	for _, b := range lx.syn.block {
		if strings.HasPrefix(rest, b[0]) {
			lx.blockComment(b[0], b[1])
			return true
		}
	}
	for _, l := range lx.syn.line {
		if strings.HasPrefix(rest, l) {
			if lx.lang == Lua && strings.HasPrefix(rest, "--[") {
				if n := longBracket(rest[2:]); n >= 0 {
					lx.i += 2
					lx.longString(n) // a comment: its text is dropped
					return true
				}
			}
			if lx.lang == PHP && strings.HasPrefix(rest, "#[") {
				return false // an attribute
			}
			lx.skipLine()
			return true
		}
	}
	return false
}

// blockComment skips /* … */ (Swift's nest).
func (lx *lexer) blockComment(open, end string) {
	depth := 0
	for lx.i < len(lx.src) {
		rest := lx.src[lx.i:]
		switch {
		case strings.HasPrefix(rest, open):
			depth++
			lx.i += len(open)
			if lx.lang != Swift {
				depth = 1
			}
		case strings.HasPrefix(rest, end):
			lx.i += len(end)
			depth--
			if depth <= 0 {
				return
			}
		default:
			lx.i++
		}
	}
}

// special reads the forms of one language that the shared code does not:
// it reports whether it read one.
func (lx *lexer) special() bool {
	switch lx.lang {
	case Python:
		return lx.python()
	case Perl:
		return lx.perl()
	case Ruby:
		return lx.ruby()
	case PHP:
		return lx.php()
	case JS:
		return lx.js()
	case Swift:
		return lx.swift()
	case Lua:
		if lx.src[lx.i] == '[' {
			if n := longBracket(lx.src[lx.i:]); n >= 0 {
				start := lx.i
				lx.emit(tok{kind: tStr, text: lx.longString(n), lit: true, off: start})
				return true
			}
		}
	case R:
		return lx.rLang()
	}
	return false
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// name reads an identifier.
func (lx *lexer) name() {
	src, j := lx.src, lx.i
	for j < len(src) {
		c := src[j]
		switch {
		case isNameByte(c) || c == '$' && lx.lang == JS:
			j++
		case c == '.' && lx.syn.dotName && j+1 < len(src) && isNameByte(src[j+1]):
			j++
		case c >= utf8.RuneSelf:
			_, n := utf8.DecodeRuneInString(src[j:])
			j += n
		default:
			goto done
		}
	}
done:
	if lx.syn.bang && j < len(src) && (src[j] == '!' || src[j] == '?') && (j+1 >= len(src) || src[j+1] != '=') {
		j++
	}
	if j == lx.i {
		j = lx.i + 1
	}
	lx.emit(tok{kind: tIdent, text: src[lx.i:j], off: lx.i})
	lx.i = j
}

// variable reads a Perl or PHP variable: $x, @x, $ENV, ${…} (a name
// computed by code, read as code), $#x, Perl's $_ $0 $! $@ $<.
func (lx *lexer) variable() {
	src, start := lx.src, lx.i
	j := lx.i + 1
	switch {
	case src[j] == '{':
		end := matchBracket(src, j)
		lx.nest(src[j+1:end], j+1)
		lx.emit(tok{kind: tIdent, text: src[start:j] + "{}", off: start})
		lx.i = min(end+1, len(src))
		return
	case src[j] == '#':
		j++
	case !isNameByte(src[j]) && src[j] != '$':
		lx.emit(tok{kind: tIdent, text: src[start : j+1], off: start})
		lx.i = j + 1
		return
	}
	for j < len(src) && (isNameByte(src[j]) || src[j] == '$' || src[j] == ':' && j+2 < len(src) && src[j+1] == ':' && isNameByte(src[j+2])) {
		if src[j] == ':' {
			j++
		}
		j++
	}
	lx.emit(tok{kind: tIdent, text: src[start:j], off: start})
	lx.i = j
}

// threeOps and twoOps are the operators read as one token.
var (
	threeOps = []string{"<<-", "...", "===", "!==", "**=", "<=>", "//="}
	twoOps   = []string{"::", "->", "=>", "==", "!=", "<=", ">=", "&&", "||", "<-", "..", "+=", "-=", ".=", "=~", "!~", "**", "//", "<<", ">>", "?.", "|>"}
)

func (lx *lexer) punct() {
	rest := lx.src[lx.i:]
	for _, ops := range [][]string{threeOps, twoOps} {
		for _, op := range ops {
			if strings.HasPrefix(rest, op) {
				lx.emit(tok{kind: tPunct, text: op, off: lx.i})
				lx.i += len(op)
				return
			}
		}
	}
	_, n := utf8.DecodeRuneInString(rest)
	lx.emit(tok{kind: tPunct, text: rest[:n], off: lx.i})
	lx.i += n
}

// nest hands code inside a string or a computed name back to be read on
// its own.
func (lx *lexer) nest(code string, off int) {
	if strings.TrimSpace(code) != "" && len(lx.nested) < MaxEffects {
		lx.nested = append(lx.nested, nestedCode{code, off})
	}
}

// matchBracket returns the index of the bracket closing the one at i (or
// len(s) when none does), skipping quoted text.
func matchBracket(s string, i int) int {
	open := s[i]
	end := map[byte]byte{'(': ')', '[': ']', '{': '}', '<': '>'}[open]
	depth := 0
	for j := i; j < len(s); j++ {
		switch c := s[j]; {
		case c == '\\':
			j++
		case c == open:
			depth++
		case c == end:
			depth--
			if depth == 0 {
				return j
			}
		case (c == '"' || c == '\'') && open != c:
			if k := strings.IndexByte(s[j+1:], c); k >= 0 {
				j += k + 1
			}
		}
	}
	return len(s)
}

// quoted reads a string quoted by q at i, the shared way: escapes decoded
// where the language decodes them, interpolation where the quote
// interpolates.
func (lx *lexer) quoted(q byte) {
	start := lx.i
	lx.i++
	interp := strings.IndexByte(lx.syn.interp, q) >= 0
	text, lit := lx.body(string(q), "", interp, q != '\'' || lx.lang == Python || lx.lang == Lua || lx.lang == R || lx.lang == JS)
	lx.emit(tok{kind: tStr, text: text, lit: lit, run: strings.IndexByte(lx.syn.run, q) >= 0, off: start})
}

// body reads a string's text up to end (or, for bracketed quotes, the
// matching close of open), decoding escapes when escapes is set (else only
// \\ and an escaped end) and reading interpolations when interp is set.
// It leaves i after the end and reports whether the text is literal.
func (lx *lexer) body(end, open string, interp, escapes bool) (string, bool) {
	var b strings.Builder
	lit := true
	depth := 0
	src := lx.src
	for lx.i < len(src) {
		rest := src[lx.i:]
		switch {
		case open != "" && strings.HasPrefix(rest, open):
			depth++
			b.WriteString(open)
			lx.i += len(open)
			continue
		case strings.HasPrefix(rest, end):
			if depth == 0 {
				lx.i += len(end)
				return b.String(), lit
			}
			depth--
			b.WriteString(end)
			lx.i += len(end)
			continue
		case src[lx.i] == '\\' && lx.i+1 < len(src):
			if interp && lx.lang == Swift && src[lx.i+1] == '(' {
				close := matchBracket(src, lx.i+1)
				inner := src[min(lx.i+2, close):close]
				lx.nest(inner, lx.i+2)
				b.WriteString(homeOr(lx.lang, inner))
				lit = false
				lx.i = min(close+1, len(src))
				continue
			}
			if !escapes {
				nx := src[lx.i+1]
				if strings.HasPrefix(src[lx.i+1:], end) || nx == '\\' {
					b.WriteByte(nx)
					lx.i += 2
				} else {
					b.WriteByte('\\')
					lx.i++
				}
				continue
			}
			s, n := decodeEscape(src[lx.i:])
			b.WriteString(s)
			lx.i += n
			continue
		case interp:
			if n, text, ok := lx.interpolation(); ok {
				b.WriteString(text)
				lit = false
				lx.i = min(lx.i+n, len(src))
				continue
			}
		}
		b.WriteByte(src[lx.i])
		lx.i++
	}
	return b.String(), lit
}

// interpolation reads an interpolation at i inside a string: it returns
// its length and its text — "~" for the home folder by one of its names
// (#{Dir.home}, ${process.env.HOME}, $ENV{HOME}), else Hole — and hands any
// code in it to nest.
func (lx *lexer) interpolation() (int, string, bool) {
	src, i := lx.src, lx.i
	rest := src[i:]
	code := func(open int) (int, string, bool) {
		end := matchBracket(src, open)
		body := src[min(open+1, end):end]
		lx.nest(body, open+1)
		return end + 1 - i, homeOr(lx.lang, body), true
	}
	switch lx.lang {
	case Ruby:
		if strings.HasPrefix(rest, "#{") {
			return code(i + 1)
		}
	case JS:
		if strings.HasPrefix(rest, "${") {
			return code(i + 1)
		}
	case PHP:
		if strings.HasPrefix(rest, "{$") {
			return code(i)
		}
		if strings.HasPrefix(rest, "${") {
			return code(i + 1)
		}
		if rest[0] == '$' && len(rest) > 1 && (isNameByte(rest[1]) || rest[1] == '$') {
			n := varLen(rest)
			return n, homeOr(lx.lang, rest[:n]), true
		}
	case Perl:
		if strings.HasPrefix(rest, "@{[") || strings.HasPrefix(rest, "${\\") || strings.HasPrefix(rest, "${") || strings.HasPrefix(rest, "@{") {
			end := matchBracket(src, i+1)
			body := strings.TrimPrefix(strings.TrimPrefix(src[i+2:end], "["), "\\")
			lx.nest(body, i+2)
			return end + 1 - i, homeOr(lx.lang, strings.TrimSuffix(body, "]")), true
		}
		if (rest[0] == '$' || rest[0] == '@') && len(rest) > 1 && (isNameByte(rest[1]) || rest[1] == '$' || rest[1] == ':') {
			n := varLen(rest)
			for n < len(rest) && (rest[n] == '{' || rest[n] == '[') {
				end := matchBracket(rest, n)
				lx.nest(rest[n+1:min(end, len(rest))], i+n+1) // "$h{`id`}": a subscript is code
				n = end + 1
			}
			n = min(n, len(rest))
			return n, homeOr(lx.lang, rest[:n]), true
		}
	}
	return 0, "", false
}

// homeOr is "~" when code names the home folder, Hole otherwise.
func homeOr(lang Lang, code string) string {
	if len(code) > 200 {
		return Hole
	}
	sub := lex(lang, code)
	s := &scanner{lang: lang, toks: sub.toks, alias: map[string]string{}, vars: map[string]value{}, table: tables[lang]}
	if s.value(s.toks) == "~" {
		return "~"
	}
	return Hole
}

// varLen is the length of the variable name at the start of s ($x, $$x,
// $a::b).
func varLen(s string) int {
	n := 1
	for n < len(s) && (isNameByte(s[n]) || s[n] == '$' || s[n] == ':' && n+1 < len(s) && s[n+1] == ':') {
		n++
	}
	return n
}

// decodeEscape decodes the escape at the start of s (s[0] is \) and
// returns its text and length.
func decodeEscape(s string) (string, int) {
	if len(s) < 2 {
		return s, len(s)
	}
	switch c := s[1]; c {
	case 'n':
		return "\n", 2
	case 't':
		return "\t", 2
	case 'r':
		return "\r", 2
	case '0', '1', '2', '3', '4', '5', '6', '7':
		j := 1
		for j < len(s) && j < 4 && s[j] >= '0' && s[j] <= '7' {
			j++
		}
		v, _ := strconv.ParseUint(s[1:j], 8, 32)
		return string(rune(v)), j
	case 'x':
		if len(s) > 2 && s[2] == '{' {
			if k := strings.IndexByte(s, '}'); k > 3 {
				v, err := strconv.ParseUint(s[3:k], 16, 32)
				if err == nil {
					return string(rune(v)), k + 1
				}
			}
		}
		j := 2
		for j < len(s) && j < 4 && isHex(s[j]) {
			j++
		}
		if j == 2 {
			return "x", 2
		}
		v, _ := strconv.ParseUint(s[2:j], 16, 32)
		return string(rune(v)), j
	case 'u':
		if len(s) > 2 && s[2] == '{' {
			if k := strings.IndexByte(s, '}'); k > 3 {
				if v, err := strconv.ParseUint(s[3:k], 16, 32); err == nil {
					return string(rune(v)), k + 1
				}
			}
		}
		if len(s) >= 6 {
			if v, err := strconv.ParseUint(s[2:6], 16, 32); err == nil {
				return string(rune(v)), 6
			}
		}
	}
	_, n := utf8.DecodeRuneInString(s[1:])
	return s[1 : 1+n], 1 + n
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// longBracket returns the level of a Lua long bracket at the start of s
// ([[ is 0, [==[ is 2), or -1 when s does not start with one.
func longBracket(s string) int {
	if len(s) < 2 || s[0] != '[' {
		return -1
	}
	n := 1
	for n < len(s) && s[n] == '=' {
		n++
	}
	if n < len(s) && s[n] == '[' {
		return n - 1
	}
	return -1
}

// longString reads a Lua long string (or comment) of level n at i and
// returns its text.
func (lx *lexer) longString(n int) string {
	lx.i += n + 2
	end := "]" + strings.Repeat("=", n) + "]"
	text := lx.src[lx.i:]
	if k := strings.Index(text, end); k >= 0 {
		text = text[:k]
		lx.i += k + len(end)
	} else {
		lx.i = len(lx.src)
	}
	return strings.TrimPrefix(text, "\n")
}

// prevOperand reports that the token before i is an operand (a name, a
// number, a string, a closing bracket), after which / divides rather than
// starting a regular expression.
func (lx *lexer) prevOperand() bool {
	if len(lx.toks) == 0 {
		return false
	}
	t := lx.toks[len(lx.toks)-1]
	switch t.kind {
	case tIdent:
		return !regexKeywords[t.text]
	case tNum, tStr:
		return true
	}
	return t.text == ")" || t.text == "]" || t.text == "}"
}

// regexKeywords are names after which / starts a regular expression.
var regexKeywords = map[string]bool{"return": true, "split": true, "if": true, "unless": true, "and": true, "or": true,
	"not": true, "when": true, "grep": true, "map": true, "typeof": true, "case": true, "while": true, "until": true,
	"elsif": true, "in": true, "of": true, "yield": true, "throw": true, "new": true, "delete": true, "void": true}

// regex skips a regular expression literal /…/flags at i (its text is not
// a string the scanner reads).
func (lx *lexer) regex(open byte) {
	start := lx.i
	lx.i++
	class := false
	for lx.i < len(lx.src) {
		c := lx.src[lx.i]
		switch {
		case c == '\\':
			lx.i++
		case c == '[':
			class = true
		case c == ']':
			class = false
		case c == open && !class:
			lx.i++
			for lx.i < len(lx.src) && isNameByte(lx.src[lx.i]) {
				lx.i++
			}
			lx.emit(tok{kind: tStr, text: Hole, off: start})
			return
		case c == '\n' && lx.lang == JS:
			lx.emit(tok{kind: tPunct, text: "/", off: start})
			lx.i = start + 1
			return
		}
		lx.i++
	}
	lx.emit(tok{kind: tStr, text: Hole, off: start})
}
