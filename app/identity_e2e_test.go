//go:build linux

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// peerPidfds reports whether this kernel gives a pidfd for a socket's peer
// (SO_PEERPIDFD, Linux 6.5), without which the gate verifies no program.
func peerPidfds() bool {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fds[0])
	defer unix.Close(fds[1])
	fd, err := unix.GetsockoptInt(fds[0], unix.SOL_SOCKET, unix.SO_PEERPIDFD)
	if err != nil {
		return false
	}
	unix.Close(fd)
	return true
}

// TestGrantBelongsToTheProgram: a grant ("allow again this session") made
// for one program covers the same text from that program only. A second
// client — another executable, here a copy of airlock at another path,
// which talks to the socket itself — that takes the first one's name and
// sends the same text is asked again, and the prompt shows which program
// asked. The history records the program beside the name.
func TestGrantBelongsToTheProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary")
	}
	if !peerPidfds() {
		t.Skip("this kernel has no SO_PEERPIDFD (Linux 6.5): the gate verifies no program, and grants nothing")
	}
	w := newWorld(t, `{"approvalTimeout": "30s"}`)
	w.startGate()
	plan := `WRITE_FILE "~/Documents/granted.txt" "same text"`
	const name = "mcp: claude-ai"

	// The first client: airlock run, started by this test, so its program
	// is this test binary, through airlock.
	first := w.clientAsync(plan, "run", "--client", name, "-")
	shown := w.expect(approvePrompt)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(shown, "Asked by: "+name) || !strings.Contains(shown, "Program:  "+self) || !strings.Contains(shown, "via airlock (pid") {
		t.Errorf("the prompt does not show the name and the verified program (%s via airlock):\n%s", self, shown)
	}
	w.expect(regexp.MustCompile(`a = yes and allow again this session\]`))
	w.answer("a")
	if r := wait(t, first); r.code != 0 {
		t.Fatalf("approved run: exit %d\n%s", r.code, r.out)
	}
	// The same program and text again: the grant covers it, nobody is asked.
	if out, code := w.client(plan, "run", "--client", name, "--json", "-"); code != 0 || !strings.Contains(out, `"approval":"granted"`) {
		t.Fatalf("the same program again: exit %d\n%s", code, out)
	}

	// Another executable under the same name, with the same text.
	other := filepath.Join(t.TempDir(), "not-claude")
	b, err := os.ReadFile(w.bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, b, 0o755); err != nil {
		t.Fatal(err)
	}
	impostor := w.clientAsyncAt(other, plan, "run", "--client", name, "-")
	shown = w.expect(approvePrompt)
	if !strings.Contains(shown, "Asked by: "+name) || !strings.Contains(shown, "not-claude (pid") {
		t.Errorf("the impostor's prompt does not show its own program:\n%s", shown)
	}
	w.answer("n")
	if r := wait(t, impostor); r.code != 1 || !strings.Contains(r.out, "denied") {
		t.Fatalf("the impostor rode on the grant: exit %d\n%s", r.code, r.out)
	}

	// The history keeps the program beside the name.
	out, code := w.client("", "history", "-n", "3")
	if code != 0 {
		t.Fatalf("history: exit %d\n%s", code, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "[denied]") || !strings.Contains(lines[0], name+" — ") || !strings.Contains(lines[0], "not-claude (pid") ||
		!strings.Contains(lines[1], "[granted]") || !strings.Contains(lines[1], "via airlock") {
		t.Errorf("history:\n%s", out)
	}
}
