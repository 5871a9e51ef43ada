package main

import (
	"bufio"
	"errors"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

func TestChoosePrompter(t *testing.T) {
	noDisplay := errors.New("no display (DISPLAY is not set)")
	noTTY := errors.New("open /dev/tty: no such device or address")
	ok := func() error { return nil }
	fails := func(err error) func() error { return func() error { return err } }
	for _, tt := range []struct {
		popups, terminal func() error
		want             string
		why              []string
	}{
		{ok, ok, "popup", []string{"a display is available"}},
		{ok, fails(noTTY), "popup", []string{"a display is available"}},
		{fails(noDisplay), ok, "terminal", []string{"no popups: no display (DISPLAY is not set); this terminal can ask"}},
		{fails(noDisplay), fails(noTTY), "none", []string{"no popups: no display (DISPLAY is not set); no terminal: open /dev/tty"}},
	} {
		got, why := choosePrompter(tt.popups, tt.terminal)
		if got != tt.want {
			t.Errorf("chose %q (%s), want %q", got, why, tt.want)
		}
		for _, w := range tt.why {
			if !strings.Contains(why, w) {
				t.Errorf("%s: the reason %q does not say %q", got, why, w)
			}
		}
	}
}

// serveEnv is w's environment without a display, as on a server.
func serveEnv(w *world) []string {
	var env []string
	for _, kv := range w.env {
		if k, _, _ := strings.Cut(kv, "="); k != "DISPLAY" && k != "WAYLAND_DISPLAY" {
			env = append(env, kv)
		}
	}
	return env
}

// TestServeChoosesTheTerminal runs `airlock serve` with no flags where there
// is no display but a terminal: it asks there, and says so.
func TestServeChoosesTheTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary")
	}
	w := newWorld(t, "")
	newBus(t, w, false)
	cmd := exec.Command(w.bin, "serve")
	cmd.Env = serveEnv(w)
	ptmx, err := pty.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	w.ptmx, w.gate = ptmx, cmd
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := ptmx.Read(buf)
			w.mu.Lock()
			w.tty.Write(buf[:n])
			w.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(w.stopGate)
	w.expect(regexp.MustCompile(`approvals: asked on this terminal \(no popups: [^\n]*; this terminal can ask; --prompter chooses another\)`))
	w.expect(regexp.MustCompile(`gate serving on .*prompter terminal`))
	run := w.clientAsync(`WRITE_FILE "~/Documents/asked.txt" "x"`, "run", "-")
	w.expect(approvePrompt)
	w.answer("n")
	if r := wait(t, run); r.code != 1 || !strings.Contains(r.out, "denied") {
		t.Fatalf("run: exit %d\n%s", r.code, r.out)
	}
}

// TestServeChoosesNobody runs `airlock serve` with no flags, no display and
// no terminal (a new session, as a service manager starts it): it serves,
// says nobody can approve, and refuses what needs approval.
func TestServeChoosesNobody(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary")
	}
	w := newWorld(t, "")
	newBus(t, w, false)
	cmd := exec.Command(w.bin, "serve")
	cmd.Env = serveEnv(w)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no controlling terminal
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	lines := bufio.NewScanner(out)
	var said []string
	for lines.Scan() {
		said = append(said, lines.Text())
		if strings.Contains(lines.Text(), "gate serving on") {
			break
		}
	}
	text := strings.Join(said, "\n")
	if !strings.Contains(text, "approvals: nobody to ask: whatever needs approval is refused (no popups: ") ||
		!strings.Contains(text, "; no terminal: ") || !strings.Contains(text, "prompter none") {
		t.Fatalf("serve said:\n%s", text)
	}
	go func() {
		for lines.Scan() {
		}
	}()
	if r := wait(t, w.clientAsync(`WRITE_FILE "~/Documents/refused.txt" "x"`, "run", "-")); r.code != 1 || !strings.Contains(r.out, "approval required") {
		t.Fatalf("run: exit %d\n%s", r.code, r.out)
	}
}
