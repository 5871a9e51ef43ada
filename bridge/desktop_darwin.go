//go:build darwin

package bridge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/progrium/darwinkit/macos/appkit"
	"github.com/progrium/darwinkit/macos/foundation"
	"github.com/progrium/darwinkit/objc"
)

// On macOS the bridge calls NSWorkspace, NSPasteboard and NSFileManager
// directly, from the calling goroutine: it never dispatches to the main
// queue, so it works the same in the menu-bar app and in `airlock serve`,
// whose main thread runs no loop. The APIs used are the ones documented as
// callable from any thread, or with completion handlers that run on a
// queue of their own. AppleScript runs in a helper child (one process
// group per script), JXA in osascript, shortcuts in /usr/bin/shortcuts and
// speech in /usr/bin/say, all killed as a group when ctx is done.
//
// Completion handlers (and the popups' key monitor) are Go functions that
// darwinkit v0.5.0 wraps as Objective-C blocks. Its block disposal
// (objc/block.m, oc_dispose_helper) frees the block's descriptor and then
// reads the descriptor's signature pointer to free that too: a read of freed
// memory. It is kept, not patched, for these reasons: the descriptor is a
// 40-byte allocation and the pointer is read at offset 32, right after the
// free, on the same thread; macOS's default allocators (nano for blocks this
// small, the tiny magazine otherwise) keep freed memory mapped and write
// their free-list links only into its first 16 bytes, so the read returns
// the pointer that was there; and Airlock disposes of few blocks (one per
// NSWorkspace call that takes a handler, one per popup). The read goes
// wrong only if another thread is given that very block between the two
// statements and writes past its first 32 bytes, or under a debugging
// allocator that poisons or unmaps freed memory (Guard Malloc, MallocScribble),
// where the app crashes the first time a handler's block is released: do not
// run Airlock under those. Patching it means carrying a fork of the whole
// darwinkit module (25 MB) for a two-line change, which belongs upstream
// (free the signature before the descriptor).

// Frontmost reports the application that owns the menu bar. NSWorkspace's
// frontmostApplication may be read from any thread, but it is kept up to date
// only while the main run loop runs (the menu-bar app's); without one (airlock
// serve) it could report a stale app, so Frontmost fails closed there and the
// context lock refuses what types or clicks.
func (d *Desktop) Frontmost(ctx context.Context) (App, error) {
	if err := ctx.Err(); err != nil {
		return App{}, err
	}
	if !mainLoopRunning.Load() {
		return App{}, errors.New("tell the frontmost app: macOS updates it only while the app's main run loop runs; start the menu-bar app (airlock) rather than airlock serve")
	}
	var app App
	found := false
	objc.WithAutoreleasePool(func() {
		ra := appkit.Workspace_SharedWorkspace().FrontmostApplication()
		if ra.IsNil() {
			return
		}
		app = App{BundleID: ra.BundleIdentifier(), Name: ra.LocalizedName(), PID: int(ra.ProcessIdentifier())}
		found = true
	})
	if !found {
		return App{}, fmt.Errorf("tell the frontmost app: NSWorkspace reports none")
	}
	return app, nil
}

// OpenURL opens u with its default app (NSWorkspace openURL:).
func (d *Desktop) OpenURL(ctx context.Context, u string) error {
	const action = "open a URL"
	if err := begin(ctx, action, u); err != nil {
		return err
	}
	var err error
	objc.WithAutoreleasePool(func() {
		nsurl := foundation.URL_URLWithString(u)
		if nsurl.IsNil() {
			err = fmt.Errorf("%s: macOS does not accept %q as a URL", action, u)
			return
		}
		if !appkit.Workspace_SharedWorkspace().OpenURL(nsurl) {
			err = fmt.Errorf("%s: no app opened %s", action, u)
		}
	})
	return err
}

// OpenFile opens path with its default app, or with app: a bundle id or an
// app name, resolved to its bundle (openURLs:withApplicationAtURL:…).
func (d *Desktop) OpenFile(ctx context.Context, path, app string) error {
	action := "open a file"
	if err := begin(ctx, action, path); err != nil {
		return err
	}
	if app == "" {
		var err error
		objc.WithAutoreleasePool(func() {
			if !appkit.Workspace_SharedWorkspace().OpenURL(foundation.URL_FileURLWithPath(path)) {
				err = fmt.Errorf("%s: no app opened %s", action, path)
			}
		})
		return err
	}
	action = "open a file with " + app
	appPath, err := appBundle(app)
	if err != nil {
		return fmt.Errorf("%s: %w", action, err)
	}
	return await(ctx, action, func(done func(foundation.Error)) {
		cfg := appkit.NewWorkspaceOpenConfiguration()
		appkit.Workspace_SharedWorkspace().OpenURLsWithApplicationAtURLConfigurationCompletionHandler(
			[]foundation.IURL{foundation.URL_FileURLWithPath(path)}, foundation.URL_FileURLWithPath(appPath), cfg,
			func(_ appkit.RunningApplication, e foundation.Error) { done(e) })
	})
}

// Reveal selects path in a Finder window.
func (d *Desktop) Reveal(ctx context.Context, path string) error {
	const action = "reveal a file"
	if err := begin(ctx, action, path); err != nil {
		return err
	}
	var ok bool
	objc.WithAutoreleasePool(func() {
		ok = appkit.Workspace_SharedWorkspace().SelectFileInFileViewerRootedAtPath(path, "")
	})
	if !ok {
		return fmt.Errorf("%s: Finder could not show %s", action, path)
	}
	return nil
}

// SetClipboard replaces the general pasteboard's contents with text.
func (d *Desktop) SetClipboard(ctx context.Context, text string) error {
	const action = "set the clipboard"
	if err := begin(ctx, action, text); err != nil {
		return err
	}
	var ok bool
	objc.WithAutoreleasePool(func() {
		pb := appkit.Pasteboard_GeneralPasteboard()
		pb.ClearContents()
		ok = pb.SetStringForType(text, appkit.PasteboardTypeString)
	})
	if !ok {
		return fmt.Errorf("%s: the pasteboard refused the text", action)
	}
	return nil
}

// OpenApp launches app (a bundle id or a name) and brings it to the front.
func (d *Desktop) OpenApp(ctx context.Context, app string) error {
	action := "open " + app
	if err := begin(ctx, action, app); err != nil {
		return err
	}
	appPath, err := appBundle(app)
	if err != nil {
		return fmt.Errorf("%s: %w", action, err)
	}
	return await(ctx, action, func(done func(foundation.Error)) {
		cfg := appkit.NewWorkspaceOpenConfiguration()
		cfg.SetActivates(true)
		appkit.Workspace_SharedWorkspace().OpenApplicationAtURLConfigurationCompletionHandler(
			foundation.URL_FileURLWithPath(appPath), cfg,
			func(_ appkit.RunningApplication, e foundation.Error) { done(e) })
	})
}

// QuitApp asks every running instance of app to quit (terminate: the app
// may ask to save, or refuse). It never force-quits.
func (d *Desktop) QuitApp(ctx context.Context, app string) error {
	action := "quit " + app
	if err := begin(ctx, action, app); err != nil {
		return err
	}
	n, asked := 0, 0
	objc.WithAutoreleasePool(func() {
		for _, ra := range running(app) {
			n++
			if ra.Terminate() {
				asked++
			}
		}
	})
	switch {
	case n == 0:
		return fmt.Errorf("%s: it is not running", action)
	case asked == 0:
		return fmt.Errorf("%s: it did not accept the request to quit", action)
	}
	return nil
}

// ActivateApp brings a running app to the front. On macOS 14 and later
// activation is cooperative: Airlock yields its own activation to the app
// (NSApplication's yieldActivationToApplication:) and the app is asked to
// activate from Airlock (NSRunningApplication's
// activateFromApplication:options:); macOS grants it only if Airlock could
// yield, that is, was active or the person acted in it just before, and
// otherwise ActivateApp fails saying macOS did not activate it. Before 14,
// activateWithOptions: with "ignoring other apps". (NSRunningApplication
// has no activate method; NSApplication's activate activates Airlock
// itself.)
func (d *Desktop) ActivateApp(ctx context.Context, app string) error {
	action := "bring " + app + " to the front"
	if err := begin(ctx, action, app); err != nil {
		return err
	}
	n, ok := 0, false
	objc.WithAutoreleasePool(func() {
		me := appkit.RunningApplication_CurrentApplication()
		nsapp := appkit.Application_SharedApplication()
		for _, ra := range running(app) {
			n++
			if !ra.RespondsToSelector(objc.Sel("activateFromApplication:options:")) {
				ok = ra.ActivateWithOptions(appkit.ApplicationActivateIgnoringOtherApps) || ok
				continue
			}
			if nsapp.RespondsToSelector(objc.Sel("yieldActivationToApplication:")) {
				objc.Call[objc.Void](nsapp, objc.Sel("yieldActivationToApplication:"), ra)
			}
			ok = objc.Call[bool](ra, objc.Sel("activateFromApplication:options:"), me, appkit.ApplicationActivationOptions(0)) || ok
		}
	})
	switch {
	case n == 0:
		return fmt.Errorf("%s: it is not running", action)
	case !ok:
		return fmt.Errorf("%s: macOS did not activate it (since macOS 14 an app is brought forward only when the active app lets it)", action)
	}
	return nil
}

// Notify shows a notification through AppleScript's display notification
// (darwinkit has no UNUserNotificationCenter), values in argv.
func (d *Desktop) Notify(ctx context.Context, title, message, sound string) error {
	_, err := d.runHelper(ctx, notifyScript, []string{title, message, sound}, false, nil)
	return wrap("show a notification", err)
}

// Speak says text with /usr/bin/say, which reads it from stdin; the kill
// switch stops the speech with the process.
func (d *Desktop) Speak(ctx context.Context, text string) error {
	const action = "speak text"
	if err := begin(ctx, action, text); err != nil {
		return err
	}
	say, err := d.tool(action, "/usr/bin/say")
	if err != nil {
		return err
	}
	_, _, err = d.run(ctx, Command{Argv: []string{say, "-f", "-"}, Stdin: text})
	return wrap(action, err)
}

// SetVolume sets the output volume through AppleScript, the level in argv.
func (d *Desktop) SetVolume(ctx context.Context, percent int) error {
	if percent < 0 || percent > 100 {
		return fmt.Errorf("set the volume: %d is not from 0 to 100", percent)
	}
	_, err := d.runHelper(ctx, volumeScript, []string{strconv.Itoa(percent)}, false, nil)
	return wrap("set the volume", err)
}

// The shortcuts DO_NOT_DISTURB runs: macOS has no AppleScript or public API
// for Focus, so the person makes two shortcuts with the Set Focus action.
const (
	dndOnShortcut  = "Airlock Do Not Disturb On"
	dndOffShortcut = "Airlock Do Not Disturb Off"
)

// DoNotDisturb runs the person's shortcut "Airlock Do Not Disturb On" (or
// "… Off"): macOS offers Focus to Shortcuts' Set Focus action only.
func (d *Desktop) DoNotDisturb(ctx context.Context, on bool) error {
	name := dndOffShortcut
	if on {
		name = dndOnShortcut
	}
	if _, err := d.runShortcut(ctx, name, ""); err != nil {
		return fmt.Errorf("set Do Not Disturb (make a shortcut named %q with the Set Focus action if there is none): %w", name, err)
	}
	return nil
}

// RunShortcut runs a shortcut with /usr/bin/shortcuts; see runShortcut.
func (d *Desktop) RunShortcut(ctx context.Context, name, input string) (string, error) {
	return d.runShortcut(ctx, name, input)
}

// CreateEvent adds an event to the first writable calendar in Calendar.
func (d *Desktop) CreateEvent(ctx context.Context, title string, start, end time.Time) error {
	argv := append(append([]string{title}, dateArgs(start)...), dateArgs(end)...)
	_, err := d.runHelper(ctx, eventScript, argv, false, nil)
	return wrap("create a calendar event", err)
}

// CreateReminder adds a reminder to Reminders' default list.
func (d *Desktop) CreateReminder(ctx context.Context, title string, due *time.Time) error {
	argv := []string{title}
	if due != nil {
		argv = append(argv, dateArgs(*due)...)
	}
	_, err := d.runHelper(ctx, reminderScript, argv, false, nil)
	return wrap("create a reminder", err)
}

// SendEmail sends a message through Mail.
func (d *Desktop) SendEmail(ctx context.Context, to []string, subject, body string) error {
	if len(to) == 0 {
		return fmt.Errorf("send an email: no recipient")
	}
	_, err := d.runHelper(ctx, mailScript, append([]string{subject, body}, to...), false, nil)
	return wrap("send an email", err)
}

// Trash moves path to the Trash; see MoveToTrash.
func (d *Desktop) Trash(ctx context.Context, path string) error {
	_, err := d.MoveToTrash(ctx, path)
	return err
}

// MoveToTrash moves path to the Trash with NSFileManager's
// trashItemAtURL:resultingItemURL:error: and returns where it went. It is
// used rather than NSWorkspace's recycleURLs:completionHandler:, whose
// handler runs only on the dispatch queue that called it (none here).
func (d *Desktop) MoveToTrash(ctx context.Context, path string) (where string, err error) {
	const action = "move a file to the Trash"
	if err := begin(ctx, action, path); err != nil {
		return "", err
	}
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("%s: %q is not an absolute path", action, path)
	}
	objc.WithAutoreleasePool(func() {
		var res foundation.URL
		var nserr foundation.Error
		ok := foundation.FileManager_DefaultManager().TrashItemAtURLResultingItemURLError(
			foundation.URL_FileURLWithPath(path), unsafe.Pointer(&res), unsafe.Pointer(&nserr))
		if !ok {
			msg := "the file manager refused"
			if !nserr.IsNil() {
				msg = nserr.LocalizedDescription()
			}
			err = fmt.Errorf("%s: %s: %s", action, path, msg)
			return
		}
		if !res.IsNil() {
			where = res.Path()
		}
	})
	return where, err
}

// RunAppleScript runs src in a helper child with NSAppleScript, confined by
// confine; see AppleScriptHelper. Without confine it refuses.
func (d *Desktop) RunAppleScript(ctx context.Context, src string, argv []string, confine Confine) (string, error) {
	if confine == nil {
		return "", errNoConfine("run AppleScript")
	}
	return d.runHelper(ctx, src, argv, false, confine)
}

// RunJXA runs src with osascript -l JavaScript, confined by confine; see
// runJXA. Without confine it refuses.
func (d *Desktop) RunJXA(ctx context.Context, src string, argv []string, confine Confine) (string, error) {
	if confine == nil {
		return "", errNoConfine("run JavaScript for Automation")
	}
	return d.runJXA(ctx, src, argv, confine)
}

// ValidateAppleScript compiles src in a helper child without running it
// (seed 000's validateScript); a compile error is a *ScriptError.
func (d *Desktop) ValidateAppleScript(ctx context.Context, src string) error {
	_, err := d.runHelper(ctx, src, nil, true, nil)
	return err
}

// begin checks ctx and a value that darwinkit will hand to Cocoa as a C
// string.
func begin(ctx context.Context, action, value string) error {
	if err := context.Cause(ctx); err != nil {
		return fmt.Errorf("%s: stopped before it started: %w", action, err)
	}
	if err := checkText("the value", value); err != nil {
		return fmt.Errorf("%s: %w", action, err)
	}
	return nil
}

// wrap names the action in err; nil stays nil.
func wrap(action string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("%s: %w", action, err)
}

// await starts an NSWorkspace call whose completion handler reports an
// NSError (nil on success) and waits for the handler or for ctx.
func await(ctx context.Context, action string, start func(done func(foundation.Error))) error {
	ch := make(chan error, 1)
	objc.WithAutoreleasePool(func() {
		start(func(e foundation.Error) {
			if e.IsNil() {
				ch <- nil
				return
			}
			ch <- fmt.Errorf("%s: %s", action, e.LocalizedDescription())
		})
	})
	// A completion handler that never comes (a Gatekeeper dialog left
	// open) must not hold the action, and with it the executor, forever.
	wait := time.NewTimer(awaitLimit)
	defer wait.Stop()
	select {
	case err := <-ch:
		return err
	case <-ctx.Done():
		return fmt.Errorf("%s: stopped: %w", action, context.Cause(ctx))
	case <-wait.C:
		return fmt.Errorf("%s: macOS did not answer within %v", action, awaitLimit)
	}
}

// awaitLimit bounds how long an NSWorkspace call may take to complete.
const awaitLimit = time.Minute

// appBundle finds app's bundle: by bundle id through Launch Services when
// app looks like one, else by name in the usual application folders.
func appBundle(app string) (string, error) {
	if err := checkAppName(app); err != nil {
		return "", err
	}
	if strings.Contains(app, ".") && !strings.ContainsAny(app, " ") && !strings.HasSuffix(strings.ToLower(app), ".app") {
		var p string
		objc.WithAutoreleasePool(func() {
			if u := appkit.Workspace_SharedWorkspace().URLForApplicationWithBundleIdentifier(app); !u.IsNil() {
				p = u.Path()
			}
		})
		if p != "" {
			return p, nil
		}
	}
	dirs := []string{"/Applications", "/Applications/Utilities", "/System/Applications", "/System/Applications/Utilities"}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(home, "Applications"))
	}
	return findAppBundle(app, dirs)
}

// running lists the running apps whose bundle id or name is app (case
// ignored). Call it inside an autorelease pool.
func running(app string) []appkit.RunningApplication {
	var out []appkit.RunningApplication
	for _, ra := range appkit.Workspace_SharedWorkspace().RunningApplications() {
		if ra.IsNil() {
			continue
		}
		if strings.EqualFold(ra.BundleIdentifier(), app) || strings.EqualFold(ra.LocalizedName(), app) {
			out = append(out, ra)
		}
	}
	return out
}

// errNoConfine is the error of an action's script given no confinement:
// the bridge never runs one unconfined.
func errNoConfine(action string) error {
	return fmt.Errorf("%s: refused: an action's script runs only confined by the OS sandbox, and none was given", action)
}
