package mcp_test

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	airmcp "github.com/airlockhq/airlock/app/internal/mcp"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type note struct {
	n   float64
	msg string
}

// TestProgressWhileWaiting checks that a call keeps telling its client it is
// alive, every period, for as long as it waits for the person (with the
// time left before the approval times out) and then while its action runs;
// and that the notifications are numbered in increasing order.
func TestProgressWhileWaiting(t *testing.T) {
	release := make(chan struct{})
	w := newWorld(t, gateOpts{autonomy: policy.AskAll, answer: func(ctx context.Context, r approval.Request) (approval.Answer, error) {
		select {
		case <-release:
			return approveAll(ctx, r)
		case <-ctx.Done():
			return approval.Answer{}, ctx.Err()
		}
	}})
	w.startGate()
	fifo := filepath.Join(w.home, "Documents", "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	notes := make(chan note, 1024)
	cs := connectMemoryConfig(t, w, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		notes <- note{r.Params.Progress, r.Params.Message}
	}}, airmcp.Config{Env: w.env, ProgressEvery: 20 * time.Millisecond, ApprovalTimeout: 5 * time.Minute})

	params := &mcp.CallToolParams{Name: airmcp.ToolRunCommand, Arguments: map[string]any{"argv": []string{"cat", fifo}}}
	params.SetProgressToken("p1")
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), params)
		if err != nil {
			res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
		}
		done <- res
	}()

	var got []note
	// await collects notifications until n of them match re.
	await := func(re *regexp.Regexp, n int) {
		t.Helper()
		seen := 0
		for seen < n {
			select {
			case nt := <-notes:
				got = append(got, nt)
				if re.MatchString(nt.msg) {
					seen++
				}
			case res := <-done:
				t.Fatalf("the call ended while waiting for %q: %s", re, textOf(res))
			case <-time.After(wait):
				t.Fatalf("no %d notifications matching %q; got %+v", n, re, got)
			}
		}
	}
	await(regexp.MustCompile(`^still waiting for the person to answer Airlock's approval popup \(\d+s so far; about (4m\d+s|5m0s) left before it times out and is denied\)$`), 3)
	close(release)
	await(regexp.MustCompile(`^still running 1\. Run cat .*fifo \(\d+s so far\)$`), 3)
	// Let cat end: it reads the fifo to its end.
	f, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("through the fifo\n")
	f.Close()
	res := <-done
	if res.IsError || !strings.Contains(textOf(res), "through the fifo") {
		t.Fatalf("the call: %s", textOf(res))
	}
	for i := 1; i < len(got); i++ {
		if got[i].n <= got[i-1].n {
			t.Errorf("notification %d is numbered %v after %v: progress must increase", i, got[i].n, got[i-1].n)
		}
	}
}

// TestProgressTimeLeftFromTheSettings checks that without a timeout given,
// the time left comes from the gate's settings file.
func TestProgressTimeLeftFromTheSettings(t *testing.T) {
	release := make(chan struct{})
	w := newWorld(t, gateOpts{autonomy: policy.AskAll, answer: func(ctx context.Context, r approval.Request) (approval.Answer, error) {
		select {
		case <-release:
			return approveAll(ctx, r)
		case <-ctx.Done():
			return approval.Answer{}, ctx.Err()
		}
	}})
	w.startGate()
	if err := os.WriteFile(filepath.Join(w.dir, policy.SettingsFile), []byte(`{"approvalTimeout": "90s"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	notes := make(chan string, 1024)
	cs := connectMemoryConfig(t, w, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		notes <- r.Params.Message
	}}, airmcp.Config{Env: w.env, ProgressEvery: 20 * time.Millisecond})
	params := &mcp.CallToolParams{Name: airmcp.ToolRunCommand, Arguments: map[string]any{"argv": []string{"true"}}}
	params.SetProgressToken(7)
	done := make(chan error, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), params)
		if err == nil && (res.IsError || !strings.Contains(textOf(res), "Done")) {
			t.Errorf("the call: %s", textOf(res))
		}
		done <- err
	}()
	re := regexp.MustCompile(`about 1m\d+s left before it times out`)
	for found := false; !found; {
		select {
		case msg := <-notes:
			found = re.MatchString(msg)
			if !found && strings.Contains(msg, "left before it times out") {
				t.Fatalf("the time left is not the settings' 90s: %q", msg)
			}
		case <-time.After(wait):
			t.Fatal("no notification gave the time left")
		}
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestNoProgressUnasked checks that a client that gave no progress token
// gets no notifications, however long the call waits.
func TestNoProgressUnasked(t *testing.T) {
	w := newWorld(t, gateOpts{autonomy: policy.FullAuto})
	w.startGate()
	notes := make(chan string, 16)
	cs := connectMemoryConfig(t, w, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		notes <- r.Params.Message
	}}, airmcp.Config{Env: w.env, ProgressEvery: time.Millisecond})
	rr, res := run(t, cs, airmcp.ToolRunCommand, map[string]any{"argv": []string{"sleep", "0.2"}})
	if res.IsError || rr.Status != gate.StatusOK {
		t.Fatalf("%s", textOf(res))
	}
	select {
	case m := <-notes:
		t.Errorf("a notification without a progress token: %q", m)
	default:
	}
}

// TestProgressCarriesLiveOutput checks that what a running command prints
// reaches the client in progress notifications while it still runs (it
// waits on a fifo the test opens only once its first line has come), its
// stderr marked, and that a secret it prints in two pieces never arrives
// in pieces.
func TestProgressCarriesLiveOutput(t *testing.T) {
	w := newWorld(t, gateOpts{autonomy: policy.AskAll})
	w.startGate()
	dir := filepath.Join(w.home, "Documents")
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "slow.sh")
	if err := os.WriteFile(script, []byte(`printf 'first line\ntoken ghp_0123456789abcdefghij'
echo oops >&2
read x < "$1"
printf 'klmnopqrstuvwxyzAB\n'
`), 0o600); err != nil {
		t.Fatal(err)
	}
	notes := make(chan string, 1024)
	cs := connectMemoryConfig(t, w, &mcp.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
		notes <- r.Params.Message
	}}, airmcp.Config{Env: w.env, ProgressEvery: time.Minute})
	params := &mcp.CallToolParams{Name: airmcp.ToolRunCommand, Arguments: map[string]any{"argv": []string{"sh", script, fifo}, "cwd": dir}}
	params.SetProgressToken("live")
	done := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), params)
		if err != nil {
			res = &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
		}
		done <- res
	}()
	var got []string
	for first := false; !first; {
		select {
		case m := <-notes:
			got = append(got, m)
			first = strings.Contains(m, "first line")
		case res := <-done:
			t.Fatalf("the call ended before its first line came: %s\nnotifications: %q", textOf(res), got)
		case <-time.After(wait):
			t.Fatalf("no notification carried the first line; got %q", got)
		}
	}
	if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var res *mcp.CallToolResult
	select {
	case res = <-done:
	case <-time.After(wait):
		t.Fatal("the call did not end")
	}
	if res.IsError {
		t.Fatalf("the call: %s", textOf(res))
	}
	for len(notes) > 0 {
		got = append(got, <-notes)
	}
	all := strings.Join(got, "\n")
	if !strings.Contains(all, "stderr: oops") || !strings.Contains(all, "token [redacted:github-token]") {
		t.Fatalf("want stderr marked and the token redacted whole; notifications: %q", got)
	}
	if strings.Contains(all, "ghp_") || strings.Contains(all, "klmnopqrstuvwxyzAB") {
		t.Fatalf("a piece of the token arrived: %q", got)
	}
}
