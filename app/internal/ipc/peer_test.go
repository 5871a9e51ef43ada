package ipc_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/airlockhq/airlock/app/internal/ipc"
)

// TestPeerCredentialsOfAnotherUser connects as a real other user (nobody)
// and checks the kernel-reported uid turns it away. It needs root, to run
// the child as nobody and to open the socket to it for the test.
func TestPeerCredentialsOfAnotherUser(t *testing.T) {
	if runtime.GOOS != "linux" || os.Getuid() != 0 {
		t.Skip("needs root on Linux to connect as another user")
	}
	g := &fakeGate{}
	s, dir := startGate(t, g, nil)
	// Let nobody reach the socket, so only the peer check stands in the way.
	for path, mode := range map[string]os.FileMode{filepath.Dir(dir): 0o711, dir: 0o711, s.Path(): 0o666} {
		if err := os.Chmod(path, mode); err != nil {
			t.Fatal(err)
		}
	}
	exe := filepath.Join(dir, "ipc.test")
	if err := copyFile(os.Args[0], exe); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestHelperConnectAsOtherUser$")
	cmd.Env = []string{"IPC_HELPER_SOCKET=" + s.Path()}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, out)
	}
	want := fmt.Sprintf(`"code":%d`, ipc.CodeUnauthorized)
	if !strings.Contains(string(out), want) {
		t.Errorf("helper read %s, want an error with %s", out, want)
	}
	if calls := g.Calls(); len(calls) != 0 {
		t.Errorf("handler called: %q", calls)
	}
}

// TestHelperConnectAsOtherUser is the child of
// TestPeerCredentialsOfAnotherUser: it sends a kill and prints what comes
// back.
func TestHelperConnectAsOtherUser(t *testing.T) {
	path := os.Getenv("IPC_HELPER_SOCKET")
	if path == "" {
		t.Skip("run by TestPeerCredentialsOfAnotherUser")
	}
	nc, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	io.WriteString(nc, `{"jsonrpc":"2.0","id":1,"method":"kill"}`+"\n")
	line, err := bufio.NewReader(nc).ReadBytes('\n')
	if err != nil {
		t.Fatalf("reading: %v", err)
	}
	if !json.Valid(line) {
		t.Fatalf("not JSON: %q", line)
	}
	fmt.Printf("%s", line)
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o755)
}
