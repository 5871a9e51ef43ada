package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/redact"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/bridge"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// offline answers the tools that need no gate: they compute from their input
// and the registry, run nothing and ask nobody.
type offline struct {
	// env is what the gate rates against, read afresh at each call.
	env func() (*risk.Env, error)
	// validate compiles an AppleScript; nil: the bridge's.
	validate func(ctx context.Context, src string) error
}

// Verdict is the structured answer of assess: the same risk and reasons as a
// line of `airlock assess --jsonl`.
type Verdict struct {
	Risk    string   `json:"risk"` // safe, caution, dangerous, destructive or blocked
	Reasons []string `json:"reasons"`
}

func (o *offline) assess(in assessArgs) (*sdk.CallToolResult, Verdict, error) {
	kind, err := risk.ParseKind(in.Kind)
	if err != nil {
		return nil, Verdict{}, err
	}
	if len(in.Input) > MaxSource {
		return nil, Verdict{}, fmt.Errorf("the input is %d bytes: at most %d", len(in.Input), MaxSource)
	}
	env, err := o.env()
	if err != nil {
		return nil, Verdict{}, err
	}
	v, _ := risk.AssessContext(context.Background(), kind, in.Input, env)
	out := Verdict{Risk: v.Level.String(), Reasons: append([]string{}, v.Texts()...)}
	var b strings.Builder
	fmt.Fprintf(&b, "risk: %s (nothing was run)\n", out.Risk)
	for _, r := range out.Reasons {
		fmt.Fprintf(&b, "- %s\n", r)
	}
	return textResult(b.String()), out, nil
}

// Validation is the structured answer of validate_applescript, as seed
// 000's validateScript gives it: whether the script compiles, the compiler's
// errors with the fix for the common kinds, and how the gate would rate it.
type Validation struct {
	Valid   bool     `json:"valid"`
	Errors  []string `json:"errors"`
	Risk    string   `json:"risk"`
	Reasons []string `json:"reasons"`
}

// validateAppleScript compiles the script without running it. A script that
// does not compile is an answer (valid false), not a tool error; a platform
// that cannot compile AppleScript is.
func (o *offline) validateAppleScript(ctx context.Context, in validateArgs) (*sdk.CallToolResult, Validation, error) {
	if len(in.Source) > MaxSource {
		return nil, Validation{}, fmt.Errorf("the script is %d bytes: at most %d", len(in.Source), MaxSource)
	}
	env, err := o.env()
	if err != nil {
		return nil, Validation{}, err
	}
	validate := o.validate
	if validate == nil {
		d, err := bridge.NewDesktop(bridge.Options{})
		if err != nil {
			return nil, Validation{}, err
		}
		validate = d.ValidateAppleScript
	}
	err = validate(ctx, in.Source)
	var se *bridge.ScriptError
	switch {
	case errors.Is(err, bridge.ErrUnavailable):
		return nil, Validation{}, fmt.Errorf("%s; nothing was checked (assess rates a script on any system)", redact.String(err.Error()))
	case err != nil && !errors.As(err, &se):
		return nil, Validation{}, fmt.Errorf("the script could not be checked: %s", redact.String(err.Error()))
	}
	v := risk.AppleScript(in.Source, env)
	out := Validation{Valid: err == nil, Errors: []string{}, Risk: v.Level.String(), Reasons: redactAll(v.Texts())}
	var b strings.Builder
	if out.Valid {
		b.WriteString("The script compiles (it was not run).\n")
	} else {
		out.Errors = append(out.Errors, redact.String(se.Error()))
		fmt.Fprintf(&b, "The script does not compile (it was not run):\n- %s\n", out.Errors[0])
	}
	fmt.Fprintf(&b, "risk if run: %s\n", out.Risk)
	for _, r := range out.Reasons {
		fmt.Fprintf(&b, "- %s\n", r)
	}
	return textResult(b.String()), out, nil
}

// ActionList is the structured answer of list_actions: the Action DSL's
// registry.
type ActionList struct {
	Commands []CommandInfo `json:"commands"`
}

// CommandInfo describes one command of the Action DSL.
type CommandInfo struct {
	Name  string `json:"name"`
	Usage string `json:"usage"` // its syntax on one line
	Group string `json:"group"`
	Risk  string `json:"risk"` // its base class; the gate may rate an action higher
	Help  string `json:"help"`
}

func (o *offline) listActions() (*sdk.CallToolResult, ActionList, error) {
	cmds := action.Commands()
	list := ActionList{Commands: make([]CommandInfo, len(cmds))}
	var b strings.Builder
	b.WriteString("Action DSL commands for run_actions, one per line of a plan (base risk in brackets):\n")
	group := ""
	for i, c := range cmds {
		list.Commands[i] = CommandInfo{Name: c.Name, Usage: action.Usage(c), Group: c.Group, Risk: c.Class.String(), Help: c.Help}
		if c.Group != group {
			group = c.Group
			fmt.Fprintf(&b, "\n%s:\n", group)
		}
		fmt.Fprintf(&b, "  %s  [%s]\n      %s\n", action.Usage(c), c.Class, c.Help)
	}
	return textResult(b.String()), list, nil
}
