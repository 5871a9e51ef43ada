package action

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// token is one word of a command line.
type token struct {
	val    string // the value: unquoted and unescaped; a heredoc's body once read
	col    int    // byte offset of the token in its line
	quoted bool   // written as "..."
	tag    string // non-empty for a heredoc marker <<TAG
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// maxKept is how many ordinary tokens lexLine keeps: more than any command
// takes, so a line with more is wrong whatever they are, and a line of a
// million words costs no memory.
const maxKept = 8

// lexLine splits one line (without its line ending) into tokens, appending
// them to toks, and returns how many ordinary tokens it counted but did not
// keep (beyond maxKept). A heredoc marker is always kept. On error it
// returns a message naming the column, and toks ends with the heredoc
// marker if the error is that one was misplaced.
//
// A token is a bare word (no whitespace, no quotes) or a double-quoted
// string with the escapes \" \\ \n \t; other characters, control characters
// included, stand for themselves inside quotes. The last token may be a
// heredoc marker <<TAG.
func lexLine(line string, toks []token) (_ []token, dropped int, msg string) {
	i := 0
	keep := func(t token) {
		if len(toks) < maxKept {
			toks = append(toks, t)
		} else {
			dropped++
		}
	}
	for {
		for i < len(line) && isBlank(line[i]) {
			i++
		}
		if i == len(line) {
			return toks, dropped, ""
		}
		start := i
		if line[i] == '"' {
			i++
			seg := i
			var b *strings.Builder
			for {
				if i == len(line) {
					return toks, dropped, fmt.Sprintf("unterminated quoted string (opened at column %d)", column(line, start))
				}
				c := line[i]
				if c == '"' {
					break
				}
				if c != '\\' {
					i++
					continue
				}
				if i+1 == len(line) {
					return toks, dropped, fmt.Sprintf("unterminated quoted string (opened at column %d)", column(line, start))
				}
				var esc byte
				switch line[i+1] {
				case '"', '\\':
					esc = line[i+1]
				case 'n':
					esc = '\n'
				case 't':
					esc = '\t'
				default:
					return toks, dropped, fmt.Sprintf(`unknown escape %s in quoted string (column %d); only \" \\ \n and \t are allowed`,
						describeEscape(line[i+1:]), column(line, i))
				}
				if b == nil {
					b = new(strings.Builder)
				}
				b.WriteString(line[seg:i])
				b.WriteByte(esc)
				i += 2
				seg = i
			}
			val := line[seg:i]
			if b != nil {
				b.WriteString(val)
				val = b.String()
			}
			i++ // the closing quote
			if i < len(line) && !isBlank(line[i]) {
				return toks, dropped, fmt.Sprintf("missing space after closing quote (column %d)", column(line, i))
			}
			keep(token{val: val, col: start, quoted: true})
			continue
		}
		for i < len(line) && !isBlank(line[i]) {
			if line[i] == '"' {
				return toks, dropped, fmt.Sprintf("unexpected quote inside a bare word (column %d); quote the whole argument", column(line, i))
			}
			i++
		}
		word := line[start:i]
		if !strings.HasPrefix(word, "<<") {
			keep(token{val: word, col: start})
			continue
		}
		tag := word[2:]
		if !validTag(tag) {
			return toks, dropped, fmt.Sprintf("invalid heredoc marker %s (column %d); write <<END, with a tag of letters, digits and _ not starting with a digit",
				quoteShort(word), column(line, start))
		}
		for i < len(line) && isBlank(line[i]) {
			i++
		}
		if i != len(line) {
			toks = append(toks, token{col: start, tag: tag})
			return toks, dropped, fmt.Sprintf("heredoc marker %s must be the last thing on the line (column %d)", word, column(line, start))
		}
		return append(toks, token{col: start, tag: tag}), dropped, ""
	}
}

// validTag reports whether s matches [A-Za-z_][A-Za-z0-9_]*.
func validTag(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// trailingTag returns TAG if the line's last word is a well-formed heredoc
// marker <<TAG. The parser uses it to skip the body of a heredoc whose
// command line it could not read, so the body is not misread as commands.
func trailingTag(line string) string {
	line = strings.TrimRight(line, " \t")
	i := strings.LastIndexAny(line, " \t")
	word := line[i+1:]
	if strings.HasPrefix(word, "<<") && validTag(word[2:]) {
		return word[2:]
	}
	return ""
}

// column returns the 1-based column, in characters, of byte offset i.
func column(line string, i int) int {
	return utf8.RuneCountInString(line[:i]) + 1
}

// describeEscape names the escape a backslash introduces, given the text
// after the backslash.
func describeEscape(rest string) string {
	r, _ := utf8.DecodeRuneInString(rest)
	if r != utf8.RuneError && unicode.IsPrint(r) {
		return `"\` + string(r) + `"`
	}
	return fmt.Sprintf("(backslash followed by %U)", r)
}

// quoteShort quotes s for an error message, escaping what is not printable
// and cutting it to a readable length.
func quoteShort(s string) string {
	const limit = 40
	n := 0
	for i := range s {
		if n == limit {
			return fmt.Sprintf("%q…", s[:i])
		}
		n++
	}
	return fmt.Sprintf("%q", s)
}
