package mcp_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/ipc"
	airmcp "github.com/airlockhq/airlock/app/internal/mcp"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sanitize"
	"github.com/airlockhq/airlock/app/internal/secrets"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// agentName is the clientInfo name the tests' MCP client gives.
const agentName = "test-agent"

// wait bounds every wait for something that must happen; it is a guard
// against a hang, never a measurement.
const wait = 20 * time.Second

// gateOpts say how the gate behind the server behaves.
type gateOpts struct {
	autonomy policy.Autonomy
	// answer is the person: it gets every approval request. nil: approve
	// every item.
	answer func(ctx context.Context, r approval.Request) (approval.Answer, error)
	// timeout is the broker's approval timeout; 0: the default.
	timeout time.Duration
	// noApprover builds the gate with nobody to ask, as `airlock serve
	// --prompter=none`.
	noApprover bool
}

// world is one user's machine: a home with the sandbox folders, and a gate
// built from the real packages (history in SQLite, approval broker with a
// scripted person, the default executor) serving its socket.
type world struct {
	t       testing.TB
	home    string
	dir     string // the data directory the gate listens in
	env     *risk.Env
	opts    gateOpts
	prompts chan approval.Request // every request the person was shown
	ended   chan gate.Event       // every submission's done event, once recorded

	mu    sync.Mutex
	gate  *gate.Gate
	store *history.Store
	srv   *ipc.Server
	done  chan struct{}
}

// shortTemp is a temporary directory with a short path: a unix socket's
// path must fit in about 100 bytes, and t.TempDir's carries the test's name.
func shortTemp(t testing.TB) string {
	t.Helper()
	d, err := os.MkdirTemp("", "amcp")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	d, err = filepath.EvalSymlinks(d)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// newWorld makes the home and the data directory, without a gate.
func newWorld(t testing.TB, opts gateOpts) *world {
	t.Helper()
	root := shortTemp(t)
	home := filepath.Join(root, "h")
	for _, d := range []string{"Documents", "Downloads", "Desktop", ".local/share", ".ssh"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	paths, err := sanitize.NewConfig(home, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &world{t: t, home: home, dir: filepath.Join(root, "d"), env: &risk.Env{Paths: paths},
		opts: opts, prompts: make(chan approval.Request, 16), ended: make(chan gate.Event, 16)}
}

// startGate builds the gate and serves it on the socket in w.dir.
func (w *world) startGate() {
	t := w.t
	t.Helper()
	store, err := history.Open(filepath.Join(t.TempDir(), "history.db"), secrets.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	person := approval.ScriptedFunc(func(ctx context.Context, r approval.Request) (approval.Answer, error) {
		w.prompts <- r
		if w.opts.answer == nil {
			return approveAll(ctx, r)
		}
		return w.opts.answer(ctx, r)
	})
	broker := approval.NewBroker(person, approval.Options{Timeout: w.opts.timeout})
	t.Setenv("XDG_DATA_HOME", filepath.Join(w.home, ".local/share"))
	exec, err := gate.DefaultExecutor(w.env.Paths, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var approver gate.Approver = broker
	if w.opts.noApprover {
		approver = nil
	}
	g := gate.New(gate.Config{Env: w.env, Exec: exec, History: store, Approver: approver,
		Grants: policy.NewGrants(nil), Autonomy: w.opts.autonomy, Events: func(e gate.Event) {
			if e.Type == gate.EventDone {
				select {
				case w.ended <- e:
				default:
				}
			}
		}})
	srv, err := ipc.Listen(w.dir, handler{g})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		srv.Serve(context.Background())
	}()
	w.mu.Lock()
	w.gate, w.store, w.srv, w.done = g, store, srv, done
	w.mu.Unlock()
	t.Cleanup(w.stopGate)
}

// stopGate closes the socket and the history, as a gate that quits.
func (w *world) stopGate() {
	w.mu.Lock()
	srv, store, done := w.srv, w.store, w.done
	w.srv, w.store = nil, nil
	w.mu.Unlock()
	if srv == nil {
		return
	}
	srv.Close()
	<-done
	store.Close()
}

// records returns the history's requests, newest first.
func (w *world) records() []history.Entry {
	w.t.Helper()
	w.mu.Lock()
	store := w.store
	w.mu.Unlock()
	entries, err := store.Recent(context.Background(), 100)
	if err != nil {
		w.t.Fatal(err)
	}
	return entries
}

// prompted waits for the person to be shown a request.
func (w *world) prompted() approval.Request {
	w.t.Helper()
	select {
	case r := <-w.prompts:
		return r
	case <-time.After(wait):
		w.t.Fatal("the person was never asked")
	}
	return approval.Request{}
}

// notPrompted fails if the person was asked anything.
func (w *world) notPrompted() {
	w.t.Helper()
	select {
	case r := <-w.prompts:
		w.t.Errorf("the person was asked about %q, and should not have been", r.Items[0].Text)
	default:
	}
}

// handler serves the socket's methods from the gate, as `airlock serve`
// does.
type handler struct{ g *gate.Gate }

func (h handler) Submit(ctx context.Context, p ipc.SubmitParams, notify func(v any) error) (any, error) {
	rep, _ := h.g.Submit(ctx, gate.Submission{Client: p.Client, Kind: p.Kind, Plan: p.Plan, Argv: p.Argv, DryRun: p.DryRun},
		func(e gate.Event) { notify(e) })
	return rep, nil
}
func (h handler) Status(context.Context) (any, error)                     { return h.g.Status(), nil }
func (h handler) History(context.Context, ipc.HistoryParams) (any, error) { return []string{}, nil }
func (h handler) Kill(context.Context) (any, error)                       { return h.g.Kill(), nil }
func (h handler) Automations(context.Context, ipc.AutomationsParams) (any, error) {
	return nil, errors.New("automations are not the MCP server's")
}
func (h handler) Ask(context.Context, ipc.AskParams, func(any) error) (any, error) {
	return nil, errors.New("no model in these tests")
}

func approveAll(_ context.Context, r approval.Request) (approval.Answer, error) {
	ans := approval.Answer{Outcome: approval.Approved, Items: make([]bool, len(r.Items))}
	for i := range ans.Items {
		ans.Items[i] = true
	}
	return ans, nil
}

func denyAll(context.Context, approval.Request) (approval.Answer, error) {
	return approval.Answer{Outcome: approval.Denied}, approval.ErrDenied
}

// neverAnswer is a person who is away: the request waits until it ends.
func neverAnswer(ctx context.Context, _ approval.Request) (approval.Answer, error) {
	<-ctx.Done()
	return approval.Answer{}, ctx.Err()
}

// transport connects an MCP client to a server for w: in memory within the
// test, or as the built `airlock mcp` on its standard input and output.
type transport struct {
	name    string
	connect func(t testing.TB, w *world, copts *mcp.ClientOptions) *mcp.ClientSession
}

var transports = []transport{
	{"memory", connectMemory},
	{"stdio", connectStdio},
}

func connectMemory(t testing.TB, w *world, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	return connectMemoryConfig(t, w, copts, airmcp.Config{Env: w.env})
}

// connectMemoryConfig is connectMemory with a server built from cfg, its
// Dir and Version set for w.
func connectMemoryConfig(t testing.TB, w *world, copts *mcp.ClientOptions, cfg airmcp.Config) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	cfg.Dir, cfg.Version = w.dir, "test"
	ss, err := airmcp.NewServer(cfg).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: agentName, Version: "1"}, copts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// buildAirlock builds the program once per test binary.
var buildAirlock = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "airlock-mcp-bin")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "airlock")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/airlockhq/airlock/app").CombinedOutput()
	if err != nil {
		return "", errors.New("go build: " + string(out))
	}
	return bin, nil
})

func connectStdio(t testing.TB, w *world, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
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
	cs, err := mcp.NewClient(&mcp.Implementation{Name: agentName, Version: "1"}, copts).Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := cs.Close(); err != nil {
			t.Errorf("closing the session: %v", err)
		}
		if cmd.ProcessState == nil || !cmd.ProcessState.Success() {
			t.Errorf("airlock mcp did not exit cleanly when its client hung up: %v", cmd.ProcessState)
		}
	})
	return cs
}

type testWriter struct{ t testing.TB }

func (tw testWriter) Write(p []byte) (int, error) {
	tw.t.Logf("stderr: %s", strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// call calls a tool and fails the test on a protocol error.
func call(t testing.TB, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	return res
}

// textOf is the result's text content.
func textOf(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// decode reads the result's structured content into v.
func decode(t testing.TB, res *mcp.CallToolResult, v any) {
	t.Helper()
	if res.StructuredContent == nil {
		t.Fatalf("no structured content; text: %s", textOf(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
}

// run calls a run_* tool and returns its result, decoded.
func run(t testing.TB, cs *mcp.ClientSession, tool string, args map[string]any) (airmcp.RunResult, *mcp.CallToolResult) {
	t.Helper()
	res := call(t, cs, tool, args)
	var rr airmcp.RunResult
	decode(t, res, &rr)
	return rr, res
}
