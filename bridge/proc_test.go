package bridge_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/bridge"

	"github.com/airlockhq/airlock/bridge/proctest"
)

// liveness bounds how long a test waits for something that should happen
// at once; reaching it is a failure, not a measurement.
const liveness = 10 * time.Second

func TestRunArgvLiteral(t *testing.T) {
	args := []string{"$(id)", "`id`", "; rm -rf ~", "a b", "*", "$HOME", "'\"", "|| true", "\\n"}
	out, _, err := bridge.RunArgv(context.Background(), bridge.Command{
		Argv: append([]string{"printf", "%s\\n"}, args...),
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Split(strings.TrimSuffix(out, "\n"), "\n"); strings.Join(got, "|") != strings.Join(args, "|") {
		t.Fatalf("printf saw %q, want %q", got, args)
	}
}

func TestRunArgv(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name       string
		c          bridge.Command
		wantOut    string
		wantErrOut string
		wantCode   int    // for an *ExitError; 0 means success
		wantLine   string // ExitError.LastLine
		wantSignal string
		wantErr    bool // an error that is not an *ExitError
	}{
		{name: "success", c: bridge.Command{Argv: []string{"echo", "hi"}}, wantOut: "hi\n"},
		{name: "stdin", c: bridge.Command{Argv: []string{"cat"}, Stdin: "from stdin"}, wantOut: "from stdin"},
		{name: "no stdin", c: bridge.Command{Argv: []string{"cat"}}, wantOut: ""},
		{name: "dir and env", c: bridge.Command{Argv: []string{"sh", "-c", `pwd; echo "$FOO"`}, Dir: dir, Env: []string{"FOO=bar"}},
			wantOut: dir + "\nbar\n"},
		{name: "exit code", c: bridge.Command{Argv: []string{"sh", "-c", "exit 3"}}, wantCode: 3},
		{name: "last line of stderr", c: bridge.Command{Argv: []string{"sh", "-c", "echo first >&2; echo '  last words ' >&2; echo >&2; exit 1"}},
			wantErrOut: "first\n  last words \n\n", wantCode: 1, wantLine: "last words"},
		{name: "killed by a signal", c: bridge.Command{Argv: []string{"sh", "-c", "kill -KILL $$"}}, wantCode: -1, wantSignal: "killed"},
		{name: "output cap", c: bridge.Command{Argv: []string{"sh", "-c", "head -c 100000 /dev/zero | tr '\\0' o; head -c 5000 /dev/zero | tr '\\0' e >&2"}, MaxOutput: 1000},
			wantOut: strings.Repeat("o", 1000), wantErrOut: strings.Repeat("e", 1000)},
		{name: "no such program", c: bridge.Command{Argv: []string{"/nonexistent/program"}}, wantErr: true},
		{name: "no argv", c: bridge.Command{}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, err := bridge.RunArgv(context.Background(), tt.c)
			var ee *bridge.ExitError
			switch {
			case tt.wantErr:
				if err == nil || errors.As(err, &ee) {
					t.Fatalf("err = %v, want a failure to start", err)
				}
				return
			case tt.wantCode == 0:
				if err != nil {
					t.Fatal(err)
				}
			default:
				if !errors.As(err, &ee) {
					t.Fatalf("err = %v, want an *ExitError", err)
				}
				if ee.Code != tt.wantCode || ee.LastLine != tt.wantLine || ee.Signal != tt.wantSignal {
					t.Fatalf("ExitError %+v, want code %d, line %q, signal %q", ee, tt.wantCode, tt.wantLine, tt.wantSignal)
				}
				if !strings.Contains(err.Error(), strconv.Itoa(tt.wantCode)) && tt.wantSignal == "" {
					t.Fatalf("message %q does not name the status", err)
				}
			}
			if out != tt.wantOut || errOut != tt.wantErrOut {
				t.Fatalf("stdout %q, stderr %q; want %q, %q", short(out), short(errOut), short(tt.wantOut), short(tt.wantErrOut))
			}
		})
	}
}

func short(s string) string {
	if len(s) > 40 {
		return s[:40] + "…(" + strconv.Itoa(len(s)) + " bytes)"
	}
	return s
}

// tree is a shell script that starts a process tree in its group and
// writes each pid to $PIDS: itself, a sleep, a child shell that ignores
// SIGTERM and that child's sleep.
const tree = `echo $$ >> "$PIDS"
sleep 100 & echo $! >> "$PIDS"
sh -c 'trap "" TERM; echo $$ >> "$PIDS"; sleep 100 & echo $! >> "$PIDS"; wait' &
wait`

// startTree runs tree with RunArgv under ctx and returns the pids it
// reported (the first is the group) and a channel with RunArgv's error.
func startTree(t *testing.T, ctx context.Context) ([]int, <-chan error) {
	t.Helper()
	pidFile := filepath.Join(t.TempDir(), "pids")
	done := make(chan error, 1)
	go func() {
		_, _, err := bridge.RunArgv(ctx, bridge.Command{
			Argv: []string{"sh", "-c", tree},
			Env:  []string{"PIDS=" + pidFile, "PATH=" + os.Getenv("PATH")},
		})
		done <- err
	}()
	deadline := time.Now().Add(liveness)
	for {
		b, _ := os.ReadFile(pidFile)
		if fields := strings.Fields(string(b)); len(fields) == 4 {
			var pids []int
			for _, f := range fields {
				n, err := strconv.Atoi(f)
				if err != nil {
					t.Fatal(err)
				}
				pids = append(pids, n)
			}
			return pids, done
		}
		if time.Now().After(deadline) {
			t.Fatalf("the process tree did not start: %q", b)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// groupMembers lists the live processes whose process group is pgid.
func groupMembers(pgid int) []int {
	var live []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:]) // state ppid pgrp ...
		if len(f) > 2 && f[2] == strconv.Itoa(pgid) && proctest.Alive(pid) {
			live = append(live, pid)
		}
	}
	return live
}

// waitGone fails unless every pid, and every member of group pgid, is
// gone within the liveness bound.
func waitGone(t *testing.T, pgid int, pids []int) {
	t.Helper()
	deadline := time.Now().Add(liveness)
	for {
		var live []int
		for _, p := range pids {
			if proctest.Alive(p) {
				live = append(live, p)
			}
		}
		live = append(live, groupMembers(pgid)...)
		if len(live) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes still alive: %v", live)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func needProc(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("no /proc to watch processes in")
	}
}

// Cancelling the context kills the whole group at once, a child that
// ignores SIGTERM included, and RunArgv returns with the cause.
func TestRunArgvKillsGroup(t *testing.T) {
	needProc(t)
	killed := errors.New("kill switch")
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	pids, done := startTree(t, ctx)
	if g := groupMembers(pids[0]); len(g) < 4 {
		t.Fatalf("the tree is not one process group: members %v of %v", g, pids)
	}
	cancel(killed)
	select {
	case err := <-done:
		if !errors.Is(err, killed) {
			t.Fatalf("RunArgv: %v, want the cancel cause", err)
		}
	case <-time.After(liveness):
		t.Fatal("RunArgv did not return after its context was cancelled")
	}
	waitGone(t, pids[0], pids)
}

// One cancel stops everything in flight.
func TestRunArgvKillAll(t *testing.T) {
	needProc(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type run struct {
		pids []int
		done <-chan error
	}
	var runs []run
	for range 3 {
		pids, done := startTree(t, ctx)
		runs = append(runs, run{pids, done})
	}
	cancel()
	for _, r := range runs {
		select {
		case err := <-r.done:
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("RunArgv: %v, want context.Canceled", err)
			}
		case <-time.After(liveness):
			t.Fatal("RunArgv did not return after its context was cancelled")
		}
		waitGone(t, r.pids[0], r.pids)
	}
}

// Nothing a process leaves running in its group outlives RunArgv.
func TestRunArgvReapsLeftovers(t *testing.T) {
	needProc(t)
	done := make(chan struct{})
	var out string
	var err error
	go func() {
		defer close(done)
		out, _, err = bridge.RunArgv(context.Background(), bridge.Command{
			Argv: []string{"sh", "-c", "sleep 100 & echo $$ $!"},
		})
	}()
	select {
	case <-done:
	case <-time.After(liveness):
		t.Fatal("RunArgv waited for a background child")
	}
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(out)
	if len(f) != 2 {
		t.Fatalf("output %q", out)
	}
	pgid, _ := strconv.Atoi(f[0])
	child, _ := strconv.Atoi(f[1])
	waitGone(t, pgid, []int{child})
}

func TestRunArgvCancelledBeforeStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	marker := filepath.Join(t.TempDir(), "ran")
	_, _, err := bridge.RunArgv(ctx, bridge.Command{Argv: []string{"touch", marker}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("RunArgv: %v, want context.Canceled", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the process ran")
	}
}

// With Linger, what the program leaves in its group runs on after it
// exits (a launched app, a clipboard owner), stdin still arrives, and the
// call returns without waiting for the leftover's output.
func TestRunArgvLinger(t *testing.T) {
	needProc(t)
	dir := t.TempDir()
	got := filepath.Join(dir, "got")
	pidFile := filepath.Join(dir, "pid")
	done := make(chan error, 1)
	go func() {
		// The background child keeps stdout and stderr open, as xclip's
		// serving child and a launched browser do.
		_, _, err := bridge.RunArgv(context.Background(), bridge.Command{
			Argv:   []string{"sh", "-c", `cat > "$1"; sleep 100 & echo $! > "$2"; echo to stdout; echo to stderr >&2`, "sh", got, pidFile},
			Stdin:  "clipboard text\n",
			Linger: true,
		})
		done <- err
	}()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(liveness):
		t.Fatal("RunArgv waited for what the program left running")
	}
	if b, _ := os.ReadFile(got); string(b) != "clipboard text\n" {
		t.Fatalf("stdin arrived as %q", b)
	}
	b, _ := os.ReadFile(pidFile)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file %q", b)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	if !proctest.Alive(pid) {
		t.Fatal("the lingering child was killed")
	}
}

// Cancelling a lingering command while it still runs kills its group.
func TestRunArgvLingerCancel(t *testing.T) {
	needProc(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pidFile := filepath.Join(t.TempDir(), "pids")
	done := make(chan error, 1)
	go func() {
		_, _, err := bridge.RunArgv(ctx, bridge.Command{
			Argv:   []string{"sh", "-c", `echo $$ >> "$1"; sleep 100 & echo $! >> "$1"; wait`, "sh", pidFile},
			Linger: true,
		})
		done <- err
	}()
	var pids []int
	deadline := time.Now().Add(liveness)
	for len(pids) < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the process tree did not start")
		}
		time.Sleep(5 * time.Millisecond)
		b, _ := os.ReadFile(pidFile)
		pids = pids[:0]
		for _, f := range strings.Fields(string(b)) {
			n, _ := strconv.Atoi(f)
			pids = append(pids, n)
		}
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("RunArgv: %v, want context.Canceled", err)
	}
	waitGone(t, pids[0], pids)
}

func BenchmarkRunArgvTrue(b *testing.B) {
	prog, err := exec.LookPath("true")
	if err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		if _, _, err := bridge.RunArgv(context.Background(), bridge.Command{Argv: []string{prog}}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunArgvContained is BenchmarkRunArgvTrue for an action: a
// session of its own, the descriptor sweep, and the sweep for escapes
// when it exits.
func BenchmarkRunArgvContained(b *testing.B) {
	prog, err := exec.LookPath("true")
	if err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		if _, _, err := bridge.RunArgv(context.Background(), bridge.Command{Argv: []string{prog}, Contain: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestRunArgvOutputAsItComes checks that Command.Output is handed each
// stream's bytes while the program still runs (the first line arrives
// before the program is let go on), in order, and that what it was handed
// is exactly what RunArgv returns, the cap included.
func TestRunArgvOutputAsItComes(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen [2]strings.Builder
	first := make(chan struct{})
	var once sync.Once
	c := bridge.Command{
		// Prints a line on each stream, waits for the test, then floods
		// stdout past the cap.
		Argv:      []string{"sh", "-c", `echo one; echo err >&2; read x < "$1"; head -c 5000 /dev/zero | tr '\0' o`, "sh", fifo},
		MaxOutput: 1000,
		Output: func(p []byte, stderr bool) {
			mu.Lock()
			i := 0
			if stderr {
				i = 1
			}
			seen[i].Write(p)
			got := seen[0].String()
			mu.Unlock()
			if strings.HasPrefix(got, "one\n") {
				once.Do(func() { close(first) })
			}
		},
	}
	type ran struct {
		out, errOut string
		err         error
	}
	done := make(chan ran, 1)
	go func() {
		out, errOut, err := bridge.RunArgv(context.Background(), c)
		done <- ran{out, errOut, err}
	}()
	select {
	case <-first:
	case r := <-done:
		t.Fatalf("the program ended before its first line was handed on: %+v", r)
	case <-time.After(liveness):
		t.Fatal("the first line was not handed on while the program ran")
	}
	if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil {
		t.Fatal(r.err)
	}
	mu.Lock()
	defer mu.Unlock()
	if seen[0].String() != r.out || seen[1].String() != r.errOut {
		t.Fatalf("handed %q and %q, returned %q and %q", seen[0].String(), seen[1].String(), r.out, r.errOut)
	}
	if len(r.out) != 1000 || r.errOut != "err\n" {
		t.Fatalf("stdout %d bytes (want the cap, 1000), stderr %q", len(r.out), r.errOut)
	}
}

// TestRunArgvOutputNotWithLinger checks that asking for the output of a
// process whose output is not read is refused, not silently ignored.
func TestRunArgvOutputNotWithLinger(t *testing.T) {
	_, _, err := bridge.RunArgv(context.Background(), bridge.Command{Argv: []string{"true"}, Linger: true, Output: func([]byte, bool) {}})
	if err == nil || !strings.Contains(err.Error(), "lingering") {
		t.Fatalf("got %v, want a refusal naming the lingering process", err)
	}
}
