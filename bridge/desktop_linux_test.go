package bridge_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/airlockhq/airlock/bridge"
	"github.com/airlockhq/airlock/bridge/xtest"
)

// The Linux Desktop against the real tools where they run headless here
// (xclip under Xvfb, gio, gsettings, notify-send and D-Bus on a private
// bus, xdotool), and against shims where they cannot (xdg-open, espeak-ng
// without audio, pactl without a sound server, wl-copy without Wayland).

// startXvfb starts Xvfb on a free display and returns its name (":N").
func startXvfb(t *testing.T) string {
	t.Helper()
	return xtest.Start(t).Name
}

// startBus starts a private D-Bus session bus, without service activation,
// and returns its address.
func startBus(t *testing.T) string {
	t.Helper()
	daemon := lookPath(t, "dbus-daemon")
	dir := t.TempDir()
	conf := filepath.Join(dir, "bus.conf")
	err := os.WriteFile(conf, []byte(`<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=`+filepath.Join(dir, "bus")+`</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`), 0o600)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(daemon, "--config-file="+conf, "--nofork", "--print-address=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return readLine(t, out, "dbus-daemon's address")
}

func readLine(t *testing.T, r interface{ Read([]byte) (int, error) }, what string) string {
	t.Helper()
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(r).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case s := <-line:
		if s == "" {
			t.Fatalf("no %s", what)
		}
		return s
	case <-time.After(liveness):
		t.Fatalf("no %s in time", what)
	}
	return ""
}

// serve connects to the bus at addr, owns name and exports v at path for
// iface.
func serve(t *testing.T, addr, name string, path dbus.ObjectPath, iface string, v any) {
	t.Helper()
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	if err := conn.Export(v, path, iface); err != nil {
		t.Fatal(err)
	}
	reply, err := conn.RequestName(name, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("owning %s: %v %v", name, reply, err)
	}
}

// notifications is a fake notification daemon that records what it is
// asked to show.
type notifications struct {
	mu   sync.Mutex
	got  []string
	seen chan struct{}
}

func (n *notifications) Notify(app string, replaces uint32, icon, summary, body string, actions []string, hints map[string]dbus.Variant, timeout int32) (uint32, *dbus.Error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	sound := ""
	if v, ok := hints["sound-name"]; ok {
		sound, _ = v.Value().(string)
	}
	n.got = append(n.got, fmt.Sprintf("app=%q summary=%q body=%q sound=%q", app, summary, body, sound))
	n.seen <- struct{}{}
	return uint32(len(n.got)), nil
}

func (n *notifications) GetCapabilities() ([]string, *dbus.Error) {
	return []string{"body", "sound"}, nil
}

func (n *notifications) GetServerInformation() (string, string, string, string, *dbus.Error) {
	return "fake", "airlock", "1", "1.2", nil
}

func (n *notifications) CloseNotification(uint32) *dbus.Error { return nil }

// NOTIFY runs the real notify-send against a fake daemon on a private bus:
// title, message and sound arrive exactly as given.
func TestNotifyWithNotifySend(t *testing.T) {
	s := newShims(t)
	s.link(t, "notify-send")
	addr := startBus(t)
	n := &notifications{seen: make(chan struct{}, 4)}
	serve(t, addr, "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.Notifications", n)
	d := shimDesktop(t, s, "DBUS_SESSION_BUS_ADDRESS="+addr)
	ctx := context.Background()
	if err := d.Notify(ctx, "--title", "body with $(id) and <b>tags</b>\nline 2", "message-new-instant"); err != nil {
		t.Fatal(err)
	}
	if err := d.Notify(ctx, "Airlock", "Done", ""); err != nil {
		t.Fatal(err)
	}
	want := []string{
		`app="Airlock" summary="--title" body="body with $(id) and <b>tags</b>\nline 2" sound="message-new-instant"`,
		`app="Airlock" summary="Airlock" body="Done" sound=""`,
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if !slices.Equal(n.got, want) {
		t.Fatalf("the daemon got\n%q\nwant\n%q", n.got, want)
	}
}

// fileManager is a fake org.freedesktop.FileManager1.
type fileManager struct {
	mu  sync.Mutex
	got [][]string
}

func (f *fileManager) ShowItems(uris []string, startup string) *dbus.Error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.got = append(f.got, append(uris, "startup="+startup))
	return nil
}

func TestReveal(t *testing.T) {
	addr := startBus(t)
	s := newShims(t)
	d := shimDesktop(t, s, "DBUS_SESSION_BUS_ADDRESS="+addr)
	ctx := context.Background()
	path := "/home/x/My Docs/100% résumé#1?.txt"
	err := d.Reveal(ctx, path)
	if !errors.Is(err, bridge.ErrUnavailable) || !strings.Contains(err.Error(), "FileManager1") {
		t.Fatalf("without a file manager: %v, want ErrUnavailable naming the service", err)
	}
	fm := &fileManager{}
	serve(t, addr, "org.freedesktop.FileManager1", "/org/freedesktop/FileManager1", "org.freedesktop.FileManager1", fm)
	if err := d.Reveal(ctx, path); err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"file:///home/x/My%20Docs/100%25%20r%C3%A9sum%C3%A9%231%3F.txt", "startup="}}
	fm.mu.Lock()
	defer fm.mu.Unlock()
	if !slices.EqualFunc(fm.got, want, slices.Equal) {
		t.Fatalf("ShowItems got %q, want %q", fm.got, want)
	}
	noBus := shimDesktop(t, newShims(t))
	if err := noBus.Reveal(ctx, path); !errors.Is(err, bridge.ErrUnavailable) {
		t.Fatalf("without a bus: %v", err)
	}
}

// application is a fake D-Bus-activatable app.
type application struct {
	mu        sync.Mutex
	activated int
}

func (a *application) Activate(platform map[string]dbus.Variant) *dbus.Error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.activated++
	return nil
}

// xdgHome lays out the XDG folders of a fake desktop in dir: a recorder
// app (Exec writes "launch:N" and its N arguments, one per line, to
// dir/launched), set as
// the default for text files and https URLs, and a D-Bus-activatable app.
// It returns the environment entries that point there.
func xdgHome(t *testing.T, dir string) []string {
	t.Helper()
	apps := filepath.Join(dir, "data", "applications")
	if err := os.MkdirAll(filepath.Join(apps, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "config"), 0o755); err != nil {
		t.Fatal(err)
	}
	rec := filepath.Join(dir, "rec.sh")
	write := func(p, s string, mode os.FileMode) {
		if err := os.WriteFile(p, []byte(s), mode); err != nil {
			t.Fatal(err)
		}
	}
	write(rec, "#!/bin/sh\n{ printf 'launch:%s\\n' \"$#\"; for a in \"$@\"; do printf '%s\\n' \"$a\"; done; } >> '"+filepath.Join(dir, "launched")+"'\n", 0o755)
	write(filepath.Join(apps, "sub", "airlock-recorder.desktop"), "[Desktop Entry]\nType=Application\nName=Airlock Recorder\nName[fr]=Enregistreur\nExec="+rec+" %U\nMimeType=text/plain;x-scheme-handler/https;\n", 0o644)
	write(filepath.Join(apps, "org.airlock.TestApp.desktop"), "[Desktop Entry]\nType=Application\nName=Test App\nExec="+rec+" activated\nDBusActivatable=true\n", 0o644)
	write(filepath.Join(apps, "gone.desktop"), "[Desktop Entry]\nType=Application\nName=Gone\nExec=/bin/true\nHidden=true\n", 0o644)
	write(filepath.Join(dir, "config", "mimeapps.list"), "[Default Applications]\ntext/plain=sub-airlock-recorder.desktop\nx-scheme-handler/https=sub-airlock-recorder.desktop\n", 0o644)
	return []string{"XDG_DATA_HOME=" + filepath.Join(dir, "data"), "XDG_DATA_DIRS=/usr/share", "XDG_CONFIG_HOME=" + filepath.Join(dir, "config")}
}

// launched waits for the recorder app to have written want lines.
func launched(t *testing.T, dir string, want []string) {
	t.Helper()
	deadline := time.Now().Add(liveness)
	for {
		b, _ := os.ReadFile(filepath.Join(dir, "launched"))
		got := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		if slices.Equal(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the recorder app got %q, want %q", got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// OPEN_URL, OPEN_FILE and OPEN_APP run the real gio (xdg-open is not in
// PATH), which launches the default app from the desktop files.
func TestOpenWithGio(t *testing.T) {
	s := newShims(t)
	s.link(t, "gio")
	home := t.TempDir()
	env := xdgHome(t, home)
	d := shimDesktop(t, s, env...)
	ctx := context.Background()
	file := filepath.Join(home, "notes $(id).txt")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	url := "https://example.com/?q=$(id)&x='y'"
	if err := d.OpenURL(ctx, url); err != nil {
		t.Fatal(err)
	}
	want := []string{"launch:1", url}
	launched(t, home, want)
	if err := d.OpenFile(ctx, file, ""); err != nil {
		t.Fatal(err)
	}
	want = append(want, "launch:1", file)
	launched(t, home, want)
	if err := d.OpenFile(ctx, file, "airlock recorder"); err != nil {
		t.Fatal(err)
	}
	want = append(want, "launch:1", file)
	launched(t, home, want)
	if err := d.OpenApp(ctx, "sub-airlock-recorder"); err != nil {
		t.Fatal(err)
	}
	launched(t, home, append(want, "launch:0"))
	for _, app := range []string{"Gone", "nothing-like-it", "../sub/airlock-recorder", "-x"} {
		if err := d.OpenApp(ctx, app); err == nil {
			t.Errorf("OpenApp(%q) succeeded", app)
		}
	}
	if err := d.OpenApp(ctx, "Gone"); !errors.Is(err, bridge.ErrNoSuchApp) {
		t.Errorf("a Hidden desktop file: %v, want ErrNoSuchApp", err)
	}
	if err := d.OpenURL(ctx, "-e"); err == nil || !strings.Contains(err.Error(), "dash") {
		t.Errorf("a value starting with a dash: %v", err)
	}
}

// Where xdg-open is installed it is used, with the URL as its only argument.
func TestOpenWithXdgOpen(t *testing.T) {
	s := newShims(t)
	s.add(t, "xdg-open", "exit 0")
	s.add(t, "gio", "exit 1")
	d := shimDesktop(t, s)
	url := "https://example.com/a b?c=$(id)"
	if err := d.OpenURL(context.Background(), url); err != nil {
		t.Fatal(err)
	}
	s.want(t, "xdg-open", []string{url}, "")
	if _, _, ran := s.called(t, "gio"); ran {
		t.Fatal("gio ran too")
	}
	s2 := newShims(t)
	if err := shimDesktop(t, s2).OpenURL(context.Background(), url); !errors.Is(err, bridge.ErrUnavailable) {
		t.Fatalf("with neither tool: %v", err)
	}
}

func TestActivateApp(t *testing.T) {
	addr := startBus(t)
	home := t.TempDir()
	d := shimDesktop(t, newShims(t), append(xdgHome(t, home), "DBUS_SESSION_BUS_ADDRESS="+addr)...)
	app := &application{}
	serve(t, addr, "org.airlock.TestApp", "/org/airlock/TestApp", "org.freedesktop.Application", app)
	ctx := context.Background()
	if err := d.ActivateApp(ctx, "Test App"); err != nil {
		t.Fatal(err)
	}
	if err := d.ActivateApp(ctx, "org.airlock.TestApp.desktop"); err != nil {
		t.Fatal(err)
	}
	app.mu.Lock()
	n := app.activated
	app.mu.Unlock()
	if n != 2 {
		t.Fatalf("activated %d times, want 2", n)
	}
	if err := d.ActivateApp(ctx, "Airlock Recorder"); !errors.Is(err, bridge.ErrUnavailable) || !strings.Contains(err.Error(), "DBusActivatable") {
		t.Fatalf("an app that is not D-Bus activatable: %v", err)
	}
}

// COPY_TO_CLIPBOARD under X11 runs the real xclip; reading the clipboard
// back gives the text exactly, and the call does not wait for the xclip
// that stays to serve it.
func TestClipboardXclip(t *testing.T) {
	s := newShims(t)
	s.link(t, "xclip")
	display := startXvfb(t)
	d := shimDesktop(t, s, "DISPLAY="+display)
	ctx := context.Background()
	for _, text := range []string{"plain", "line one\nline \"two\" $(id) ☃\n", ""} {
		done := make(chan error, 1)
		go func() { done <- d.SetClipboard(ctx, text) }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(liveness):
			t.Fatal("SetClipboard waited for the xclip serving the selection")
		}
		out, err := exec.Command(lookPath(t, "xclip"), "-display", display, "-selection", "clipboard", "-out").Output()
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != text {
			t.Fatalf("the clipboard holds %q, want %q", out, text)
		}
	}
}

// Under Wayland, wl-copy gets the text on stdin (shim: no compositor here).
func TestClipboardWayland(t *testing.T) {
	s := newShims(t)
	s.add(t, "wl-copy", "exit 0")
	d := shimDesktop(t, s, "WAYLAND_DISPLAY=wayland-0", "DISPLAY=:0")
	text := "text\nwith $(id)"
	if err := d.SetClipboard(context.Background(), text); err != nil {
		t.Fatal(err)
	}
	s.want(t, "wl-copy", []string{"--type", "text/plain;charset=utf-8"}, text)
	if err := shimDesktop(t, newShims(t)).SetClipboard(context.Background(), "x"); !errors.Is(err, bridge.ErrUnavailable) {
		t.Fatalf("without a display: %v", err)
	}
}

// SPEAK, SET_VOLUME: shims, since there is no audio here.
func TestSpeakAndVolume(t *testing.T) {
	s := newShims(t)
	s.add(t, "espeak-ng", "exit 0")
	s.add(t, "pactl", "exit 0")
	d := shimDesktop(t, s)
	ctx := context.Background()
	text := "-v en --stdout; say $(id)\nsecond line"
	if err := d.Speak(ctx, text); err != nil {
		t.Fatal(err)
	}
	s.want(t, "espeak-ng", []string{"--stdin"}, text)
	if err := d.SetVolume(ctx, 40); err != nil {
		t.Fatal(err)
	}
	s.want(t, "pactl", []string{"set-sink-volume", "@DEFAULT_SINK@", "40%"}, "")
	if err := d.SetVolume(ctx, 101); err == nil {
		t.Fatal("volume 101 accepted")
	}
}

// The kill switch stops a tool in the middle: its group is gone.
func TestSpeakKilled(t *testing.T) {
	needProc(t)
	s := newShims(t)
	s.add(t, "espeak-ng", `echo $$ > "$SHIM_REC/pids"; sleep 100 & echo $! >> "$SHIM_REC/pids"; wait`)
	d := shimDesktop(t, s)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- d.Speak(ctx, "a long speech") }()
	var pids []int
	deadline := time.Now().Add(liveness)
	for pids == nil {
		if time.Now().After(deadline) {
			t.Fatal("espeak-ng did not start")
		}
		time.Sleep(5 * time.Millisecond)
		pids = readPidsIfAny(filepath.Join(s.rec, "pids"))
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Speak: %v, want context.Canceled", err)
	}
	waitGone(t, pids[0], pids)
}

// DO_NOT_DISTURB runs the real gsettings (keyfile backend in a temporary
// config folder) and flips GNOME's notification banners.
func TestDoNotDisturbGsettings(t *testing.T) {
	s := newShims(t)
	s.link(t, "gsettings")
	config := t.TempDir()
	env := []string{"GSETTINGS_BACKEND=keyfile", "XDG_CONFIG_HOME=" + config}
	probe := exec.Command(lookPath(t, "gsettings"), "range", "org.gnome.desktop.notifications", "show-banners")
	if probe.Run() != nil {
		t.Skip("the org.gnome.desktop.notifications schema is not installed (gsettings-desktop-schemas)")
	}
	d := shimDesktop(t, s, env...)
	for _, on := range []bool{true, false} {
		if err := d.DoNotDisturb(context.Background(), on); err != nil {
			t.Fatal(err)
		}
		get := exec.Command(lookPath(t, "gsettings"), "get", "org.gnome.desktop.notifications", "show-banners")
		get.Env = append(os.Environ(), env...)
		out, err := get.Output()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := strings.TrimSpace(string(out)), strconv.FormatBool(!on); got != want {
			t.Fatalf("DoNotDisturb(%v): show-banners is %s, want %s", on, got, want)
		}
	}
}

// Trash runs the real `gio trash` on a temporary folder.
func TestTrashGio(t *testing.T) {
	s := newShims(t)
	s.link(t, "gio")
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	d := shimDesktop(t, s, "XDG_DATA_HOME="+data)
	victim := filepath.Join(dir, "-rf old report.txt")
	if err := os.WriteFile(victim, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := d.Trash(context.Background(), victim); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(victim); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("still there: %v", err)
	}
	b, err := os.ReadFile(filepath.Join(data, "Trash", "files", "-rf old report.txt"))
	if err != nil || string(b) != "keep me" {
		t.Fatalf("in the Trash: %q, %v", b, err)
	}
	info, err := os.ReadFile(filepath.Join(data, "Trash", "info", "-rf old report.txt.trashinfo"))
	if err != nil || !strings.Contains(string(info), "Path="+strings.ReplaceAll(dir, " ", "%20")+"/-rf%20old%20report.txt") {
		t.Fatalf("trash info %q, %v", info, err)
	}
	if err := d.Trash(context.Background(), victim); err == nil {
		t.Fatal("trashing a missing file succeeded")
	}
	if err := d.Trash(context.Background(), "relative.txt"); err == nil {
		t.Fatal("a relative path was accepted")
	}
}

// Frontmost reads the active window's process (xdotool); without a window
// manager there is no active window, and it fails rather than guess.
func TestFrontmost(t *testing.T) {
	ctx := context.Background()
	s := newShims(t)
	s.add(t, "xdotool", fmt.Sprintf("echo %d", os.Getpid()))
	d := shimDesktop(t, s, "DISPLAY=:99")
	app, err := d.Frontmost(ctx)
	if err != nil {
		t.Fatal(err)
	}
	exe, _ := os.Executable()
	comm, _ := os.ReadFile("/proc/self/comm")
	if app.PID != os.Getpid() || app.BundleID != exe || app.Name != strings.TrimSpace(string(comm)) {
		t.Fatalf("Frontmost = %+v, want this process (%s)", app, exe)
	}
	s.want(t, "xdotool", []string{"getactivewindow", "getwindowpid"}, "")

	if _, err := shimDesktop(t, s).Frontmost(ctx); !errors.Is(err, bridge.ErrUnavailable) {
		t.Fatalf("without DISPLAY: %v", err)
	}
	real := newShims(t)
	real.link(t, "xdotool")
	display := startXvfb(t)
	if app, err := shimDesktop(t, real, "DISPLAY="+display).Frontmost(ctx); err == nil {
		t.Fatalf("with no window manager: %+v, want an error", app)
	}
}

// What only macOS can do says so, and wraps ErrUnavailable.
func TestNeedsMacOS(t *testing.T) {
	d := shimDesktop(t, newShims(t))
	ctx := context.Background()
	now := time.Now()
	for name, call := range map[string]func() error{
		"RunAppleScript":      func() error { _, err := d.RunAppleScript(ctx, "beep", nil, nil); return err },
		"RunJXA":              func() error { _, err := d.RunJXA(ctx, "1", nil, nil); return err },
		"ValidateAppleScript": func() error { return d.ValidateAppleScript(ctx, "beep") },
		"RunShortcut":         func() error { _, err := d.RunShortcut(ctx, "s", ""); return err },
		"CreateEvent":         func() error { return d.CreateEvent(ctx, "e", now, now) },
		"CreateReminder":      func() error { return d.CreateReminder(ctx, "r", nil) },
		"SendEmail":           func() error { return d.SendEmail(ctx, []string{"a@example.com"}, "s", "b") },
		"QuitApp":             func() error { return d.QuitApp(ctx, "Firefox") },
	} {
		err := call()
		var ue *bridge.UnavailableError
		if !errors.Is(err, bridge.ErrUnavailable) || !errors.As(err, &ue) || !strings.Contains(err.Error(), "needs macOS") {
			t.Errorf("%s: %v, want an *UnavailableError saying it needs macOS", name, err)
		}
	}
}
