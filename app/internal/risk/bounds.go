package risk

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
)

// maxAnalysed is the budget of one assessment: the bytes of text it
// analyses in all, the input and every script nested in it (sh -c, bash -c,
// eval, source, osascript -e, do shell script, run script, doShellScript,
// eval, Function …), each counted where its analysis starts. Past it the
// rest is not analysed and the verdict is destructive, "too much to
// analyse". Together with maxDepth it bounds the time and memory of an
// assessment whatever its input: quoting a script once more for each level
// of nesting cannot make it analysed once per level without end.
const maxAnalysed = 1 << 20

// maxNesting bounds the brackets, blocks and substitutions one text may
// nest inside each other. The parsers recurse once per level: a few
// hundred thousand levels, a few hundred KB of "((((…" or "${x:-${x:-…",
// overflow the goroutine's stack, which no recover catches, and well
// before that deep nesting costs time out of proportion (parsing
// "((((…" backtracks). No script a person would approve nests this deep.
const maxNesting = 256

// ErrStopped is wrapped by the error of an assessment whose context ended
// before it finished (the kill switch, or a client that went away). Its
// verdict is incomplete: nothing may be decided on it.
var ErrStopped = errors.New("the assessment was stopped before it finished")

// stepsPerLook is how many steps of work pass between two looks at the
// assessment's context in a long loop.
const stepsPerLook = 256

// bounds is what every analysis of one assessment shares, nested analyses
// in any language included: its context and its budget of analysed text.
// An assessment runs on one goroutine; bounds has no lock.
type bounds struct {
	ctx     context.Context
	used    int   // bytes of text whose analysis has started
	over    bool  // the budget ran out: something was not analysed
	stopped error // the context's cause, once seen ended
	steps   int   // steps since the context was last looked at
	copied  int   // bytes evaluation copied into words (expand)
}

// bounds returns the assessment env belongs to; nil (for env nil, or an
// env not bound to an assessment) has no budget and never stops, but still
// bounds the depth.
func (e *Env) bounds() *bounds {
	if e == nil {
		return nil
	}
	return e.run
}

// slots bounds the assessments that run at once: analysis only computes, so
// more of them than processors gains nothing and multiplies the memory in
// use. Kill ends a wait for a slot at once.
var slots = make(chan struct{}, max(runtime.GOMAXPROCS(0), 1))

// begin starts an assessment under ctx, once a slot is free: it returns env
// bound to a fresh budget (a copy; nil env gives an empty one) and the
// function that ends it, which frees the slot, adds to the verdict what the
// bounds cut off and returns an error wrapping ErrStopped when ctx ended
// first. An env already bound (an analyzer calling a public function of
// this package for a nested text) keeps its assessment, and its end does
// nothing: the outermost one reports.
func (e *Env) begin(ctx context.Context) (*Env, func(v *Verdict) error) {
	if e.bounds() != nil {
		return e, func(*Verdict) error { return nil }
	}
	b := &bounds{ctx: ctx}
	bound := &Env{run: b}
	if e != nil {
		*bound = *e
		bound.run = b
	}
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
func (b *bounds) end(v *Verdict) error {
	if b.stopped != nil {
		v.add(level.Destructive, "analysis.stopped", Span{}, "the analysis was stopped before it finished (%s): not analysed", oneLine(b.stopped.Error()))
		return fmt.Errorf("%w: %w", ErrStopped, b.stopped)
	}
	if b.over && !hasText(*v, tooMuch) {
		v.add(level.Destructive, "analysis.too-much", Span{}, tooMuch)
	}
	return nil
}

// The reasons the bounds give. What they cut off is destructive, as
// everything the analyzers cannot read: never safe or caution, and asked
// about at every autonomy level.
const (
	tooDeep = "too deeply nested to analyse"
	tooMuch = "more than 1 MiB of script text in all, nested scripts included: too much to analyse"
)

// enter charges the text src of an analysis at depth (0: the input) and
// reports whether the analysis may go on. When not, rule ("too-deep",
// "too-much") and why say which bound stopped it, for the analyzer to add
// to its verdict (destructive); what names the text in why ("shell
// commands", "scripts"). A stop of the assessment gives rule "", and end
// reports it.
func (b *bounds) enter(src string, depth int, what string) (rule, why string, ok bool) {
	if depth > maxDepth {
		return "too-deep", fmt.Sprintf("%s nested more than %d deep: %s", what, maxDepth, tooDeep), false
	}
	if b == nil {
		return "", "", true
	}
	if !b.look() {
		return "", "", false
	}
	if b.over || len(src) > maxAnalysed-b.used {
		b.over = true
		return "too-much", tooMuch, false
	}
	b.used += len(src)
	return "", "", true
}

// live reports whether the assessment may go on; in long loops it looks at
// the context once every stepsPerLook calls.
func (b *bounds) live() bool {
	if b == nil {
		return true
	}
	if b.stopped != nil {
		return false
	}
	if b.steps++; b.steps < stepsPerLook {
		return true
	}
	return b.look()
}

// look looks at the context now.
func (b *bounds) look() bool {
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

// reader reads src for a parser, failing once the assessment is stopped:
// a parse of a long text ends between two reads.
func (b *bounds) reader(src string) io.Reader {
	if b == nil {
		return strings.NewReader(src)
	}
	return stopReader{b, strings.NewReader(src)}
}

type stopReader struct {
	b *bounds
	r io.Reader
}

func (s stopReader) Read(p []byte) (int, error) {
	if !s.b.look() {
		return 0, ErrStopped
	}
	return s.r.Read(p)
}

// expand charges n bytes that evaluation copied into a word from
// elsewhere (a variable's value), which a short script can repeat many
// times ($X$X$X…). It reports false once the copies would pass
// maxAnalysed: the value then stands for text not known.
func (b *bounds) expand(n int) bool {
	if b == nil {
		return true
	}
	if n > maxAnalysed-b.copied {
		return false
	}
	b.copied += n
	return true
}

// nesting returns how deep src nests, up to maxNesting+1: brackets
// ( [ { and, with shell set, the shell's blocks (if … fi, case … esac,
// do … done) and what opens a construct with no closing word: a prefix
// (!, time, coproc, function, a run of ! - + ~ before a word, f() before a
// function's body) or an operator between commands (&&, ||, |), which the
// end of its command (; & or a newline) closes. It reads the text as it is, quotes and all: a bracket in a
// string counts too, which can only make it deeper. A closer ends the
// nearest block of its kind and those opened inside it, and one with no
// such block is ignored: the ")" after a case pattern does not end the
// case.
func nesting(src string, shell bool) int {
	const prefix = 'p'
	var open [maxNesting + 1]byte // the kinds of the blocks open, innermost last
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
		for j < len(src) && !strings.ContainsRune(" \t\r\n;&|()[]{}", rune(src[j])) {
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

func hasText(v Verdict, text string) bool {
	for _, r := range v.Reasons {
		if r.Text == text {
			return true
		}
	}
	return false
}
