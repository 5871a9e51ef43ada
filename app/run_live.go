package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/airlockhq/airlock/app/internal/gate"
)

// livePrinter prints what a running command prints as it comes (the gate's
// output events): its stdout to ours, its stderr to ours. When the action's
// result comes, the output it carries is not printed again: only what the
// live copy did not show (the review's summary after it, or all of it when
// the live copy was cut or differs).
type livePrinter struct {
	stdout, stderr io.Writer
	shown          map[int]*strings.Builder // per action: its stdout as shown live
	open           map[int]bool             // per action: the last text shown did not end a line
}

func newLivePrinter(stdout, stderr io.Writer) *livePrinter {
	return &livePrinter{stdout: stdout, stderr: stderr, shown: map[int]*strings.Builder{}, open: map[int]bool{}}
}

// event handles e when it is output, or the result of an action that had
// some, and reports whether it did (follow prints the rest).
func (p *livePrinter) event(e gate.Event) bool {
	switch e.Type {
	case gate.EventOutput:
		if e.Stream == gate.StreamStderr {
			io.WriteString(p.stderr, e.Output)
			return true
		}
		io.WriteString(p.stdout, e.Output)
		b := p.shown[e.Index]
		if b == nil {
			b = &strings.Builder{}
			p.shown[e.Index] = b
		}
		b.WriteString(e.Output)
		p.open[e.Index] = !strings.HasSuffix(e.Output, "\n")
		return true
	case gate.EventResult:
		b := p.shown[e.Index]
		if b == nil {
			return false
		}
		if p.open[e.Index] {
			fmt.Fprintln(p.stdout)
		}
		rest, ok := strings.CutPrefix(e.Output, b.String())
		if !ok {
			rest = e.Output // the live copy was cut, or told apart: the result is what counts
		}
		e.Output = strings.TrimLeft(rest, "\n")
		printEvent(p.stdout, e)
		return true
	}
	return false
}
