package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunCommandWhereItIsTyped checks, through the real gate and sandbox,
// that `airlock run --kind command` runs the command in the folder it was
// typed in, with a program found on the caller's PATH (a folder of the
// person's own programs that the gate's PATH lacks), and that a folder the
// sandbox cannot show is refused with a message that says so.
func TestRunCommandWhereItIsTyped(t *testing.T) {
	w := newWorld(t, "")
	w.startGate()
	proj := filepath.Join(w.home, "Documents", "proj")
	bin := filepath.Join(w.home, "bin-of-mine")
	for _, d := range []string{proj, bin} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(proj, "marker.txt"), []byte("here"), 0o600); err != nil {
		t.Fatal(err)
	}
	run := func(dir, pathList string, args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(w.bin, append([]string{"run", "--kind", "command", "--"}, args...)...)
		cmd.Env = append(append([]string{}, w.env...), "PATH="+pathList)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if _, exited := err.(*exec.ExitError); err != nil && !exited {
			t.Error(err) // it may run on another goroutine: no Fatal
			return err.Error(), -1
		}
		return string(out), cmd.ProcessState.ExitCode()
	}
	sysPath := os.Getenv("PATH")
	if out, code := run(proj, sysPath, "cat", "marker.txt"); code != 0 || !strings.Contains(out, "here") {
		t.Errorf("cat marker.txt in the project: exit %d\n%s", code, out)
	}
	// The caller's PATH names the program: the gate's does not have it.
	if err := os.WriteFile(filepath.Join(bin, "mine"), []byte("#!/bin/sh\nexec cat marker.txt\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	// An unknown program asks: the person sees the path found, and says yes.
	type result struct {
		out  string
		code int
	}
	done := make(chan result, 1)
	go func() {
		out, code := run(proj, bin+":"+sysPath, "mine")
		done <- result{out, code}
	}()
	if shown := w.expect(approvePrompt); !strings.Contains(shown, filepath.Join(bin, "mine")) {
		t.Errorf("the prompt does not show the program found on the PATH:\n%s", shown)
	}
	w.answer("y")
	r := <-done
	out, code := r.out, r.code
	if !strings.Contains(out, filepath.Join(bin, "mine")) {
		t.Errorf("the report does not show the program found on the PATH:\n%s", out)
	}
	if code != 0 || !strings.Contains(out, "here") {
		t.Errorf("mine, found on the caller's PATH: exit %d\n%s", code, out)
	}
	// Outside the home and the roots: refused before anything runs.
	if out, code := run(t.TempDir(), sysPath, "true"); code == 0 || !strings.Contains(out, "outside your home folder") {
		t.Errorf("a command typed outside the home: exit %d\n%s", code, out)
	}
}

// TestSandboxRefusalExplains checks that a command the sandbox refuses a
// write fails with a message that says the sandbox may have refused it,
// where commands may write, and how to allow another folder.
func TestSandboxRefusalExplains(t *testing.T) {
	w := newWorld(t, "")
	w.startGate()
	out, code := w.client("", "run", "--kind", "command", "--", "touch", filepath.Join(w.home, "outside-the-roots.txt"))
	if code == 0 {
		t.Fatalf("a write outside the roots succeeded:\n%s", out)
	}
	for _, want := range []string{"Permission denied", "the OS sandbox may have refused it", filepath.Join(w.home, "Documents"), `"roots" in settings.json`} {
		if !strings.Contains(out, want) {
			t.Errorf("the refusal does not say %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(filepath.Join(w.home, "outside-the-roots.txt")); err == nil {
		t.Error("the file was written")
	}
}
