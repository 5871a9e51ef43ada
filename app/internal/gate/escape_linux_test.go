//go:build linux

package gate_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/bridge"

	"github.com/airlockhq/airlock/bridge/proctest"
)

// escapeRig is a gate with the real executor, in a home of its own, ready
// to run testdata/escape.sh: an auto-run command that leaves a setsid'd
// child, a double-forked grandchild and one that does both, all holding its
// output pipes.
type escapeRig struct {
	g       *gate.Gate
	payload string
	marker  string // in the environment of every process the actions start
}

func newEscapeRig(t testing.TB) *escapeRig {
	t.Helper()
	if _, err := os.Stat("/proc/self/task"); err != nil {
		t.Skip("no /proc to watch processes in")
	}
	env, home := sandbox(t)
	// The actions run with the gate's environment: a home of the test's own.
	setenv(t, "HOME", home)
	setenv(t, "XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	setenv(t, "XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	setenv(t, "XDG_RUNTIME_DIR", filepath.Join(home, "run"))
	setenv(t, "AIRLOCK_DATA_DIR", filepath.Join(home, "airlock"))
	b := make([]byte, 8)
	rand.Read(b)
	marker := "AIRLOCK_ESCAPE_TEST=" + hex.EncodeToString(b)
	k, v, _ := strings.Cut(marker, "=")
	setenv(t, k, v)
	t.Cleanup(func() {
		for _, pid := range proctest.Marked(marker) {
			syscall.Kill(pid, syscall.SIGKILL)
		}
	})

	payload, err := os.ReadFile("testdata/escape.sh")
	if err != nil {
		t.Fatal(err)
	}
	desk, err := bridge.NewDesktop(bridge.Options{Env: []string{"PATH=" + t.TempDir()}})
	if err != nil {
		t.Fatal(err)
	}
	// No sandbox (nil box): this is the layer under it, which must hold on
	// its own (the sandbox's PID namespace would kill escapes anyway).
	ex, err := gate.DefaultExecutor(env.Paths, desk, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Level 2: the payload writes to paths computed at run time, which is
	// dangerous, and must run unasked here.
	g := gate.New(gate.Config{Env: env, Exec: ex, History: &memHistory{}, Autonomy: 2})
	return &escapeRig{g: g, payload: string(payload), marker: marker}
}

// setenv is t.Setenv for a testing.TB (a benchmark too).
func setenv(t testing.TB, k, v string) {
	old, had := os.LookupEnv(k)
	os.Setenv(k, v)
	t.Cleanup(func() {
		if had {
			os.Setenv(k, old)
		} else {
			os.Unsetenv(k)
		}
	})
}

// escaped is one run of the payload: the pids it reported and the
// submission's outcome.
type escaped struct {
	pids map[string]int
	done <-chan gate.Report
}

// start submits the payload as `sh -c PAYLOAD sh DIR stay` and returns once
// its escapes are running.
func (r *escapeRig) start(t testing.TB) escaped {
	t.Helper()
	dir, err := os.MkdirTemp("", "airlock-escape")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	ready := filepath.Join(dir, "ready")
	if err := syscall.Mkfifo(ready, 0o600); err != nil {
		t.Fatal(err)
	}
	done := make(chan gate.Report, 1)
	ended := make(chan struct{})
	go func() {
		rep, _ := r.g.Submit(context.Background(), gate.Submission{Client: "test", Kind: gate.KindCommand,
			Argv: []string{"sh", "-c", r.payload, "sh", dir, "stay"}}, nil)
		done <- rep
		close(ended)
	}()
	// The FIFO opens once the payload opens it to say it is ready; a
	// submission that ends first (refused, failed) opens it to fail fast.
	go func() {
		<-ended
		if f, err := os.OpenFile(ready, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	}()
	f, err := os.Open(ready)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(f)
	f.Close()
	if strings.TrimSpace(string(b)) != "ready" {
		rep := <-done
		t.Fatalf("the payload did not start its escapes: %+v", rep)
	}
	e := escaped{pids: map[string]int{}, done: done}
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
	return e
}

// An auto-run command leaves processes outside its group and session
// (setsid, a double fork, both) that hold its output pipes. The kill
// switch kills them all, and returns at once instead of waiting for the
// pipes: when Kill returns, no process of the action is alive.
func TestKillReachesEscapedProcesses(t *testing.T) {
	r := newEscapeRig(t)
	e := r.start(t)
	for _, name := range []string{"setsid", "both"} {
		if sid, _ := getsid(e.pids[name]); sid == e.pids["leader"] {
			t.Fatalf("%s did not leave the action's session: the payload proves nothing", name)
		}
	}
	start := time.Now()
	rep := r.g.Kill()
	took := time.Since(start)
	for name, pid := range e.pids {
		if proctest.Alive(pid) {
			t.Errorf("%s (pid %d) is alive after Kill returned", name, pid)
		}
	}
	if live := proctest.Marked(r.marker); len(live) > 0 {
		t.Errorf("processes of the action alive after Kill returned: %v", live)
	}
	if took > 500*time.Millisecond || rep.Stragglers != 0 {
		t.Errorf("Kill took %v (report %+v); it must not wait for the escapes' pipes", took, rep)
	}
	select {
	case sub := <-e.done:
		if sub.Status != gate.StatusKilled {
			t.Errorf("the submission ended %q, want %q", sub.Status, gate.StatusKilled)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the submission did not end after the kill")
	}
}

func getsid(pid int) (int, error) {
	sid, _, errno := syscall.RawSyscall(syscall.SYS_GETSID, uintptr(pid), 0, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(sid), nil
}

// BenchmarkKillEscaped trips the switch while an auto-run command runs that
// has left a setsid'd child, a double-forked grandchild and one that does
// both, all holding its pipes, and measures until Kill returns with every
// one of them dead. Target: p99 < 20 ms.
func BenchmarkKillEscaped(b *testing.B) {
	r := newEscapeRig(b)
	var took []time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		r.g.Resume()
		e := r.start(b)
		b.StartTimer()
		start := time.Now()
		r.g.Kill()
		took = append(took, time.Since(start))
		b.StopTimer()
		for name, pid := range e.pids {
			if proctest.Alive(pid) {
				b.Fatalf("%s (pid %d) is alive after Kill returned", name, pid)
			}
		}
		<-e.done
	}
	reportPercentiles(b, took)
}
