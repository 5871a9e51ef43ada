package sanitize

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/airlockhq/airlock/app/internal/ascii"
)

// decodeRounds is how many rounds of percent-decoding traversal looks
// through: %252e%252e is two.
const decodeRounds = 4

// traversal reports whether raw holds a ".." path element in any spelling
// some layer might turn into one: as written, once Unicode lookalikes are
// folded, once percent-decoded (repeatedly), or a mix. It returns how the
// element was spelled, for the message ("" when as written).
func traversal(raw string) (how string, found bool) {
	if hasDotDot(raw) {
		return "", true
	}
	if f := foldLookalikes(raw); f != raw && hasDotDot(f) {
		return "once Unicode lookalikes are folded", true
	}
	s := raw
	for range decodeRounds {
		d := foldLookalikes(fixOverlong(percentDecode(s)))
		if d == s {
			break
		}
		if hasDotDot(d) {
			return "once percent-decoded", true
		}
		s = d
	}
	return "", false
}

// hasDotDot reports whether s has an element that is exactly "..". Elements
// are split at / and \, and also at ; ? # and NUL, where a URL router or a
// C string would end the element ("..;/", "..%00").
func hasDotDot(s string) bool {
	for {
		i := strings.IndexAny(s, "/\\;?#\x00")
		elem := s
		if i >= 0 {
			elem = s[:i]
		}
		if elem == ".." {
			return true
		}
		if i < 0 {
			return false
		}
		s = s[i+1:]
	}
}

// percentDecode decodes %XX (either case) and %uXXXX escapes; anything else,
// including a malformed escape, is kept as it is. The result may be invalid
// UTF-8.
func percentDecode(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			if i+2 < len(s) && ascii.IsHex(s[i+1]) && ascii.IsHex(s[i+2]) {
				b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
				i += 2
				continue
			}
			if i+5 < len(s) && (s[i+1] == 'u' || s[i+1] == 'U') &&
				ascii.IsHex(s[i+2]) && ascii.IsHex(s[i+3]) && ascii.IsHex(s[i+4]) && ascii.IsHex(s[i+5]) {
				r := rune(unhex(s[i+2]))<<12 | rune(unhex(s[i+3]))<<8 | rune(unhex(s[i+4]))<<4 | rune(unhex(s[i+5]))
				b.WriteRune(r)
				i += 5
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func unhex(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// overlong lists the overlong UTF-8 spellings of '.', '/' and '\' that lax
// decoders (famously IIS) accept: %c0%ae%c0%ae%c0%af is "../" to them.
var overlong = strings.NewReplacer(
	"\xc0\xae", ".", "\xe0\x80\xae", ".", "\xf0\x80\x80\xae", ".",
	"\xc0\xaf", "/", "\xe0\x80\xaf", "/", "\xf0\x80\x80\xaf", "/",
	"\xc1\x9c", `\`, "\xc1\x1c", `\`, "\xe0\x81\x9c", `\`,
)

func fixOverlong(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return overlong.Replace(s)
}

// lookalike maps the characters that look like '.', '/' or '\' and that
// NFKC leaves alone (or maps to another lookalike) onto them.
var lookalike = map[rune]rune{
	0x2024: '.',  // ONE DOT LEADER (NFKC does this one too)
	0xfe52: '.',  // SMALL FULL STOP
	0xff0e: '.',  // FULLWIDTH FULL STOP
	0x3002: '.',  // IDEOGRAPHIC FULL STOP (IDNA treats it as a dot)
	0xff61: '.',  // HALFWIDTH IDEOGRAPHIC FULL STOP
	0x2215: '/',  // DIVISION SLASH
	0x2044: '/',  // FRACTION SLASH
	0x29f8: '/',  // BIG SOLIDUS
	0xff0f: '/',  // FULLWIDTH SOLIDUS
	0x2571: '/',  // BOX DRAWINGS LIGHT DIAGONAL UPPER RIGHT TO LOWER LEFT
	0x27cb: '/',  // MATHEMATICAL RISING DIAGONAL
	0xff3c: '\\', // FULLWIDTH REVERSE SOLIDUS
	0x2216: '\\', // SET MINUS
	0x29f5: '\\', // REVERSE SOLIDUS OPERATOR
	0x29f9: '\\', // BIG REVERSE SOLIDUS
	0xfe68: '\\', // SMALL REVERSE SOLIDUS
	0x2572: '\\', // BOX DRAWINGS LIGHT DIAGONAL UPPER LEFT TO LOWER RIGHT
	0x27cd: '\\', // MATHEMATICAL FALLING DIAGONAL
}

// foldLookalikes applies NFKC (fullwidth forms, ‥ → ..), then the lookalike
// table, and drops default-ignorable characters (zero-width and friends),
// which some layers drop too. Invalid UTF-8 is kept byte for byte.
func foldLookalikes(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	s = norm.NFKC.String(s)
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteByte(s[i])
		case ignorable(r):
		default:
			if m, ok := lookalike[r]; ok {
				r = m
			}
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// ignorable reports default-ignorable code points: format characters,
// variation selectors and the like, which render as nothing.
func ignorable(r rune) bool {
	return isInvisible(r) || unicode.Is(unicode.Cf, r) ||
		unicode.Is(unicode.Variation_Selector, r) ||
		unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}
