package rate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// MaxAnalysed is the budget of one assessment: the bytes of text it
// analyses in all, the input and every script nested in it (sh -c, bash -c,
// eval, source, osascript -e, do shell script, run script, doShellScript,
// eval, Function …), each counted where its analysis starts. Past it the
// rest is not analysed and the verdict is destructive, "too much to
// analyse". Together with MaxDepth it bounds the time and memory of an
// assessment whatever its input: quoting a script once more for each level
// of nesting cannot make it analysed once per level without end.
const MaxAnalysed = 1 << 20

// MaxDepth bounds nested analysis (sh -c inside eval inside osascript …);
// MaxAnalysed the text analysed in all.
const MaxDepth = 8

// MaxNesting bounds the brackets, blocks and substitutions one text may
// nest inside each other. The parsers recurse once per level: a few
// hundred thousand levels, a few hundred KB of "((((…" or "${x:-${x:-…",
// overflow the goroutine's stack, which no recover catches, and well
// before that deep nesting costs time out of proportion (parsing
// "((((…" backtracks). No script a person would approve nests this deep.
const MaxNesting = 256

// ErrStopped is wrapped by the error of an assessment whose context ended
// before it finished (the kill switch, or a client that went away). Its
// verdict is incomplete: nothing may be decided on it.
var ErrStopped = errors.New("the assessment was stopped before it finished")

// stepsPerLook is how many steps of work pass between two looks at the
// assessment's context in a long loop.
const stepsPerLook = 256

// Bounds is what every analysis of one assessment shares, nested analyses
// in any language included: its context and its budget of analysed text.
// An assessment runs on one goroutine; Bounds has no lock. The nil Bounds
// (of an Env not bound to an assessment) has no budget and never stops.
type Bounds struct {
	ctx     context.Context
	used    int        // bytes of text whose analysis has started
	over    bool       // the budget ran out: something was not analysed
	stopped error      // the context's cause, once seen ended
	steps   int        // steps since the context was last looked at
	copied  int        // bytes evaluation copied into words (expand)
	reader  stopReader // what Reader returns, reused: one parse reads at a time
}

// Bounds returns the bounds of the assessment e belongs to; nil (for e nil,
// or an Env not bound to an assessment) has no budget and never stops, but
// still bounds the depth.
func (e *Env) Bounds() *Bounds {
	if e == nil {
		return nil
	}
	return e.run
}

// slots bounds the assessments that run at once: analysis only computes, so
// more of them than processors gains nothing and multiplies the memory in
// use. Kill ends a wait for a slot at once.
var slots = make(chan struct{}, max(runtime.GOMAXPROCS(0), 1))

// Begin starts an assessment under ctx, once a slot is free: it returns e
// bound to a fresh budget and to langs, the analyzers its nested scripts go
// to (a copy; e nil gives an empty Env), and the function that ends it,
// which frees the slot, adds to the verdict what the bounds cut off and
// returns an error wrapping ErrStopped when ctx ended first. An Env already
// bound (an analyzer calling a public entry point for a nested text) keeps
// its assessment and its analyzers, and its end does nothing: the outermost
// one reports.
func (e *Env) Begin(ctx context.Context, langs Languages) (*Env, func(v *Verdict) error) {
	if e.Bounds() != nil {
		return e, func(*Verdict) error { return nil }
	}
	// The budget and the bound Env live as long as each other: one
	// allocation holds both.
	both := &struct {
		env Env
		b   Bounds
	}{b: Bounds{ctx: ctx}}
	b, bound := &both.b, &both.env
	if e != nil {
		*bound = *e
	}
	bound.run, bound.langs = b, langs
	if ctx.Done() != nil {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
			b.stopped = context.Cause(ctx)
			return bound, func(v *Verdict) error { return b.end(v) }
		}
	} else {
		slots <- struct{}{}
	}
	return bound, func(v *Verdict) error {
		<-slots
		return b.end(v)
	}
}

// end adds what the bounds cut off to v, the outermost verdict, and
// returns the stop, if any.
func (b *Bounds) end(v *Verdict) error {
	if b.stopped != nil {
		v.Found(notAnalysed, "analysis.stopped", Span{}, "the analysis was stopped before it finished (%s): not analysed", OneLine(b.stopped.Error()))
		return fmt.Errorf("%w: %w", ErrStopped, b.stopped)
	}
	if b.over && !v.hasText(TooMuch) {
		v.FoundText(notAnalysed, "analysis.too-much", Span{}, TooMuch)
	}
	return nil
}

// The reasons the bounds give. What they cut off is destructive, as
// everything the analyzers cannot read: never safe or caution, and asked
// about at every autonomy level.
const (
	TooDeep = "too deeply nested to analyse"
	TooMuch = "more than 1 MiB of script text in all, nested scripts included: too much to analyse"
)

// Enter charges the text src of an analysis at depth (0: the input) and
// reports whether the analysis may go on. When not, rule ("too-deep",
// "too-much") and why say which bound stopped it, for the analyzer to add
// to its verdict (destructive); what names the text in why ("shell
// commands", "scripts"). A stop of the assessment gives rule "", and end
// reports it.
func (b *Bounds) Enter(src string, depth int, what string) (rule, why string, ok bool) {
	if depth > MaxDepth {
		return "too-deep", fmt.Sprintf("%s nested more than %d deep: %s", what, MaxDepth, TooDeep), false
	}
	if b == nil {
		return "", "", true
	}
	if !b.Look() {
		return "", "", false
	}
	if b.over || len(src) > MaxAnalysed-b.used {
		b.over = true
		return "too-much", TooMuch, false
	}
	b.used += len(src)
	return "", "", true
}

// Live reports whether the assessment may go on; in long loops it looks at
// the context once every stepsPerLook calls.
func (b *Bounds) Live() bool {
	if b == nil {
		return true
	}
	if b.stopped != nil {
		return false
	}
	if b.steps++; b.steps < stepsPerLook {
		return true
	}
	return b.Look()
}

// Look looks at the context now.
func (b *Bounds) Look() bool {
	if b == nil {
		return true
	}
	if b.stopped != nil {
		return false
	}
	b.steps = 0
	if b.ctx.Err() != nil {
		b.stopped = context.Cause(b.ctx)
		return false
	}
	return true
}

// Reader reads src for a parser, failing once the assessment is stopped:
// a parse of a long text ends between two reads. The reader is b's own,
// made again for each parse: a parse ends before the next begins (a
// nested script is parsed once its outer one is), and a parse of a short
// command makes few allocations, of which this was one. A Reader is not
// to be read once Reader is called again.
func (b *Bounds) Reader(src string) io.Reader {
	if b == nil {
		return strings.NewReader(src)
	}
	b.reader.b = b
	b.reader.r.Reset(src)
	return &b.reader
}

type stopReader struct {
	b *Bounds
	r strings.Reader
}

func (s *stopReader) Read(p []byte) (int, error) {
	if !s.b.Look() {
		return 0, ErrStopped
	}
	return s.r.Read(p)
}

// Expand charges n bytes that evaluation copied into a word from
// elsewhere (a variable's value), which a short script can repeat many
// times ($X$X$X…). It reports false once the copies would pass
// MaxAnalysed: the value then stands for text not known.
func (b *Bounds) Expand(n int) bool {
	if b == nil {
		return true
	}
	if n > MaxAnalysed-b.copied {
		return false
	}
	b.copied += n
	return true
}

// Nesting returns how deep src nests, up to MaxNesting+1: brackets
// ( [ { and, with shell set, the shell's blocks (if … fi, case … esac,
// do … done) and what opens a construct with no closing word: a prefix
// (!, time, coproc, function, a run of ! - + ~ before a word, f() before a
// function's body) or an operator between commands (&&, ||, |), which the
// end of its command (; & or a newline) closes. It reads the text as it is, quotes and all: a bracket in a
// string counts too, which can only make it deeper. A closer ends the
// nearest block of its kind and those opened inside it, and one with no
// such block is ignored: the ")" after a case pattern does not end the
// case.
func Nesting(src string, shell bool) int {
	const prefix = 'p'
	var open [MaxNesting + 1]byte // the kinds of the blocks open, innermost last
	depth, deepest := 0, 0
	push := func(kind byte) bool {
		if depth == len(open) {
			deepest = depth + 1
			return false
		}
		open[depth] = kind
		depth++
		deepest = max(deepest, depth)
		return true
	}
	close := func(kind byte) {
		for i := depth - 1; i >= 0; i-- {
			if open[i] == kind {
				depth = i
				return
			}
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '(', '[', '{':
			if !push(c) {
				return deepest
			}
			continue
		case ')':
			for shell && depth > 0 && open[depth-1] == prefix {
				depth--
			}
			if shell && depth > 0 && open[depth-1] == 'c' {
				continue // the end of a case pattern
			}
			close('(')
			continue
		case ']':
			close('[')
			continue
		case '}':
			close('{')
			continue
		}
		if !shell {
			continue
		}
		switch c {
		case ' ', '\t', '\r':
			continue
		case '&', '|':
			if c == '|' || i+1 < len(src) && src[i+1] == '&' {
				// a && b, a || b, a | b: the parsers nest each
				// operator in the next, and the command goes on.
				if !push(prefix) {
					return deepest
				}
				if i+1 < len(src) && src[i+1] == c {
					i++
				}
				continue
			}
			fallthrough // a & b: the end of a command
		case ';', '\n':
			for depth > 0 && open[depth-1] == prefix {
				depth--
			}
			continue
		}
		j := i
		for j < len(src) && !nestStop[src[j]] {
			j++
		}
		w := src[i:j]
		kind := byte(0)
		switch w {
		case "if", "case", "do":
			kind = w[0]
		case "fi":
			close('i')
		case "esac":
			close('c')
		case "done":
			close('d')
		case "time", "coproc", "function":
			kind = prefix
		default:
			for k := 0; k < len(w) && strings.IndexByte("!-+~", w[k]) >= 0; k++ {
				if !push(prefix) {
					return deepest
				}
			}
			if strings.HasPrefix(src[j:], "()") {
				kind = prefix // f() before its body
			}
		}
		if kind != 0 && !push(kind) {
			return deepest
		}
		i = j - 1
	}
	return deepest
}

// nestStop holds the bytes that end a word for Nesting: blanks, line
// ends, the shell's operators and the brackets (" \t\r\n;&|()[]{}"); a
// table, so that reading a word costs one look-up a byte.
var nestStop = func() (t [256]bool) {
	for _, c := range []byte(" \t\r\n;&|()[]{}") {
		t[c] = true
	}
	return t
}()

// hasText reports a reason of v with the warning text.
func (v *Verdict) hasText(text string) bool {
	for _, r := range v.Reasons {
		if r.Text == text {
			return true
		}
	}
	return false
}

// notAnalysed is the effect of input the analysis could not finish: what it
// does cannot be told, and it may be anything (fail closed).
var notAnalysed = effect.Of(effect.Unknown, effect.Computed)
