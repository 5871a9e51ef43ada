package ipc_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/ipc"
)

// fakeGate is a Handler that records its calls. Its funcs, when set,
// replace the default answers.
type fakeGate struct {
	mu    sync.Mutex
	calls []string

	submit  func(ctx context.Context, p ipc.SubmitParams, notify func(any) error) (any, error)
	status  func(ctx context.Context) (any, error)
	history func(ctx context.Context, p ipc.HistoryParams) (any, error)
	kill    func(ctx context.Context) (any, error)
}

func (g *fakeGate) record(m string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.calls = append(g.calls, m)
}

func (g *fakeGate) Calls() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.calls...)
}

func (g *fakeGate) Submit(ctx context.Context, p ipc.SubmitParams, notify func(any) error) (any, error) {
	g.record("submit")
	if g.submit != nil {
		return g.submit(ctx, p, notify)
	}
	return map[string]any{"client": p.Client, "plan": p.Plan, "dryRun": p.DryRun}, nil
}

func (g *fakeGate) Ask(ctx context.Context, p ipc.AskParams, notify func(any) error) (any, error) {
	g.record("ask")
	if err := notify(map[string]string{"type": "model", "status": "asking"}); err != nil {
		return nil, err
	}
	return map[string]any{"client": p.Client, "request": p.Request, "model": p.Model}, nil
}

func (g *fakeGate) Status(ctx context.Context) (any, error) {
	g.record("status")
	if g.status != nil {
		return g.status(ctx)
	}
	return map[string]string{"level": "caution", "state": "running"}, nil
}

func (g *fakeGate) History(ctx context.Context, p ipc.HistoryParams) (any, error) {
	g.record("history")
	if g.history != nil {
		return g.history(ctx, p)
	}
	return map[string]int{"limit": p.Limit}, nil
}

func (g *fakeGate) Automations(ctx context.Context, p ipc.AutomationsParams) (any, error) {
	g.record("automations")
	return map[string]string{"op": p.Op, "name": p.Name}, nil
}

func (g *fakeGate) Kill(ctx context.Context) (any, error) {
	g.record("kill")
	if g.kill != nil {
		return g.kill(ctx)
	}
	return map[string]bool{"killed": true}, nil
}

// shortDir returns a fresh directory with a path short enough for a socket
// (t.TempDir's can be too long).
func shortDir(t testing.TB) string {
	t.Helper()
	d, err := os.MkdirTemp("", "ipc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return filepath.Join(d, "data")
}

// startGate listens in a fresh directory and serves h until the test ends.
// configure, if not nil, sets limits before Serve.
func startGate(t testing.TB, h ipc.Handler, configure func(*ipc.Server)) (*ipc.Server, string) {
	t.Helper()
	dir := shortDir(t)
	s, err := ipc.Listen(dir, h)
	if err != nil {
		t.Fatal(err)
	}
	if configure != nil {
		configure(s)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(context.Background()) }()
	t.Cleanup(func() {
		if err := s.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return s, dir
}

func dial(t testing.TB, dir string) *ipc.Client {
	t.Helper()
	c, err := ipc.Dial(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// rawConn is a client speaking bytes, to send what ipc.Client never would.
type rawConn struct {
	t  testing.TB
	nc net.Conn
	br *bufio.Reader
}

func dialRaw(t testing.TB, dir string) *rawConn {
	t.Helper()
	nc, err := net.Dial("unix", filepath.Join(dir, ipc.SocketName))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { nc.Close() })
	// A safety net so a broken server fails the test instead of hanging it.
	nc.SetDeadline(time.Now().Add(20 * time.Second))
	return &rawConn{t: t, nc: nc, br: bufio.NewReaderSize(nc, ipc.MaxFrame+1)}
}

func (c *rawConn) send(s string) {
	c.t.Helper()
	if _, err := io.WriteString(c.nc, s); err != nil {
		c.t.Fatalf("writing: %v", err)
	}
}

// frame is what the server writes: a response or a notification.
type frame struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
}

func (c *rawConn) read() frame {
	c.t.Helper()
	line, err := c.br.ReadBytes('\n')
	if err != nil {
		c.t.Fatalf("reading a frame: %v (got %q)", err, line)
	}
	var f frame
	if err := json.Unmarshal(line, &f); err != nil {
		c.t.Fatalf("frame %q: %v", line, err)
	}
	if f.JSONRPC != "2.0" {
		c.t.Fatalf("frame %q: jsonrpc is not 2.0", line)
	}
	return f
}

// readError reads a frame that must be an error response.
func (c *rawConn) readError() (code int, id string) {
	c.t.Helper()
	f := c.read()
	if f.Error == nil {
		c.t.Fatalf("want an error response, got result %s", f.Result)
	}
	return f.Error.Code, string(f.ID)
}

// expectClosed fails unless the server has closed the connection.
func (c *rawConn) expectClosed() {
	c.t.Helper()
	b, err := c.br.ReadByte()
	if err == nil {
		c.t.Fatalf("connection still open: read %q", b)
	}
	if !errors.Is(err, io.EOF) && !errors.Is(err, syscall.ECONNRESET) {
		c.t.Fatalf("want the connection closed, got %v", err)
	}
}
