package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/airlockhq/airlock/app/internal/mcp"
	"github.com/airlockhq/airlock/app/internal/redact"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/bridge"
	"github.com/spf13/pflag"
)

// compileAppleScript compiles an AppleScript without running it: the
// bridge's (a helper child with NSAppleScript on macOS; "needs macOS"
// elsewhere). Tests replace it.
var compileAppleScript = func(ctx context.Context, src string) error {
	d, err := bridge.NewDesktop(bridge.Options{})
	if err != nil {
		return err
	}
	return d.ValidateAppleScript(ctx, src)
}

// cmdValidate is seed 000's validateScript: it compiles an AppleScript
// without running it, prints whether it compiles (with the compiler's
// error and how to fix the common kinds) and how the gate would rate it.
// Exit status 1 when it does not compile or cannot be checked here.
// validateFlags declares airlock validate's flags.
func validateFlags(fs *pflag.FlagSet) runFunc {
	asJSON := fs.Bool("json", false, "print the result as JSON: valid, errors, risk, reasons")
	return func(ctx context.Context, fs *pflag.FlagSet, stdin io.Reader, stdout, _ io.Writer) error {
		return cmdValidate(ctx, fs, asJSON, stdin, stdout)
	}
}

func cmdValidate(ctx context.Context, fs *pflag.FlagSet, asJSON *bool, stdin io.Reader, stdout io.Writer) error {
	if fs.NArg() != 1 {
		return usagef("want one FILE or - for standard input")
	}
	src, err := readInput(fs.Arg(0), stdin, mcp.MaxSource)
	if err != nil {
		return err
	}
	env, err := gateEnv()
	if err != nil {
		return err
	}
	return runValidate(ctx, src, env, *asJSON, stdout)
}

func runValidate(ctx context.Context, src string, env *risk.Env, asJSON bool, w io.Writer) error {
	err := compileAppleScript(ctx, src)
	var se *bridge.ScriptError
	switch {
	case errors.Is(err, bridge.ErrUnavailable):
		return fmt.Errorf("%s: nothing was checked (`airlock assess --kind applescript` rates a script on any system)", err)
	case err != nil && !errors.As(err, &se):
		return fmt.Errorf("the script could not be checked: %w", err)
	}
	v := risk.AppleScript(src, env)
	out := mcp.Validation{Valid: err == nil, Errors: []string{}, Risk: v.Level.String(), Reasons: v.Texts()}
	if se != nil {
		out.Errors = append(out.Errors, redact.String(se.Error()))
	}
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			return err
		}
	} else {
		if out.Valid {
			fmt.Fprintln(w, "valid: the script compiles (it was not run)")
		} else {
			fmt.Fprintf(w, "invalid: %s\n", out.Errors[0])
		}
		fmt.Fprintf(w, "risk if run: %s\n", out.Risk)
		for _, r := range out.Reasons {
			fmt.Fprintf(w, "  %s\n", r)
		}
	}
	if !out.Valid {
		return outcomeError{status: "invalid"}
	}
	return nil
}
