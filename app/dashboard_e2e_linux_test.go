//go:build linux

package main

import (
	"bufio"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestAppDashboard runs the menu-bar app and opens its dashboard the three
// ways a person can: the menu's "Dashboard…" and `airlock dashboard` make
// the app hand a one-time link to the browser opener (here a stand-in
// xdg-open that passes it to the test through a FIFO), and `airlock
// dashboard --print` prints a link that can only read. The links open the
// history with what the gate just recorded; the address alone is 403.
func TestAppDashboard(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary")
	}
	w := newWorld(t, `{"autonomy": 1}`)
	w.env = withoutDisplay(w.env) // no popups: nothing can be confirmed

	// The browser: an xdg-open that writes the URL it is given to a FIFO
	// the test reads.
	bin := t.TempDir()
	fifo := filepath.Join(t.TempDir(), "opened")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\nprintf '%s\\n' \"$1\" > " + fifo + "\n"
	if err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	for i, kv := range w.env {
		if strings.HasPrefix(kv, "PATH=") {
			w.env[i] = "PATH=" + bin + ":" + strings.TrimPrefix(kv, "PATH=")
		}
	}
	opened := make(chan string, 4)
	done := make(chan struct{})
	go func() {
		for {
			f, err := os.Open(fifo) // blocks until a writer opens it
			if err != nil {
				return
			}
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				opened <- sc.Text()
			}
			f.Close()
			select {
			case <-done:
				return
			default:
			}
		}
	}()
	t.Cleanup(func() {
		close(done)
		// Unblock the reader's open, if it waits there.
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	browserGot := func(what string) string {
		t.Helper()
		select {
		case u := <-opened:
			return u
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: the browser was never opened", what)
		}
		return ""
	}

	b := newBus(t, w, true)
	a := w.startApp()
	reg := b.registered(a)
	a.awaitOutput(t, "dashboard serving on http://127.0.0.1:")
	b.awaitMenu(reg.sender, "Dashboard… enabled", func(items []menuItem) bool {
		it, ok := find(items, "Dashboard…")
		return ok && it.enabled
	})
	if out, code := w.client(`CREATE_FOLDER "~/Documents/from-the-e2e"`, "run", "-"); code != 0 {
		t.Fatalf("a caution plan at level 1: exit %d\n%s", code, out)
	}

	// The menu.
	b.click(reg.sender, "Dashboard…")
	link := browserGot("Dashboard…")
	address := link[:strings.Index(link, "open?code=")]
	if !strings.HasPrefix(address, "http://127.0.0.1:") {
		t.Fatalf("the menu opened %q", link)
	}
	full := followLink(t, link)
	page := get(t, address, full)
	for _, want := range []string{"CREATE_FOLDER", "from-the-e2e", "airlock run", "1 request, newest first."} {
		if !strings.Contains(page, want) {
			t.Errorf("the dashboard lacks %q", want)
		}
	}
	if settings := get(t, address+"settings", full); !strings.Contains(settings, "No automations.") || !strings.Contains(settings, "/Documents") {
		t.Error("the settings page does not show the automations and the roots")
	}

	// `airlock dashboard`: the app opens the browser; the client sees no
	// link.
	out, code := w.client("", "dashboard")
	if code != 0 || strings.Contains(out, "code=") || !strings.Contains(out, "opened the dashboard in your browser ("+address+")") {
		t.Errorf("airlock dashboard: exit %d\n%s", code, out)
	}
	followLink(t, browserGot("airlock dashboard"))

	// `airlock dashboard --print`: a read-only link.
	out, code = w.client("", "dashboard", "--print")
	if code != 0 {
		t.Fatalf("airlock dashboard --print: exit %d\n%s", code, out)
	}
	printed := strings.Fields(out)[0]
	ro := followLink(t, printed)
	if !strings.Contains(get(t, address, ro), "Read-only") {
		t.Error("the printed link's session is not read-only")
	}
	if status, body := tryChange(t, address, ro); status != http.StatusForbidden || !strings.Contains(body, "read-only") {
		t.Errorf("a change from the printed link: %d %q", status, body)
	}
	select {
	case u := <-opened:
		t.Errorf("--print opened the browser with %q", u)
	default:
	}

	// No session: 403.
	res, err := http.Get(address)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusForbidden {
		t.Errorf("the address alone: %d", res.StatusCode)
	}
	if strings.Contains(a.output(), "code=") {
		t.Errorf("a link reached the app's log:\n%s", a.output())
	}
}

// get fetches a dashboard page with a session.
func get(t *testing.T, u string, cookie *http.Cookie) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, u, nil)
	if err != nil {
		t.Fatal(err)
	}
	req.AddCookie(cookie)
	res, err := (&http.Client{Timeout: liveness}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var b strings.Builder
	if _, err := bufio.NewReader(res.Body).WriteTo(&b); err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", u, res.StatusCode, b.String())
	}
	return b.String()
}
