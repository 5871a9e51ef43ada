package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/airlockhq/airlock/app/internal/dashboard"
	"github.com/airlockhq/airlock/app/internal/datadir"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/ipc"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sanitize"
	"github.com/airlockhq/airlock/app/internal/secrets"
	"github.com/airlockhq/airlock/app/internal/tray"
)

// dashGate is a gate served in this process as the menu-bar app serves
// it, socket and dashboard, in a home of the test's own; opened receives
// every URL the app gives the browser opener, which fails with openErr.
type dashGate struct {
	data    string
	b       *builtGate
	opened  chan string
	openErr error
}

func startDashGate(t *testing.T) *dashGate {
	t.Helper()
	home := t.TempDir()
	for _, d := range []string{"Documents", ".local/share", ".config", "run"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	data := filepath.Join(home, "data")
	t.Setenv("HOME", home)
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local/share"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_RUNTIME_DIR", filepath.Join(home, "run"))
	t.Setenv("AIRLOCK_DATA_DIR", data)
	if err := datadir.Ensure(data); err != nil {
		t.Fatal(err)
	}
	paths, err := sanitize.NewConfig(home, []string{"~/Documents"})
	if err != nil {
		t.Fatal(err)
	}
	store, err := history.Open(filepath.Join(data, historyFile), secrets.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	g := gate.New(gate.Config{Env: &risk.Env{Paths: paths}, History: store, Autonomy: policy.SmartDefault})
	dg := &dashGate{data: data, opened: make(chan string, 4)}
	dg.b = &builtGate{dir: data, settings: policy.DefaultSettings(), store: store, gate: g, roots: paths.Roots, dash: &dashLink{}}
	dg.b.force.settings, dg.b.force.roots = dg.b.settings, dg.b.roots
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	confirm := func(context.Context, string, string, string) (bool, error) { return false, nil }
	d := startDashboard(ctx, dg.b, &tray.Trust{Confirm: confirm}, func(_ context.Context, u string) error {
		dg.opened <- u
		if dg.openErr != nil {
			return errors.Join(errors.New("xdg-open "+u+": exit status 4"), dg.openErr)
		}
		return nil
	})
	if d == nil {
		t.Fatal("the dashboard did not start")
	}
	srv, err := ipc.Listen(data, gateHandler{g: g, store: store, dash: dg.b.dash})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(context.Background()) }()
	t.Cleanup(func() {
		srv.Close()
		<-served
	})
	return dg
}

// followLink follows a dashboard link as a browser would and returns the
// session cookie.
func followLink(t *testing.T, link string) *http.Cookie {
	t.Helper()
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Timeout: liveness}
	res, err := c.Get(link)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("following %s: %d", link, res.StatusCode)
	}
	for _, ck := range res.Cookies() {
		if ck.Name == dashboard.CookieName {
			return ck
		}
	}
	t.Fatal("the link set no session")
	return nil
}

// tryChange posts a change of setting from a session, as the dashboard's
// page would, and returns the status and body.
func tryChange(t *testing.T, base string, cookie *http.Cookie) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"settings/automations", strings.NewReader(url.Values{"on": {"true"}, "csrf": {"x"}}.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", strings.TrimSuffix(base, "/"))
	req.AddCookie(cookie)
	res, err := (&http.Client{Timeout: liveness}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// The socket is open to every program of the person, agents included:
// `airlock dashboard` makes the app open the browser itself and prints no
// secret, and `airlock dashboard --print` gives a link that can only read.
// A change posted from the printed link's session is refused as
// read-only; one from the browser's session goes on to the dashboard's own
// checks (here: there are no automations to change).
func TestDashboardCommand(t *testing.T) {
	dg := startDashGate(t)
	address := dg.b.dash.get().srv.Address()

	code, stdout, stderr := runCLI(t, "", "dashboard")
	if code != 0 || stdout != "airlock: opened the dashboard in your browser ("+address+")\n" {
		t.Fatalf("airlock dashboard: %d %q %q", code, stdout, stderr)
	}
	link := <-dg.opened
	if !strings.HasPrefix(link, address+"open?code=") || strings.Contains(stdout+stderr, "code=") {
		t.Fatalf("the browser got %q; the client saw %q", link, stdout+stderr)
	}
	full := followLink(t, link)
	if status, body := tryChange(t, address, full); status != http.StatusNotFound || !strings.Contains(body, "no automations") {
		t.Errorf("a change from the browser's session: %d %q", status, body)
	}

	code, stdout, stderr = runCLI(t, "", "dashboard", "--print")
	printed := strings.TrimSpace(stdout)
	if code != 0 || !strings.HasPrefix(printed, address+"open?code=") || !strings.Contains(stderr, "read-only") {
		t.Fatalf("airlock dashboard --print: %d %q %q", code, stdout, stderr)
	}
	select {
	case u := <-dg.opened:
		t.Errorf("--print opened the browser with %q", u)
	default:
	}
	ro := followLink(t, printed)
	if status, body := tryChange(t, address, ro); status != http.StatusForbidden || !strings.Contains(body, "read-only") {
		t.Errorf("a change from the printed link's session: %d %q, want 403 read-only", status, body)
	}

	if code, _, stderr := runCLI(t, "", "dashboard", "now"); code != 2 || !strings.Contains(stderr, "usage: airlock dashboard") {
		t.Errorf("airlock dashboard now: %d %q", code, stderr)
	}
}

// Socket clients (agents, perhaps) asking for link after link cannot make
// the app forget the link the person's click on the menu gave the browser:
// it still opens a full session.
func TestDashboardSocketCannotForgetTheMenusLink(t *testing.T) {
	dg := startDashGate(t)
	d := dg.b.dash.get()
	if err := d.openBrowser(context.Background(), dashboard.Menu); err != nil {
		t.Fatal(err)
	}
	menu := <-dg.opened
	for range 20 {
		if code, _, stderr := runCLI(t, "", "dashboard", "--print"); code != 0 {
			t.Fatalf("airlock dashboard --print: %d %q", code, stderr)
		}
		if code, _, stderr := runCLI(t, "", "dashboard"); code != 0 {
			t.Fatalf("airlock dashboard: %d %q", code, stderr)
		}
		<-dg.opened
	}
	full := followLink(t, menu)
	if status, body := tryChange(t, d.srv.Address(), full); status != http.StatusNotFound || !strings.Contains(body, "no automations") {
		t.Errorf("a change from the menu link's session: %d %q, want the full session's 404", status, body)
	}
}

// The raw answer on the socket to an opening holds no link: nothing a
// client reads can open a session.
func TestDashboardSocketAnswerHasNoSecret(t *testing.T) {
	dg := startDashGate(t)
	c, err := ipc.Dial(dg.data)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	raw, err := c.Call(context.Background(), "dashboard", ipc.DashboardParams{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	link := <-dg.opened
	code := strings.TrimPrefix(link[strings.Index(link, "code="):], "code=")
	if bytes.Contains(raw, []byte(code)) || bytes.Contains(raw, []byte("code=")) || !bytes.Contains(raw, []byte(`"opened":true`)) {
		t.Errorf("the socket's answer %s", raw)
	}
}

// When the browser cannot be opened, neither the client nor the log is
// shown the link that was meant for it.
func TestDashboardOpenFailureKeepsTheLink(t *testing.T) {
	dg := startDashGate(t)
	dg.openErr = errors.New("no browser")
	var logged logBuffer
	log.SetOutput(&logged)
	defer log.SetOutput(os.Stderr)
	code, stdout, stderr := runCLI(t, "", "dashboard")
	link := <-dg.opened
	secret := link[strings.Index(link, "code=")+len("code="):]
	if code != 1 || !strings.Contains(stderr, "could not be opened in the browser") {
		t.Errorf("airlock dashboard with no browser: %d %q %q", code, stdout, stderr)
	}
	if strings.Contains(stdout+stderr+logged.String(), secret) {
		t.Errorf("the link leaked: client %q, log %q", stdout+stderr, logged.String())
	}
	if !strings.Contains(logged.String(), "no browser") {
		t.Errorf("the log does not say why: %q", logged.String())
	}
}

// `airlock serve` has no dashboard, and says so.
func TestDashboardWithoutOne(t *testing.T) {
	startLocalGate(t, policy.SmartDefault)
	code, _, stderr := runCLI(t, "", "dashboard", "--print")
	if code != 1 || !strings.Contains(stderr, "no dashboard") || strings.Contains(stderr, "http") {
		t.Errorf("airlock dashboard against airlock serve: %d %q", code, stderr)
	}
}

// logBuffer is a buffer the log may write to while the test reads it.
type logBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
