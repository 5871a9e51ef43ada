//go:build linux

package ipc_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/airlockhq/airlock/app/internal/ipc"
)

// peerGate is a Handler whose status call records who called.
type peerGate struct {
	fakeGate
	mu    sync.Mutex
	peers []ipc.Peer
}

func newPeerGate() *peerGate {
	g := &peerGate{}
	g.status = func(ctx context.Context) (any, error) {
		p, ok := ipc.PeerFrom(ctx)
		if !ok {
			return nil, &ipc.RPCError{Code: -32010, Message: "no peer in the handler's context"}
		}
		g.mu.Lock()
		g.peers = append(g.peers, p)
		g.mu.Unlock()
		return map[string]int{"pid": p.PID}, nil
	}
	return g
}

func (g *peerGate) last(t *testing.T) ipc.Peer {
	t.Helper()
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.peers) == 0 {
		t.Fatal("no call recorded a peer")
	}
	p := g.peers[len(g.peers)-1]
	if strings.Contains(p.Problem, "SO_PEERPIDFD") {
		t.Skipf("this kernel cannot verify a peer: %s", p.Problem)
	}
	return p
}

// statusFrom runs the test binary at exe as a client that calls status on
// the gate in dir, and returns its process id.
func statusFrom(t *testing.T, exe, dir string) int {
	t.Helper()
	cmd := exec.Command(exe, "-test.run=^TestHelperStatus$")
	cmd.Env = append(os.Environ(), "IPC_HELPER_STATUS_DIR="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("client %s: %v\n%s", exe, err, out)
	}
	return cmd.Process.Pid
}

// TestHelperStatus is the client of the peer tests: it calls status.
func TestHelperStatus(t *testing.T) {
	dir := os.Getenv("IPC_HELPER_STATUS_DIR")
	if dir == "" {
		t.Skip("run by the peer tests")
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

// TestPeerIsTheConnectingProgram: the gate learns the connecting process
// and its executable from the kernel, not from anything the client says.
// Two copies of one program at different paths are different programs; so
// is one program whose file was rewritten in place; the same file run
// twice is the same program.
func TestPeerIsTheConnectingProgram(t *testing.T) {
	g := newPeerGate()
	_, dir := startGate(t, g, nil)
	bin := t.TempDir()
	a, b := filepath.Join(bin, "agent-a"), filepath.Join(bin, "agent-b")
	for _, p := range []string{a, b} {
		if err := copyFile(os.Args[0], p); err != nil {
			t.Fatal(err)
		}
	}

	pid := statusFrom(t, a, dir)
	pa := g.last(t)
	if !pa.Verified() || pa.PID != pid || pa.Program.PID != pid || pa.Program.Path != a || pa.Launcher != nil || pa.UID != os.Getuid() {
		t.Fatalf("peer %+v; want pid %d running %s, verified", pa, pid, a)
	}
	if want := a + " (pid " + itoa(pid) + ")"; pa.String() != want {
		t.Errorf("String = %q, want %q", pa.String(), want)
	}
	statusFrom(t, a, dir)
	if again := g.last(t); again.Key() != pa.Key() || again.PID == pa.PID {
		t.Fatalf("the same program run again: key %q vs %q (pids %d, %d)", again.Key(), pa.Key(), again.PID, pa.PID)
	}
	statusFrom(t, b, dir)
	if pb := g.last(t); !pb.Verified() || pb.Key() == pa.Key() || pb.Program.Path != b {
		t.Fatalf("a copy at another path %+v has the key of the first", pb)
	}
	// Rewritten in place (same path, same inode): another program.
	if err := copyFile(os.Args[0], a); err != nil {
		t.Fatal(err)
	}
	statusFrom(t, a, dir)
	if pr := g.last(t); !pr.Verified() || pr.Key() == pa.Key() {
		t.Fatalf("a program rewritten in place kept its key %q", pr.Key())
	}
}

// TestPeerThroughAirlock: a client running the gate's own program (here the
// test binary itself, as `airlock mcp` runs airlock) is identified by the
// program that started it.
func TestPeerThroughAirlock(t *testing.T) {
	g := newPeerGate()
	_, dir := startGate(t, g, nil)
	c := dial(t, dir)
	if _, err := c.Call(context.Background(), "status", nil, nil); err != nil {
		t.Fatal(err)
	}
	p := g.last(t)
	parent, err := os.Readlink("/proc/" + itoa(os.Getppid()) + "/exe")
	if err != nil {
		t.Fatal(err)
	}
	if !p.Verified() || p.PID != os.Getpid() || p.Launcher == nil || p.Launcher.PID != os.Getppid() || p.Launcher.Path != parent {
		t.Fatalf("peer %+v, launcher %+v; want this process, started by pid %d (%s)", p, p.Launcher, os.Getppid(), parent)
	}
	if !strings.HasSuffix(p.String(), " via airlock (pid "+itoa(os.Getpid())+")") || !strings.HasPrefix(p.String(), parent) {
		t.Errorf("String = %q", p.String())
	}
	if p.Key() == "" || p.Key() == ipc.ProgramKey(p.Program) || !strings.HasPrefix(p.Key(), ipc.ProgramKey(*p.Launcher)) {
		t.Errorf("key %q is not the launcher's", p.Key())
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
