package mcp_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	airmcp "github.com/airlockhq/airlock/app/internal/mcp"
)

// rawServer is `airlock mcp` spoken to line by line: in this process
// (Serve on pipes) or as the built program.
type rawServer struct {
	in   io.WriteCloser
	out  *bufio.Reader
	wait func() error // after in is closed: how the server ended
}

func startRawInProcess(t *testing.T, w *world) *rawServer {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := airmcp.Serve(context.Background(), airmcp.Config{Dir: w.dir, Env: w.env}, inR, outW)
		outW.Close()
		done <- err
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	return &rawServer{in: inW, out: bufio.NewReaderSize(outR, 1<<20), wait: func() error { return <-done }}
}

func startRawProgram(t *testing.T, w *world) *rawServer {
	if testing.Short() {
		t.Skip("builds the program")
	}
	bin, err := buildAirlock()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "mcp")
	cmd.Env = append(os.Environ(), "HOME="+w.home, "AIRLOCK_DATA_DIR="+w.dir)
	cmd.Stderr = testWriter{t}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return &rawServer{in: in, out: bufio.NewReaderSize(out, 1<<20), wait: cmd.Wait}
}

func (s *rawServer) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		t.Fatalf("writing %.80q: %v", line, err)
	}
}

// reply reads the next line the server writes.
func (s *rawServer) reply(t *testing.T) string {
	t.Helper()
	line, err := s.out.ReadString('\n')
	if err != nil {
		t.Fatalf("reading a reply: %v (the server ended?)", err)
	}
	return strings.TrimSuffix(line, "\n")
}

type rpcReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result"`
	Error   *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// TestBadInputIsAnsweredAndServingGoesOn sends what is not an MCP message —
// broken JSON, JSON that is no JSON-RPC request, batches, unknown methods,
// an overlong line — and checks that each gets the JSON-RPC error it calls
// for, under the right id, and that the server keeps answering real
// requests afterwards; and that the end of input ends it cleanly.
func TestBadInputIsAnsweredAndServingGoesOn(t *testing.T) {
	type want struct {
		id   string // the reply's id as JSON
		code int    // 0: a result
	}
	steps := []struct {
		name  string
		line  string
		reply []want // nil: no reply (a notification)
	}{
		{"initialize", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`, []want{{"1", 0}}},
		{"initialized", `{"jsonrpc":"2.0","method":"notifications/initialized"}`, nil},
		{"not JSON", `this is not json`, []want{{"null", -32700}}},
		{"cut-off JSON", `{"jsonrpc":"2.0","id":2,"method":"tools/list"`, []want{{"null", -32700}}},
		{"two objects on a line", `{"jsonrpc":"2.0","id":2,"method":"ping"}{"jsonrpc":"2.0","id":3,"method":"ping"}`, []want{{"null", -32700}}},
		{"a number", `42`, []want{{"null", -32600}}},
		{"a string", `"tools/list"`, []want{{"null", -32600}}},
		{"JSON-RPC 1.0", `{"jsonrpc":"1.0","id":"v1","method":"tools/list"}`, []want{{`"v1"`, -32600}}},
		{"no version", `{"id":5,"method":"tools/list"}`, []want{{"5", -32600}}},
		{"an object as id", `{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}`, []want{{"null", -32600}}},
		{"neither request nor response", `{"jsonrpc":"2.0"}`, []want{{"null", -32600}}},
		{"empty batch", `[]`, []want{{"null", -32600}}},
		{"batch", `[{"jsonrpc":"2.0","id":6,"method":"tools/list"},{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}},{"jsonrpc":"2.0","id":"seven","method":"ping"},17]`,
			[]want{{"6", -32600}, {`"seven"`, -32600}, {"null", -32600}}},
		{"batch of notifications", `[{"jsonrpc":"2.0","method":"notifications/cancelled","params":{}}]`, nil},
		{"blank line", `   `, nil},
		{"unknown method", `{"jsonrpc":"2.0","id":8,"method":"airlock/approve","params":{}}`, []want{{"8", -32601}}},
		{"unknown notification", `{"jsonrpc":"2.0","method":"notifications/airlock"}`, nil},
		{"overlong line", `{"jsonrpc":"2.0","id":9,"method":"ping","params":{"x":"` + strings.Repeat("a", airmcp.MaxLine) + `"}}`, []want{{"null", -32600}}},
		{"a real call", `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"assess","arguments":{"kind":"shell","input":"rm -rf ~/Documents"}}}`, []want{{"10", 0}}},
		{"tools/list", `{"jsonrpc":"2.0","id":11,"method":"tools/list"}`, []want{{"11", 0}}},
	}
	for _, start := range []struct {
		name  string
		start func(*testing.T, *world) *rawServer
	}{{"memory", startRawInProcess}, {"program", startRawProgram}} {
		t.Run(start.name, func(t *testing.T) {
			w := newWorld(t, gateOpts{})
			s := start.start(t, w)
			for _, st := range steps {
				s.send(t, st.line)
				if st.reply == nil {
					continue
				}
				line := s.reply(t)
				var got []rpcReply
				if len(st.reply) > 1 {
					if err := json.Unmarshal([]byte(line), &got); err != nil {
						t.Fatalf("%s: the reply is not an array of responses: %v: %.300s", st.name, err, line)
					}
				} else {
					var r rpcReply
					if err := json.Unmarshal([]byte(line), &r); err != nil {
						t.Fatalf("%s: the reply is not a response: %v: %.300s", st.name, err, line)
					}
					got = []rpcReply{r}
				}
				if len(got) != len(st.reply) {
					t.Fatalf("%s: %d replies, want %d: %.300s", st.name, len(got), len(st.reply), line)
				}
				for i, want := range st.reply {
					r := got[i]
					code := 0
					if r.Error != nil {
						code = r.Error.Code
					}
					if r.JSONRPC != "2.0" || string(r.ID) != want.id || code != want.code || (code == 0) != (r.Result != nil) {
						t.Errorf("%s: reply %d: %.300s; want id %s, code %d", st.name, i, line, want.id, want.code)
					}
					if r.Error != nil && (r.Error.Message == "" || len(r.Error.Message) > 400) {
						t.Errorf("%s: error message %q", st.name, r.Error.Message)
					}
				}
			}
			// The real call was answered by the real tool.
			if err := s.in.Close(); err != nil {
				t.Fatal(err)
			}
			if err := s.wait(); err != nil {
				t.Errorf("the server ended with %v when its input ended; want a clean end", err)
			}
		})
	}
}
