//go:build linux

package bridge_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/bridge"

	"github.com/airlockhq/airlock/bridge/proctest"
)

// escape is a running testdata/escape.sh: the pids it reported and the
// marker in the environment of every process it started.
type escape struct {
	pids   map[string]int // leader, setsid, double, both
	marker string
	done   <-chan escapeResult
}

type escapeResult struct {
	out string
	err error
	at  time.Time // when RunArgv returned
}

// startEscape runs testdata/escape.sh as a contained process under ctx and
// returns once it has started its three escapes.
func startEscape(t testing.TB, ctx context.Context, mode string) escape {
	t.Helper()
	script, err := filepath.Abs("testdata/escape.sh")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	ready := filepath.Join(dir, "ready")
	if err := syscall.Mkfifo(ready, 0o600); err != nil {
		t.Fatal(err)
	}
	marker := newMarker(t)
	done := make(chan escapeResult, 1)
	go func() {
		out, _, err := bridge.RunArgv(ctx, bridge.Command{
			Argv:    []string{"sh", script, dir, mode},
			Env:     []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, marker},
			Contain: true,
		})
		done <- escapeResult{out, err, time.Now()}
	}()
	// Opening the FIFO waits for the script to open it: that is the event.
	f, err := os.Open(ready)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(f)
	f.Close()
	if strings.TrimSpace(string(b)) != "ready" {
		t.Fatalf("the script wrote %q to its FIFO", b)
	}
	e := escape{pids: map[string]int{}, marker: marker, done: done}
	for _, name := range []string{"leader", "setsid", "double", "both"} {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatalf("%s: %q", name, b)
		}
		e.pids[name] = pid
	}
	t.Cleanup(func() { killMarked(marker) })
	return e
}

func newMarker(t testing.TB) string {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return "AIRLOCK_ESCAPE_TEST=" + hex.EncodeToString(b)
}

// killMarked is a test's own cleanup, so that a failing test leaves nothing
// running.
func killMarked(marker string) {
	for _, pid := range proctest.Marked(marker) {
		syscall.Kill(pid, syscall.SIGKILL)
	}
}

// assertAllDead fails unless none of e's processes is alive: neither the
// ones it reported nor any other carrying its marker.
func (e escape) assertAllDead(t testing.TB) {
	t.Helper()
	for name, pid := range e.pids {
		if proctest.Alive(pid) {
			t.Errorf("%s (pid %d) is still alive", name, pid)
		}
	}
	if live := proctest.Marked(e.marker); len(live) > 0 {
		t.Errorf("processes of the action still alive: %v", live)
	}
}

// The escapes are what they claim: out of the action's group, and two of
// them out of its session. (If this fails, the tests below prove nothing.)
func (e escape) assertEscaped(t testing.TB) {
	t.Helper()
	leader := e.pids["leader"]
	for _, name := range []string{"setsid", "double", "both"} {
		pid := e.pids[name]
		pgid, err := syscall.Getpgid(pid)
		if err != nil {
			t.Fatalf("%s (pid %d): %v", name, pid, err)
		}
		sid, _, _ := syscall.RawSyscall(syscall.SYS_GETSID, uintptr(pid), 0, 0)
		switch name {
		case "double":
			if ppid := parent(pid); ppid == leader {
				t.Fatalf("double (pid %d) is still the leader's child", pid)
			}
		default:
			if pgid == leader || int(sid) == leader {
				t.Fatalf("%s (pid %d) did not leave the session: group %d, session %d", name, pid, pgid, sid)
			}
		}
	}
}

func parent(pid int) int {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	n, _ := strconv.Atoi(f[1])
	return n
}

// Stopping a contained action kills what left its group and session
// (setsid, a double fork, both), and RunArgv returns at once rather than
// waiting for the pipes the escapes hold.
func TestContainedStopKillsEscapes(t *testing.T) {
	needProc(t)
	killed := errors.New("kill switch")
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	e := startEscape(t, ctx, "stay")
	e.assertEscaped(t)
	start := time.Now()
	cancel(killed)
	var r escapeResult
	select {
	case r = <-e.done:
	case <-time.After(liveness):
		t.Fatal("RunArgv did not return after its context was cancelled")
	}
	if !errors.Is(r.err, killed) {
		t.Fatalf("RunArgv: %v, want the cancel cause", r.err)
	}
	e.assertAllDead(t)
	if took := r.at.Sub(start); took > 500*time.Millisecond {
		t.Errorf("RunArgv took %v to return after the cancel", took)
	}
}

// When a contained action exits on its own, what escaped it is killed
// before RunArgv returns: nothing it started outlives it, and RunArgv does
// not wait for the pipes its escapes held.
func TestContainedExitKillsEscapes(t *testing.T) {
	needProc(t)
	e := startEscape(t, context.Background(), "leave")
	var r escapeResult
	select {
	case r = <-e.done:
	case <-time.After(liveness):
		t.Fatal("RunArgv did not return")
	}
	if r.err != nil {
		t.Fatalf("RunArgv: %v", r.err)
	}
	e.assertAllDead(t)
}

// KillEscaped kills an orphan outside our session, and leaves alone what a
// lingering program left behind in our session and the children started
// with os/exec elsewhere, whose Wait must still get their exit status.
func TestKillEscapedSparesOthers(t *testing.T) {
	needProc(t)
	// Become a subreaper, as the gate does on its first action.
	if _, _, err := bridge.RunArgv(context.Background(), bridge.Command{Argv: []string{"true"}, Contain: true}); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	linger := runForPID(t, filepath.Join(dir, "linger"), `sleep 100 & echo $! > "$1"`)
	orphan := runForPID(t, filepath.Join(dir, "orphan"), `setsid -f sh -c 'echo $$ > "$1"; exec sleep 100' sh "$1"`)
	if parent(orphan) != os.Getpid() || parent(linger) != os.Getpid() {
		t.Fatalf("the orphans were not reparented to us: parents %d and %d, we are %d", parent(orphan), parent(linger), os.Getpid())
	}

	// Children of os/exec, in our group and leading their own, that have
	// exited and wait to be reaped by their Wait.
	var others []*exec.Cmd
	for _, attr := range []*syscall.SysProcAttr{nil, {Setpgid: true}} {
		c := exec.Command("sh", "-c", "exit 7")
		c.SysProcAttr = attr
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		others = append(others, c)
		for deadline := time.Now().Add(liveness); proctest.Alive(c.Process.Pid); time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("sh -c 'exit 7' did not exit")
			}
		}
	}

	if n := bridge.KillEscaped(); n != 1 {
		t.Errorf("KillEscaped killed %d processes, want 1 (the orphan)", n)
	}
	if proctest.Alive(orphan) {
		t.Error("the orphan outside our session is alive")
	}
	if !proctest.Alive(linger) {
		t.Error("the lingering program's leftover was killed")
	}
	for _, c := range others {
		var ee *exec.ExitError
		if err := c.Wait(); !errors.As(err, &ee) || ee.ExitCode() != 7 {
			t.Errorf("os/exec's Wait of its own child (%+v): %v, want exit status 7", c.SysProcAttr, err)
		}
	}
}

// runForPID runs script with Linger (so what it leaves behind survives)
// and returns the pid it wrote to pidFile.
func runForPID(t *testing.T, pidFile, script string) int {
	t.Helper()
	if _, _, err := bridge.RunArgv(context.Background(), bridge.Command{
		Argv: []string{"sh", "-c", script, "sh", pidFile}, Linger: true,
	}); err != nil {
		t.Fatal(err)
	}
	var pid int
	for deadline := time.Now().Add(liveness); pid == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s was never written", pidFile)
		}
		b, _ := os.ReadFile(pidFile)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	return pid
}

// A contained process leads a session of its own, so it has no controlling
// terminal: it cannot open the gate's /dev/tty or push input into it
// (TIOCSTI needs the terminal to be the caller's own).
func TestContainedHasASessionOfItsOwn(t *testing.T) {
	needProc(t)
	out, _, err := bridge.RunArgv(context.Background(), bridge.Command{
		Argv: []string{"sh", "-c", `echo $$; cat /proc/$$/stat`}, Contain: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	pid, stat, _ := strings.Cut(out, "\n")
	f := strings.Fields(stat[strings.LastIndexByte(stat, ')')+1:]) // state ppid pgrp session tty_nr
	if len(f) < 5 {
		t.Fatalf("stat %q", stat)
	}
	if f[3] != pid || f[2] != pid {
		t.Errorf("pid %s is in group %s, session %s: want a session of its own", pid, f[2], f[3])
	}
	if f[4] != "0" {
		t.Errorf("controlling terminal %s, want none", f[4])
	}
}

// A contained process inherits no descriptor of ours but the ones it is
// given, even one opened without close-on-exec.
func TestContainedInheritsNoStrayDescriptor(t *testing.T) {
	needProc(t)
	opened, err := syscall.Open(os.DevNull, syscall.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(opened)
	// A copy far from 3, where the given one goes, without close-on-exec.
	const fd = 100
	if err := syscall.Dup2(opened, fd); err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	given, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer given.Close()
	out, _, err := bridge.RunArgv(context.Background(), bridge.Command{
		Argv:       []string{"sh", "-c", `for fd in 3 "$1"; do test -e /proc/$$/fd/$fd && echo "$fd"; done; true`, "sh", strconv.Itoa(fd)},
		ExtraFiles: []*os.File{given},
		Contain:    true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Fields(out); len(got) != 1 || got[0] != "3" {
		t.Fatalf("open descriptors among 3 (given) and %d (stray): %q, want only 3", fd, got)
	}
}

// TestContainPIDNamespace: a contained process started in namespaces of
// its own (the sandbox's launcher's way) leaves nothing running once its
// Wait has returned, though it took no list of orphans and its end swept
// none: what it left in another session and by a double fork dies with
// its PID namespace.
func TestContainPIDNamespace(t *testing.T) {
	marker := newMarker(t)
	t.Cleanup(func() { killMarked(marker) })
	out, stderr, err := bridge.RunArgv(context.Background(), bridge.Command{
		Argv:    []string{"sh", "-c", `setsid sleep 301 & (sleep 302 &); (setsid sleep 303 &); echo started`},
		Env:     []string{"PATH=" + os.Getenv("PATH"), marker},
		Contain: true, Namespaces: true,
	})
	if err != nil || out != "started\n" {
		t.Fatalf("%q %v\n%s", out, err, stderr)
	}
	if live := proctest.Marked(marker); len(live) > 0 {
		t.Errorf("processes of the command still alive after its Wait: %v", live)
	}
}
