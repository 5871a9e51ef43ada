package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/airlockhq/airlock/app/internal/mcp"
)

// cmdMCP serves MCP on standard input and output until the client hangs up.
// Standard output carries the protocol only; anything else goes to stderr.
func cmdMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		return usagef("takes no arguments: an MCP client starts it and talks to it on standard input and output")
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintln(stderr, "airlock mcp: serving the Model Context Protocol on stdio; every run_* tool call goes through the running gate")
	return mcp.Serve(ctx, mcp.Config{Version: version}, stdin, stdout)
}
