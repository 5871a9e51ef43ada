package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/airlockhq/airlock/app/internal/mcp"
	"github.com/spf13/pflag"
)

// cmdMCP serves MCP on standard input and output until the client hangs up.
// Standard output carries the protocol only; anything else goes to stderr.
// mcpFlags declares airlock mcp's flags.
func mcpFlags(fs *pflag.FlagSet) runFunc {
	every := fs.Duration("progress-every", mcp.DefaultProgressEvery, "how often a call that waits for approval or runs sends a progress notification")
	return func(ctx context.Context, fs *pflag.FlagSet, stdin io.Reader, stdout, stderr io.Writer) error {
		return cmdMCP(ctx, fs, every, stdin, stdout, stderr)
	}
}

func cmdMCP(ctx context.Context, fs *pflag.FlagSet, every *time.Duration, stdin io.Reader, stdout, stderr io.Writer) error {
	if fs.NArg() > 0 {
		return usagef("takes no arguments: an MCP client starts it and talks to it on standard input and output")
	}
	if *every < 10*time.Millisecond || *every > time.Minute {
		return usagef("--progress-every %v: want 10ms to 1m (a client's time limit is reset by each notification)", *every)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintln(stderr, "airlock mcp: serving the Model Context Protocol on stdio; every run_* tool call goes through the running gate")
	return mcp.Serve(ctx, mcp.Config{Version: version, ProgressEvery: *every, Path: os.Getenv("PATH"), NoScripts: runtime.GOOS != "darwin"}, stdin, stdout)
}
