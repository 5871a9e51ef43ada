package redact

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/hex"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// Encoded secrets (issue 22). What an action prints goes back to the agent,
// and an agent that wants a key past the redactor asks for it encoded:
// base64 (also of gzip), hex (xxd -p, od -An -tx1 without its blanks) or
// reversed (rev). String decodes what looks encoded and redacts the whole
// encoded text when what it decodes to holds a secret Find sees.
//
// It cannot catch everything, and is not meant to: the analyzers rate the
// read of a secret, whatever is done to it after, and the OS sandbox hides
// the files. What it does not decode: hex dumps with offsets and an ASCII
// column (xxd, hexdump -C, od -c), octal, base32, rot13 and other
// substitutions, encryption (openssl enc with a password), a secret cut
// into pieces or interleaved with other text, and anything encoded twice
// but base64 of gzip.

// minEncoded is the shortest encoded text worth decoding: base64 of the
// shortest secret formats (twenty bytes) is longer.
const minEncoded = 24

// maxDecoded bounds what one gzip stream may inflate to.
const maxDecoded = 1 << 20

// isBase64 and isHex are the alphabets (base64's standard and URL-safe
// together); byte loops, not regular expressions, find their runs: a
// regexp's search over a MiB of output took longer than all the rules.
func isBase64(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-'
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

// runs returns the maximal runs of bytes in the alphabet of at least n
// bytes, each with the "=" padding that follows it when in base64.
func runs(s string, in func(byte) bool, n int, pad bool) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); {
		if !in(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && in(s[j]) {
			j++
		}
		end := j
		for pad && end < len(s) && end-j < 2 && s[end] == '=' {
			end++
		}
		if j-i >= n {
			out = append(out, [2]int{i, end})
		}
		i = j
	}
	return out
}

// all reports whether every byte of t is in the alphabet, base64's
// padding allowed at its end.
func all(t string, in func(byte) bool) bool {
	t = strings.TrimRight(t, "=")
	for i := 0; i < len(t); i++ {
		if !in(t[i]) {
			return false
		}
	}
	return t != ""
}

// encoded redacts the encoded secrets in s (see above).
func encoded(s string) string {
	var finds []encFind
	add := func(lo, hi int, kind string) {
		finds = append(finds, encFind{lo, hi, kind})
	}
	// Blocks of whole lines of one encoding: wrapped base64, xxd -p.
	for _, b := range lineBlocks(s) {
		if k := secretIn(decodeAny(strings.Join(b.lines, ""))); k != "" {
			add(b.lo, b.hi, k)
		}
	}
	// Runs inside a line: a URL's query, a JSON value, a word.
	for _, m := range append(runs(s, isBase64, minEncoded, true), runs(s, isHex, 32, false)...) {
		if k := secretIn(decodeAny(s[m[0]:m[1]])); k != "" {
			add(m[0], m[1], k)
		}
	}
	// Reversed lines: the format and structure rules on each line turned
	// around; a line holding a secret is redacted whole.
	if rs := reverseLines(s); rs != s {
		for _, sec := range Find(rs) {
			lo := strings.LastIndexByte(s[:sec.Start], '\n') + 1
			hi := len(s)
			if i := strings.IndexByte(s[sec.End:], '\n'); i >= 0 {
				hi = sec.End + i
			}
			add(lo, hi, sec.Kind)
		}
	}
	if len(finds) == 0 {
		return s
	}
	return replaceEncoded(s, finds)
}

// encFind is an encoded secret: s[lo:hi], and the kind of what it encodes.
type encFind struct {
	lo, hi int
	kind   string
}

// block is a run of whole lines s[lo:hi] in one encoding, without their
// line breaks and blanks.
type block struct {
	lo, hi int
	lines  []string
}

// lineBlocks returns the runs of two or more consecutive lines each of
// which is base64 (or hex) and nothing else, as wrapped output is.
func lineBlocks(s string) []block {
	var out []block
	var cur block
	flush := func() {
		if len(cur.lines) > 1 {
			out = append(out, cur)
		}
		cur = block{}
	}
	start := 0
	for start <= len(s) {
		end := strings.IndexByte(s[start:], '\n')
		if end < 0 {
			end = len(s)
		} else {
			end += start
		}
		line := strings.TrimSpace(s[start:end])
		if len(line) >= 16 && all(line, isBase64) {
			if len(cur.lines) == 0 {
				cur.lo = start
			}
			cur.lines = append(cur.lines, line)
			cur.hi = end
		} else {
			flush()
		}
		start = end + 1
	}
	flush()
	return out
}

// decodeAny returns what t decodes to as hex or as base64 (standard or
// URL-safe, padded or not), inflated when it is gzip; nil when it decodes
// to neither.
func decodeAny(t string) []byte {
	if len(t) < minEncoded {
		return nil
	}
	var out []byte
	if len(t)%2 == 0 && all(t, isHex) && !strings.HasSuffix(t, "=") {
		if b, err := hex.DecodeString(t); err == nil {
			out = b
		}
	}
	if out == nil {
		raw := strings.TrimRight(t, "=")
		for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
			if b, err := enc.DecodeString(raw); err == nil {
				out = b
				break
			}
		}
	}
	if len(out) > 2 && out[0] == 0x1f && out[1] == 0x8b {
		if z, err := gzip.NewReader(bytes.NewReader(out)); err == nil {
			b, _ := io.ReadAll(io.LimitReader(z, maxDecoded))
			out = b
		}
	}
	return out
}

// secretIn returns the kind of the first secret in b when b is text;
// "" when it is not text or holds none.
func secretIn(b []byte) string {
	if len(b) == 0 || !utf8.Valid(b) {
		return ""
	}
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			return ""
		}
	}
	if f := Find(string(b)); len(f) > 0 {
		return f[0].Kind
	}
	return ""
}

// reverseLines returns s with the bytes of each line in reverse order.
func reverseLines(s string) string {
	b := []byte(s)
	start := 0
	for i := 0; i <= len(b); i++ {
		if i == len(b) || b[i] == '\n' {
			for l, r := start, i-1; l < r; l, r = l+1, r-1 {
				b[l], b[r] = b[r], b[l]
			}
			start = i + 1
		}
	}
	return string(b)
}

// replaceEncoded puts a marker in place of each encoded secret, merging
// those that overlap; the marker says what was encoded:
// "[redacted:encoded-github-pat]".
func replaceEncoded(s string, finds []encFind) string {
	slices.SortFunc(finds, func(a, b encFind) int { return a.lo - b.lo })
	var b strings.Builder
	last := 0
	for i := 0; i < len(finds); {
		cur := finds[i]
		for i++; i < len(finds) && finds[i].lo < cur.hi; i++ {
			cur.hi = max(cur.hi, finds[i].hi)
		}
		b.WriteString(s[last:cur.lo])
		b.WriteString(Marker("encoded-" + cur.kind))
		last = cur.hi
	}
	b.WriteString(s[last:])
	return b.String()
}
