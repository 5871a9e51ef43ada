package mcp_test

import (
	"context"
	"io"
	"strings"
	"testing"

	airmcp "github.com/airlockhq/airlock/app/internal/mcp"
)

// TestServeEndsWhenTheClientHangsUp checks that the end of standard input,
// however abrupt, is a clean end: an MCP client stops `airlock mcp` by
// closing its input.
func TestServeEndsWhenTheClientHangsUp(t *testing.T) {
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}` + "\n"
	for _, in := range []string{"", initialize, initialize + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"tools/list"}` + "\n"} {
		for range 10 {
			if err := airmcp.Serve(context.Background(), airmcp.Config{Dir: t.TempDir()}, strings.NewReader(in), io.Discard); err != nil {
				t.Fatalf("after %d bytes of input: %v", len(in), err)
			}
		}
	}
}
