package action

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A Command's Preview is a template:
//
//	{name}        the value of argument name, shown for a human (see below)
//	{name:chars}  "N characters": the length of the value
//	{name:lines}  "N lines": the number of lines in the value
//	[ ... ]       rendered only if every argument named inside was given
//
// Shown values are always one line: control characters, line and paragraph
// separators and bidirectional formatting characters are written as
// escapes (\n, \t, \x00, \u202e). Long values are cut: text after
// previewText characters, other kinds in the middle after previewOther
// characters, so that both the start and the end of a path or URL show.
// A long email list shows the first addresses and "and N more".
const (
	previewText  = 60
	previewOther = 120
)

// Preview returns a one-line description of the action for a human, e.g.
// "Move ~/a.txt → ~/Documents/a.txt".
func (a Action) Preview() string {
	if a.Cmd == nil {
		return ""
	}
	var b strings.Builder
	renderPreview(&b, a.Cmd.Preview, a)
	return b.String()
}

func renderPreview(b *strings.Builder, tmpl string, a Action) {
	for tmpl != "" {
		switch tmpl[0] {
		case '[':
			end := strings.IndexByte(tmpl, ']')
			if end < 0 {
				b.WriteString(tmpl)
				return
			}
			inner := tmpl[1:end]
			if allGiven(inner, a) {
				renderPreview(b, inner, a)
			}
			tmpl = tmpl[end+1:]
		case '{':
			end := strings.IndexByte(tmpl, '}')
			if end < 0 {
				b.WriteString(tmpl)
				return
			}
			name, mod, _ := strings.Cut(tmpl[1:end], ":")
			b.WriteString(placeholder(a, name, mod))
			tmpl = tmpl[end+1:]
		default:
			i := strings.IndexAny(tmpl, "[{")
			if i < 0 {
				i = len(tmpl)
			}
			b.WriteString(tmpl[:i])
			tmpl = tmpl[i:]
		}
	}
}

// placeholderNames returns the argument names a template refers to.
func placeholderNames(tmpl string) []string {
	var names []string
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			return names
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			return names
		}
		name, _, _ := strings.Cut(tmpl[i+1:i+j], ":")
		names = append(names, name)
		tmpl = tmpl[i+j+1:]
	}
}

func allGiven(tmpl string, a Action) bool {
	for _, name := range placeholderNames(tmpl) {
		if _, ok := a.Arg(name); !ok {
			return false
		}
	}
	return true
}

func placeholder(a Action, name, mod string) string {
	v, ok := a.Arg(name)
	if !ok {
		return ""
	}
	switch mod {
	case "chars":
		return plural(utf8.RuneCountInString(v), "character")
	case "lines":
		return plural(countLines(v), "line")
	}
	switch a.Cmd.Args[a.Cmd.argIndex(name)].Kind {
	case KindText:
		return cutEnd(v, previewText)
	case KindEmails:
		return showEmails(v, previewOther)
	}
	return cutMiddle(v, previewOther)
}

// countLines counts lines as an editor would: "a\nb" and "a\nb\n" are two.
func countLines(v string) int {
	if v == "" {
		return 0
	}
	n := strings.Count(v, "\n")
	if !strings.HasSuffix(v, "\n") {
		n++
	}
	return n
}

// shown returns how the first character of s is shown and its size in s.
func shown(s string) (string, int) {
	r, size := utf8.DecodeRuneInString(s)
	switch {
	case r == utf8.RuneError && size == 1:
		return fmt.Sprintf(`\x%02x`, s[0]), 1
	case r == '\n':
		return `\n`, size
	case r == '\t':
		return `\t`, size
	case r == '\r':
		return `\r`, size
	case !mustEscape(r):
		return s[:size], size
	case r < 0x100:
		return fmt.Sprintf(`\x%02x`, r), size
	case r <= 0xffff:
		return fmt.Sprintf(`\u%04x`, r), size
	}
	return fmt.Sprintf(`\U%08x`, r), size
}

// shownLast is shown for the last character of s.
func shownLast(s string) (string, int) {
	_, size := utf8.DecodeLastRuneInString(s)
	u, _ := shown(s[len(s)-size:])
	return u, size
}

// mustEscape reports whether a character could break a preview's single
// line or disguise its text.
func mustEscape(r rune) bool {
	switch {
	case unicode.IsControl(r), r == '\u2028', r == '\u2029':
		return true
	case r == '\u061c', r == '\u200e', r == '\u200f',
		'\u202a' <= r && r <= '\u202e', '\u2066' <= r && r <= '\u2069':
		return true // bidirectional formatting
	}
	return false
}

// fits reports whether s takes up at most limit characters when shown. It
// looks at no more of s than it must, so previews of long values are cheap.
func fits(s string, limit int) bool {
	n := 0
	for s != "" {
		u, size := shown(s)
		n += utf8.RuneCountInString(u)
		if n > limit {
			return false
		}
		s = s[size:]
	}
	return true
}

// cutEnd shows v, cut to limit characters with "…" at the end.
func cutEnd(v string, limit int) string {
	long := !fits(v, limit)
	var b strings.Builder
	n := 0
	for s := v; s != ""; {
		u, size := shown(s)
		l := utf8.RuneCountInString(u)
		if long && n+l > limit-1 {
			b.WriteString("…")
			break
		}
		b.WriteString(u)
		n += l
		s = s[size:]
	}
	return b.String()
}

// cutMiddle shows v, cut to limit characters with "…" in the middle.
func cutMiddle(v string, limit int) string {
	if fits(v, limit) {
		return cutEnd(v, limit)
	}
	headMax := (limit - 1) / 2
	tailMax := limit - 1 - headMax
	var head strings.Builder
	n, s := 0, v
	for s != "" {
		u, size := shown(s)
		l := utf8.RuneCountInString(u)
		if n+l > headMax {
			break
		}
		head.WriteString(u)
		n += l
		s = s[size:]
	}
	var tail []string
	n, t := 0, s
	for t != "" {
		u, size := shownLast(t)
		l := utf8.RuneCountInString(u)
		if n+l > tailMax {
			break
		}
		tail = append(tail, u)
		n += l
		t = t[:len(t)-size]
	}
	head.WriteString("…")
	for i := len(tail) - 1; i >= 0; i-- {
		head.WriteString(tail[i])
	}
	return head.String()
}

// showEmails shows a canonical email list; if it is long, it shows the
// first addresses that fit and "and N more".
func showEmails(v string, limit int) string {
	if fits(v, limit) {
		return cutEnd(v, limit)
	}
	addrs := strings.Split(v, ", ")
	var b strings.Builder
	n, shownAddrs := 0, 0
	for i, addr := range addrs {
		s := cutMiddle(addr, limit/2)
		l := utf8.RuneCountInString(s)
		if i > 0 {
			l += 2
		}
		if i > 0 && n+l > limit-len(" and 100 more") {
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(s)
		n += l
		shownAddrs++
	}
	if rest := len(addrs) - shownAddrs; rest > 0 {
		fmt.Fprintf(&b, " and %d more", rest)
	}
	return b.String()
}
