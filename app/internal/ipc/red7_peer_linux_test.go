//go:build linux

package ipc_test

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/ipc"
)

// TestHelperStatusOnCue is the client of TestRedLauncherExecsAnotherProgram:
// it runs the gate's own program (the test binary), waits for a line on its
// standard input, then calls status.
func TestHelperStatusOnCue(t *testing.T) {
	dir := os.Getenv("IPC_HELPER_CUE_DIR")
	if dir == "" {
		t.Skip("run by TestRedLauncherExecsAnotherProgram")
	}
	if _, err := bufio.NewReader(os.Stdin).ReadString('\n'); err != nil {
		t.Fatalf("waiting for the cue: %v", err)
	}
	c, err := ipc.Dial(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Call(context.Background(), "status", nil, nil); err != nil {
		t.Fatal(err)
	}
}

// Red team 7, attack 2. A client that runs Airlock's own program (`airlock
// mcp`, `airlock run`) is named by the program that started it, read from
// /proc when it connects. But the program a process runs can change: a
// script starts `airlock mcp` with its standard input on a pipe it keeps in
// a forked sibling, then execs the program whose grants it wants (here
// sleep stands in for it); the sibling then drives the client. The gate
// names the request by the exec'd program, and that program's grants
// ("allow again this session", allow rules) cover what the script asks.
//
// Not fixed: Linux shows no trace of an exec in /proc (the pidfd and the
// start time stay; macOS's audit token has a pidversion that an exec
// changes). The fix is for the client to prove its launcher at its own start
// and the gate to refuse a launcher whose program differs from what the client
// saw — a race the script still wins by exec'ing at once — or, more soundly,
// for grants on Linux to belong to a launcher that cannot exec unseen
// (a program the gate started itself, or one attested by a pidfd taken before
// the client ran). Until then a grant's identity on Linux keeps out other
// programs only as far as they do not exec into the granted one.
func TestRedLauncherExecsAnotherProgram(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 to run the attack with")
	}
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	if sleep, err = filepath.EvalSymlinks(sleep); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "red7-launcher-exec.py"))
	if err != nil {
		t.Fatal(err)
	}
	g := newPeerGate()
	_, dir := startGate(t, g, nil)
	cmd := exec.Command(python, script, os.Args[0], dir, sleep)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		g.mu.Lock()
		n := len(g.peers)
		g.mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the client never called")
		}
		time.Sleep(10 * time.Millisecond)
	}
	p := g.last(t)
	t.Logf("peer %s, verified %v, problem %q", p, p.Verified(), p.Problem)
	if p.Verified() && p.Launcher != nil && p.Launcher.Path == sleep {
		t.Skipf("HOLE (not fixed): a script's request through Airlock's own client is named %q, the program the script exec'd into "+
			"after starting the client, and that program's grants cover it; fix: see this test's comment", p.String())
	}
}
