//go:build linux

package main

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/airlockhq/airlock/bridge/xtest"
)

// TestAttackLocalPorts: actions that run unasked at the default level
// cannot reach a service that listens on this machine's loopback (here a
// stand-in for a browser's DevTools port, full control of the person's
// browser): not `curl` (caution, and its verdict says it uses the network,
// so it may reach the web's ports only), and not a safe command (no
// network at all); nor can they list the machine's sockets in /proc/net.
func TestAttackLocalPorts(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary")
	}
	xtest.Need(t, "curl", "dbus-daemon", "gnome-keyring-daemon")
	w := newWorld(t, `{"autonomy": 1, "approvalTimeout": "60s"}`)
	w.startGate()
	w.needSandbox(t)

	var requests atomic.Int32
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(rw http.ResponseWriter, _ *http.Request) {
		requests.Add(1)
		fmt.Fprintln(rw, `{"webSocketDebuggerUrl": "ws://devtools-reached"}`)
	})}
	go srv.Serve(ln)
	defer srv.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	url := fmt.Sprintf("http://127.0.0.1:%d/json/version", port)

	// The control: unconfined, the stand-in answers.
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	requests.Store(0)

	out, code := w.client("", "run", "--kind", "command", "--", "curl", "-sS", "-m", "10", url)
	if strings.Contains(out, "devtools-reached") || requests.Load() != 0 {
		t.Errorf("curl, run unasked, reached the local port (exit %d):\n%s", code, out)
	}
	if code == 0 || !strings.Contains(out, "[caution, auto]") {
		t.Errorf("curl: exit %d, want it run unasked and fail:\n%s", code, out)
	}

	hostTCP := fmt.Sprintf("0100007F:%04X", port)
	if b, err := os.ReadFile("/proc/net/tcp"); err != nil || !strings.Contains(string(b), hostTCP) {
		t.Fatalf("outside the sandbox, /proc/net/tcp does not list the stand-in (%v), so this test proves nothing", err)
	}
	if b, err := os.ReadFile("/proc/net/unix"); err != nil || !strings.Contains(string(b), w.home) {
		t.Fatalf("outside the sandbox, /proc/net/unix does not list the gate's socket (%v), so this test proves nothing", err)
	}
	out, code = w.client("", "run", "--kind", "command", "--", "cat", "/proc/net/tcp", "/proc/net/unix")
	if code != 0 || !strings.Contains(out, "[safe, auto]") || !strings.Contains(out, "local_address") {
		t.Fatalf("cat /proc/net: exit %d, want it run unasked:\n%s", code, out)
	}
	if strings.Contains(out, hostTCP) || strings.Contains(out, w.home) {
		t.Errorf("a safe action lists the machine's sockets:\n%s", out)
	}
}
