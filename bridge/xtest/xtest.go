// Package xtest gives tests of the Linux popups a private X server: it
// starts Xvfb on a free display and finds, presses keys in, clicks and
// photographs windows there: it hears windows come and go over the X
// protocol itself (github.com/jezek/xgb, a pure-Go X client, so a test can
// wait for a window without polling), and presses keys, clicks and takes
// screenshots with xdotool, xwd and ImageMagick's convert.
//
// It is for tests only and never imported by the program. It skips the test
// (with the reason) when Xvfb or xdotool is missing; it must never touch
// the display the developer works on.
package xtest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// Display is a running Xvfb server.
type Display struct {
	Name string // ":93"
	stop func() // stops the server; set by start

	mu   sync.Mutex
	seen map[Window]time.Time // when WaitWindow returned each window
}

// Start starts Xvfb on a free display (Xvfb picks it: -displayfd) and stops
// it when the test ends. It skips the test when a tool it needs is missing.
func Start(t testing.TB) *Display {
	t.Helper()
	Need(t, "Xvfb", "xdotool")
	d := &Display{}
	t.Cleanup(func() { d.stop() }) // whichever server is running by then
	d.start(t)
	return d
}

// Restart stops the server and starts a new one under the same display
// name, as when a display server is restarted. The new one is stopped
// when the test that started the first ends.
func (d *Display) Restart(t testing.TB) {
	t.Helper()
	d.stop()
	d.start(t)
}

// start starts Xvfb on d.Name, or on a free display when d.Name is "".
func (d *Display) start(t testing.TB) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	args := []string{"-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"}
	if d.Name != "" {
		args = append([]string{d.Name}, args...)
	}
	cmd := exec.Command("Xvfb", args...)
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
	var once sync.Once
	d.stop = func() {
		once.Do(func() {
			cmd.Process.Kill()
			<-exited
		})
	}
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
		if d.Name != "" && d.Name != ":"+n {
			t.Fatalf("Xvfb started on :%s, not %s", n, d.Name)
		}
		d.Name = ":" + n
	case <-time.After(20 * time.Second):
		t.Fatalf("Xvfb did not start: %s", stderr.String())
	}
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
	ID  string // decimal, as xdotool takes it
	PID int    // from _NET_WM_PID; 0 if the window has none
}

// Windows lists the visible top-level windows titled title.
func (d *Display) Windows(t testing.TB, title string) []Window {
	t.Helper()
	c := d.dial(t)
	defer c.Close()
	return c.windows(title)
}

// WaitWindow waits until a window titled title that is not one of except is
// visible, and returns it. It hears windows being mapped from the X server
// as it happens, rather than polling, so it returns within a millisecond or
// so of the window appearing and takes no processor time from the program
// being measured meanwhile.
func (d *Display) WaitWindow(t testing.TB, title string, timeout time.Duration, except ...Window) Window {
	t.Helper()
	c := d.dial(t)
	defer c.Close()
	// Subscribed first, then what is already there: nothing mapped in
	// between is missed.
	for _, w := range c.windows(title) {
		if !slices.Contains(except, w) {
			return d.saw(w)
		}
	}
	deadline := time.After(timeout)
	for {
		select {
		case ev, ok := <-c.events:
			if !ok {
				t.Fatalf("lost the connection to X display %s", d.Name)
			}
			if m, ok := ev.(xproto.MapNotifyEvent); ok {
				if w, name, ok := c.window(m.Window); ok && name == title && !slices.Contains(except, w) {
					return d.saw(w)
				}
			}
		case <-deadline:
			t.Fatalf("no window titled %q appeared within %v", title, timeout)
			return Window{}
		}
	}
}

// saw notes when w was seen to appear, for settle, and returns it.
func (d *Display) saw(w Window) Window {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.seen == nil {
		d.seen = map[Window]time.Time{}
	}
	d.seen[w] = time.Now()
	return w
}

// WaitGone waits until window w is no longer visible.
func (d *Display) WaitGone(t testing.TB, title string, w Window, timeout time.Duration) {
	t.Helper()
	c := d.dial(t)
	defer c.Close()
	if !slices.Contains(c.windows(title), w) {
		return
	}
	deadline := time.After(timeout)
	for {
		var gone xproto.Window
		select {
		case ev, ok := <-c.events:
			if !ok {
				t.Fatalf("lost the connection to X display %s", d.Name)
			}
			switch e := ev.(type) {
			case xproto.UnmapNotifyEvent:
				gone = e.Window
			case xproto.DestroyNotifyEvent:
				gone = e.Window
			default:
				continue
			}
		case <-deadline:
			t.Fatalf("window %s of pid %d (%q) was still shown after %v", w.ID, w.PID, title, timeout)
			return
		}
		if strconv.FormatUint(uint64(gone), 10) == w.ID {
			return
		}
	}
}

// Disconnect closes the X connection of the client whose windows carry
// _NET_WM_PID pid (KillClient), as when its display server drops it; the
// client's windows may all be unmapped. It fails the test when no window
// of pid is found.
func (d *Display) Disconnect(t testing.TB, pid int) {
	t.Helper()
	c := d.dial(t)
	defer c.Close()
	tree, err := xproto.QueryTree(c.x, c.root).Reply()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range tree.Children {
		p, err := xproto.GetProperty(c.x, false, id, c.atoms["_NET_WM_PID"], xproto.AtomCardinal, 0, 1).Reply()
		if err == nil && p.Format == 32 && len(p.Value) >= 4 && int(xgb.Get32(p.Value)) == pid {
			if err := xproto.KillClientChecked(c.x, uint32(id)).Check(); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
	t.Fatalf("no window of pid %d on %s", pid, d.Name)
}

// xgb logs to standard error when it connects without an X authority
// file, as it does to the test display; what matters comes back as errors.
func init() { xgb.Logger = log.New(io.Discard, "", 0) }

// xconn is a connection to the display that hears every top-level window
// being mapped, unmapped or destroyed (SubstructureNotify on the root: the
// test display has no window manager, so clients' windows are the root's
// children).
type xconn struct {
	x      *xgb.Conn
	root   xproto.Window
	atoms  map[string]xproto.Atom
	events chan xgb.Event
}

// dial connects to the display and subscribes to its top-level windows'
// mapping.
func (d *Display) dial(t testing.TB) *xconn {
	t.Helper()
	x, err := xgb.NewConnDisplay(d.Name)
	if err != nil {
		t.Fatalf("connecting to X display %s: %v", d.Name, err)
	}
	c := &xconn{x: x, root: xproto.Setup(x).DefaultScreen(x).Root, atoms: map[string]xproto.Atom{}, events: make(chan xgb.Event, 64)}
	if err := xproto.ChangeWindowAttributesChecked(x, c.root, xproto.CwEventMask,
		[]uint32{xproto.EventMaskSubstructureNotify}).Check(); err != nil {
		x.Close()
		t.Fatalf("listening for windows on %s: %v", d.Name, err)
	}
	for _, name := range []string{"_NET_WM_NAME", "UTF8_STRING", "_NET_WM_PID"} {
		r, err := xproto.InternAtom(x, false, uint16(len(name)), name).Reply()
		if err != nil {
			x.Close()
			t.Fatalf("atom %s: %v", name, err)
		}
		c.atoms[name] = r.Atom
	}
	go func() {
		defer close(c.events)
		for {
			ev, xerr := x.WaitForEvent()
			switch {
			case ev == nil && xerr == nil:
				return // closed
			case ev != nil:
				c.events <- ev
			}
			// An X error (a window gone before its properties were
			// read) is expected and ignored.
		}
	}()
	return c
}

// Close closes the connection and waits until its events have stopped.
func (c *xconn) Close() {
	c.x.Close()
	for range c.events {
	}
}

// windows lists the visible top-level windows titled title.
func (c *xconn) windows(title string) []Window {
	tree, err := xproto.QueryTree(c.x, c.root).Reply()
	if err != nil {
		return nil
	}
	var ws []Window
	for _, id := range tree.Children {
		if w, name, ok := c.window(id); ok && name == title {
			ws = append(ws, w)
		}
	}
	return ws
}

// window returns id's title and pid; ok is false unless it is viewable.
func (c *xconn) window(id xproto.Window) (w Window, title string, ok bool) {
	attrs, err := xproto.GetWindowAttributes(c.x, id).Reply()
	if err != nil || attrs.MapState != xproto.MapStateViewable {
		return Window{}, "", false
	}
	w.ID = strconv.FormatUint(uint64(id), 10)
	if p, err := xproto.GetProperty(c.x, false, id, c.atoms["_NET_WM_PID"], xproto.AtomCardinal, 0, 1).Reply(); err == nil && p.Format == 32 && len(p.Value) >= 4 {
		w.PID = int(xgb.Get32(p.Value))
	}
	for _, prop := range []struct{ name, typ xproto.Atom }{
		{c.atoms["_NET_WM_NAME"], c.atoms["UTF8_STRING"]},
		{xproto.AtomWmName, xproto.AtomString},
	} {
		p, err := xproto.GetProperty(c.x, false, id, prop.name, prop.typ, 0, 1024).Reply()
		if err == nil && p.Format == 8 && len(p.Value) > 0 {
			return w, string(p.Value), true
		}
	}
	return w, "", true
}

// Key gives window w the keyboard focus and presses key ("Return"), no
// sooner than Settle after w appeared.
func (d *Display) Key(t testing.TB, w Window, key string) {
	t.Helper()
	d.settle(w)
	if _, err := d.run("xdotool", "windowfocus", "--sync", w.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := d.run("xdotool", "key", key); err != nil {
		t.Fatal(err)
	}
}

// Where zenity puts its buttons, for Click: offsets from the window's bottom
// right corner. The last button (Approve, a question's yes, the editor's
// "Use my edit") ends about 8 px from the edge; "Approve, and allow again
// this session" is left of it, and "Edit…" left of that (EditButtonDX), or
// left of Approve when there is no remember button (EditAloneButtonDX).
const (
	LastButtonDX      = 40
	RememberButtonDX  = 200
	EditButtonDX      = 447
	EditAloneButtonDX = 155
	ButtonDY          = 25
)

// Type types text into window w, as keystrokes (xdotool type), no sooner
// than Settle after w appeared. The text is an argument of xdotool, never
// read by a shell.
func (d *Display) Type(t testing.TB, w Window, text string) {
	t.Helper()
	d.settle(w)
	if _, err := d.run("xdotool", "windowfocus", "--sync", w.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := d.run("xdotool", "type", "--delay", "5", "--", text); err != nil {
		t.Fatal(err)
	}
}

// Settle is how soon after a window appears Key and Click act on it, as a
// person could: GTK drops a click that arrives in the moment after its
// window is mapped, before it is drawn, and Airlock takes a popup closed
// sooner than a person can react for one nobody saw.
const Settle = 250 * time.Millisecond

// settle waits until Settle has passed since WaitWindow returned w (the
// whole of Settle for a window it did not return).
func (d *Display) settle(w Window) {
	d.mu.Lock()
	seen, ok := d.seen[w]
	d.mu.Unlock()
	if !ok {
		seen = time.Now()
	}
	time.Sleep(time.Until(seen.Add(Settle)))
}

// Click clicks the left button at dx, dy pixels from window id's bottom
// right corner (where zenity puts its last button), no sooner than Settle
// after w appeared.
func (d *Display) Click(t testing.TB, w Window, dx, dy int) {
	t.Helper()
	d.settle(w)
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
