package mcp

import (
	"fmt"
	"strings"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/risk"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// offline answers the tools that need no gate: they compute from their input
// and the registry, run nothing and ask nobody.
type offline struct {
	env *risk.Env // nil: risk.DefaultEnv() at each call
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
	env := o.env
	if env == nil {
		if env, err = risk.DefaultEnv(); err != nil {
			return nil, Verdict{}, fmt.Errorf("finding the home folder: %w", err)
		}
	}
	v := risk.Assess(kind, in.Input, env)
	out := Verdict{Risk: v.Level.String(), Reasons: append([]string{}, v.Texts()...)}
	var b strings.Builder
	fmt.Fprintf(&b, "risk: %s (nothing was run)\n", out.Risk)
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
