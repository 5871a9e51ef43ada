package bridge

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
)

// On Linux the bridge drives the freedesktop tools: gio (or xdg-open) opens
// URLs and files and launches desktop files, the FileManager1 D-Bus service
// reveals files, notify-send, espeak-ng, xclip or wl-copy, pactl and
// gsettings do the rest. Every tool is looked up in Options.Env's PATH and
// run in its own process group. AppleScript, JXA, Shortcuts, Calendar,
// Reminders and Mail need macOS.

// Frontmost reports the application of the active X11 window (xdotool
// getactivewindow getwindowpid): BundleID is its executable's path, Name its
// process name. It fails when there is no X display, no window manager that
// names the active window, or no such process.
func (d *Desktop) Frontmost(ctx context.Context) (App, error) {
	const action = "tell the frontmost app"
	if d.getenv("DISPLAY") == "" {
		return App{}, &UnavailableError{Action: action, Reason: "needs an X display (DISPLAY is not set)"}
	}
	xdotool, err := d.tool(action, "xdotool")
	if err != nil {
		return App{}, err
	}
	sctx, cancel := d.scriptContext(ctx)
	defer cancel()
	out, _, err := d.run(sctx, Command{Argv: []string{xdotool, "getactivewindow", "getwindowpid"}})
	if err != nil {
		if serr := d.stopError(sctx, ctx, "xdotool"); serr != nil {
			return App{}, serr
		}
		return App{}, fmt.Errorf("%s: %w", action, err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(out))
	if err != nil || pid <= 0 {
		return App{}, fmt.Errorf("%s: xdotool answered %q, not a process id", action, LastLine(out))
	}
	proc := filepath.Join("/proc", strconv.Itoa(pid))
	exe, err := os.Readlink(filepath.Join(proc, "exe"))
	if err != nil {
		return App{}, fmt.Errorf("%s: process %d: %w", action, pid, err)
	}
	comm, err := os.ReadFile(filepath.Join(proc, "comm"))
	if err != nil {
		return App{}, fmt.Errorf("%s: process %d: %w", action, pid, err)
	}
	return App{BundleID: exe, Name: strings.TrimSpace(string(comm)), PID: pid}, nil
}

// OpenURL opens url with xdg-open, or `gio open` where xdg-open is not
// installed. What they launch lingers; the tool itself is waited for.
func (d *Desktop) OpenURL(ctx context.Context, u string) error {
	return d.open(ctx, "open a URL", u)
}

// OpenFile opens path with its default app (as OpenURL does), or with app,
// found by its desktop file and launched with `gio launch`.
func (d *Desktop) OpenFile(ctx context.Context, path, app string) error {
	if app == "" {
		return d.open(ctx, "open a file", path)
	}
	return d.launch(ctx, "open a file with "+app, app, path)
}

// open hands target (a URL or an absolute path) to xdg-open or gio open.
func (d *Desktop) open(ctx context.Context, action, target string) error {
	if err := noDash(action, target); err != nil {
		return err
	}
	argv := []string{"", target}
	if p, err := d.tool(action, "xdg-open"); err == nil {
		argv[0] = p
	} else if p, err := d.tool(action, "gio"); err == nil {
		argv = []string{p, "open", "--", target}
	} else {
		return &UnavailableError{Action: action, Reason: "needs xdg-open or gio, and neither is in PATH"}
	}
	_, _, err := d.run(ctx, Command{Argv: argv, Linger: true})
	if err != nil {
		return fmt.Errorf("%s: %w", action, err)
	}
	return nil
}

// launch starts the application named app through its desktop file with
// `gio launch`, giving it files.
func (d *Desktop) launch(ctx context.Context, action, app string, files ...string) error {
	for _, f := range files {
		if err := noDash(action, f); err != nil {
			return err
		}
	}
	e, err := findDesktopFile(app, d.dataDirs())
	if err != nil {
		return fmt.Errorf("%s: %w", action, err)
	}
	gio, err := d.tool(action, "gio")
	if err != nil {
		return err
	}
	argv := append([]string{gio, "launch", e.Path}, files...)
	if _, _, err := d.run(ctx, Command{Argv: argv, Linger: true}); err != nil {
		return fmt.Errorf("%s: %w", action, err)
	}
	return nil
}

// noDash refuses a value that a tool without "--" would read as an option.
// The sanitiser passes only absolute paths and URLs with a scheme, so this
// never refuses what the executor sends.
func noDash(action, v string) error {
	if strings.HasPrefix(v, "-") {
		return fmt.Errorf("%s: %q starts with a dash", action, v)
	}
	return nil
}

// dataDirs are $XDG_DATA_HOME and then $XDG_DATA_DIRS, with the
// specification's defaults; relative entries are ignored.
func (d *Desktop) dataDirs() []string {
	return d.xdgList("XDG_DATA_HOME", ".local/share", "XDG_DATA_DIRS", "/usr/local/share:/usr/share")
}

// xdgList is the folder homeVar names (else homeRel in $HOME) and then
// those listVar lists (else listDefault), as the XDG base directory
// specification reads them: relative entries are ignored.
func (d *Desktop) xdgList(homeVar, homeRel, listVar, listDefault string) []string {
	var dirs []string
	home := d.getenv(homeVar)
	if !filepath.IsAbs(home) {
		if h := d.getenv("HOME"); filepath.IsAbs(h) {
			home = filepath.Join(h, homeRel)
		} else {
			home = ""
		}
	}
	if home != "" {
		dirs = append(dirs, home)
	}
	rest := d.getenv(listVar)
	if rest == "" {
		rest = listDefault
	}
	for _, p := range filepath.SplitList(rest) {
		if filepath.IsAbs(p) {
			dirs = append(dirs, p)
		}
	}
	return dirs
}

// Reveal shows path in the file manager through the freedesktop
// FileManager1 D-Bus interface (ShowItems), which Nautilus, Dolphin, Nemo,
// Caja and Thunar implement.
func (d *Desktop) Reveal(ctx context.Context, path string) error {
	const action = "reveal a file"
	uri := (&url.URL{Scheme: "file", Path: path}).String()
	return d.busCall(ctx, action, "org.freedesktop.FileManager1", "/org/freedesktop/FileManager1",
		"org.freedesktop.FileManager1.ShowItems", []string{uri}, "")
}

// busCall calls method on the session bus, bounded by ctx.
func (d *Desktop) busCall(ctx context.Context, action, dest string, path dbus.ObjectPath, method string, args ...any) error {
	addr := d.getenv("DBUS_SESSION_BUS_ADDRESS")
	if addr == "" {
		return &UnavailableError{Action: action, Reason: "needs a D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)"}
	}
	conn, err := dbus.Connect(addr, dbus.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("%s: connecting to the session bus: %w", action, err)
	}
	defer conn.Close()
	call := conn.Object(dest, path).CallWithContext(ctx, method, 0, args...)
	if call.Err != nil {
		var de dbus.Error
		if errors.As(call.Err, &de) && de.Name == "org.freedesktop.DBus.Error.ServiceUnknown" {
			return &UnavailableError{Action: action, Reason: "nothing on the session bus provides " + dest}
		}
		if ctx.Err() != nil {
			return fmt.Errorf("%s: stopped: %w", action, context.Cause(ctx))
		}
		return fmt.Errorf("%s: %s: %w", action, method, call.Err)
	}
	return nil
}

// SetClipboard puts text on the clipboard with wl-copy under Wayland, else
// with xclip under X11. Both leave a process that serves the clipboard until
// something else takes it; that process lingers by design.
func (d *Desktop) SetClipboard(ctx context.Context, text string) error {
	const action = "set the clipboard"
	var argv []string
	switch {
	case d.getenv("WAYLAND_DISPLAY") != "":
		p, err := d.tool(action, "wl-copy")
		if err != nil {
			return err
		}
		argv = []string{p, "--type", "text/plain;charset=utf-8"}
	case d.getenv("DISPLAY") != "":
		p, err := d.tool(action, "xclip")
		if err != nil {
			return err
		}
		argv = []string{p, "-selection", "clipboard", "-in"}
	default:
		return &UnavailableError{Action: action, Reason: "needs a display (neither WAYLAND_DISPLAY nor DISPLAY is set)"}
	}
	if _, _, err := d.run(ctx, Command{Argv: argv, Stdin: text, Linger: true}); err != nil {
		return fmt.Errorf("%s: %w", action, err)
	}
	if d.getenv("WAYLAND_DISPLAY") == "" {
		return d.awaitXClipboard(ctx, argv[0], text)
	}
	return nil
}

// clipboardPatience bounds how long SetClipboard waits for xclip's
// background process to take the clipboard.
const clipboardPatience = 5 * time.Second

// awaitXClipboard returns once the X clipboard holds text. xclip forks and
// its parent exits before the child has taken the selection, so until then
// a reader would find the clipboard empty or holding what was there before;
// this reads it back (with xclip, at xclip path) until it holds text.
func (d *Desktop) awaitXClipboard(ctx context.Context, xclip, text string) error {
	deadline := time.NewTimer(clipboardPatience)
	defer deadline.Stop()
	for {
		out, _, err := d.run(ctx, Command{Argv: []string{xclip, "-selection", "clipboard", "-out"}})
		if err == nil && out == text {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("set the clipboard: stopped: %w", context.Cause(ctx))
		case <-deadline.C:
			return fmt.Errorf("set the clipboard: xclip had not taken the clipboard after %v", clipboardPatience)
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// OpenApp launches app through its desktop file (`gio launch`).
func (d *Desktop) OpenApp(ctx context.Context, app string) error {
	return d.launch(ctx, "open "+app, app)
}

// QuitApp is not available on Linux: there is no standard way to ask an
// app to quit (as macOS's terminate does), and the bridge never kills one.
func (d *Desktop) QuitApp(ctx context.Context, app string) error {
	return &UnavailableError{Action: "quit " + app, Reason: "needs macOS (Linux has no standard request to quit, and Airlock never force-quits)"}
}

// ActivateApp brings app to the front through the freedesktop Application
// D-Bus interface (Activate), which D-Bus-activatable apps implement; other
// apps cannot be brought to the front this way.
func (d *Desktop) ActivateApp(ctx context.Context, app string) error {
	action := "bring " + app + " to the front"
	e, err := findDesktopFile(app, d.dataDirs())
	if err != nil {
		return fmt.Errorf("%s: %w", action, err)
	}
	if !e.DBusActivatable {
		return &UnavailableError{Action: action, Reason: "needs macOS, or an app whose desktop file says DBusActivatable=true (" + e.ID + "'s does not)"}
	}
	path := "/" + strings.NewReplacer(".", "/", "-", "_").Replace(e.ID)
	if !dbus.ObjectPath(path).IsValid() {
		return fmt.Errorf("%s: %q is not a valid D-Bus application id", action, e.ID)
	}
	return d.busCall(ctx, action, e.ID, dbus.ObjectPath(path), "org.freedesktop.Application.Activate", map[string]dbus.Variant{})
}

// Notify shows a notification with notify-send; sound is passed as the
// sound-name hint.
func (d *Desktop) Notify(ctx context.Context, title, message, sound string) error {
	const action = "show a notification"
	p, err := d.tool(action, "notify-send")
	if err != nil {
		return err
	}
	argv := []string{p, "--app-name=Airlock"}
	if sound != "" {
		argv = append(argv, "--hint=string:sound-name:"+sound)
	}
	argv = append(argv, "--", title, message)
	if _, _, err := d.run(ctx, Command{Argv: argv}); err != nil {
		return fmt.Errorf("%s: %w", action, err)
	}
	return nil
}

// Speak says text with espeak-ng, which reads it from stdin.
func (d *Desktop) Speak(ctx context.Context, text string) error {
	const action = "speak text"
	p, err := d.tool(action, "espeak-ng")
	if err != nil {
		return err
	}
	if _, _, err := d.run(ctx, Command{Argv: []string{p, "--stdin"}, Stdin: text}); err != nil {
		return fmt.Errorf("%s: %w", action, err)
	}
	return nil
}

// SetVolume sets the default output's volume with pactl (PulseAudio, or
// PipeWire's PulseAudio server).
func (d *Desktop) SetVolume(ctx context.Context, percent int) error {
	const action = "set the volume"
	if percent < 0 || percent > 100 {
		return fmt.Errorf("%s: %d is not from 0 to 100", action, percent)
	}
	p, err := d.tool(action, "pactl")
	if err != nil {
		return err
	}
	if _, _, err := d.run(ctx, Command{Argv: []string{p, "set-sink-volume", "@DEFAULT_SINK@", strconv.Itoa(percent) + "%"}}); err != nil {
		return fmt.Errorf("%s: %w", action, err)
	}
	return nil
}

// DoNotDisturb turns GNOME's notification banners off (on) or back on
// (off) with gsettings: org.gnome.desktop.notifications show-banners.
func (d *Desktop) DoNotDisturb(ctx context.Context, on bool) error {
	const action = "set Do Not Disturb"
	p, err := d.tool(action, "gsettings")
	if err != nil {
		return err
	}
	if _, _, err := d.run(ctx, Command{Argv: []string{p, "set", "org.gnome.desktop.notifications", "show-banners", strconv.FormatBool(!on)}}); err != nil {
		return fmt.Errorf("%s: %w", action, err)
	}
	return nil
}

// Trash moves path to the freedesktop Trash with `gio trash`.
func (d *Desktop) Trash(ctx context.Context, path string) error {
	_, err := d.MoveToTrash(ctx, path)
	return err
}

// MoveToTrash is Trash; gio does not say where the item went, so where is
// always "".
func (d *Desktop) MoveToTrash(ctx context.Context, path string) (where string, err error) {
	const action = "move a file to the Trash"
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("%s: %q is not an absolute path", action, path)
	}
	p, err := d.tool(action, "gio")
	if err != nil {
		return "", err
	}
	if _, _, err := d.run(ctx, Command{Argv: []string{p, "trash", "--", path}}); err != nil {
		return "", fmt.Errorf("%s: %w", action, err)
	}
	return "", nil
}

// RunShortcut needs macOS.
func (d *Desktop) RunShortcut(context.Context, string, string) (string, error) {
	return "", needsMacOS("run a shortcut")
}

// CreateEvent needs macOS (Calendar).
func (d *Desktop) CreateEvent(context.Context, string, time.Time, time.Time) error {
	return needsMacOS("create a calendar event")
}

// CreateReminder needs macOS (Reminders).
func (d *Desktop) CreateReminder(context.Context, string, *time.Time) error {
	return needsMacOS("create a reminder")
}

// SendEmail needs macOS (Mail).
func (d *Desktop) SendEmail(context.Context, []string, string, string) error {
	return needsMacOS("send an email")
}

// RunAppleScript needs macOS.
func (d *Desktop) RunAppleScript(context.Context, string, []string, Confine) (string, error) {
	return "", needsMacOS("run AppleScript")
}

// RunJXA needs macOS.
func (d *Desktop) RunJXA(context.Context, string, []string, Confine) (string, error) {
	return "", needsMacOS("run JavaScript for Automation")
}

// ValidateAppleScript needs macOS.
func (d *Desktop) ValidateAppleScript(context.Context, string) error {
	return needsMacOS("check AppleScript")
}
