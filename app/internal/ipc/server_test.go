package ipc_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/ipc"
)

func TestRoundTrip(t *testing.T) {
	g := &fakeGate{}
	_, dir := startGate(t, g, nil)
	c := dial(t, dir)
	tests := []struct {
		method string
		params any
		want   string
	}{
		{"status", nil, `{"level":"caution","state":"running"}`},
		{"history", ipc.HistoryParams{Limit: 7}, `{"limit":7}`},
		{"history", nil, `{"limit":0}`},
		{"kill", nil, `{"killed":true}`},
		{"submit", ipc.SubmitParams{Client: "test", Plan: "notify \"hi\"", DryRun: true},
			`{"client":"test","dryRun":true,"plan":"notify \"hi\""}`},
		{"ask", ipc.AskParams{Client: "airlock ask", Request: "tidy my desktop", Model: "llama3.2:3b"},
			`{"client":"airlock ask","model":"llama3.2:3b","request":"tidy my desktop"}`},
	}
	for _, tt := range tests {
		got, err := c.Call(context.Background(), tt.method, tt.params, nil)
		if err != nil {
			t.Fatalf("%s: %v", tt.method, err)
		}
		if string(got) != tt.want {
			t.Errorf("%s = %s, want %s", tt.method, got, tt.want)
		}
	}
	want := []string{"status", "history", "history", "kill", "submit", "ask"}
	if got := g.Calls(); !slices.Equal(got, want) {
		t.Errorf("handler calls %q, want %q", got, want)
	}
}

func TestNilResultIsNull(t *testing.T) {
	g := &fakeGate{status: func(context.Context) (any, error) { return nil, nil }}
	_, dir := startGate(t, g, nil)
	got, err := dial(t, dir).Call(context.Background(), "status", nil, nil)
	if err != nil || string(got) != "null" {
		t.Fatalf("status = %s, %v; want null", got, err)
	}
}

func TestSubmitStreamsEvents(t *testing.T) {
	var late func(any) error
	g := &fakeGate{submit: func(ctx context.Context, p ipc.SubmitParams, notify func(any) error) (any, error) {
		for i := range 3 {
			if err := notify(map[string]int{"step": i}); err != nil {
				return nil, err
			}
		}
		late = notify
		return "done", nil
	}}
	_, dir := startGate(t, g, nil)
	c := dial(t, dir)
	var events []string
	res, err := c.Call(context.Background(), "submit", ipc.SubmitParams{Client: "t", Plan: "x"},
		func(m json.RawMessage) { events = append(events, string(m)) })
	if err != nil {
		t.Fatal(err)
	}
	if string(res) != `"done"` {
		t.Errorf("result %s", res)
	}
	want := []string{`{"step":0}`, `{"step":1}`, `{"step":2}`}
	if !slices.Equal(events, want) {
		t.Errorf("events %q, want %q", events, want)
	}
	// Once the response is out, notify refuses and nothing more is sent.
	if err := late("stray"); !errors.Is(err, ipc.ErrClosed) {
		t.Errorf("notify after the response = %v, want ErrClosed", err)
	}
	if _, err := c.Call(context.Background(), "status", nil, func(m json.RawMessage) {
		t.Errorf("notification %s after the submit's response", m)
	}); err != nil {
		t.Fatal(err)
	}
}

// TestForbiddenMethods: nothing outside Methods reaches the gate, however
// it is spelt, and the gate serves the next client as before.
func TestForbiddenMethods(t *testing.T) {
	g := &fakeGate{}
	_, dir := startGate(t, g, nil)
	for i, m := range []string{"approve", "deny", "resume", "setLevel", "setSettings", "confirmDangerous", "Approve", "submit ", "rpc.discover", ""} {
		rc := dialRaw(t, dir)
		rc.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":%q,"params":{}}`+"\n", i+1, m))
		code, id := rc.readError()
		if code != ipc.CodeMethodNotFound || id != fmt.Sprint(i+1) {
			t.Errorf("%q: code %d id %s, want %d id %d", m, code, id, ipc.CodeMethodNotFound, i+1)
		}
		rc.expectClosed()
	}
	// Through the client too.
	_, err := dial(t, dir).Call(context.Background(), "approve", map[string]any{"callId": "1"}, nil)
	var rerr *ipc.RPCError
	if !errors.As(err, &rerr) || rerr.Code != ipc.CodeMethodNotFound {
		t.Errorf("Call(approve) = %v, want code %d", err, ipc.CodeMethodNotFound)
	}
	if calls := g.Calls(); len(calls) != 0 {
		t.Errorf("handler called: %q", calls)
	}
	if _, err := dial(t, dir).Call(context.Background(), "status", nil, nil); err != nil {
		t.Errorf("status afterwards: %v", err)
	}
}

// TestBadFrames: each gets an error frame and a closed connection, the
// handler never sees it, and the gate goes on serving.
func TestBadFrames(t *testing.T) {
	oversized := strings.Repeat(" ", ipc.MaxFrame-len(`{"jsonrpc":"2.0","id":1,"method":"status"}`)) +
		`{"jsonrpc":"2.0","id":1,"method":"status"}` + "\n" // MaxFrame+1 with the newline
	tests := []struct {
		name string
		send func(net.Conn)
		code int
		id   string
	}{
		{"malformed JSON", sendString(`{"jsonrpc":"2.0","id":1,"method":` + "\n"), ipc.CodeParseError, "null"},
		{"empty line", sendString("\n"), ipc.CodeParseError, "null"},
		{"wrong jsonrpc", sendString(`{"jsonrpc":"1.0","id":1,"method":"status"}` + "\n"), ipc.CodeInvalidRequest, "1"},
		{"invalid UTF-8", sendString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"st\xc3\x28tus\"}\n"), ipc.CodeParseError, "null"},
		{"notification", sendString(`{"jsonrpc":"2.0","method":"kill"}` + "\n"), ipc.CodeInvalidRequest, "null"},
		{"unknown param", sendString(`{"jsonrpc":"2.0","id":"q","method":"submit","params":{"client":"c","plan":"x","approved":true}}` + "\n"), ipc.CodeInvalidParams, `"q"`},
		{"oversized, MaxFrame+1", sendString(oversized), ipc.CodeInvalidRequest, "null"},
		{"oversized, no newline at all", func(nc net.Conn) {
			nc.Write([]byte(strings.Repeat("x", 2*ipc.MaxFrame)))
		}, ipc.CodeInvalidRequest, "null"},
		{"stalled", sendString(`{"jsonrpc":"2.0","id":1,`), ipc.CodeInvalidRequest, "null"},
		{"trickled", func(nc net.Conn) {
			for _, b := range []byte(`{"jsonrpc":"2.0","id":1,"method":"status"}` + "\n") {
				if _, err := nc.Write([]byte{b}); err != nil {
					return
				}
				time.Sleep(20 * time.Millisecond)
			}
		}, ipc.CodeInvalidRequest, "null"},
	}
	g := &fakeGate{}
	_, dir := startGate(t, g, func(s *ipc.Server) { s.FrameTimeout = 100 * time.Millisecond })
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rc := dialRaw(t, dir)
			go tt.send(rc.nc) // the server may stop reading before it is all written
			code, id := rc.readError()
			if code != tt.code || id != tt.id {
				t.Errorf("code %d id %s, want %d id %s", code, id, tt.code, tt.id)
			}
			rc.expectClosed()
			if _, err := dial(t, dir).Call(context.Background(), "status", nil, nil); err != nil {
				t.Errorf("status on a new connection: %v", err)
			}
		})
	}
	if got := g.Calls(); len(got) != len(tests) || slices.ContainsFunc(got, func(m string) bool { return m != "status" }) {
		t.Errorf("handler calls %q: want only the %d status checks", got, len(tests))
	}
}

func sendString(s string) func(net.Conn) {
	return func(nc net.Conn) { io.WriteString(nc, s) }
}

// TestFrameAtLimit: a frame of exactly MaxFrame bytes, newline included,
// is served.
func TestFrameAtLimit(t *testing.T) {
	_, dir := startGate(t, &fakeGate{}, nil)
	req := `{"jsonrpc":"2.0","id":1,"method":"status"}`
	rc := dialRaw(t, dir)
	go rc.send(req + strings.Repeat(" ", ipc.MaxFrame-len(req)-1) + "\n")
	if f := rc.read(); f.Error != nil || string(f.ID) != "1" {
		t.Fatalf("got %+v, want the status result", f)
	}
}

func TestIdleConnectionClosed(t *testing.T) {
	_, dir := startGate(t, &fakeGate{}, func(s *ipc.Server) { s.IdleTimeout = 50 * time.Millisecond })
	rc := dialRaw(t, dir)
	rc.expectClosed() // without an error frame: it broke no rule
}

// TestNoIdleLimitWhileBusy: a submit waiting longer than IdleTimeout (for
// the person to decide, say) keeps its connection.
func TestNoIdleLimitWhileBusy(t *testing.T) {
	const idle = 50 * time.Millisecond
	g := &fakeGate{submit: func(ctx context.Context, p ipc.SubmitParams, notify func(any) error) (any, error) {
		select {
		case <-time.After(4 * idle):
			return "approved", nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}}
	_, dir := startGate(t, g, func(s *ipc.Server) { s.IdleTimeout = idle })
	res, err := dial(t, dir).Call(context.Background(), "submit", ipc.SubmitParams{Client: "t", Plan: "x"}, nil)
	if err != nil || string(res) != `"approved"` {
		t.Fatalf("submit = %s, %v", res, err)
	}
}

func TestOneRequestAtATime(t *testing.T) {
	release := make(chan struct{})
	started := make(chan struct{})
	g := &fakeGate{submit: func(ctx context.Context, p ipc.SubmitParams, notify func(any) error) (any, error) {
		close(started)
		<-release
		return "ok", nil
	}}
	_, dir := startGate(t, g, nil)
	rc := dialRaw(t, dir)
	rc.send(`{"jsonrpc":"2.0","id":1,"method":"submit","params":{"client":"c","plan":"x"}}` + "\n")
	<-started
	rc.send(`{"jsonrpc":"2.0","id":2,"method":"kill"}` + "\n")
	if code, id := rc.readError(); code != ipc.CodeBusy || id != "2" {
		t.Errorf("second request: code %d id %s, want %d id 2", code, id, ipc.CodeBusy)
	}
	close(release)
	if f := rc.read(); string(f.ID) != "1" || string(f.Result) != `"ok"` {
		t.Errorf("first request's response %+v", f)
	}
	rc.send(`{"jsonrpc":"2.0","id":3,"method":"status"}` + "\n")
	if f := rc.read(); string(f.ID) != "3" || f.Error != nil {
		t.Errorf("third request's response %+v", f)
	}
	if got := g.Calls(); !slices.Equal(got, []string{"submit", "status"}) {
		t.Errorf("handler calls %q", got)
	}
}

// blockingGate's submit waits for its context to end and reports how.
func blockingGate() (*fakeGate, <-chan struct{}, <-chan error) {
	started := make(chan struct{})
	ended := make(chan error, 1)
	return &fakeGate{submit: func(ctx context.Context, p ipc.SubmitParams, notify func(any) error) (any, error) {
		close(started)
		<-ctx.Done()
		ended <- ctx.Err()
		return nil, ctx.Err()
	}}, started, ended
}

func TestClientDisconnectCancelsHandler(t *testing.T) {
	g, started, ended := blockingGate()
	_, dir := startGate(t, g, nil)
	c := dial(t, dir)
	go c.Call(context.Background(), "submit", ipc.SubmitParams{Client: "t", Plan: "x"}, nil)
	<-started
	c.Close()
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Errorf("handler's ctx ended with %v", err)
	}
}

func TestCallContextCancelsHandler(t *testing.T) {
	g, started, ended := blockingGate()
	_, dir := startGate(t, g, nil)
	c := dial(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	_, err := c.Call(ctx, "submit", ipc.SubmitParams{Client: "t", Plan: "x"}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Call = %v, want context.Canceled", err)
	}
	if err := <-ended; !errors.Is(err, context.Canceled) {
		t.Errorf("handler's ctx ended with %v", err)
	}
	if _, err := c.Call(context.Background(), "status", nil, nil); err == nil {
		t.Error("a client whose call was cancelled still calls")
	}
}

func TestCloseCancelsInFlight(t *testing.T) {
	g, started, ended := blockingGate()
	s, dir := startGate(t, g, nil)
	c := dial(t, dir)
	callErr := make(chan error, 1)
	go func() {
		_, err := c.Call(context.Background(), "submit", ipc.SubmitParams{Client: "t", Plan: "x"}, nil)
		callErr <- err
	}()
	<-started
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("handler's ctx ended with %v", err)
		}
	default:
		t.Error("Close returned before the handler did")
	}
	if err := <-callErr; err == nil {
		t.Error("the call in flight succeeded after Close")
	}
	if _, err := ipc.Dial(dir); !errors.Is(err, ipc.ErrNotRunning) {
		t.Errorf("Dial after Close = %v, want ErrNotRunning", err)
	}
}

type userErr struct{ msg string }

func (e userErr) Error() string       { return "internal detail: " + e.msg }
func (e userErr) UserMessage() string { return e.msg }

type codedErr struct{}

func (codedErr) Error() string { return "killed at /Users/x/secret" }
func (codedErr) RPCCode() int  { return -32010 }

func TestHandlerErrors(t *testing.T) {
	killed := &ipc.RPCError{Code: -32011, Message: "the kill switch is on: resume from the menu", Data: map[string]string{"state": "killed"}}
	tests := []struct {
		name    string
		status  func(context.Context) (any, error)
		code    int
		message string
		data    string
		logged  bool
	}{
		{"plain error hides its text", func(context.Context) (any, error) {
			return nil, errors.New("opening https://user:hunter2@example.com failed")
		}, ipc.CodeInternal, "internal error", "", true},
		{"RPCError as it is", func(context.Context) (any, error) { return nil, killed },
			-32011, killed.Message, `{"state":"killed"}`, false},
		{"wrapped RPCError shows only its own text", func(context.Context) (any, error) {
			return nil, fmt.Errorf("checking key sk-secret: %w", killed)
		}, -32011, killed.Message, `{"state":"killed"}`, false},
		{"UserError without a code", func(context.Context) (any, error) { return nil, userErr{"approval was required"} },
			ipc.CodeServerError, "approval was required", "", false},
		{"code without a user message", func(context.Context) (any, error) { return nil, codedErr{} },
			-32010, "internal error", "", true},
		{"result too large", func(context.Context) (any, error) { return strings.Repeat("x", ipc.MaxFrame), nil },
			ipc.CodeInternal, "internal error", "", true},
		{"result not encodable", func(context.Context) (any, error) { return make(chan int), nil },
			ipc.CodeInternal, "internal error", "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var mu sync.Mutex
			var logged []error
			_, dir := startGate(t, &fakeGate{status: tt.status}, func(s *ipc.Server) {
				s.ErrorLog = func(method string, err error) {
					mu.Lock()
					defer mu.Unlock()
					logged = append(logged, err)
				}
			})
			c := dial(t, dir)
			_, err := c.Call(context.Background(), "status", nil, nil)
			var rerr *ipc.RPCError
			if !errors.As(err, &rerr) {
				t.Fatalf("Call = %v, want an *RPCError", err)
			}
			data, _ := rerr.Data.(json.RawMessage)
			if rerr.Code != tt.code || rerr.Message != tt.message || string(data) != tt.data {
				t.Errorf("got %d %q %s, want %d %q %s", rerr.Code, rerr.Message, data, tt.code, tt.message, tt.data)
			}
			mu.Lock()
			defer mu.Unlock()
			if (len(logged) > 0) != tt.logged {
				t.Errorf("ErrorLog got %v, want logged=%v", logged, tt.logged)
			}
			// An answered error leaves the connection usable.
			if _, err := c.Call(context.Background(), "kill", nil, nil); err != nil {
				t.Errorf("next call: %v", err)
			}
		})
	}
}

func TestPeerOfAnotherUserRefused(t *testing.T) {
	tests := []struct {
		name string
		uid  func(*net.UnixConn) (int, error)
	}{
		{"other uid", func(*net.UnixConn) (int, error) { return 4242, nil }},
		{"unknown peer", func(*net.UnixConn) (int, error) { return -1, errors.New("no credentials") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := &fakeGate{}
			_, dir := startGate(t, g, func(s *ipc.Server) { ipc.SetPeerUID(s, tt.uid) })
			rc := dialRaw(t, dir)
			// The refusal comes before any request is read.
			if code, id := rc.readError(); code != ipc.CodeUnauthorized || id != "null" {
				t.Errorf("code %d id %s, want %d null", code, id, ipc.CodeUnauthorized)
			}
			rc.expectClosed()
			_, err := dial(t, dir).Call(context.Background(), "kill", nil, nil)
			var rerr *ipc.RPCError
			if !errors.As(err, &rerr) || rerr.Code != ipc.CodeUnauthorized {
				t.Errorf("Call = %v, want code %d", err, ipc.CodeUnauthorized)
			}
			if calls := g.Calls(); len(calls) != 0 {
				t.Errorf("handler called: %q", calls)
			}
		})
	}
}

// When every connection has a request in flight, one more is refused.
func TestTooManyConnections(t *testing.T) {
	g := &fakeGate{submit: func(ctx context.Context, p ipc.SubmitParams, notify func(any) error) (any, error) {
		notify("started")
		<-ctx.Done()
		return nil, ctx.Err()
	}}
	_, dir := startGate(t, g, func(s *ipc.Server) { s.MaxConns = 2 })
	for range 2 {
		c := dial(t, dir)
		started := make(chan struct{})
		var once sync.Once
		go c.Call(context.Background(), "submit", ipc.SubmitParams{Client: "t", Plan: "x"}, func(json.RawMessage) { once.Do(func() { close(started) }) })
		<-started
	}
	rc := dialRaw(t, dir)
	if code, id := rc.readError(); code != ipc.CodeBusy || id != "null" {
		t.Errorf("code %d id %s, want %d null", code, id, ipc.CodeBusy)
	}
	rc.expectClosed()
}
