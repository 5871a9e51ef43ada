package action

import (
	"strconv"
	"strings"
)

// The canonical form of a plan is one line per action: the command's name
// in upper case, then each argument after one space. Numbers and enum
// values are bare words; every other argument is double-quoted with the
// escapes \" \\ \n \t (other characters, control characters included, are
// written as they are). The last argument, if it may be a heredoc and its
// value ends in a newline, is written as a heredoc instead, with the tag
// END, or END1, END2, … if the body has a line END.
//
// For every plan Parse returns, Parse(p.String()) returns an equal plan.
// (Values from Parse never hold a carriage return, which has no escape; an
// Action built by hand with one does not round-trip.)

// sink is what the printer writes to: a strings.Builder, or a counter when
// Parse only needs the size.
type sink interface {
	WriteString(s string) (int, error)
	WriteByte(c byte) error
}

type counter struct{ n int }

func (c *counter) WriteString(s string) (int, error) { c.n += len(s); return len(s), nil }
func (c *counter) WriteByte(byte) error              { c.n++; return nil }

// String returns the plan in canonical form, each action ending in a
// newline. An empty plan is "".
func (p *Plan) String() string {
	if p == nil {
		return ""
	}
	var b strings.Builder
	for _, a := range p.Actions {
		writeAction(&b, a)
		b.WriteByte('\n')
	}
	return b.String()
}

// String returns the action in canonical form, without a final newline; it
// spans several lines if it ends in a heredoc.
func (a Action) String() string {
	var b strings.Builder
	writeAction(&b, a)
	return b.String()
}

// canonicalSize returns the size of the plan's canonical form outside
// heredoc bodies and in all, without building it.
func canonicalSize(actions []Action) (outside, total int) {
	var c counter
	bodies := 0
	for _, a := range actions {
		bodies += writeAction(&c, a)
		c.WriteByte('\n')
	}
	return c.n - bodies, c.n
}

// writeAction writes a in canonical form and returns the size of the
// heredoc body it wrote, if any.
func writeAction(w sink, a Action) (body int) {
	if a.Cmd == nil {
		return 0
	}
	w.WriteString(a.Cmd.Name)
	for i, v := range a.Args {
		spec := ArgSpec{Kind: KindText}
		if i < len(a.Cmd.Args) {
			spec = a.Cmd.Args[i]
		}
		w.WriteByte(' ')
		switch {
		case spec.Heredoc && i == len(a.Args)-1 && strings.HasSuffix(v, "\n") && !strings.Contains(v, "\r"):
			tag := heredocTag(v)
			w.WriteString("<<")
			w.WriteString(tag)
			w.WriteByte('\n')
			w.WriteString(v)
			w.WriteString(tag)
			body = len(v)
		case (spec.Kind == KindNumber || spec.Kind == KindEnum) && isBareWord(v):
			w.WriteString(v)
		default:
			writeQuoted(w, v)
		}
	}
	return body
}

// isBareWord reports whether v can be written unquoted and read back as
// itself; it is deliberately narrower than what the lexer accepts.
func isBareWord(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		if !('0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

func writeQuoted(w sink, v string) {
	w.WriteByte('"')
	from := 0
	for i := 0; i < len(v); i++ {
		var esc string
		switch v[i] {
		case '"':
			esc = `\"`
		case '\\':
			esc = `\\`
		case '\n':
			esc = `\n`
		case '\t':
			esc = `\t`
		default:
			continue
		}
		w.WriteString(v[from:i])
		w.WriteString(esc)
		from = i + 1
	}
	w.WriteString(v[from:])
	w.WriteByte('"')
}

// heredocTag picks the first of END, END1, END2, … that is not a line of
// body. It takes one pass over body.
func heredocTag(body string) string {
	if !strings.HasPrefix(body, "END") && !strings.Contains(body, "\nEND") {
		return "END"
	}
	// Lines END<n> can only rule out as many tags as there are lines, so
	// the answer is at most the number of lines; ignore larger suffixes.
	lines := strings.Count(body, "\n")
	used := make(map[int]bool)
	for rest := body; rest != ""; {
		line := rest
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		suffix, ok := strings.CutPrefix(line, "END")
		if !ok {
			continue
		}
		if suffix == "" {
			used[0] = true
			continue
		}
		if suffix[0] < '1' || suffix[0] > '9' || len(suffix) > len(strconv.Itoa(lines)) {
			continue
		}
		if n, err := strconv.Atoi(suffix); err == nil && n > 0 {
			used[n] = true
		}
	}
	n := 0
	for used[n] {
		n++
	}
	if n == 0 {
		return "END"
	}
	return "END" + strconv.Itoa(n)
}
