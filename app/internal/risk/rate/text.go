package rate

import (
	"strings"
	"unicode/utf8"
)

// Placeholders stand for values computed at run time when another analyzer
// hands the shell analyzer a command template: the AppleScript
// `"ls " & quoted form of p` becomes `ls __AIRLOCK_Q__`. A Q hole is quoted
// (one word, no shell syntax can leak out of it); a U hole is spliced in
// unquoted and may carry any shell syntax at all.
const (
	HoleQuoted   = "__AIRLOCK_Q__"
	HoleUnquoted = "__AIRLOCK_U__"
	HoleMark     = "\x00" // a hole inside an evaluated word
)

// OneLine shows a message (a parser's error) on one line, at most 120
// bytes of it.
func OneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

// Display shows a value from the input inside a warning: one line, bounded,
// holes shown as ….
func Display(s string) string {
	s = strings.ReplaceAll(s, HoleMark, "…")
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '·'
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) > 80 {
		r := []rune(s)
		s = string(r[:80]) + "…"
	}
	return s
}

// HFSToPOSIX turns "Macintosh HD:Users:me:.ssh:id_rsa" into a POSIX path.
func HFSToPOSIX(p string) string {
	i := strings.IndexByte(p, ':')
	if i < 0 {
		return p
	}
	// What follows the volume's name, its colons slashes: built in one
	// allocation (the guard converts every such literal).
	var b strings.Builder
	b.Grow(len(p) - i)
	b.WriteByte('/')
	for _, c := range []byte(p[i+1:]) {
		if c == ':' {
			c = '/'
		}
		b.WriteByte(c)
	}
	return b.String()
}
