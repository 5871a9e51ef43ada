//go:build unix

package dashboard_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/dashboard"
	"github.com/airlockhq/airlock/app/internal/level"
)

// The real-browser tests load the dashboard in headless Chromium (Debian
// package chromium). They skip, saying so, where it is not installed;
// AIRLOCK_CHROMIUM names another binary. Screenshots and DOM dumps are
// kept in $AIRLOCK_TEST_ARTIFACTS/dashboard (default: a new temporary
// directory, whose path is logged).

// chromium finds the browser or skips the test. A program of that name
// counts only if it says it is Chromium (`chromium --version`: "Chromium
// 156.0…"): a stand-in is not a browser.
func chromium(t *testing.T) string {
	t.Helper()
	found.once.Do(func() { found.bin, found.skip = findChromium() })
	if found.skip != "" {
		t.Skip(found.skip)
	}
	return found.bin
}

// found is chromium's answer, looked for once.
var found struct {
	once      sync.Once
	bin, skip string
}

func findChromium() (bin, skip string) {
	bin = os.Getenv("AIRLOCK_CHROMIUM")
	for _, name := range []string{"chromium", "chromium-browser", "/usr/bin/chromium"} {
		if bin != "" {
			break
		}
		if p, err := exec.LookPath(name); err == nil {
			bin = p
		}
	}
	if bin == "" {
		return "", "headless Chromium is not installed (Debian: apt-get install chromium; or set AIRLOCK_CHROMIUM): the real-browser test of the dashboard did not run"
	}
	home, err := os.MkdirTemp("", "airlock-chromium-version")
	if err != nil {
		return "", err.Error()
	}
	defer os.RemoveAll(home)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}
	out, _ := cmd.Output()
	if v := strings.TrimSpace(string(out)); !strings.HasPrefix(v, "Chromium ") {
		return "", fmt.Sprintf("%s is not Chromium (`--version` says %q; Debian: apt-get install chromium): "+
			"the real-browser test of the dashboard did not run", bin, v)
	}
	return bin, ""
}

// artifacts is the directory the screenshots and DOM dumps are kept in.
func artifacts(t *testing.T) string {
	t.Helper()
	base := os.Getenv("AIRLOCK_TEST_ARTIFACTS")
	if base == "" {
		var err error
		if base, err = os.MkdirTemp("", "airlock-test-artifacts-"); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(base, "dashboard")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("test artifacts (screenshots, DOM dumps) in %s", dir)
	return dir
}

// browse runs headless Chromium once with args (a URL last) and returns
// its standard output. It runs with a temporary HOME and profile, in a
// process group of its own that is killed when it is done, so no helper
// of the browser outlives the test.
func browse(t *testing.T, args ...string) string {
	t.Helper()
	bin := chromium(t)
	home := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	argv := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-dev-shm-usage", "--hide-scrollbars", "--user-data-dir=" + filepath.Join(home, "profile"),
		"--window-size=1280,1800"}, args...)
	cmd := exec.CommandContext(ctx, bin, argv...)
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"AIRLOCK_DATA_DIR=" + filepath.Join(home, "airlock"),
		"LANG=C.UTF-8",
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err := cmd.Run()
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // its helpers, if any lingered
	}
	if err != nil {
		t.Fatalf("chromium %s: %v\n%s", strings.Join(args, " "), err, lastLines(stderr.String(), 20))
	}
	return out.String()
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// bodyTag is the <body …> start tag of a DOM dump.
func bodyTag(t *testing.T, dom string) string {
	t.Helper()
	m := regexp.MustCompile(`<body[^>]*>`).FindString(dom)
	if m == "" {
		t.Fatalf("no <body> in the DOM:\n%s", lastLines(dom, 20))
	}
	return m
}

func keep(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// checkPNG checks that a screenshot was written and is a PNG of some size.
func checkPNG(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) || len(b) < 10<<10 {
		t.Errorf("%s: %d bytes, not a PNG of a page", path, len(b))
	}
}

// TestBrowserDashboard loads the dashboard in a real browser: a link opens
// it (the history, then the settings), screenshots are kept, the hostile
// strings recorded in the history stay inert text in the DOM the browser
// built, and the address without a session, or a spent link, is refused.
func TestBrowserDashboard(t *testing.T) {
	chromium(t)
	dir := artifacts(t)
	h := hostile(t)
	rg := newRig(t, rigOptions{confirm: popup(answerYes, nil)})
	sample(t, rg.store)
	r := &record{t: t, s: rg.store, at: 10}
	r.request("evil", h["client"], "plan", h["action"])
	r.action("evil", 0, h["action"], h["preview"], level.Dangerous, "ask", h["reason"], h["bidi"])
	r.outcome("evil", 0, "denied", "denied", h["output"], h["error"])
	rg.auto.list = append(rg.auto.list, dashboard.AutomationView{Name: h["automation"], Schedule: "at login", LastResult: h["error"]})

	link := func(next string) string {
		l, err := rg.srv.Link(dashboard.Menu)
		must(t, err)
		if next != "" {
			l += "&next=" + next
		}
		return l
	}

	dom := browse(t, "--dump-dom", link(""))
	keep(t, dir, "history.dom.html", dom)
	if !strings.Contains(dom, "write my notes and tell me") || !strings.Contains(dom, "5 requests, newest first.") {
		t.Errorf("the browser did not get the history:\n%s", lastLines(dom, 30))
	}
	body := bodyTag(t, dom)
	if strings.Contains(body, "data-pwned") {
		t.Errorf("a recorded string ran as script: %s", body)
	}
	for _, el := range []string{"<script", "<img", "<svg", "<iframe", "<style", "<b "} {
		if strings.Contains(dom, el) {
			t.Errorf("the DOM has a %s element: a recorded string became markup", el)
		}
	}
	for _, text := range []string{
		"&lt;script&gt;document.body.setAttribute('data-pwned','client')&lt;/script&gt;",
		"&lt;script&gt;document.body.setAttribute('data-pwned','action')&lt;/script&gt;",
		"&lt;/li&gt;&lt;/ul&gt;&lt;script&gt;",
		"&lt;iframe src=\"javascript:",
		"invoice⟨U+202E⟩gpj.exe",
	} {
		if !strings.Contains(dom, text) {
			t.Errorf("the DOM lacks the inert text %q", text)
		}
	}

	sdom := browse(t, "--dump-dom", link("/settings"))
	keep(t, dir, "settings.dom.html", sdom)
	if !strings.Contains(sdom, "morning notes") || !strings.Contains(sdom, "Turn automations off") || !strings.Contains(sdom, "Safari") {
		t.Errorf("the browser did not get the settings:\n%s", lastLines(sdom, 30))
	}
	if strings.Contains(bodyTag(t, sdom), "data-pwned") || strings.Contains(sdom, "<b ") {
		t.Error("the automation's hostile name became markup")
	}

	for _, shot := range []struct{ name, url string }{{"history.png", link("")}, {"settings.png", link("/settings")}} {
		path := filepath.Join(dir, shot.name)
		os.Remove(path)
		browse(t, "--screenshot="+path, shot.url)
		checkPNG(t, path)
	}

	// Without a session: 403, in the browser too.
	forbidden := browse(t, "--dump-dom", rg.srv.Address())
	keep(t, dir, "forbidden.dom.html", forbidden)
	if !strings.Contains(forbidden, "403 Forbidden: no dashboard session") || strings.Contains(forbidden, "write my notes") {
		t.Errorf("the address without a session:\n%s", lastLines(forbidden, 10))
	}
	path := filepath.Join(dir, "forbidden.png")
	os.Remove(path)
	browse(t, "--screenshot="+path, rg.srv.Address())
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}
	spent := link("")
	browse(t, "--dump-dom", spent)
	if again := browse(t, "--dump-dom", spent); !strings.Contains(again, "403 Forbidden: this dashboard link was used already") {
		t.Errorf("a spent link in a new browser:\n%s", lastLines(again, 10))
	}
}

// TestBrowserCSPBlocksScript: the dashboard's headers stop script a page
// somehow carried (inline, in an event handler, or from a file of its own
// origin) in a real browser; served without them, the same page's script
// runs, so the probe and the check work.
func TestBrowserCSPBlocksScript(t *testing.T) {
	chromium(t)
	dir := artifacts(t)
	page, err := os.ReadFile(filepath.Join("testdata", "csp_probe.html"))
	must(t, err)
	script, err := os.ReadFile(filepath.Join("testdata", "csp_probe.js"))
	must(t, err)
	serve := func(headers map[string]string) string {
		ln, err := net.Listen("tcp4", "127.0.0.1:0")
		must(t, err)
		srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			for k, v := range headers {
				w.Header().Set(k, v)
			}
			switch r.URL.Path {
			case "/":
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				w.Write(page)
			case "/probe.js":
				w.Header().Set("Content-Type", "text/javascript")
				w.Write(script)
			default:
				http.NotFound(w, r)
			}
		}), ReadHeaderTimeout: 10 * time.Second}
		done := make(chan error, 1)
		go func() { done <- srv.Serve(ln) }()
		t.Cleanup(func() {
			srv.Close()
			if err := <-done; !errors.Is(err, http.ErrServerClosed) {
				t.Error(err)
			}
		})
		return "http://" + ln.Addr().String() + "/"
	}
	marks := []string{"data-ran-inline", "data-ran-handler", "data-ran-file"}

	open := browse(t, "--dump-dom", serve(nil))
	keep(t, dir, "csp-control.dom.html", open)
	for _, m := range marks {
		if !strings.Contains(bodyTag(t, open), m) {
			t.Errorf("without the headers the probe's %s did not run: the probe is broken\n%s", m, bodyTag(t, open))
		}
	}

	blocked := browse(t, "--dump-dom", serve(dashboard.SecurityHeaders))
	keep(t, dir, "csp-blocked.dom.html", blocked)
	if !strings.Contains(blocked, `id="marker"`) {
		t.Fatalf("the probe page did not load:\n%s", lastLines(blocked, 10))
	}
	for _, m := range marks {
		if strings.Contains(bodyTag(t, blocked), m) {
			t.Errorf("with the dashboard's headers, script ran: %s", m)
		}
	}
}
