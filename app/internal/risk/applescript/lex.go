package applescript

import (
	"encoding/hex"
	"slices"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// The AppleScript normaliser: a lexer that reduces a script to the tokens
// the rules match on. Comments (--, #, nested (* *)) and ¬ continuations
// vanish, every kind of blank separates words, case is folded, string
// literals become single tokens whose content never matches a verb, and raw
// «event …» / «class …» codes become the terms they stand for.

type asKind uint8

const (
	asWord   asKind = iota // an identifier or keyword, lower-cased
	asString               // "…" (text: '"' and the decoded content)
	asNumber               // 12, 3.5
	asVar                  // |pipe quoted| identifier: never a keyword
	asOp                   // & ( ) { } , : = and friends
	asEvent                // «event XXXXYYYY» (text: the term it stands for)
	asEOL                  // end of a statement
)

// asToken is one token. It holds no pointers: its text is a range of the
// source or of the lexer's texts the source does not spell out (asLex.text),
// so a 1 MB script's 200,000 tokens are one flat, unscanned array.
type asToken struct {
	start, end int32 // byte offsets into the source
	// toff and tlen locate the text (asLex.text): words lower-cased; ops
	// the operator ('s for any spelling of it); events and «class» codes
	// the term they map to; strings their decoded content after a leading
	// '"' (so no string ever equals a word: use str for the content).
	toff, tlen int32
	kind       asKind
	op         byte   // the operator the text is: its byte, opPoss for 's, 0 for none (see varOp)
	kw         kwID   // the id of the text when it is a vocabulary word (askw.go)
	name       asName // for words: the name of the text (asname.go); 0 for others
}

// opPoss is the op of the possessive 's (a byte no ASCII operator has).
const opPoss = 0x80

// isOp reports the operator c (an ASCII byte, or opPoss).
func (t asToken) isOp(c byte) bool { return t.kind == asOp && t.op == c }

// varOp is the op a |identifier| spells, as asToken.op: |(| has the text
// "(" as much as ( has, so t.op == '(' holds exactly where the text is
// "(" whatever the kind (no other kind of token can have such a text).
func varOp(text string) byte {
	switch {
	case len(text) == 1 && text[0] < 0x80 && !wordBytes[text[0]]:
		return text[0]
	case len(text) == 2 && text[0] == '\'' && text[1] == 's':
		return opPoss
	}
	return 0
}

// text returns a token's text (see asToken): a range of the source, or
// of ext from extBase on.
func (lx *asLex) text(t asToken) string {
	if t.toff < lx.extBase {
		return lx.src[t.toff : t.toff+t.tlen]
	}
	o := t.toff - lx.extBase
	return lx.ext[o : o+t.tlen]
}

// str returns a string literal's content.
func (lx *asLex) str(t asToken) string {
	if t.kind != asString || t.tlen == 0 {
		return ""
	}
	return lx.text(t)[1:]
}

// eventCode returns the raw code of an «event …» token, from the source.
func (an *asAn) eventCode(t asToken) string {
	body := an.lx.src[t.start:t.end]
	body = strings.TrimPrefix(strings.TrimPrefix(body, "«"), "<<")
	body = strings.TrimSuffix(strings.TrimSuffix(body, "»"), ">>")
	f := strings.Fields(body)
	if len(f) < 2 {
		return "?"
	}
	return f[1]
}

// asLex is the normaliser's result.
type asLex struct {
	toks  []asToken
	ends  []int32 // the index in toks of each statement's asEOL
	strs  []int32 // the index in toks of each string literal, in order
	names *nameTable
	src   string
	// ext holds the tokens' texts the source does not spell out as they
	// are: words with upper-case letters, lower-cased; 's however spelt;
	// decoded strings; the terms of «event» and «class» codes. A token's
	// text is in ext when its toff is extBase or more (at toff-extBase),
	// else in src: most texts are the source's own bytes, which are
	// neither copied nor kept.
	ext     string
	extBase int32
	// problems found while lexing: unterminated strings or comments.
	unterminated string
	badUTF8      bool
}

// lexPool keeps lexers with their token buffers, reused: a 1 MB script
// has some 200,000 tokens.
var lexPool = sync.Pool{New: func() any { return new(asLex) }}

// release returns the lexer and its token buffers to the pool; lx must
// not be used after.
func (lx *asLex) release() {
	lx.names.release()
	*lx = asLex{toks: lx.toks[:0], ends: lx.ends[:0], strs: lx.strs[:0]}
	lexPool.Put(lx)
}

// lexAppleScript tokenises src. It never fails: problems are recorded in
// the result for the analyzer to rate.
func lexAppleScript(src string) *asLex {
	out := lexPool.Get().(*asLex)
	toks := out.toks[:0]
	if cap(toks) < len(src)/4+8 {
		toks = make([]asToken, 0, len(src)/4+8)
	}
	// The lexer works on a copy on the stack, written back once at the
	// end.
	n := len(src)
	lx := asLex{src: src, names: namePool.Get().(*nameTable), ends: out.ends[:0], strs: out.strs[:0], toks: toks,
		extBase: int32(n) + 1}
	// Words are most bytes of a script, blanks most of the rest: words run
	// on in words, everything else in other. Each keeps its state in
	// registers; one loop over both would spill it at every token.
	// The token slice and ext go in and out as values: stored into lx
	// through a pointer at every token, they would pay the garbage
	// collector's write barrier whenever it marks.
	var ext []byte
	toks = lx.toks
	for i := 0; i < n; {
		if wordClass[src[i]] != 0 {
			toks, ext, i = lx.words(toks, ext, i)
		} else {
			toks, ext, i = lx.other(toks, ext, i)
		}
	}
	lx.toks = lx.eol(toks, n)
	if len(ext) > 0 {
		// ext is not written again, and is this script's alone (never
		// pooled): the string shares its bytes.
		lx.ext = unsafe.String(&ext[0], len(ext))
	}
	*out = lx
	return out
}

// extText appends s to ext, the texts the source does not spell out, and
// returns ext and where s is: its toff and tlen.
func (lx *asLex) extText(ext []byte, s string) ([]byte, int32, int32) {
	ext = lx.extRoom(ext)
	off := lx.extBase + int32(len(ext))
	return append(ext, s...), off, int32(len(s))
}

// extLower appends src[i:j] to ext with A-Z lower-cased, and returns ext
// and the toff of the text.
func (lx *asLex) extLower(ext []byte, i, j int) ([]byte, int32) {
	ext = lx.extRoom(ext)
	off := len(ext)
	ext = append(ext, lx.src[i:j]...)
	low := ext[off:]
	for k, c := range low {
		low[k] = lowerTable[c]
	}
	return ext, lx.extBase + int32(off)
}

// extRoom gives ext, on its first text, room for a quarter of the script
// (the benchmark script's texts not in the source are a seventh of it),
// so that it seldom grows.
func (lx *asLex) extRoom(ext []byte) []byte {
	if ext == nil {
		ext = make([]byte, 0, len(lx.src)/4+16)
	}
	return ext
}

// lowerAt returns the text src[i:j] with A-Z lower-cased, in place: its
// toff, the source's own where it has no upper-case letter, else a
// lower-cased copy in ext (extLower).
func (lx *asLex) lowerAt(ext []byte, i, j int) ([]byte, int32) {
	for _, c := range []byte(lx.src[i:j]) {
		if wordClass[c]&wordUpper != 0 {
			return lx.extLower(ext, i, j)
		}
	}
	return ext, int32(i)
}

// other lexes what starts at i, a byte that does not start a word, onto
// toks (ext may grow), and returns both and where lexing goes on.
func (lx *asLex) other(toks []asToken, ext []byte, i int) ([]asToken, []byte, int) {
	src := lx.src
	n := len(src)
	c := src[i]
	switch lexClass[c] {
	case lcBlank:
		i++
		for i < n && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
	case lcEOL:
		toks = lx.eol(toks, i)
		i++
	case lcDash:
		if i+1 < n && src[i+1] == '-' {
			i = skipLine(src, i)
			break
		}
		toks = pushOp(toks, i, c)
		i++
	case lcHash:
		i = skipLine(src, i)
	case lcParen:
		if i+1 < n && src[i+1] == '*' {
			j, ok := skipBlockComment(src, i)
			if !ok {
				lx.unterminated = "comment"
			}
			i = j
			break
		}
		toks = pushOp(toks, i, c)
		i++
	case lcQuote:
		toks, ext, i = lx.lexString(toks, ext, i, 1, '"')
	case lcPipe:
		j := strings.IndexByte(src[i+1:], '|')
		if j < 0 || strings.ContainsAny(src[i+1:i+1+j], "\r\n") {
			lx.unterminated = "|identifier|"
			toks = pushToken(toks, asVar, i, n, i, n-i)
			toks[len(toks)-1].kw = lookupKW(src[i:n])
			i = n
			break
		}
		var toff int32
		ext, toff = lx.lowerAt(ext, i+1, i+1+j)
		toks = pushToken(toks, asVar, i, i+j+2, int(toff), j)
		text := lx.textIn(ext, toks[len(toks)-1])
		toks[len(toks)-1].kw = lookupKW(text)
		toks[len(toks)-1].op = varOp(text)
		i += j + 2
	case lcApos:
		if i+1 < n && (src[i+1] == 's' || src[i+1] == 'S') && (i+2 >= n || !isWordByte(src[i+2])) {
			toff := int32(i)
			if src[i+1] == 'S' {
				ext, toff, _ = lx.extText(ext, "'s") // the text is 's, however spelt
			}
			toks = pushToken(toks, asOp, i, i+2, int(toff), 2)
			toks[len(toks)-1].op = opPoss
			i += 2
			break
		}
		toks = pushOp(toks, i, c)
		i++
	case lcLess:
		if i+1 < n && src[i+1] == '<' {
			toks, ext, i = lx.chevron(toks, ext, i, 2, ">>")
			break
		}
		toks = pushOp(toks, i, c)
		i++
	case lcOp:
		toks = pushOp(toks, i, c)
		i++
	case lcHigh:
		toks, ext, i = lx.nonASCII(toks, ext, i)
	default:
		// lcWord, lcDigit are words' (lexAppleScript); what is left is a
		// blank: space or tab.
		i++
		for i < n && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
	}
	return toks, ext, i
}

// textIn is text for a token of the script being lexed, whose ext is not
// yet lx.ext.
func (lx *asLex) textIn(ext []byte, t asToken) string {
	if t.toff < lx.extBase {
		return lx.src[t.toff : t.toff+t.tlen]
	}
	o := t.toff - lx.extBase
	return string(ext[o : o+t.tlen])
}

// words lexes the word or number at i (a byte of wordClass), the blanks
// after it, and the words and blanks that follow, onto toks; it returns
// toks, ext and where lexing goes on.
//
// Most words of a script are lower-case ASCII of at most kwMaxLen bytes
// with eight bytes of source from their start: those the loop below
// lexes itself, with few values live across it; every other word
// (numbers, upper-case letters, non-ASCII letters, long words, words near
// the end) goes to word, which lexes any word.
func (lx *asLex) words(toks []asToken, ext []byte, i int) ([]asToken, []byte, int) {
	src := lx.src
	n := len(src)
	for {
		// Scan the word, noting whether it has upper-case letters.
		cls := wordClass[src[i]]
		j := i + 1
		for j < n {
			k := wordClass[src[j]]
			if k == 0 {
				break
			}
			cls |= k
			j++
		}
		if w := j - i; src[i] > '9' && cls&wordUpper == 0 && w <= kwMaxLen && i+8 <= n && (j == n || src[j] < 0x80) {
			// The packed word: two loads from the source, and the text is
			// the source's.
			lo, hi := le64(src, i)&kwLoMask[w], uint64(0)
			if w > 8 {
				hi = le64(src, j-8)
			}
			kw, name := lx.packedWord(lo, hi, w)
			if len(toks) == cap(toks) {
				toks = slices.Grow(toks, 1)
			}
			toks = toks[:len(toks)+1]
			t := &toks[len(toks)-1]
			t.start, t.end, t.toff, t.tlen = int32(i), int32(j), int32(i), int32(w)
			t.kind, t.op, t.kw, t.name = asWord, 0, kw, name
		} else {
			toks, ext, j = lx.word(toks, ext, i, j, cls)
		}
		// A blank most often follows a word, and a word the blank.
		for j < n && (src[j] == ' ' || src[j] == '\t') {
			j++
		}
		i = j
		if i >= n || wordClass[src[i]] == 0 {
			break
		}
	}
	return toks, ext, i
}

// packedWord returns the keyword id and name of a word of w bytes packed
// as lo, hi (packKW).
func (lx *asLex) packedWord(lo, hi uint64, w int) (kwID, asName) {
	h := vocab.bucket(lo, hi, w)
	a, b := &vocab.slots[h], &vocab.slots[h|1]
	ida, idb := a.id, b.id
	var kw kwID
	if a.lo^lo|a.hi^hi|uint64(a.n)^uint64(w) == 0 {
		kw = ida
	}
	if b.lo^lo|b.hi^hi|uint64(b.n)^uint64(w) == 0 {
		kw = idb
	}
	if kw != kwNone {
		return kw, asName(kw)
	}
	// The name's first slot, read here: a name the script has used before
	// is most often there (packed starts at the same slot).
	nt := lx.names
	s := &nt.slots[nameHash(lo, hi, w)&uint64(len(nt.slots)-1)]
	if s.gen == nt.gen && s.lo == lo && s.hi == hi && int(s.n) == w {
		return kwNone, s.id
	}
	return kwNone, nt.packed(lo, hi, w)
}

// word lexes any word or number at i onto toks (ext may grow), the bytes
// src[i:j] its run of word bytes, cls their wordClass bits or'ed; it
// returns toks, ext and the word's end.
func (lx *asLex) word(toks []asToken, ext []byte, i, j int, cls uint8) ([]asToken, []byte, int) {
	src := lx.src
	n := len(src)
	if src[i] <= '9' {
		// A number: its first run of word bytes lower-cased, the rest
		// (wordTail: 3.5, 1e3) as written.
		toff, run := int32(i), j
		j = wordTail(src, i, j)
		if cls&wordUpper != 0 {
			ext, toff = lx.extLower(ext, i, run)
			ext = append(ext, src[run:j]...)
		}
		return pushToken(toks, asNumber, i, j, int(toff), j-i), ext, j
	}
	if j < n && src[j] >= 0x80 {
		// Non-ASCII letters, and the ASCII word bytes after them, which
		// need lower-casing as much as the first run.
		run := j
		j = wordTail(src, i, j)
		for _, c := range []byte(src[run:j]) {
			cls |= wordClass[c]
		}
	}
	// The word's text (a lower-cased copy in ext if it has upper-case
	// letters), keyword id and name: the keyword's, or one the script's
	// name table gives it.
	toff, text, upper := int32(i), src[i:j], cls&wordUpper != 0
	if upper {
		ext, toff = lx.extLower(ext, i, j)
		// ext's bytes are never written again where they are (growing
		// copies them), so the text may share them.
		text = unsafe.String(&ext[toff-lx.extBase], j-i)
	}
	var kw kwID
	var name asName
	if w := j - i; w <= kwMaxLen {
		var lo, hi uint64
		if i+8 <= n {
			lo = le64(src, i)
			if w > 8 {
				hi = le64(src, j-8)
			}
			if upper {
				lo, hi = foldUpper(lo), foldUpper(hi)
			}
			lo &= kwLoMask[w]
		} else {
			lo, hi = packKW(text)
		}
		kw, name = lx.packedWord(lo, hi, w)
	} else {
		kw, name = lx.names.word(text)
	}
	toks = pushToken(toks, asWord, i, j, int(toff), j-i)
	t := &toks[len(toks)-1]
	t.kw, t.name = kw, name
	return toks, ext, j
}

// foldUpper lower-cases the bytes A-Z of x, eight bytes at a time, as
// lowerTable does one: a byte's low seven bits plus 0x80-c carry into its
// top bit exactly when they are c or more, and never into the next byte.
func foldUpper(x uint64) uint64 {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	x7 := x &^ high
	upper := (x7 + ones*(0x80-'A')) &^ (x7 + ones*(0x80-'Z'-1)) &^ x & high
	return x | upper>>2 // 'A'|0x20 is 'a'
}

// le64 returns the eight bytes of s from i as a little-endian integer.
func le64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// pushToken appends a token, writing its fields in place: a composite
// literal appended goes through a stack temporary, and copying that
// temporary with wide loads right after its narrow stores stalls.
func pushToken(toks []asToken, kind asKind, start, end, toff, tlen int) []asToken {
	toks = append(toks, asToken{})
	t := &toks[len(toks)-1]
	t.start, t.end, t.toff, t.tlen, t.kind = int32(start), int32(end), int32(toff), int32(tlen), kind
	return toks
}

// pushOp appends the one-byte operator c at i.
func pushOp(toks []asToken, i int, c byte) []asToken {
	toks = pushToken(toks, asOp, i, i+1, i, 1)
	toks[len(toks)-1].op = c
	return toks
}

// nonASCII lexes what starts with a byte of 0x80 or above at i.
func (lx *asLex) nonASCII(toks []asToken, ext []byte, i int) ([]asToken, []byte, int) {
	src := lx.src
	n := len(src)
	r, size := utf8.DecodeRuneInString(src[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		lx.badUTF8 = true
		i++
	case r == '¬':
		// A continuation: the statement goes on past the line end.
		i += size
		for i < n && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
		if i < n && src[i] == '\r' {
			i++
		}
		if i < n && src[i] == '\n' {
			i++
		}
	case r == '«':
		toks, ext, i = lx.chevron(toks, ext, i, size, "»")
	case r == '“':
		toks, ext, i = lx.lexString(toks, ext, i, size, '”')
	case r == 0x2028 || r == 0x2029:
		toks = lx.eol(toks, i)
		i += size
	case rate.IsUnicodeSpace(r):
		i += size
	case rate.IsUnicodeLetter(r):
		j := i + size
		for j < n {
			if isWordByte(src[j]) {
				j++
				continue
			}
			r2, s2 := utf8.DecodeRuneInString(src[j:])
			if src[j] < 0x80 || !rate.IsUnicodeLetter(r2) {
				break
			}
			j += s2
		}
		var toff int32
		ext, toff = lx.lowerAt(ext, i, j)
		toks = pushToken(toks, asWord, i, j, int(toff), j-i)
		toks[len(toks)-1].kw = lookupKW(lx.textIn(ext, toks[len(toks)-1]))
		i = j
	default:
		toks = pushToken(toks, asOp, i, i+size, i, size)
		i += size
	}
	return toks, ext, i
}

// Byte classes for the lexer's dispatch.
const (
	lcOp    = iota // an operator: & ( ) { } , : = …
	lcWord         // a letter or _ (words are taken before the switch)
	lcDigit        // 0-9 (likewise)
	lcBlank        // space, tab, form feed, vertical tab
	lcEOL          // \n, \r
	lcDash         // - (or a -- comment)
	lcHash         // # comment
	lcParen        // ( (or a (* comment *))
	lcQuote        // "
	lcPipe         // |identifier|
	lcApos         // ' (or 's)
	lcLess         // < (or <<event …>>)
	lcHigh         // 0x80 and above: UTF-8
)

var lexClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		switch {
		case c >= 0x80:
			t[c] = lcHigh
		case c >= '0' && c <= '9':
			t[c] = lcDigit
		case wordBytes[c]:
			t[c] = lcWord
		}
	}
	t[' '], t['\t'], t['\f'], t['\v'] = lcBlank, lcBlank, lcBlank, lcBlank
	t['\n'], t['\r'] = lcEOL, lcEOL
	t['-'], t['#'], t['('], t['"'], t['|'], t['\''], t['<'] = lcDash, lcHash, lcParen, lcQuote, lcPipe, lcApos, lcLess
	return t
}()

// wordTail continues a word past j: non-ASCII letters (AppleScript allows
// them; a homoglyph makes a different word, never a keyword), and the rest
// of a number (3.5, 1e3).
func wordTail(src string, i, j int) int {
	n := len(src)
	if src[i] >= '0' && src[i] <= '9' {
		for j < n && (src[j] == '.' || wordBytes[src[j]]) {
			j++
		}
		return j
	}
	for j < n && src[j] >= 0x80 {
		r, size := utf8.DecodeRuneInString(src[j:])
		if !rate.IsUnicodeLetter(r) {
			break
		}
		j += size
		for j < n && wordBytes[src[j]] {
			j++
		}
	}
	return j
}

// eol ends a statement at byte at (once: blank lines add nothing).
func (lx *asLex) eol(toks []asToken, at int) []asToken {
	if k := len(toks); k > 0 && toks[k-1].kind == asEOL {
		return toks
	}
	lx.ends = append(lx.ends, int32(len(toks)))
	return pushToken(toks, asEOL, at, at, 0, 0)
}

// lexString lexes a string literal starting at i (the quote is open bytes
// long).
func (lx *asLex) lexString(toks []asToken, ext []byte, i, open int, closeRune rune) ([]asToken, []byte, int) {
	src := lx.src
	n := len(src)
	j := i + open
	if open == 1 {
		// A "…" literal without escapes is a slice of the source.
		for j < n && src[j] != '"' && src[j] != '\\' {
			j++
		}
		switch {
		case j < n && src[j] == '"':
			lx.strs = append(lx.strs, int32(len(toks)))
			return pushToken(toks, asString, i, j+1, i, j-i), ext, j + 1
		case j+1 >= n:
			// At the end, or a backslash as the last byte (content, then):
			// the string is open.
			lx.unterminated = "string"
			lx.strs = append(lx.strs, int32(len(toks)))
			return pushToken(toks, asString, i, n, i, n-i), ext, n
		}
	}
	// Escapes, or “…”: the text is decoded into ext.
	ext = lx.extRoom(ext)
	off := len(ext)
	ext = append(ext, '"')
	ext = append(ext, src[i+open:j]...)
	for j < n {
		c := src[j]
		if c == '\\' && j+1 < n {
			switch src[j+1] {
			case 'n':
				ext = append(ext, '\n')
			case 't':
				ext = append(ext, '\t')
			case 'r':
				ext = append(ext, '\r')
			default:
				ext = append(ext, src[j+1])
			}
			j += 2
			continue
		}
		if closeRune == '"' && c == '"' || closeRune != '"' && strings.HasPrefix(src[j:], string(closeRune)) {
			end := j + 1
			if closeRune != '"' {
				end = j + utf8.RuneLen(closeRune)
			}
			lx.strs = append(lx.strs, int32(len(toks)))
			return pushToken(toks, asString, i, end, int(lx.extBase)+off, len(ext)-off), ext, end
		}
		ext = append(ext, c)
		j++
	}
	lx.unterminated = "string"
	lx.strs = append(lx.strs, int32(len(toks)))
	return pushToken(toks, asString, i, n, int(lx.extBase)+off, len(ext)-off), ext, n
}

// chevron lexes «event aevtquit», «class cfol» and their <<…>> spelling.
func (lx *asLex) chevron(toks []asToken, ext []byte, i, open int, closer string) ([]asToken, []byte, int) {
	src := lx.src
	j := strings.Index(src[i+open:], closer)
	if j < 0 {
		lx.unterminated = "«…» code"
		return pushToken(toks, asEvent, i, len(src), 0, 0), ext, len(src)
	}
	body := strings.TrimSpace(strings.Join(strings.Fields(src[i+open:i+open+j]), " "))
	end := i + open + j + len(closer)
	kind, code, _ := strings.Cut(body, " ")
	kind = strings.ToLower(kind)
	var off, size int32
	switch kind {
	case "event":
		term := eventTerms[strings.ToLower(code)]
		ext, off, size = lx.extText(ext, term)
		toks = pushToken(toks, asEvent, i, end, int(off), int(size))
		toks[len(toks)-1].kw = lookupKW(term)
	case "class", "property", "constant", "enum", "type", "keyword":
		term, ok := classTerms[strings.ToLower(code)]
		if !ok {
			term = "«" + strings.ToLower(code) + "»"
		}
		for _, w := range strings.Fields(term) {
			ext, off, size = lx.extText(ext, w)
			toks = pushToken(toks, asWord, i, end, int(off), int(size))
			toks[len(toks)-1].kw = lookupKW(w)
		}
	case "data":
		// «data utf8…», «data TEXT…», «data utxt…»: text spelled in hex,
		// read as the string literal it is.
		if text, ok := dataText(code); ok {
			ext, off, size = lx.extText(ext, "\""+text)
			lx.strs = append(lx.strs, int32(len(toks)))
			toks = pushToken(toks, asString, i, end, int(off), int(size))
			break
		}
		ext, off, size = lx.extText(ext, "«data»")
		toks = pushToken(toks, asNumber, i, end, int(off), int(size))
	default: // «script», «constant» and the like: a value
		ext, off, size = lx.extText(ext, "«data»")
		toks = pushToken(toks, asNumber, i, end, int(off), int(size))
	}
	return toks, ext, end
}

// dataText decodes the body of a «data» literal that holds text: a type
// (utf8, TEXT or utxt, any case) and its bytes in hex. Other data, or hex
// that is not, is no text.
func dataText(code string) (string, bool) {
	code = strings.ReplaceAll(code, " ", "")
	if len(code) < 4 {
		return "", false
	}
	typ, hexText := strings.ToLower(code[:4]), code[4:]
	b, err := hex.DecodeString(hexText)
	if err != nil {
		return "", false
	}
	switch typ {
	case "utf8", "text":
		// TEXT is Mac Roman, which is ASCII below 0x80; what is above is
		// kept as it is, and the analysis reads it as invalid text.
		return string(b), true
	case "utxt", "ut16":
		if len(b)%2 != 0 {
			return "", false
		}
		// Native byte order, which the literal does not say: read both,
		// and take the one that reads as more ASCII (a byte-order mark
		// decides, where there is one).
		be, le := make([]uint16, len(b)/2), make([]uint16, len(b)/2)
		beASCII, leASCII := 0, 0
		for k := range be {
			be[k] = uint16(b[2*k])<<8 | uint16(b[2*k+1])
			le[k] = uint16(b[2*k+1])<<8 | uint16(b[2*k])
			if be[k] < 0x80 {
				beASCII++
			}
			if le[k] < 0x80 {
				leASCII++
			}
		}
		u := be
		if len(le) > 0 && le[0] == 0xfeff || leASCII > beASCII && !(len(be) > 0 && be[0] == 0xfeff) {
			u = le
		}
		if len(u) > 0 && u[0] == 0xfeff {
			u = u[1:]
		}
		return string(utf16.Decode(u)), true
	}
	return "", false
}

// skipLine returns the end of the line starting at i: the next \n, \r,
// U+2028 or U+2029.
func skipLine(src string, i int) int {
	end := len(src)
	if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
		end = i + j
	}
	if j := strings.IndexByte(src[i:end], '\r'); j >= 0 {
		end = i + j
	}
	// U+2028 and U+2029 are E2 80 A8/A9.
	for k := i; k < end; {
		j := strings.IndexByte(src[k:end], 0xe2)
		if j < 0 {
			break
		}
		k += j
		if k+2 < len(src) && src[k+1] == 0x80 && (src[k+2] == 0xa8 || src[k+2] == 0xa9) {
			return k
		}
		k++
	}
	return end
}

// skipBlockComment skips a (* … *) comment, which nests.
func skipBlockComment(src string, i int) (int, bool) {
	depth := 0
	n := len(src)
	for i < n {
		// Both marks hold a '*': find the next, then look either side.
		j := strings.IndexByte(src[i:], '*')
		if j < 0 {
			return n, false
		}
		k := i + j
		if k > i && src[k-1] == '(' {
			depth++
			i = k + 1
			continue
		}
		if k+1 < n && src[k+1] == ')' {
			depth--
			i = k + 2
			if depth == 0 {
				return i, true
			}
			continue
		}
		i = k + 1
	}
	return n, false
}

var wordBytes = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
	}
	return t
}()

// wordClass is wordBytes with the upper-case letters marked: wordByte, or
// wordByte|wordUpper for A-Z, or 0 for a byte that is not part of a word.
var wordClass = func() (t [256]uint8) {
	for c := 0; c < 256; c++ {
		if wordBytes[c] {
			t[c] = wordByte
		}
		if c >= 'A' && c <= 'Z' {
			t[c] |= wordUpper
		}
	}
	return t
}()

const (
	wordByte  = 1
	wordUpper = 2
)

func isWordByte(c byte) bool { return wordBytes[c] }

var lowerTable = func() (t [256]byte) {
	for c := 0; c < 256; c++ {
		t[c] = byte(c)
		if c >= 'A' && c <= 'Z' {
			t[c] = byte(c + 'a' - 'A')
		}
	}
	return t
}()

// eventTerms maps raw Apple event codes (class+id) to the terms they stand
// for. A code that is not here is rated as unknown.
var eventTerms = map[string]string{
	"aevtquit": "quit", "aevtoapp": "run", "aevtodoc": "open", "aevtpdoc": "print", "aevtrapp": "reopen",
	"aevtrlgo": "log out", "aevtlogo": "log out", "aevtshut": "shut down", "aevtrsdn": "shut down",
	"aevtrrst": "restart", "aevtrest": "restart", "aevtslep": "sleep", "aevtpref": "preferences",
	"coredelo": "delete", "coremove": "move", "coreclon": "duplicate", "coresetd": "set", "coregetd": "get",
	"corecnte": "count", "coredoex": "exists", "corecrel": "make", "coresave": "save", "coreclos": "close",
	"coreprnt": "print", "coredosc": "do script", "coreslct": "select", "coreopen": "open",
	"fndrempt": "empty trash", "fndrshut": "shut down", "fndrrest": "restart", "fndrslep": "sleep",
	"fndrfera": "erase", "fndrejct": "eject", "fndrmvis": "reveal", "fndrsort": "sort", "fndrfupd": "update",
	"sysoexec": "do shell script", "sysodsct": "run script", "sysoload": "load script", "sysostor": "store script",
	"sysodlog": "display dialog", "sysodisa": "display alert", "sysonotf": "display notification", "sysobeep": "beep",
	"sysodela": "delay", "sysottos": "say", "sysorand": "random number", "sysolist": "list folder", "sysonfo4": "info for",
	"sysoppth": "path to", "sysosinf": "system info", "sysogtsv": "get volume settings", "aevtstvl": "set volume",
	"jonsgclp": "the clipboard", "jonspclp": "set the clipboard to", "sysochfl": "choose file", "sysostfl": "choose file",
	"gtqpchlt": "choose from list", "miscactv": "activate", "ascrnoop": "launch", "ascrcmnt": "log",
	"prcskprs": "keystroke", "prcskcod": "key code", "prcsclic": "click", "prcsperf": "perform",
	"gurlgurl": "open location", "www!ourl": "openurl", "emsgsend": "send", "ichtsend": "send",
	"rdwropen": "open for access", "rdwrclos": "close access", "rdwrread": "read", "rdwrwrit": "write",
	"rdwrseof": "set eof", "rdwrgeof": "get eof", "sysoabrt": "error", "ascrerr ": "error",
}

// classTerms maps raw class, property and constant codes to terms.
var classTerms = map[string]string{
	"cfol": "folder", "file": "file", "cobj": "item", "docf": "document", "ctrs": "trash", "trsh": "trash",
	"prcs": "process", "pcap": "process", "capp": "application", "cdis": "disk", "alis": "alias",
	"furl": "file", "utf8": "text", "ctxt": "text", "utxt": "text", "list": "list", "reco": "record",
	"cwin": "window", "brow": "window", "cdsk": "desktop", "sdsk": "startup disk", "cmnu": "menu",
	"mbar": "menu bar", "mbri": "menu bar item", "menu": "menu item", "butT": "button", "pnam": "name",
	"ppth": "posix path", "psxp": "posix path", "msg ": "message", "bcke": "outgoing message",
	"ceve": "event", "remi": "reminder", "note": "note", "azf4": "person", "wres": "calendar",
	"logi": "login item", "htxt": "hidden answer", "dtxt": "default answer", "foac": "folder action",
	"alrp": "replacing",
}
