package interp

import (
	"strings"
)

// The forms of one language each: Python's prefixed and triple-quoted
// strings, Perl's quote-like operators, POD and here-documents, Ruby's %
// literals, symbols and here-documents, PHP's tags and here-documents,
// regular expression literals, Swift's multi-line and raw strings, R's raw
// strings and quoted names.

// python reads a string with a prefix (r, b, f, u and pairs) or triple
// quotes; an f-string's {…} is code.
func (lx *lexer) python() bool {
	src, i := lx.src, lx.i
	j := i
	for j < len(src) && j-i < 2 && strings.IndexByte("rRbBuUfF", src[j]) >= 0 {
		j++
	}
	if j >= len(src) || src[j] != '"' && src[j] != '\'' {
		return false
	}
	prefix := strings.ToLower(src[i:j])
	q := src[j : j+1]
	if strings.HasPrefix(src[j:], q+q+q) {
		q = q + q + q
	}
	lx.i = j + len(q)
	raw, f := strings.Contains(prefix, "r"), strings.Contains(prefix, "f")
	var text string
	lit := true
	if f {
		text, lit = lx.fstring(q, raw)
	} else {
		text, lit = lx.body(q, "", false, !raw)
	}
	lx.emit(tok{kind: tStr, text: text, lit: lit, off: i})
	return true
}

// fstring reads the rest of a Python f-string ending with q: {{ and }} are
// braces, {…} code.
func (lx *lexer) fstring(q string, raw bool) (string, bool) {
	var b strings.Builder
	lit := true
	src := lx.src
	for lx.i < len(src) {
		rest := src[lx.i:]
		switch {
		case strings.HasPrefix(rest, q):
			lx.i += len(q)
			return b.String(), lit
		case strings.HasPrefix(rest, "{{") || strings.HasPrefix(rest, "}}"):
			b.WriteByte(rest[0])
			lx.i += 2
		case rest[0] == '{':
			end := matchBracket(src, lx.i)
			lx.nest(src[lx.i+1:end], lx.i+1)
			b.WriteString(homeOr(lx.lang, src[lx.i+1:end]))
			lit = false
			lx.i = min(end+1, len(src))
		case rest[0] == '\\' && !raw && len(rest) > 1:
			s, n := decodeEscape(rest)
			b.WriteString(s)
			lx.i += n
		default:
			b.WriteByte(rest[0])
			lx.i++
		}
	}
	return b.String(), lit
}

// heredoc is a here-document whose body starts on the next line.
type heredoc struct {
	idx      int    // its token
	term     string // the line that ends it
	indented bool   // the terminator may be indented (<<~, <<-, PHP)
	interp   bool
	run      bool
}

// heredocStart reads a here-document's opener at i (after its <<, <<<),
// if there is one: "ID", 'ID', `ID`, ID, with ~ or - before.
func (lx *lexer) heredocStart(opener string, indented bool) bool {
	src, i := lx.src, lx.i+len(opener)
	if i < len(src) && (src[i] == '~' || src[i] == '-') && lx.lang != PHP {
		indented = true
		i++
	}
	if i >= len(src) {
		return false
	}
	d := heredoc{interp: true, indented: indented}
	switch q := src[i]; {
	case q == '"' || q == '\'' || q == '`':
		k := strings.IndexByte(src[i+1:], q)
		if k <= 0 {
			return false
		}
		d.term = src[i+1 : i+1+k]
		d.interp = q != '\''
		d.run = q == '`'
		i += k + 2
	case isNameByte(q) && (q < 'a' || q > 'z' || lx.lang == PHP):
		k := i
		for k < len(src) && isNameByte(src[k]) {
			k++
		}
		d.term = src[i:k]
		i = k
	default:
		return false
	}
	d.idx = len(lx.toks)
	lx.emit(tok{kind: tStr, run: d.run, off: lx.i})
	lx.docs = append(lx.docs, d)
	lx.i = i
	return true
}

// heredocBodies reads the bodies of the here-documents opened on the line
// that ends at i.
func (lx *lexer) heredocBodies() {
	docs := lx.docs
	lx.docs = nil
	pos := lx.i + 1
	for _, d := range docs {
		var body strings.Builder
		for pos < len(lx.src) {
			end := strings.IndexByte(lx.src[pos:], '\n')
			if end < 0 {
				end = len(lx.src) - pos
			}
			line := lx.src[pos : pos+end]
			pos += end + 1
			t := line
			if d.indented {
				t = strings.TrimLeft(t, " \t")
			}
			if t == d.term || lx.lang == PHP && strings.HasPrefix(t, d.term) && strings.Trim(t[len(d.term):], ";,) \t") == "" {
				break
			}
			body.WriteString(line)
			body.WriteByte('\n')
		}
		text, lit := body.String(), true
		if d.interp {
			sub := &lexer{lang: lx.lang, syn: lx.syn, src: text}
			text, lit = sub.body("\x00\x00", "", true, true)
			lx.nested = append(lx.nested, sub.nested...)
		}
		if d.idx < len(lx.toks) {
			lx.toks[d.idx].text, lx.toks[d.idx].lit = text, lit
		}
	}
	lx.i = min(pos, len(lx.src))
}

// perl reads POD, __END__, here-documents, q// qq// qw// qx// m// qr// s///
// tr/// y/// and regular expressions.
func (lx *lexer) perl() bool {
	src, i := lx.src, lx.i
	rest := src[i:]
	switch {
	case rest[0] == '=' && lx.atLineStart() && len(rest) > 1 && rest[1] >= 'a' && rest[1] <= 'z':
		if k := strings.Index(rest, "\n=cut"); k >= 0 {
			lx.i += k + 5
			lx.skipLine()
		} else {
			lx.i = len(src)
		}
		return true
	case (strings.HasPrefix(rest, "__END__") || strings.HasPrefix(rest, "__DATA__")) && lx.atLineStart():
		lx.i = len(src)
		return true
	case strings.HasPrefix(rest, "<<") && !lx.prevOperand():
		return lx.heredocStart("<<", false)
	case rest[0] == '/' && !lx.prevOperand():
		lx.regex('/')
		return true
	case isNameByte(rest[0]) && (i == 0 || !isNameByte(src[i-1])):
		return lx.perlQuote()
	}
	return false
}

// perlQuote reads a quote-like operator at i, if one is there.
func (lx *lexer) perlQuote() bool {
	src, i := lx.src, lx.i
	k := i
	for k < len(src) && isNameByte(src[k]) {
		k++
	}
	op := src[i:k]
	switch op {
	case "q", "qq", "qw", "qx", "m", "qr", "s", "tr", "y":
	default:
		return false
	}
	if len(lx.toks) > 0 && (lx.toks[len(lx.toks)-1].is("->") || lx.toks[len(lx.toks)-1].is("{")) {
		return false // a method or a hash key named q, s …
	}
	d := k
	for d < len(src) && (src[d] == ' ' || src[d] == '\t') {
		d++
	}
	if d >= len(src) || isNameByte(src[d]) || strings.IndexByte(" \t\n,;)=", src[d]) >= 0 || src[d] == '=' {
		return false
	}
	lx.i = d
	text, lit := lx.delimited(op == "qq" || op == "qx" || op == "s" || op == "m" || op == "qr", op != "q" && op != "qw")
	switch op {
	case "m", "qr":
		lx.skipFlags()
		lx.emit(tok{kind: tStr, text: Hole, off: i})
	case "s", "tr", "y":
		lx.skipBlanksIfBracket()
		repl, _ := lx.delimited(op == "s", op == "s")
		flags := lx.skipFlags()
		if op == "s" && strings.Contains(flags, "e") {
			lx.nest(repl, i) // s///e: the replacement is code
		}
		lx.emit(tok{kind: tStr, text: Hole, off: i})
	default:
		lx.emit(tok{kind: tStr, text: text, lit: lit, run: op == "qx", off: i})
	}
	return true
}

// delimited reads a delimited part at i (bracketing delimiters nest).
func (lx *lexer) delimited(interp, escapes bool) (string, bool) {
	if lx.i >= len(lx.src) {
		return "", true
	}
	open := lx.src[lx.i]
	lx.i++
	if close, ok := map[byte]byte{'(': ')', '[': ']', '{': '}', '<': '>'}[open]; ok {
		return lx.body(string(close), string(open), interp, escapes)
	}
	return lx.body(string(open), "", interp, escapes)
}

// skipBlanksIfBracket: s{…} {…} may have blanks between its parts; with
// one delimiter (s/a/b/) the second part starts at once, so the closing
// delimiter of the first, already read, is reread as its opener.
func (lx *lexer) skipBlanksIfBracket() {
	if lx.i <= 0 || lx.i > len(lx.src) {
		lx.i = len(lx.src)
		return
	}
	prev := lx.src[lx.i-1]
	if strings.IndexByte(")]}>", prev) >= 0 {
		for lx.i < len(lx.src) && strings.IndexByte(" \t\n", lx.src[lx.i]) >= 0 {
			lx.i++
		}
		return
	}
	lx.i-- // the shared delimiter opens the replacement
}

func (lx *lexer) skipFlags() string {
	start := lx.i
	for lx.i < len(lx.src) && isNameByte(lx.src[lx.i]) {
		lx.i++
	}
	return lx.src[start:lx.i]
}

// ruby reads =begin … =end, __END__, % literals, here-documents, symbols
// and regular expressions.
func (lx *lexer) ruby() bool {
	src, i := lx.src, lx.i
	rest := src[i:]
	switch {
	case strings.HasPrefix(rest, "=begin") && lx.atLineStart():
		if k := strings.Index(rest, "\n=end"); k >= 0 {
			lx.i += k + 5
			lx.skipLine()
		} else {
			lx.i = len(src)
		}
		return true
	case strings.HasPrefix(rest, "__END__") && lx.atLineStart():
		lx.i = len(src)
		return true
	case rest[0] == '%' && !lx.prevOperand() && len(rest) > 2:
		return lx.rubyPercent()
	case strings.HasPrefix(rest, "<<") && !lx.prevOperand():
		return lx.heredocStart("<<", false)
	case rest[0] == '/' && !lx.prevOperand():
		lx.regex('/')
		return true
	case rest[0] == ':' && len(rest) > 1 && (isNameByte(rest[1]) || rest[1] == '"') && (i == 0 || src[i-1] != ':') && !lx.prevOperand():
		lx.i++
		if rest[1] == '"' {
			lx.quoted('"')
			return true
		}
		lx.name()
		lx.toks[len(lx.toks)-1].kind, lx.toks[len(lx.toks)-1].lit = tStr, true
		return true
	}
	return false
}

// rubyPercent reads %q(…) %Q(…) %(…) %w(…) %W(…) %i(…) %I(…) %x(…) %r(…)
// %s(…).
func (lx *lexer) rubyPercent() bool {
	src, i := lx.src, lx.i
	kind := byte('Q')
	d := i + 1
	if strings.IndexByte("qQwWiIxrs", src[d]) >= 0 {
		kind = src[d]
		d++
	}
	if d >= len(src) || isNameByte(src[d]) || strings.IndexByte(" \t\n=", src[d]) >= 0 {
		return false
	}
	lx.i = d
	interp := strings.IndexByte("QWIxr", kind) >= 0
	text, lit := lx.delimited(interp, interp)
	switch kind {
	case 'r':
		lx.skipFlags()
		lx.emit(tok{kind: tStr, text: Hole, off: i})
	default:
		lx.emit(tok{kind: tStr, text: text, lit: lit, run: kind == 'x', off: i})
	}
	return true
}

// php reads its tags and here-documents.
func (lx *lexer) php() bool {
	rest := lx.src[lx.i:]
	switch {
	case strings.HasPrefix(rest, "<?php"):
		lx.i += 5
		return true
	case strings.HasPrefix(rest, "<?="), strings.HasPrefix(rest, "<?"):
		lx.i += 2
		return true
	case strings.HasPrefix(rest, "?>"):
		// Text outside the tags is output, not code.
		if k := strings.Index(rest, "<?"); k >= 0 {
			lx.i += k
		} else {
			lx.i = len(lx.src)
		}
		return true
	case strings.HasPrefix(rest, "<<<"):
		k := lx.i + 3
		for k < len(lx.src) && (lx.src[k] == ' ' || lx.src[k] == '\t') {
			k++
		}
		save := lx.i
		lx.i = k - 3
		if lx.heredocStart("<<<", true) {
			return true
		}
		lx.i = save
	}
	return false
}

// js reads regular expression literals.
func (lx *lexer) js() bool {
	rest := lx.src[lx.i:]
	if rest[0] == '/' && len(rest) > 1 && rest[1] != '/' && rest[1] != '*' && !lx.prevOperand() {
		lx.regex('/')
		return true
	}
	return false
}

// swift reads multi-line and raw strings.
func (lx *lexer) swift() bool {
	src, i := lx.src, lx.i
	rest := src[i:]
	hashes := 0
	for hashes < len(rest) && rest[hashes] == '#' {
		hashes++
	}
	if hashes == 0 && !strings.HasPrefix(rest, `"""`) || hashes > 0 && (hashes >= len(rest) || rest[hashes] != '"') {
		return false
	}
	q := `"`
	if strings.HasPrefix(rest[hashes:], `"""`) {
		q = `"""`
	}
	lx.i += hashes + len(q)
	end := q + strings.Repeat("#", hashes)
	var text string
	lit := true
	if hashes == 0 {
		text, lit = lx.body(end, "", true, true)
	} else {
		text, lit = lx.rawSwift(end, hashes)
	}
	lx.emit(tok{kind: tStr, text: strings.TrimPrefix(text, "\n"), lit: lit, off: i})
	return true
}

// rawSwift reads a raw string #"…"#: no escapes but \#(…), an
// interpolation.
func (lx *lexer) rawSwift(end string, hashes int) (string, bool) {
	var b strings.Builder
	lit := true
	open := `\` + strings.Repeat("#", hashes) + "("
	for lx.i < len(lx.src) {
		rest := lx.src[lx.i:]
		switch {
		case strings.HasPrefix(rest, end):
			lx.i += len(end)
			return b.String(), lit
		case strings.HasPrefix(rest, open):
			p := lx.i + len(open) - 1
			close := matchBracket(lx.src, p)
			lx.nest(lx.src[p+1:close], p+1)
			b.WriteString(homeOr(lx.lang, lx.src[p+1:close]))
			lit = false
			lx.i = min(close+1, len(lx.src))
		default:
			b.WriteByte(rest[0])
			lx.i++
		}
	}
	return b.String(), lit
}

// rLang reads R's raw strings (r"(…)", R"-[…]-") and `quoted names`.
func (lx *lexer) rLang() bool {
	src, i := lx.src, lx.i
	rest := src[i:]
	switch {
	case rest[0] == '`':
		k := strings.IndexByte(rest[1:], '`')
		if k < 0 {
			k = len(rest) - 1
		}
		lx.emit(tok{kind: tIdent, text: rest[1 : 1+k], off: i})
		lx.i += k + 2
		return true
	case (rest[0] == 'r' || rest[0] == 'R') && len(rest) > 2 && (rest[1] == '"' || rest[1] == '\''):
		q := rest[1]
		j := 2
		for j < len(rest) && rest[j] == '-' {
			j++
		}
		if j >= len(rest) || strings.IndexByte("([{", rest[j]) < 0 {
			return false
		}
		close := map[byte]byte{'(': ')', '[': ']', '{': '}'}[rest[j]]
		end := string(close) + rest[2:j] + string(q)
		body := rest[j+1:]
		k := strings.Index(body, end)
		if k < 0 {
			k = len(body)
			lx.i = len(src)
		} else {
			lx.i += j + 1 + k + len(end)
		}
		lx.emit(tok{kind: tStr, text: body[:k], lit: true, off: i})
		return true
	}
	return false
}
