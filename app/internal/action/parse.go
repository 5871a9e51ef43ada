package action

import (
	"fmt"
	"github.com/airlockhq/airlock/app/internal/ascii"
	"sort"
	"strings"
	"time"
	"unicode/utf8"
)

// maxErrors is how many errors Parse reports before summarising the rest.
const maxErrors = 50

// Action is one parsed command.
type Action struct {
	Line int      // line of the command in the parsed text, from 1
	Cmd  *Command // the registry entry
	Args []string // canonical values; trailing optional arguments may be absent
}

// Arg returns the value of the named argument and whether it was given.
func (a Action) Arg(name string) (string, bool) {
	if a.Cmd == nil {
		return "", false
	}
	if i := a.Cmd.argIndex(name); i >= 0 && i < len(a.Args) {
		return a.Args[i], true
	}
	return "", false
}

// Plan is a parsed plan: the actions in order. An empty plan ("# No action
// needed") has no actions.
type Plan struct {
	Actions []Action
}

// LineError is one problem with a plan. Line is 0 for a problem with the
// plan as a whole (its size) and for the summary of errors left out.
type LineError struct {
	Line int
	Msg  string
}

func (e LineError) Error() string {
	if e.Line <= 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
}

// Errors is every problem Parse found, sorted by line. It is the error
// Parse returns; use errors.As to get at the lines.
type Errors []LineError

func (es Errors) Error() string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Parse reads a plan. On any error it returns no plan and an Errors listing
// every problem found (the first maxErrors, then a count of the rest).
// Comment lines (# ...) and blank lines are ignored, so a plan that is only
// "# No action needed" parses to an empty plan.
func Parse(src string) (*Plan, error) {
	if len(src) > MaxPlanBytes+MaxHeredocBytes {
		return nil, Errors{{Msg: fmt.Sprintf("plan is too large: %d bytes (the limit is %d)", len(src), MaxPlanBytes+MaxHeredocBytes)}}
	}
	p := parser{src: strings.TrimPrefix(src, "\uFEFF")}
	p.run()
	if len(p.errs) > 0 {
		sort.SliceStable(p.errs, func(i, j int) bool { return p.errs[i].Line < p.errs[j].Line })
		if p.dropped > 0 {
			more := "and 1 more error"
			if p.dropped > 1 {
				more = fmt.Sprintf("and %d more errors", p.dropped)
			}
			p.errs = append(p.errs, LineError{Msg: more})
		}
		return nil, p.errs
	}
	// The limits above are on the text as written; hold its canonical form
	// to them too, so that Parse(plan.String()) always succeeds.
	if outside, total := canonicalSize(p.actions); outside > MaxPlanBytes || total > MaxPlanBytes+MaxHeredocBytes {
		return nil, Errors{{Msg: fmt.Sprintf("plan is too large: written canonically it has %d bytes outside heredoc bodies (the limit is %d) and %d in all (the limit is %d)",
			outside, MaxPlanBytes, total, MaxPlanBytes+MaxHeredocBytes)}}
	}
	return &Plan{Actions: p.actions}, nil
}

type parser struct {
	src     string
	pos     int // offset of the next line
	line    int // number of the line last read
	outside int // bytes read outside heredoc bodies
	count   int // command lines read
	actions []Action
	errs    Errors
	dropped int     // errors not kept in errs
	toks    []token // reused across lines

	unterminated map[string]bool // tags skipBody found no terminator for
}

func (p *parser) errorf(line int, format string, args ...any) {
	if len(p.errs) >= maxErrors {
		p.dropped++
		return
	}
	p.errs = append(p.errs, LineError{Line: line, Msg: fmt.Sprintf(format, args...)})
}

// next reads the next line, without its line ending, and returns the
// number of bytes it took up in src.
func (p *parser) next() (line string, n int, ok bool) {
	if p.pos >= len(p.src) {
		return "", 0, false
	}
	rest := p.src[p.pos:]
	line = rest
	n = len(rest)
	if i := strings.IndexByte(rest, '\n'); i >= 0 {
		line, n = rest[:i], i+1
	}
	line = strings.TrimSuffix(line, "\r")
	p.pos += n
	p.line++
	return line, n, true
}

// checkLine returns a message if the line is not valid UTF-8 or holds a
// carriage return that is not part of a CRLF line ending. (Rejecting a lone
// CR keeps the canonical form exact: no value ever holds one.)
func checkLine(line string) string {
	if !utf8.ValidString(line) {
		for i, r := range line {
			if r == utf8.RuneError {
				if _, size := utf8.DecodeRuneInString(line[i:]); size == 1 {
					return fmt.Sprintf("invalid UTF-8 (column %d)", column(line, i))
				}
			}
		}
	}
	if i := strings.IndexByte(line, '\r'); i >= 0 {
		return fmt.Sprintf("carriage return inside a line (column %d); only CRLF line endings are allowed", column(line, i))
	}
	return ""
}

func (p *parser) run() {
	for {
		line, n, ok := p.next()
		if !ok {
			return
		}
		p.outside += n
		if p.outside > MaxPlanBytes {
			p.errorf(p.line, "plan text outside heredoc bodies is larger than %d bytes", MaxPlanBytes)
			return
		}
		if msg := checkLine(line); msg != "" {
			p.errorf(p.line, "%s", msg)
			p.skipBody(trailingTag(line))
			continue
		}
		rest := strings.TrimLeft(line, " \t")
		if rest == "" || rest[0] == '#' {
			continue
		}
		toks, dropped, msg := lexLine(line, p.toks[:0])
		p.toks = toks
		if msg != "" {
			p.errorf(p.line, "%s", msg)
			// A misplaced heredoc marker still opens a heredoc.
			if len(toks) > 0 && toks[len(toks)-1].tag != "" {
				p.skipBody(toks[len(toks)-1].tag)
			} else {
				p.skipBody(trailingTag(line))
			}
			continue
		}
		if !p.command(toks, dropped) {
			return
		}
	}
}

// command checks one command line and, if it ends in a heredoc marker,
// reads the body. It returns false if the rest of the input was consumed
// by an unterminated heredoc.
func (p *parser) command(toks []token, dropped int) bool {
	lineNo := p.line
	last := &toks[len(toks)-1]
	if last.tag != "" {
		// Check the command before reading the body, so errors come in
		// line order.
		a, ok := p.action(lineNo, toks, dropped)
		body, terminated, bodyOK := p.readBody(last.tag, lineNo)
		if !terminated {
			return false
		}
		if ok && bodyOK {
			a.Args[len(a.Args)-1] = body
			p.actions = append(p.actions, a)
		}
		return true
	}
	if a, ok := p.action(lineNo, toks, dropped); ok {
		p.actions = append(p.actions, a)
	}
	return true
}

// action validates a command line's tokens (dropped more were counted but
// not kept). A heredoc's value is filled in by the caller.
func (p *parser) action(lineNo int, toks []token, dropped int) (Action, bool) {
	p.count++
	if p.count > MaxActions {
		if p.count == MaxActions+1 {
			p.errorf(lineNo, "too many actions (the limit is %d)", MaxActions)
		}
		return Action{}, false
	}
	name := toks[0]
	if name.quoted || name.tag != "" {
		p.errorf(lineNo, "expected a command name at the start of the line, got %s", describeToken(name))
		return Action{}, false
	}
	cmd, ok := Lookup(name.val)
	if !ok {
		if s := suggest(name.val); s != "" {
			p.errorf(lineNo, "unknown command %s (did you mean %s?)", quoteShort(name.val), s)
		} else {
			p.errorf(lineNo, "unknown command %s", quoteShort(name.val))
		}
		return Action{}, false
	}
	args := toks[1:]
	if n := len(args) + dropped; n < cmd.required() || n > len(cmd.Args) {
		p.errorf(lineNo, "%s takes %s, got %d", cmd.Name, describeArity(cmd), n)
		return Action{}, false
	}
	vals := make([]string, len(args))
	var times [4]time.Time
	ok = true
	for i, t := range args {
		spec := cmd.Args[i]
		if t.tag != "" {
			if !spec.Heredoc {
				p.errorf(lineNo, "%s: %s cannot be a heredoc (usage: %s)", cmd.Name, spec.Name, Usage(cmd))
				ok = false
			}
			continue // the body is checked as it is read
		}
		v, tm, msg := canonical(spec, t.val, false)
		if msg != "" {
			p.errorf(lineNo, "%s: %s", cmd.Name, msg)
			ok = false
			continue
		}
		vals[i] = v
		if i < len(times) {
			times[i] = tm
		}
		if spec.notBefore != "" {
			j := cmd.argIndex(spec.notBefore)
			if j >= 0 && j < i && j < len(times) && vals[j] != "" && tm.Before(times[j]) {
				p.errorf(lineNo, "%s: %s (%s) is before %s (%s)", cmd.Name, spec.Name, v, spec.notBefore, vals[j])
				ok = false
			}
		}
	}
	return Action{Line: lineNo, Cmd: cmd, Args: vals}, ok
}

// readBody reads a heredoc body up to the line that is exactly tag. It
// reports whether the terminator was found (if not, the rest of the input
// is gone) and whether the body was valid.
func (p *parser) readBody(tag string, start int) (body string, terminated, ok bool) {
	from := p.pos
	var b *strings.Builder // used once a CRLF line ending had to be dropped
	size := 0
	ok = true
	for {
		lineStart := p.pos
		line, n, more := p.next()
		if !more {
			p.errorf(start, "heredoc <<%s is not terminated: no line %q before the end of the plan", tag, tag)
			return "", false, false
		}
		if line == tag {
			p.outside += n
			if p.outside > MaxPlanBytes {
				p.errorf(p.line, "plan text outside heredoc bodies is larger than %d bytes", MaxPlanBytes)
				return "", false, false
			}
			if !ok {
				return "", true, false
			}
			if b != nil {
				return b.String(), true, true
			}
			return p.src[from:lineStart], true, true
		}
		if msg := checkLine(line); msg != "" {
			p.errorf(p.line, "%s", msg)
			ok = false
		}
		size += len(line) + 1
		if size > MaxHeredocBytes {
			if ok {
				p.errorf(start, "heredoc <<%s body is larger than %d bytes", tag, MaxHeredocBytes)
			}
			ok = false
		}
		if !ok {
			b = nil
			continue
		}
		if b == nil && n != len(line)+1 {
			b = new(strings.Builder)
			b.Grow(lineStart - from + len(line) + 1)
			b.WriteString(p.src[from:lineStart])
		}
		if b != nil {
			b.WriteString(line)
			b.WriteByte('\n')
		}
	}
}

// skipBody is used after a command line that could not be read: if the
// line seems to open a heredoc <<tag and the heredoc is terminated, it
// skips the body so that the body's lines are not read as commands. It
// stops trying once errors are no longer being kept, which bounds its cost.
func (p *parser) skipBody(tag string) {
	if tag == "" || len(p.errs) >= maxErrors || p.unterminated[tag] {
		return
	}
	rest := p.src[p.pos:]
	off := 0
	for {
		var i int
		if off == 0 && strings.HasPrefix(rest, tag) {
			i = 0
		} else {
			j := strings.Index(rest[off:], "\n"+tag)
			if j < 0 {
				// Nor will there be one for a later line.
				if p.unterminated == nil {
					p.unterminated = make(map[string]bool)
				}
				p.unterminated[tag] = true
				return
			}
			i = off + j + 1
		}
		end := rest[i+len(tag):]
		switch {
		case end == "" || end == "\r" || strings.HasPrefix(end, "\n") || strings.HasPrefix(end, "\r\n"):
			// Found the terminator: skip the body and the terminator line.
			body := rest[:i]
			p.line += strings.Count(body, "\n")
			p.pos += i
			if _, n, ok := p.next(); ok {
				p.outside += n
			}
			return
		}
		off = i + len(tag)
	}
}

// describeToken names a token that cannot be a command name.
func describeToken(t token) string {
	if t.tag != "" {
		return "a heredoc marker"
	}
	return "the quoted string " + quoteShort(t.val)
}

// describeArity says how many arguments a command takes and which:
// "2 arguments (from, to)", "1 or 2 arguments (path, [app])".
func describeArity(c *Command) string {
	lo, hi := c.required(), len(c.Args)
	var b strings.Builder
	switch {
	case lo == hi:
		b.WriteString(plural(hi, "argument"))
	case hi == lo+1:
		fmt.Fprintf(&b, "%d or %d arguments", lo, hi)
	default:
		fmt.Fprintf(&b, "%d to %d arguments", lo, hi)
	}
	b.WriteString(" (")
	for i, a := range c.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		if a.Optional {
			b.WriteString("[" + a.Name + "]")
		} else {
			b.WriteString(a.Name)
		}
	}
	b.WriteString(")")
	return b.String()
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// suggest returns the registry name closest to name if it is within edit
// distance 2, or "".
func suggest(name string) string {
	if len(name) > maxNameLen+2 {
		return ""
	}
	name = ascii.Upper(name)
	best, bestD := "", 3
	for _, c := range registry {
		if d := editDistance(name, c.Name); d < bestD {
			best, bestD = c.Name, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
