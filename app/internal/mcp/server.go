package mcp

import (
	"context"
	"io"
	"sync/atomic"

	"github.com/airlockhq/airlock/app/internal/datadir"
	"github.com/airlockhq/airlock/app/internal/gate"
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
	// Env is what assess rates against; nil means risk.DefaultEnv(), as
	// `airlock assess` does.
	Env *risk.Env
	// Version is the server's version in the MCP handshake.
	Version string
	// MaxOutput bounds the output of one run_* result, in bytes; ≤ 0 means
	// DefaultMaxOutput.
	MaxOutput int
}

// instructions tell the agent, once per session, how the server behaves.
const instructions = "Airlock stands between you and the person's Mac. run_actions, run_applescript, run_jxa and " +
	"run_command send work to Airlock's gate, which rates it and asks the person, in its own popup, to approve " +
	"anything risky; a call can wait minutes for that answer. Nothing you send can approve anything. " +
	"A denied, timed-out, blocked or killed call is final: tell the person, and do not retry it unchanged or " +
	"look for another way to do the same thing. Use assess to see how a script or plan would be rated before " +
	"running it, and list_actions for the Action DSL commands."

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
	f := &forwarder{dir: dir, maxOutput: cfg.MaxOutput}
	o := &offline{env: cfg.Env}
	version := cfg.Version
	if version == "" {
		version = "dev"
	}
	s := sdk.NewServer(&sdk.Implementation{Name: "airlock", Title: "Airlock", Version: version},
		&sdk.ServerOptions{Instructions: instructions})
	sdk.AddTool(s, runActionsTool, func(ctx context.Context, req *sdk.CallToolRequest, in planArgs) (*sdk.CallToolResult, RunResult, error) {
		return f.submit(ctx, req, gate.KindPlan, in.Plan, nil)
	})
	sdk.AddTool(s, runAppleScriptTool, func(ctx context.Context, req *sdk.CallToolRequest, in scriptArgs) (*sdk.CallToolResult, RunResult, error) {
		return f.submit(ctx, req, gate.KindAppleScript, in.Source, in.Argv)
	})
	sdk.AddTool(s, runJXATool, func(ctx context.Context, req *sdk.CallToolRequest, in scriptArgs) (*sdk.CallToolResult, RunResult, error) {
		return f.submit(ctx, req, gate.KindJXA, in.Source, in.Argv)
	})
	sdk.AddTool(s, runCommandTool, func(ctx context.Context, req *sdk.CallToolRequest, in commandArgs) (*sdk.CallToolResult, RunResult, error) {
		return f.submit(ctx, req, gate.KindCommand, "", in.Argv)
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
// client hung up and is no error, or ctx is done.
func Serve(ctx context.Context, cfg Config, r io.Reader, w io.Writer) error {
	in := &eofReader{r: r}
	err := NewServer(cfg).Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{w}})
	if in.eof.Load() || ctx.Err() != nil {
		return nil
	}
	return err
}

// eofReader notes that its reader ended: the SDK reports a client that hangs
// up mid-exchange as an error, which for a stdio server it is not.
type eofReader struct {
	r   io.Reader
	eof atomic.Bool
}

func (e *eofReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err == io.EOF {
		e.eof.Store(true)
	}
	return n, err
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
