package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/bridge"
	"github.com/airlockhq/airlock/bridge/xtest"
)

// The popup end-to-end test runs `airlock serve --prompter=popup` in a
// private D-Bus session (gnome-keyring holding the history's key) on a
// private Xvfb display, submits dangerous plans with `airlock run`, and
// answers the zenity popups with xdotool as a person would.

// lockedBuffer is a bytes.Buffer safe for a process to write while the
// test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startPopupGate starts the gate with the popup prompter on display d (as
// `airlock` args…: `serve --prompter=popup`, or no arguments for the
// menu-bar app) and waits until it serves. It stops the gate's whole process group when the
// test ends.
func startPopupGate(t *testing.T, w *world, d *xtest.Display, args ...string) *lockedBuffer {
	t.Helper()
	newBus(t, w, false)
	cmd := exec.Command(w.bin, args...)
	cmd.Env = d.Env(w.env)
	out := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGINT)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			t.Log("the gate did not stop on SIGINT; killing it")
		}
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-exited
	})
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(out.String(), "gate serving on") {
		select {
		case <-exited:
			t.Fatalf("the gate exited:\n%s", out.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the gate did not start:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	return out
}

// TestEndToEndPopups runs the popups' whole story twice: behind `airlock
// serve --prompter=popup`, and behind the menu-bar app itself.
func TestEndToEndPopups(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary, zenity and Xvfb")
	}
	xtest.Need(t, "zenity", "dbus-daemon", "gnome-keyring-daemon")
	for _, start := range []struct {
		name string
		args []string
	}{
		{"serve", []string{"serve", "--prompter=popup"}},
		{"app", nil},
	} {
		t.Run(start.name, func(t *testing.T) { popupsEndToEnd(t, start.args) })
	}
}

func popupsEndToEnd(t *testing.T, args []string) {
	d := xtest.Start(t)
	w := newWorld(t, `{"approvalTimeout": "10s"}`)
	gateOut := startPopupGate(t, w, d, args...)
	doc := filepath.Join(w.home, "Documents")
	artifacts := xtest.ArtifactDir(t)
	const title, patience = bridge.ApprovalTitle, 10 * time.Second

	// visible records, for each plan, the time from starting `airlock run`
	// to its popup being mapped.
	var visible []time.Duration
	submit := func(plan string) (<-chan clientResult, xtest.Window) {
		t.Helper()
		start := time.Now()
		run := w.clientAsync(plan, "run", "-")
		id := d.WaitWindow(t, title, patience)
		visible = append(visible, time.Since(start))
		return run, id
	}
	check := func(name string, run <-chan clientResult, code int, says, file string, written bool) {
		t.Helper()
		r := wait(t, run)
		if r.code != code || !strings.Contains(r.out, says) {
			t.Fatalf("%s: exit %d, want %d with %q:\n%s\ngate:\n%s", name, r.code, code, says, r.out, gateOut.String())
		}
		_, err := os.Stat(filepath.Join(doc, file))
		if written != (err == nil) {
			t.Fatalf("%s: %s written: %v, want %v", name, file, err == nil, written)
		}
	}

	// Approve: an Approve clicked at once does not count (the popup comes
	// back saying why); one clicked after the arm delay runs the plan.
	run, first := submit(`WRITE_FILE "~/Documents/approved.txt" "hello from the plan"`)
	// Click at once (well inside the arm delay, however loaded the machine);
	// the screenshot is of the popup that comes back.
	d.Click(t, first, xtest.LastButtonDX, xtest.ButtonDY)
	second := d.WaitWindow(t, title, patience, first)
	d.Screenshot(t, filepath.Join(artifacts, "popup-e2e-"+filepath.Base(t.Name())+"-approval.png"))
	d.WaitGone(t, title, first, patience)
	select {
	case r := <-run:
		t.Fatalf("an Approve before the arm delay ended the run: exit %d\n%s", r.code, r.out)
	default:
	}
	time.Sleep(bridge.DefaultArmDelay)
	d.Click(t, second, xtest.LastButtonDX, xtest.ButtonDY)
	check("approved", run, 0, "ok", "approved.txt", true)
	if b, err := os.ReadFile(filepath.Join(doc, "approved.txt")); err != nil || string(b) != "hello from the plan" {
		t.Fatalf("approved.txt: %q, %v", b, err)
	}

	// Return and Escape deny.
	for _, key := range []string{"Return", "Escape"} {
		run, id := submit(`WRITE_FILE "~/Documents/denied-` + key + `.txt" "no"`)
		d.Key(t, id, key)
		check(key, run, 1, "denied", "denied-"+key+".txt", false)
		// Gone before the next popup, so no key or click meant for this one
		// can reach that one.
		d.WaitGone(t, title, id, patience)
	}

	// Timeout: nobody answers; the popup closes and the run says timeout.
	run, id := submit(`WRITE_FILE "~/Documents/late.txt" "late"`)
	check("timeout", run, 1, "timeout", "late.txt", false)
	d.WaitGone(t, title, id, 2*time.Second)

	// Kill: `airlock kill` closes the popup at once and the run ends killed.
	run, id = submit(`WRITE_FILE "~/Documents/killed.txt" "k"`)
	if out, code := w.client("", "kill"); code != 0 || !strings.Contains(out, "killed") {
		t.Fatalf("kill: exit %d\n%s", code, out)
	}
	d.WaitGone(t, title, id, 2*time.Second)
	check("killed", run, 1, "killed", "killed.txt", false)

	// The history records each outcome as it happened.
	out, code := w.client("", "history", "--json")
	if code != 0 {
		t.Fatalf("history: exit %d\n%s", code, out)
	}
	var records []historyRecord
	if err := json.Unmarshal([]byte(out), &records); err != nil {
		t.Fatalf("history --json: %v\n%s", err, out)
	}
	var approvals []string
	for _, r := range slices.Backward(records) {
		approvals = append(approvals, r.Approval)
	}
	if want := []string{"approved", "denied", "denied", "timeout", "killed"}; !slices.Equal(approvals, want) {
		t.Errorf("history approvals %q, want %q:\n%s", approvals, want, out)
	}

	slices.Sort(visible)
	t.Logf("request to popup visible (airlock run started → window mapped), %d plans: median %v, min %v, max %v",
		len(visible), visible[len(visible)/2].Round(time.Millisecond), visible[0].Round(time.Millisecond), visible[len(visible)-1].Round(time.Millisecond))
}

// TestServePopupWithoutDisplay: the popup prompter refuses to start where it
// could not ask, before it touches the key store or the history.
func TestServePopupWithoutDisplay(t *testing.T) {
	bin, err := buildAirlock()
	if err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	cmd := exec.Command(bin, "serve", "--prompter=popup")
	for _, kv := range os.Environ() {
		switch strings.SplitN(kv, "=", 2)[0] {
		case "DISPLAY", "WAYLAND_DISPLAY", "AIRLOCK_DATA_DIR", "DBUS_SESSION_BUS_ADDRESS":
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(cmd.Env, "AIRLOCK_DATA_DIR="+data)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "the popup prompter cannot ask here") {
		t.Fatalf("serve --prompter=popup without a display: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(data, historyFile)); !os.IsNotExist(err) {
		t.Errorf("the history was opened: %v", err)
	}
}
