//go:build linux

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/bridge"
	"github.com/airlockhq/airlock/bridge/xtest"
)

// The attacks of issue 12 that an action running unasked made on the
// person's approval, tried again from inside such an action submitted to a
// real gate. Each world runs at Level 2, where anything short of
// destructive runs unasked: the attacker's script (dangerous) runs at once,
// while another client's destructive request waits for the person. The
// payloads are data (testdata/attacks), copied into the world's temporary
// home; nothing here runs outside it.

// victim makes ~/Documents/victim, a folder another client's destructive
// request (rm -r) wants gone, and returns it.
func (w *world) victim(t *testing.T) string {
	t.Helper()
	v := filepath.Join(w.home, "Documents", "victim")
	if err := os.MkdirAll(v, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(v, "keep.txt"), []byte("the person's file"), 0o600); err != nil {
		t.Fatal(err)
	}
	return v
}

// intact fails the test unless the victim is still there.
func intact(t *testing.T, victim string) {
	t.Helper()
	if b, err := os.ReadFile(filepath.Join(victim, "keep.txt")); err != nil || string(b) != "the person's file" {
		t.Fatalf("the victim was deleted without the person's approval: %q, %v", b, err)
	}
}

// install copies an attack payload from testdata/attacks into
// ~/Documents and returns where it is.
func (w *world) install(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "attacks", name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(w.home, "Documents", name)
	if err := os.WriteFile(p, b, 0o700); err != nil {
		t.Fatal(err)
	}
	return p
}

// getenv reads key from the world's environment.
func (w *world) getenv(key string) string {
	for i := len(w.env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(w.env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// needSandbox skips the test where the running gate cannot confine
// actions (a kernel without Landlock or user namespaces): there the gate
// asks about every command, which other tests check. The sandbox's own
// tests fail, rather than skip, when the kernel has Landlock and the
// sandbox still does not start.
func (w *world) needSandbox(t *testing.T) {
	t.Helper()
	status, code := w.client("", "status")
	if code != 0 {
		t.Fatalf("airlock status: exit %d\n%s", code, status)
	}
	if _, why, ok := strings.Cut(status, "sandbox: unavailable: "); ok {
		t.Skipf("the OS sandbox cannot run on this machine: %s", why)
	}
	if !strings.Contains(status, "sandbox: Landlock ABI") {
		t.Fatalf("airlock status does not say what confines actions:\n%s", status)
	}
}

// stillPending fails the test if the victim's request has ended.
func stillPending(t *testing.T, run <-chan clientResult) {
	t.Helper()
	select {
	case r := <-run:
		t.Fatalf("the other client's request ended while the attack ran (exit %d):\n%s", r.code, r.out)
	default:
	}
}

// TestAttackPopupClick: an action that runs unasked cannot find and click
// Approve on another request's popup: it never reaches the display.
func TestAttackPopupClick(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary, zenity and Xvfb")
	}
	xtest.Need(t, "zenity", "xdotool", "dbus-daemon", "gnome-keyring-daemon")
	d := xtest.Start(t)
	w := newWorld(t, `{"autonomy": 2, "approvalTimeout": "60s"}`)
	gateOut := startPopupGate(t, w, d, "serve", "--prompter=popup")
	w.needSandbox(t)
	victim := w.victim(t)
	victimRun := w.clientAsync("", "run", "--kind", "command", "--", "rm", "-r", victim)
	popup := d.WaitWindow(t, bridge.ApprovalTitle, 10*time.Second)

	payload := w.install(t, "popup-click.sh")
	// Every popup of Airlock's: the approval, then the destructive action's
	// confirmation.
	titles := "^" + strings.SplitN(bridge.ApprovalTitle, " ", 2)[0] + " "
	out, code := w.client("", "run", "--kind", "command", "--", "sh", payload, d.Name, titles)
	if code != 0 || !strings.Contains(out, "no display") || strings.Contains(out, "clicked") {
		t.Errorf("the attack: exit %d, want it run and refused the display:\n%s\ngate:\n%s", code, out, gateOut.String())
	}
	stillPending(t, victimRun)
	intact(t, victim)

	// The person answers: Escape denies.
	d.Key(t, popup, "Escape")
	if r := wait(t, victimRun); r.code != 1 || !strings.Contains(r.out, "denied") {
		t.Fatalf("the other request: exit %d, want denied:\n%s", r.code, r.out)
	}
	intact(t, victim)
}

// TestAttackTerminalInjection: under the terminal prompter an action that
// runs unasked cannot type "y⏎" into the gate's terminal (TIOCSTI): it has
// no terminal.
func TestAttackTerminalInjection(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary")
	}
	w := newWorld(t, `{"autonomy": 2, "approvalTimeout": "60s"}`)
	w.startGate()
	w.needSandbox(t)
	payload := filepath.Join(w.home, "Documents", "tiocsti")
	build := exec.Command("go", "build", "-o", payload, "./testdata/attacks/tiocsti")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the payload: %v\n%s", err, out)
	}
	victim := w.victim(t)
	victimRun := w.clientAsync("", "run", "--kind", "command", "--", "rm", "-r", victim)
	w.expect(approvePrompt)

	out, code := w.client("", "run", "--kind", "command", "--", payload)
	if code != 0 || !strings.Contains(out, "no terminal") || strings.Contains(out, "typed the answer") {
		t.Errorf("the attack: exit %d, want it run and find no terminal:\n%s", code, out)
	}
	stillPending(t, victimRun)
	intact(t, victim)

	w.answer("n")
	if r := wait(t, victimRun); r.code != 1 || !strings.Contains(r.out, "denied") {
		t.Fatalf("the other request: exit %d, want denied:\n%s", r.code, r.out)
	}
	intact(t, victim)
}

// TestAttackSessionBus: an action that runs unasked cannot reach the
// session bus (where the tray's menu and the keyring holding the history's
// key answer), neither by the address it was given nor by its
// environment's.
func TestAttackSessionBus(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary")
	}
	xtest.Need(t, "dbus-send", "gdbus")
	w := newWorld(t, `{"autonomy": 2}`)
	w.startGate()
	w.needSandbox(t)
	addr := w.getenv("DBUS_SESSION_BUS_ADDRESS")
	if addr == "" {
		t.Fatal("the world has no session bus")
	}
	payload := w.install(t, "bus-call.sh")
	out, code := w.client("", "run", "--kind", "command", "--", "sh", payload, addr)
	if code != 0 || !strings.Contains(out, "no bus at") || strings.Contains(out, "bus reached") || strings.Contains(out, "org.freedesktop.secrets") {
		t.Errorf("the attack: exit %d, want it run and reach no bus:\n%s", code, out)
	}
}
