package applescript

// The lexer as it was before it stopped copying the source (lexold is the
// oracle lex_oracle_internal_test.go holds the lexer to): the normalised
// text a copy of the whole script, lower-cased in place, with the texts
// the source does not spell out after it.

import (
	"encoding/binary"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// oldLex is asLex as it was.
type oldLex struct {
	toks         []asToken
	ends         []int32
	strs         []int32
	lb           []byte
	names        *nameTable
	src          string
	norm         string
	unterminated string
	badUTF8      bool
}

// lexPad is how many zero bytes followed the source in the normalised
// buffer: the keyword look-up loaded the eight bytes at a word's start,
// wherever the word stood.
const lexPad = 8

// lookupKWIn is lookupKW(string(b[i:j])) for the old lexer, which had the
// lower-cased script in b: the packed word was two loads there (where there
// were eight bytes to load).
func lookupKWIn(b []byte, i, j int) kwID {
	n := j - i
	if n > kwMaxLen {
		return kwNone
	}
	if n <= 0 || j < 8 || i+8 > len(b) || j > len(b) {
		return lookupKW(string(b[i:j]))
	}
	lo := binary.LittleEndian.Uint64(b[i:]) & kwLoMask[n]
	hi := binary.LittleEndian.Uint64(b[j-8:]) & kwHiMask[n]
	return vocab.find(lo, hi, n)
}

// kwHiMask[n] keeps the last eight bytes of a word of n bytes when it is
// longer than eight.
var kwHiMask = func() (hi [kwMaxLen + 1]uint64) {
	for n := range hi {
		if n > 8 {
			hi[n] = ^uint64(0)
		}
	}
	return hi
}()

func (lx *oldLex) text(t asToken) string { return lx.norm[t.toff : t.toff+t.tlen] }

// oldLexAppleScript is lexAppleScript as it was.
func oldLexAppleScript(src string) *oldLex {
	out := new(oldLex)
	toks := out.toks[:0]
	if cap(toks) < len(src)/4+8 {
		toks = make([]asToken, 0, len(src)/4+8)
	}
	// The lexer works on a copy on the stack, written back once at the
	// end.
	lx := oldLex{src: src, names: newNameTable(), ends: out.ends[:0], strs: out.strs[:0], toks: toks}
	// The normalised buffer starts as a copy of the source: only words need
	// folding, and the word scan does it as it goes; everything else
	// matches byte for byte. Texts the source does not spell out follow
	// the padding.
	n := len(src)
	lx.lb = make([]byte, n+lexPad, n+lexPad+n/16)
	copy(lx.lb, src)
	// Words are most bytes of a script, blanks most of the rest: words run
	// on in words, everything else in other. Each keeps its state in
	// registers; one loop over both would spill it at every token.
	// The token slice and the buffer go in and out as values: stored
	// into lx through a pointer at every token, they would pay the
	// garbage collector's write barrier whenever it marks.
	toks, lb := lx.toks, lx.lb
	for i := 0; i < n; {
		if wordClass[src[i]] != 0 {
			toks, i = lx.oldWords(toks, lb, i)
		} else {
			toks, lb, i = lx.oldOther(toks, lb, i)
		}
	}
	lx.toks, lx.lb = lx.oldEol(toks, n), lb
	// lb is not written again: the string shares its bytes.
	lx.norm = unsafe.String(&lx.lb[0], len(lx.lb))
	lx.lb = nil
	*out = lx
	return out
}

// other lexes what starts at i, a byte that does not start a word, onto
// toks (lb, the normalised buffer, may grow), and returns both and where
// lexing goes on.
func (lx *oldLex) oldOther(toks []asToken, lb []byte, i int) ([]asToken, []byte, int) {
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
		toks = lx.oldEol(toks, i)
		i++
	case lcDash:
		if i+1 < n && src[i+1] == '-' {
			i = skipLine(src, i)
			break
		}
		toks = oldPushOp(toks, i, c)
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
		toks = oldPushOp(toks, i, c)
		i++
	case lcQuote:
		toks, lb, i = lx.oldLexString(toks, lb, i, 1, '"')
	case lcPipe:
		j := strings.IndexByte(src[i+1:], '|')
		if j < 0 || strings.ContainsAny(src[i+1:i+1+j], "\r\n") {
			lx.unterminated = "|identifier|"
			toks = oldPushToken(toks, asVar, i, n, i, n-i)
			toks[len(toks)-1].kw = lookupKWIn(lb, i, n)
			i = n
			break
		}
		for k := i + 1; k < i+1+j; k++ {
			lb[k] = lowerTable[src[k]]
		}
		toks = oldPushToken(toks, asVar, i, i+j+2, i+1, j)
		toks[len(toks)-1].kw = lookupKWIn(lb, i+1, i+1+j)
		toks[len(toks)-1].op = varOp(string(lb[i+1 : i+1+j]))
		i += j + 2
	case lcApos:
		if i+1 < n && (src[i+1] == 's' || src[i+1] == 'S') && (i+2 >= n || !isWordByte(src[i+2])) {
			lb[i+1] = 's' // the text is 's, however spelt
			toks = oldPushToken(toks, asOp, i, i+2, i, 2)
			toks[len(toks)-1].op = opPoss
			i += 2
			break
		}
		toks = oldPushOp(toks, i, c)
		i++
	case lcLess:
		if i+1 < n && src[i+1] == '<' {
			toks, lb, i = lx.oldChevron(toks, lb, i, 2, ">>")
			break
		}
		toks = oldPushOp(toks, i, c)
		i++
	case lcOp:
		toks = oldPushOp(toks, i, c)
		i++
	case lcHigh:
		toks, lb, i = lx.oldNonASCII(toks, lb, i)
	default:
		// lcWord, lcDigit are words' (lexAppleScript); what is left is a
		// blank: space or tab.
		i++
		for i < n && (src[i] == ' ' || src[i] == '\t') {
			i++
		}
	}
	return toks, lb, i
}

// words lexes the word or number at i (a byte of wordClass), the blanks
// after it, and the words and blanks that follow, onto toks; it returns
// toks and where lexing goes on.
func (lx *oldLex) oldWords(toks []asToken, lb []byte, i int) ([]asToken, int) {
	src := lx.src
	for {
		// Scan the word, noting whether it has upper-case letters; only
		// then does it need folding (most words are lower-case). The
		// padding after the source ends every word.
		cls := wordClass[lb[i]]
		j := i + 1
		for {
			k := wordClass[lb[j]]
			if k == 0 {
				break
			}
			cls |= k
			j++
		}
		if cls&wordUpper != 0 {
			for k := i; k < j; k++ {
				lb[k] = lowerTable[lb[k]]
			}
		}
		if c := src[i]; c <= '9' {
			j = oldWordTail(src, lb, i, j)
			toks = oldPushToken(toks, asNumber, i, j, i, j-i)
		} else {
			if lb[j] >= 0x80 {
				j = oldWordTail(src, lb, i, j)
			}
			// The word's keyword id and its name: the keyword's, or one
			// the script's name table gives it.
			var kw kwID
			var name asName
			if w := j - i; w <= kwMaxLen {
				lo, hi := binary.LittleEndian.Uint64(lb[i:i+8])&kwLoMask[w], uint64(0)
				if w > 8 {
					hi = binary.LittleEndian.Uint64(lb[j-8 : j])
				}
				h := vocab.bucket(lo, hi, w)
				a, b := &vocab.slots[h], &vocab.slots[h|1]
				ida, idb := a.id, b.id
				if a.lo^lo|a.hi^hi|uint64(a.n)^uint64(w) == 0 {
					kw = ida
				}
				if b.lo^lo|b.hi^hi|uint64(b.n)^uint64(w) == 0 {
					kw = idb
				}
				if name = asName(kw); kw == kwNone {
					name = lx.names.packed(lo, hi, w)
				}
			} else {
				kw, name = lx.names.word(string(lb[i:j]))
			}
			if len(toks) == cap(toks) {
				toks = slices.Grow(toks, 1)
			}
			toks = toks[:len(toks)+1]
			t := &toks[len(toks)-1]
			t.start, t.end, t.toff, t.tlen = int32(i), int32(j), int32(i), int32(j-i)
			t.kind, t.op, t.kw, t.name = asWord, 0, kw, name
		}
		// A blank most often follows a word, and a word the blank.
		for lb[j] == ' ' || lb[j] == '\t' {
			j++
		}
		i = j
		if wordClass[lb[i]] == 0 {
			break
		}
	}
	return toks, i
}

// nonASCII lexes what starts with a byte of 0x80 or above at i.
func (lx *oldLex) oldNonASCII(toks []asToken, lb []byte, i int) ([]asToken, []byte, int) {
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
		toks, lb, i = lx.oldChevron(toks, lb, i, size, "»")
	case r == '“':
		toks, lb, i = lx.oldLexString(toks, lb, i, size, '”')
	case r == 0x2028 || r == 0x2029:
		toks = lx.oldEol(toks, i)
		i += size
	case rate.IsUnicodeSpace(r):
		i += size
	case rate.IsUnicodeLetter(r):
		j := i + size
		for j < n {
			if isWordByte(src[j]) {
				lb[j] = lowerTable[src[j]]
				j++
				continue
			}
			r2, s2 := utf8.DecodeRuneInString(src[j:])
			if src[j] < 0x80 || !rate.IsUnicodeLetter(r2) {
				break
			}
			j += s2
		}
		toks = oldPushToken(toks, asWord, i, j, i, j-i)
		toks[len(toks)-1].kw = lookupKWIn(lb, i, j)
		i = j
	default:
		toks = oldPushToken(toks, asOp, i, i+size, i, size)
		i += size
	}
	return toks, lb, i
}

// wordTail continues a word past j: non-ASCII letters (AppleScript allows
// them; a homoglyph makes a different word, never a keyword), and the rest
// of a number (3.5, 1e3).
func oldWordTail(src string, lb []byte, i, j int) int {
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
			lb[j] = lowerTable[src[j]]
			j++
		}
	}
	return j
}

// eol ends a statement at byte at (once: blank lines add nothing).
func (lx *oldLex) oldEol(toks []asToken, at int) []asToken {
	if k := len(toks); k > 0 && toks[k-1].kind == asEOL {
		return toks
	}
	lx.ends = append(lx.ends, int32(len(toks)))
	return oldPushToken(toks, asEOL, at, at, 0, 0)
}

// lexString lexes a string literal starting at i (the quote is open bytes
// long).
func (lx *oldLex) oldLexString(toks []asToken, lb []byte, i, open int, closeRune rune) ([]asToken, []byte, int) {
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
			return oldPushToken(toks, asString, i, j+1, i, j-i), lb, j + 1
		case j+1 >= n:
			// At the end, or a backslash as the last byte (content, then):
			// the string is open.
			lx.unterminated = "string"
			lx.strs = append(lx.strs, int32(len(toks)))
			return oldPushToken(toks, asString, i, n, i, n-i), lb, n
		}
	}
	// Escapes, or “…”: the text is decoded into the normalised buffer.
	off := len(lb)
	lb = append(lb, '"')
	lb = append(lb, src[i+open:j]...)
	for j < n {
		c := src[j]
		if c == '\\' && j+1 < n {
			switch src[j+1] {
			case 'n':
				lb = append(lb, '\n')
			case 't':
				lb = append(lb, '\t')
			case 'r':
				lb = append(lb, '\r')
			default:
				lb = append(lb, src[j+1])
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
			return oldPushToken(toks, asString, i, end, off, len(lb)-off), lb, end
		}
		lb = append(lb, c)
		j++
	}
	lx.unterminated = "string"
	lx.strs = append(lx.strs, int32(len(toks)))
	return oldPushToken(toks, asString, i, n, off, len(lb)-off), lb, n
}

// chevron lexes «event aevtquit», «class cfol» and their <<…>> spelling.
func (lx *oldLex) oldChevron(toks []asToken, lb []byte, i, open int, closer string) ([]asToken, []byte, int) {
	src := lx.src
	j := strings.Index(src[i+open:], closer)
	if j < 0 {
		lx.unterminated = "«…» code"
		return oldPushToken(toks, asEvent, i, len(src), 0, 0), lb, len(src)
	}
	body := strings.TrimSpace(strings.Join(strings.Fields(src[i+open:i+open+j]), " "))
	end := i + open + j + len(closer)
	kind, code, _ := strings.Cut(body, " ")
	kind = strings.ToLower(kind)
	var off, size int32
	switch kind {
	case "event":
		term := eventTerms[strings.ToLower(code)]
		lb, off, size = oldAppendText(lb, term)
		toks = oldPushToken(toks, asEvent, i, end, int(off), int(size))
		toks[len(toks)-1].kw = lookupKW(term)
	case "class", "property", "constant", "enum", "type", "keyword":
		term, ok := classTerms[strings.ToLower(code)]
		if !ok {
			term = "«" + strings.ToLower(code) + "»"
		}
		for _, w := range strings.Fields(term) {
			lb, off, size = oldAppendText(lb, w)
			toks = oldPushToken(toks, asWord, i, end, int(off), int(size))
			toks[len(toks)-1].kw = lookupKW(w)
		}
	case "data":
		// «data utf8…», «data TEXT…», «data utxt…»: text spelled in hex,
		// read as the string literal it is.
		if text, ok := dataText(code); ok {
			lb, off, size = oldAppendText(lb, "\""+text)
			lx.strs = append(lx.strs, int32(len(toks)))
			toks = oldPushToken(toks, asString, i, end, int(off), int(size))
			break
		}
		lb, off, size = oldAppendText(lb, "«data»")
		toks = oldPushToken(toks, asNumber, i, end, int(off), int(size))
	default: // «script», «constant» and the like: a value
		lb, off, size = oldAppendText(lb, "«data»")
		toks = oldPushToken(toks, asNumber, i, end, int(off), int(size))
	}
	return toks, lb, end
}

// appendText appends a text the source does not spell out to the
// normalised buffer, and returns where it is.
func oldAppendText(lb []byte, s string) ([]byte, int32, int32) {
	off := len(lb)
	return append(lb, s...), int32(off), int32(len(s))
}

// pushToken appends a token, writing its fields in place: a composite
// literal appended goes through a stack temporary, and copying that
// temporary with wide loads right after its narrow stores stalls.
func oldPushToken(toks []asToken, kind asKind, start, end, toff, tlen int) []asToken {
	toks = append(toks, asToken{})
	t := &toks[len(toks)-1]
	t.start, t.end, t.toff, t.tlen, t.kind = int32(start), int32(end), int32(toff), int32(tlen), kind
	return toks
}

// pushOp appends the one-byte operator c at i.
func oldPushOp(toks []asToken, i int, c byte) []asToken {
	toks = oldPushToken(toks, asOp, i, i+1, i, 1)
	toks[len(toks)-1].op = c
	return toks
}
