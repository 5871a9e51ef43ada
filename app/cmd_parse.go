package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/spf13/pflag"
)

// planError is a plan that does not parse: its line-numbered errors are
// the whole message, and the exit status is 2.
type planError struct{ err error }

func (e planError) Error() string { return e.err.Error() }

func cmdParse(_ context.Context, fs *pflag.FlagSet, stdin io.Reader, stdout, _ io.Writer) error {
	args := fs.Args()
	if len(args) != 1 {
		return usagef("want one FILE or - for standard input")
	}
	src, err := readInput(args[0], stdin, action.MaxPlanBytes+action.MaxHeredocBytes)
	if err != nil {
		return err
	}
	return runParse(src, stdout)
}

// runParse prints the plan's actions with their previews, or returns the
// parser's errors.
func runParse(src string, w io.Writer) error {
	p, err := action.Parse(src)
	if err != nil {
		var errs action.Errors
		if errors.As(err, &errs) {
			return planError{fmt.Errorf("plan rejected, nothing of it will run:\n%w", err)}
		}
		return planError{err}
	}
	if len(p.Actions) == 0 {
		fmt.Fprintln(w, "empty plan: no action needed")
		return nil
	}
	fmt.Fprintf(w, "%d action(s):\n", len(p.Actions))
	for i, a := range p.Actions {
		fmt.Fprintf(w, "%3d. line %-4d %-11s %s\n", i+1, a.Line, a.Cmd.Class, a.Preview())
	}
	return nil
}

func cmdCommands(_ context.Context, fs *pflag.FlagSet, _ io.Reader, stdout, _ io.Writer) error {
	if fs.NArg() > 0 {
		return usagef("takes no arguments")
	}
	fmt.Fprint(stdout, action.Markdown())
	return nil
}
