package main

import (
	"bufio"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunPrintsOutputAsItComes checks, through the real binary, gate and
// sandbox, that `airlock run --kind command` prints what a command prints
// while it still runs (the command waits on a fifo the test opens only once
// the first line is on the terminal), and prints it once: the result's
// output is not repeated after it.
func TestRunPrintsOutputAsItComes(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary")
	}
	w := newWorld(t, "")
	w.startGate()
	proj := filepath.Join(w.home, "Documents", "proj")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(proj, "go")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(proj, "slow.sh")
	if err := os.WriteFile(script, []byte("echo first line\nread x < \"$1\"\necho last line\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(w.bin, "run", "--kind", "command", "--", "sh", "slow.sh", "go")
	cmd.Env, cmd.Dir = w.env, proj
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan error, 1)
	go func() { err := cmd.Wait(); pw.Close(); ended <- err }()
	lines := make(chan string, 100)
	go func() {
		s := bufio.NewScanner(pr)
		for s.Scan() {
			lines <- s.Text()
		}
		close(lines)
	}()
	w.expect(approvePrompt) // a script of the person's: asked
	w.answer("y")
	var seen []string
	deadline := time.After(30 * time.Second)
	for first := false; !first; {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("airlock run ended before the first line; it printed:\n%s", strings.Join(seen, "\n"))
			}
			seen = append(seen, l)
			first = l == "first line"
		case <-deadline:
			t.Fatalf("the first line was not printed while the command ran; printed:\n%s", strings.Join(seen, "\n"))
		}
	}
	if err := os.WriteFile(fifo, []byte("go\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for l := range lines {
		seen = append(seen, l)
	}
	if err := <-ended; err != nil {
		t.Fatalf("airlock run: %v\n%s", err, strings.Join(seen, "\n"))
	}
	out := strings.Join(seen, "\n")
	if strings.Count(out, "first line") != 1 || strings.Count(out, "last line") != 1 || !strings.Contains(out, ": ok") {
		t.Fatalf("want each line printed once and the result ok; printed:\n%s", out)
	}
}
