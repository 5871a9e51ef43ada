package llm

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/action"
)

// lineKind is what a line of a reply looks like.
type lineKind uint8

const (
	lineOther   lineKind = iota // chatter, or a broken command
	lineBlank                   // empty or spaces
	lineComment                 // starts with #
	lineCommand                 // starts with a command of the registry
	lineBody                    // inside a heredoc, its end included
	lineFence                   // a Markdown code fence, opening or closing
)

type replyLine struct {
	text    string
	kind    lineKind
	inFence bool // between an opening and a closing fence
}

// Extract returns the plan in a model's reply, leaving out what is not
// plan: a leading <think>…</think> block, Markdown code fences and the
// chatter around the plan. It does not judge the plan; the parser does.
//
//   - If the reply has code fences, only the lines inside them are kept
//     (all fenced blocks, in order).
//   - Of those lines, the plan runs from the first command or comment line
//     to the last command line (with its heredoc body); a line that looks
//     like a misspelt command (MAKE_FOLDER "x") counts as a command. Lines
//     before and after are chatter and dropped; lines between are kept as
//     they are, so a broken line is reported by the parser rather than
//     silently lost.
//   - Heredoc bodies are kept verbatim: a fence or a "#" inside a
//     document being written is content, not Markdown.
//   - With no command line at all, a "# No action needed" line gives
//     exactly that; anything else is returned without its blank lines
//     around it, for the parser to reject or read as comments only.
//
// Line endings become "\n". Every line of the result is a line of the
// reply: text after </think> on the tag's own line is dropped with it.
func Extract(reply string) string {
	s := strings.ReplaceAll(reply, "\r\n", "\n")
	s = stripThinking(s)
	lines := classify(strings.Split(s, "\n"))

	fenced := false
	for _, l := range lines {
		if l.kind == lineFence {
			fenced = true
			break
		}
	}
	sel := lines[:0:0]
	for _, l := range lines {
		if l.kind == lineFence || fenced && !l.inFence {
			continue
		}
		sel = append(sel, l)
	}

	first, last := -1, -1
	for i, l := range sel {
		switch l.kind {
		case lineCommand:
			if first < 0 {
				first = i
			}
			last = i
		case lineComment:
			if first < 0 {
				first = i
			}
		case lineBody:
			if last >= 0 {
				last = i
			}
		}
	}
	if last < 0 {
		for _, l := range sel {
			if l.kind == lineComment && strings.EqualFold(strings.TrimRight(strings.TrimSpace(l.text), "."), NoAction) {
				return NoAction + "\n"
			}
		}
		for len(sel) > 0 && sel[0].kind == lineBlank {
			sel = sel[1:]
		}
		for len(sel) > 0 && sel[len(sel)-1].kind == lineBlank {
			sel = sel[:len(sel)-1]
		}
		first, last = 0, len(sel)-1
	}
	if len(sel) == 0 {
		return ""
	}
	var b strings.Builder
	for _, l := range sel[first : last+1] {
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	return b.String()
}

// stripThinking drops a reasoning model's leading <think>…</think> block;
// one that never closes leaves nothing.
func stripThinking(s string) string {
	t := strings.TrimLeft(s, " \t\n")
	if !strings.HasPrefix(t, "<think>") {
		return s
	}
	_, after, ok := strings.Cut(t, "</think>")
	if !ok {
		return ""
	}
	// The rest of the closing tag's line goes with it: it is not a line of
	// the reply, so a plan line cannot start there.
	if _, next, ok := strings.Cut(after, "\n"); ok {
		return next
	}
	return ""
}

// classify says what each line is, following fences and heredocs.
func classify(raw []string) []replyLine {
	out := make([]replyLine, len(raw))
	inFence := false
	var fenceChar byte
	fenceLen := 0
	tag := "" // the open heredoc's end marker
	for i, text := range raw {
		l := replyLine{text: text, inFence: inFence}
		t := strings.TrimSpace(text)
		switch {
		case tag != "":
			l.kind = lineBody
			if text == tag {
				tag = ""
			}
		case fence(t) > 0 && !inFence:
			l.kind, inFence, fenceChar, fenceLen = lineFence, true, t[0], fence(t)
		case inFence && len(t) >= fenceLen && strings.Trim(t, string(fenceChar)) == "":
			l.kind, inFence = lineFence, false
		case t == "":
			l.kind = lineBlank
		case t[0] == '#':
			l.kind = lineComment
		case isCommand(t):
			l.kind = lineCommand
			tag = heredocTag(text)
		}
		out[i] = l
	}
	return out
}

// fence returns the length of the run of ` or ~ a fence line starts with,
// or 0 if t is not a fence line. An opening ``` fence may carry an info
// string ("```dsl") without backticks.
func fence(t string) int {
	if len(t) < 3 || t[0] != '`' && t[0] != '~' {
		return 0
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 || t[0] == '`' && strings.Contains(t[n:], "`") {
		return 0
	}
	return n
}

// isCommand reports whether t's first word names a command, or looks
// like one that is misspelt: an upper-case word such as MAKE_FOLDER,
// with an underscore or followed by arguments. Such a line is part of the
// plan, for the parser to reject, rather than chatter to drop.
func isCommand(t string) bool {
	word, rest, _ := strings.Cut(t, " ")
	word, rest2, _ := strings.Cut(word, "\t")
	if _, ok := action.Lookup(word); ok {
		return true
	}
	if len(word) < 3 || word[0] < 'A' || word[0] > 'Z' {
		return false
	}
	for i := 0; i < len(word); i++ {
		if c := word[i]; !('A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return false
		}
	}
	return strings.Contains(word, "_") || strings.TrimSpace(rest+rest2) != ""
}

// heredocTag returns TAG if the line ends in a heredoc marker <<TAG, as the
// parser reads it.
func heredocTag(line string) string {
	line = strings.TrimRight(line, " \t")
	i := strings.LastIndexAny(line, " \t")
	word := line[i+1:]
	tag, ok := strings.CutPrefix(word, "<<")
	if !ok || tag == "" {
		return ""
	}
	for j := 0; j < len(tag); j++ {
		c := tag[j]
		if !(c == '_' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || j > 0 && '0' <= c && c <= '9') {
			return ""
		}
	}
	return tag
}
