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
)

// cmdMCP serves MCP on standard input and output until the client hangs up.
// Standard output carries the protocol only; anything else goes to stderr.
func cmdMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("mcp")
	every := fs.Duration("progress-every", mcp.DefaultProgressEvery, "how often a call that waits for approval or runs sends a progress notification")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
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
