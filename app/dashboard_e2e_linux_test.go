//go:build linux

package main

import (
	"bufio"
	"html"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/bridge"
	"github.com/airlockhq/airlock/bridge/xtest"
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

	browserGot, opened := fifoBrowser(t, w)

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
	if settings := get(t, address+"settings", full); !strings.Contains(settings, "No automations are set up.") || !strings.Contains(settings, "/Documents") {
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

// fifoBrowser puts a browser stand-in on w's PATH: an xdg-open that writes
// the URL it is given to a FIFO the test reads. browserGot waits for the
// next URL opened; opened holds those not yet taken.
func fifoBrowser(t *testing.T, w *world) (browserGot func(what string) string, opened chan string) {
	t.Helper()
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
	opened = make(chan string, 4)
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
	browserGot = func(what string) string {
		t.Helper()
		select {
		case u := <-opened:
			return u
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: the browser was never opened", what)
		}
		return ""
	}

	return browserGot, opened
}

// TestAppDashboardAutomations runs the menu-bar app on a private Xvfb
// display with an automation in settings.json, off, and opens the
// dashboard from the menu. Its settings page lists the automation from
// the settings (schedule, off); "Turn on" posted from the page only opens
// the automation's confirmation popup: Escape leaves settings.json as it
// was, the yes button turns it on there. Turning it off from the dashboard
// asks too. Every answer is recorded in the history as the dashboard's.
func TestAppDashboardAutomations(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary, zenity and Xvfb")
	}
	xtest.Need(t, "zenity", "dbus-daemon", "gnome-keyring-daemon")
	d := xtest.Start(t)
	artifacts := xtest.ArtifactDir(t)
	w := newWorld(t, `{
  "autonomy": 1,
  "automations": [
    {"name": "hello", "run": ["CREATE_FOLDER \"~/Documents/from-dashboard\""], "schedule": "daily 18:30", "enabled": false}
  ]
}`)
	w.env = d.Env(w.env)
	browserGot, _ := fifoBrowser(t, w)
	b := newBus(t, w, true)
	a := w.startApp()
	reg := b.registered(a)
	const patience = 15 * time.Second
	settings := filepath.Join(w.home, "airlock-data", "settings.json")
	helloOn := func() bool {
		t.Helper()
		s, err := policy.LoadSettings(settings)
		if err != nil || len(s.Automations) != 1 {
			t.Fatalf("settings.json: %+v, %v", s.Automations, err)
		}
		return s.Automations[0].Enabled
	}

	a.awaitOutput(t, "dashboard serving on http://127.0.0.1:")
	b.awaitMenu(reg.sender, "Dashboard… enabled", func(items []menuItem) bool {
		it, ok := find(items, "Dashboard…")
		return ok && it.enabled
	})
	b.click(reg.sender, "Dashboard…")
	link := browserGot("Dashboard…")
	address := link[:strings.Index(link, "open?code=")]
	full := followLink(t, link)

	page := get(t, address+"settings", full)
	if strings.Contains(page, "No automations") || !strings.Contains(page, "<td>hello</td>") || !strings.Contains(page, "daily 18:30") ||
		!strings.Contains(page, "Automations are <strong class=\"on\">on</strong>") {
		t.Fatalf("the settings page does not list the automation from settings.json:\n%s", page)
	}
	turnOn := dashForm(t, page, "/settings/automation", `name="name" value="hello"`)
	if turnOn.Get("on") != "true" {
		t.Fatalf("hello's form turns it to %q, want on (it is off)", turnOn.Get("on"))
	}

	// "Turn on" opens the automation's popup, and nothing changes until
	// the person answers. Escape is no.
	const onTitle = `Airlock — turn on the automation "hello"?`
	posted := postAsync(t, address, "settings/automation", full, turnOn)
	popup := d.WaitWindow(t, onTitle, patience)
	if helloOn() {
		t.Fatal("hello is on while its popup is open")
	}
	d.Screenshot(t, filepath.Join(artifacts, "dashboard-automation-on-confirm.png"))
	d.Key(t, popup, "Escape")
	if got := <-posted; got != "/settings?result=declined" {
		t.Errorf("a turn-on the person refused: %q", got)
	}
	if helloOn() {
		t.Fatal("hello is on after the person said no")
	}
	if rec := awaitHistory(t, w, "Airlock's dashboard", `turn automation "hello" on`); rec.Status != "denied" {
		t.Errorf("the refusal's record: %+v", rec)
	}

	// The yes button (after the arm delay): on, in settings.json and on
	// the page.
	page = get(t, address+"settings", full)
	posted = postAsync(t, address, "settings/automation", full, dashForm(t, page, "/settings/automation", `name="name" value="hello"`))
	popup = d.WaitWindow(t, onTitle, patience, popup)
	time.Sleep(bridge.DefaultArmDelay)
	d.Click(t, popup, xtest.LastButtonDX, xtest.ButtonDY)
	if got := <-posted; got != "/settings?result=changed" {
		t.Errorf("a turn-on the person confirmed: %q", got)
	}
	if !helloOn() {
		t.Fatal("hello is still off after the person's yes")
	}
	page = get(t, address+"settings", full)
	turnOff := dashForm(t, page, "/settings/automation", `name="name" value="hello"`)
	if turnOff.Get("on") != "false" {
		t.Errorf("after the yes hello's form turns it to %q, want off", turnOff.Get("on"))
	}

	// Turning off from the dashboard asks as well (the menu's Trust, the
	// dashboard's question); Escape leaves it on.
	posted = postAsync(t, address, "settings/automation", full, turnOff)
	off := d.WaitWindow(t, "Airlock — turn automation hello off?", patience)
	d.Key(t, off, "Escape")
	if got := <-posted; got != "/settings?result=declined" {
		t.Errorf("a turn-off the person refused: %q", got)
	}
	if !helloOn() {
		t.Error("hello went off without the person's yes")
	}
	if strings.Contains(a.output(), "code=") {
		t.Errorf("a link reached the app's log:\n%s", a.output())
	}
}

// dashForm reads the hidden fields of the form on a dashboard page that
// posts to action and holds match.
func dashForm(t *testing.T, page, action, match string) url.Values {
	t.Helper()
	for _, chunk := range strings.Split(page, "<form ")[1:] {
		chunk, _, _ = strings.Cut(chunk, "</form>")
		if !strings.Contains(chunk, `action="`+action+`"`) || !strings.Contains(chunk, match) {
			continue
		}
		v := url.Values{}
		for _, in := range strings.Split(chunk, "<input ")[1:] {
			v.Set(htmlAttr(in, "name"), html.UnescapeString(htmlAttr(in, "value")))
		}
		return v
	}
	t.Fatalf("no form posting to %s with %s in the page:\n%s", action, match, page)
	return nil
}

func htmlAttr(tag, name string) string {
	_, rest, _ := strings.Cut(tag, name+`="`)
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

// postAsync posts a dashboard form as the browser would (its Origin, the
// session) and sends where the answer redirects to once the person has
// answered.
func postAsync(t *testing.T, address, path string, cookie *http.Cookie, form url.Values) <-chan string {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, address+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", strings.TrimSuffix(address, "/"))
	req.AddCookie(cookie)
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	out := make(chan string, 1)
	go func() {
		res, err := c.Do(req)
		if err != nil {
			out <- "error: " + err.Error()
			return
		}
		res.Body.Close()
		out <- res.Header.Get("Location")
	}()
	return out
}
