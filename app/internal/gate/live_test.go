package gate_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// TestLiveOutputWhileTheCommandRuns: a command that prints, then waits,
// then prints again reaches its client's notify with its first line while
// it still waits (before any result), on the stream it was printed to, with
// a secret it printed in two pieces redacted; every output event comes
// before the result, and the result's output is what it was before live
// output: the whole stdout, redacted.
func TestLiveOutputWhileTheCommandRuns(t *testing.T) {
	env, home := sandbox(t)
	ex := &execute.Executor{Paths: env.Paths}
	g := gate.New(gate.Config{Env: env, Exec: ex, History: &memHistory{}, Autonomy: policy.AskAll,
		Approver: &answerer{answer: approveAll}, Grants: policy.NewGrants(nil)})
	dir := filepath.Join(home, "Documents")
	fifo := filepath.Join(dir, "go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "slow.sh")
	// The token is printed in two pieces, the wait between them.
	if err := os.WriteFile(script, []byte(`printf 'first line\ntoken: ghp_0123456789abcdefghij'
echo 'to stderr' >&2
read x < "$1"
printf 'klmnopqrstuvwxyzAB\nlast line\n'
`), 0o600); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var events []gate.Event
	first := make(chan struct{})
	var once sync.Once
	notify := func(e gate.Event) {
		mu.Lock()
		events = append(events, e)
		mu.Unlock()
		if e.Type == gate.EventOutput && strings.Contains(e.Output, "first line") {
			once.Do(func() { close(first) })
		}
	}
	type ran struct {
		rep gate.Report
		err error
	}
	done := make(chan ran, 1)
	go func() {
		rep, err := g.Submit(context.Background(), gate.Submission{Client: "t", Kind: gate.KindCommand,
			Argv: []string{"sh", script, fifo}, Dir: dir}, notify)
		done <- ran{rep, err}
	}()
	select {
	case <-first:
	case r := <-done:
		t.Fatalf("the submission ended before its first line came: %+v %v", r.rep, r.err)
	case <-time.After(20 * time.Second):
		t.Fatal("the first line did not come while the command ran")
	}
	if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil {
		t.Fatalf("%v: %+v", r.err, r.rep)
	}
	mu.Lock()
	defer mu.Unlock()
	var stdout, stderr strings.Builder
	resultAt := -1
	for i, e := range events {
		switch e.Type {
		case gate.EventOutput:
			if resultAt >= 0 {
				t.Fatalf("output event %d came after the result", i)
			}
			if strings.Contains(e.Output, "ghp_") || strings.Contains(e.Output, "klmnopqrstuvwxyzAB") {
				t.Fatalf("event %d holds a piece of the token: %q", i, e.Output)
			}
			if e.Request != r.rep.Request || e.Index != 0 {
				t.Fatalf("event %+v: want request %s, action 0", e, r.rep.Request)
			}
			map[string]*strings.Builder{gate.StreamStdout: &stdout, gate.StreamStderr: &stderr}[e.Stream].WriteString(e.Output)
		case gate.EventResult:
			resultAt = i
		}
	}
	want := "first line\ntoken: [redacted:github-token]\nlast line\n"
	if stdout.String() != want || stderr.String() != "to stderr\n" {
		t.Fatalf("streamed stdout %q and stderr %q, want %q and %q", stdout.String(), stderr.String(), want, "to stderr\n")
	}
	if got := r.rep.Actions[0].Output; got != want {
		t.Fatalf("the result's output is %q, want %q", got, want)
	}
}
