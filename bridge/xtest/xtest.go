// Package xtest gives tests of the Linux popups a private X server: it
// starts Xvfb on a free display and finds, presses keys in, clicks and
// photographs windows there with xdotool, xwd and ImageMagick's convert.
//
// It is for tests only and never imported by the program. It skips the test
// (with the reason) when Xvfb or xdotool is missing; it must never touch
// the display the developer works on.
package xtest

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Display is a running Xvfb server.
type Display struct {
	Name string // ":93"
}

// Start starts Xvfb on a free display (Xvfb picks it: -displayfd) and stops
// it when the test ends. It skips the test when a tool it needs is missing.
func Start(t testing.TB) *Display {
	t.Helper()
	Need(t, "Xvfb", "xdotool")
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset")
	cmd.ExtraFiles = []*os.File{w}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		w.Close()
		t.Fatalf("starting Xvfb: %v", err)
	}
	w.Close()
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
	})
	number := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		number <- strings.TrimSpace(line)
	}()
	select {
	case n := <-number:
		if _, err := strconv.Atoi(n); err != nil {
			t.Fatalf("Xvfb did not report a display (%q): %s", n, stderr.String())
		}
		return &Display{Name: ":" + n}
	case <-time.After(20 * time.Second):
		t.Fatalf("Xvfb did not start: %s", stderr.String())
	}
	return nil
}

// Need skips the test unless every tool is installed.
func Need(t testing.TB, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (.ci/run installs it): %v", tool, err)
		}
	}
}

// Env returns env with DISPLAY set to this display.
func (d *Display) Env(env []string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			out = append(out, kv)
		}
	}
	return append(out, "DISPLAY="+d.Name)
}

// run runs an X client against the display.
func (d *Display) run(name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.Env = d.Env(os.Environ())
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil {
		return stdout.String(), fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, stderr.String())
	}
	return stdout.String(), nil
}

// Window is a window on the display. X reuses a gone client's window ids,
// so a window is told apart by its id and the pid of its process.
type Window struct {
	ID  string
	PID int // from _NET_WM_PID; 0 if the window has none
}

// Windows lists the visible windows whose title is exactly title.
func (d *Display) Windows(title string) []Window {
	out, _ := d.run("xdotool", "search", "--onlyvisible", "--name", "^"+regexp.QuoteMeta(title)+"$")
	var ws []Window
	for _, id := range strings.Fields(out) {
		pid, _ := d.run("xdotool", "getwindowpid", id)
		n, _ := strconv.Atoi(strings.TrimSpace(pid))
		ws = append(ws, Window{ID: id, PID: n})
	}
	return ws
}

// WaitWindow waits until a window titled title that is not one of except is
// visible, and returns it. It polls every 2 ms, so it returns within a few
// milliseconds of the window being mapped.
func (d *Display) WaitWindow(t testing.TB, title string, timeout time.Duration, except ...Window) Window {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		for _, w := range d.Windows(title) {
			if !slices.Contains(except, w) {
				return w
			}
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("no window titled %q appeared within %v", title, timeout)
	return Window{}
}

// WaitGone waits until window w is no longer visible.
func (d *Display) WaitGone(t testing.TB, title string, w Window, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if !slices.Contains(d.Windows(title), w) {
			return
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Fatalf("window %s of pid %d (%q) was still shown after %v", w.ID, w.PID, title, timeout)
}

// Key gives window w the keyboard focus and presses key ("Return").
func (d *Display) Key(t testing.TB, w Window, key string) {
	t.Helper()
	if _, err := d.run("xdotool", "windowfocus", "--sync", w.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := d.run("xdotool", "key", key); err != nil {
		t.Fatal(err)
	}
}

// Where zenity puts its buttons, for Click: offsets from the window's bottom
// right corner. The last button (Approve, or a question's yes) ends about
// 8 px from the edge; "Approve, and allow again this session" is left of it.
const (
	LastButtonDX     = 40
	RememberButtonDX = 200
	ButtonDY         = 25
)

// ClickSettle is how long Click waits before it clicks: GTK drops a click
// that arrives in the moment after its window is mapped, before the window
// is drawn (a person cannot click that fast either).
const ClickSettle = 250 * time.Millisecond

// Click clicks the left button at dx, dy pixels from window id's bottom
// right corner (where zenity puts its last button), after ClickSettle.
func (d *Display) Click(t testing.TB, w Window, dx, dy int) {
	t.Helper()
	time.Sleep(ClickSettle)
	out, err := d.run("xdotool", "getwindowgeometry", "--shell", w.ID)
	if err != nil {
		t.Fatal(err)
	}
	g := map[string]int{}
	for _, line := range strings.Fields(out) {
		if k, v, ok := strings.Cut(line, "="); ok {
			g[k], _ = strconv.Atoi(v)
		}
	}
	x, y := g["X"]+g["WIDTH"]-dx, g["Y"]+g["HEIGHT"]-dy
	if _, err := d.run("xdotool", "mousemove", strconv.Itoa(x), strconv.Itoa(y), "click", "1"); err != nil {
		t.Fatal(err)
	}
}

// Screenshot saves the whole screen as a PNG at path. It needs xwd and
// convert; without them it logs why and saves nothing.
func (d *Display) Screenshot(t testing.TB, path string) {
	t.Helper()
	for _, tool := range []string{"xwd", "convert"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Logf("no screenshot: %s is not installed", tool)
			return
		}
	}
	xwd, err := d.run("xwd", "-root", "-silent", "-display", d.Name)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("convert", "xwd:-", "png:"+path)
	cmd.Stdin = strings.NewReader(xwd)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("convert: %v: %s", err, out)
	}
	t.Logf("screenshot: %s", path)
}

// ArtifactDir is where a test keeps what a person should look at: the
// directory in $AIRLOCK_ARTIFACTS (made if missing), or a temporary one.
func ArtifactDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("AIRLOCK_ARTIFACTS")
	if dir == "" {
		return t.TempDir()
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}
