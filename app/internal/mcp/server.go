package mcp

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/airlockhq/airlock/app/internal/datadir"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxOutput bounds the output a run_* result carries, in bytes, across
// all its actions; what is cut is said so.
const DefaultMaxOutput = 16 << 10

// Config is what a server is built from. The zero value serves the gate of
// this user's data directory.
type Config struct {
	// Dir is the data directory the gate listens in; "" means
	// datadir.Data(), looked up at each call.
	Dir string
	// Env is what assess and validate_applescript rate against; nil means
	// what the gate rates against, read at each call from the settings in
	// Dir (policy.LoadEnv), as `airlock assess` does.
	Env *risk.Env
	// Version is the server's version in the MCP handshake.
	Version string
	// MaxOutput bounds the output of one run_* result, in bytes; ≤ 0 means
	// DefaultMaxOutput.
	MaxOutput int
	// ProgressEvery is how often a run_* call that waits or runs sends a
	// progress notification (when its client asked for them); ≤ 0 means
	// DefaultProgressEvery.
	ProgressEvery time.Duration
	// ApprovalTimeout is the gate's approval timeout, for the time left the
	// notifications give; 0 means the one in the settings in Dir.
	ApprovalTimeout time.Duration
	// Validate compiles an AppleScript without running it; nil means the
	// bridge's (macOS only: elsewhere it answers "needs macOS").
	Validate func(ctx context.Context, src string) error
	// Path is the PATH run_command's programs are looked up on (the
	// server's own, for `airlock mcp`); "" leaves them to the sandbox's.
	Path string
	// NoScripts leaves out the tools of AppleScript and JXA
	// (run_applescript, run_jxa, validate_applescript), for a platform
	// where they cannot run: an agent is offered only what can work.
	NoScripts bool
}

// instructions tell the agent, once per session, how the server behaves.
const instructions = "Airlock stands between you and the person's computer. The run_* tools " +
	"send work to Airlock's gate, which rates it and asks the person, in its own popup, to approve " +
	"anything risky; a call can wait minutes for that answer, and says so in progress notifications while it " +
	"waits; a command's output comes in them too while it runs. Nothing you send can approve anything. " +
	"A denied, timed-out, blocked or killed call is final: tell the person, and do not retry it unchanged or " +
	"look for another way to do the same thing. Use assess to see how a script or plan would be rated before " +
	"running it, validate_applescript (where AppleScript runs) to check that an AppleScript compiles, and list_actions for the Action " +
	"DSL commands."

// NewServer returns an MCP server with Airlock's tools. It holds no
// connection: each run_* and status call dials the gate afresh.
func NewServer(cfg Config) *sdk.Server {
	if cfg.MaxOutput <= 0 {
		cfg.MaxOutput = DefaultMaxOutput
	}
	dir := func() (string, error) {
		if cfg.Dir != "" {
			return cfg.Dir, nil
		}
		return datadir.Data()
	}
	if cfg.ProgressEvery <= 0 {
		cfg.ProgressEvery = DefaultProgressEvery
	}
	settings := func() (*risk.Env, policy.Settings, error) {
		d, err := dir()
		if err != nil {
			return nil, policy.Settings{}, fmt.Errorf("finding Airlock's data folder: %w", err)
		}
		env, s, err := policy.LoadEnv(d)
		if err != nil {
			return nil, policy.Settings{}, fmt.Errorf("reading the gate's settings: %w", err)
		}
		return env, s, nil
	}
	timeout := func() time.Duration {
		if cfg.ApprovalTimeout > 0 {
			return cfg.ApprovalTimeout
		}
		if _, s, err := settings(); err == nil {
			return s.ApprovalTimeout
		}
		return 0 // the notifications leave out the time left
	}
	f := &forwarder{dir: dir, path: cfg.Path, maxOutput: cfg.MaxOutput, progressEvery: cfg.ProgressEvery, approvalTimeout: timeout}
	o := &offline{env: func() (*risk.Env, error) {
		if cfg.Env != nil {
			return cfg.Env, nil
		}
		env, _, err := settings()
		return env, err
	}, validate: cfg.Validate}
	version := cfg.Version
	if version == "" {
		version = "dev"
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "airlock", Title: "Airlock", Version: version},
		&sdk.ServerOptions{Instructions: instructions})
	sdk.AddTool(s, runActionsTool, func(ctx context.Context, req *sdk.CallToolRequest, in planArgs) (*sdk.CallToolResult, RunResult, error) {
		return f.submit(ctx, req, gate.KindPlan, in.Plan, nil, "")
	})
	if !cfg.NoScripts {
		sdk.AddTool(s, runAppleScriptTool, func(ctx context.Context, req *sdk.CallToolRequest, in scriptArgs) (*sdk.CallToolResult, RunResult, error) {
			return f.submit(ctx, req, gate.KindAppleScript, in.Source, in.Argv, "")
		})
		sdk.AddTool(s, runJXATool, func(ctx context.Context, req *sdk.CallToolRequest, in scriptArgs) (*sdk.CallToolResult, RunResult, error) {
			return f.submit(ctx, req, gate.KindJXA, in.Source, in.Argv, "")
		})
		sdk.AddTool(s, validateTool, func(ctx context.Context, _ *sdk.CallToolRequest, in validateArgs) (*sdk.CallToolResult, Validation, error) {
			return o.validateAppleScript(ctx, in)
		})
	}
	sdk.AddTool(s, runCommandTool, func(ctx context.Context, req *sdk.CallToolRequest, in commandArgs) (*sdk.CallToolResult, RunResult, error) {
		return f.submit(ctx, req, gate.KindCommand, "", in.Argv, in.Cwd)
	})
	sdk.AddTool(s, assessTool, func(_ context.Context, _ *sdk.CallToolRequest, in assessArgs) (*sdk.CallToolResult, Verdict, error) {
		return o.assess(in)
	})
	sdk.AddTool(s, listActionsTool, func(context.Context, *sdk.CallToolRequest, noArgs) (*sdk.CallToolResult, ActionList, error) {
		return o.listActions()
	})
	sdk.AddTool(s, statusTool, func(ctx context.Context, _ *sdk.CallToolRequest, _ noArgs) (*sdk.CallToolResult, Status, error) {
		return f.status(ctx)
	})
	return s
}

// Serve serves one MCP session on r and w (standard input and output, for
// `airlock mcp`: newline-delimited JSON-RPC) until r ends, which means the
// client hung up and is no error, or ctx is done. Bad input is answered
// with a JSON-RPC error and the session goes on (see lineTransport).
func Serve(ctx context.Context, cfg Config, r io.Reader, w io.Writer) error {
	t := &lineTransport{r: r, w: w}
	err := NewServer(cfg).Run(ctx, t)
	if t.eof.Load() || ctx.Err() != nil {
		return nil
	}
	return err
}
