package execute

import (
	"context"
	"time"

	"github.com/airlockhq/airlock/bridge"
)

// ErrUnavailable is wrapped by the error of every action this platform, or
// this build, cannot carry out. It is the bridge's, so the bridge's errors
// match it.
var ErrUnavailable = bridge.ErrUnavailable

// Desktop is what the bridge does for the actions that are not plain file
// operations: apps, the clipboard, notifications, speech, sound, Shortcuts,
// calendars and mail.
//
// An implementation must:
//   - honour ctx: return soon after it is cancelled, and stop any process it
//     started for the call (the kill switch cancels it);
//   - hold no policy: every argument has been sanitised, rated and approved
//     before the call; it does exactly what it is told, and nothing else
//     (no retries with other arguments, no fallbacks to a shell);
//   - pass values as values: never splice an argument into script source or a
//     shell command line;
//   - return errors that are safe to show the person (no secrets, no raw
//     script output), wrapping ErrUnavailable when the action cannot be done
//     on this platform at all;
//   - be safe for concurrent use.
//
// Paths given to it are absolute and already resolved by the sanitiser.
type Desktop interface {
	// FileHandler and URLHandler resolve the app the OS would start to
	// open a file (app "" means its default app; path "" resolves app
	// alone) or a URL, as the platform chooses it; Launch starts exactly
	// that handler with target ("" for nothing to open), keeping what it
	// started within reach of the kill switch where the platform allows
	// (bridge.Desktop.Launch says how), and says what it started.
	FileHandler(path, app string) (bridge.Handler, error)
	URLHandler(url string) (bridge.Handler, error)
	Launch(ctx context.Context, h bridge.Handler, target string) (bridge.Launched, error)
	Reveal(ctx context.Context, path string) error
	SetClipboard(ctx context.Context, text string) error
	QuitApp(ctx context.Context, app string) error
	ActivateApp(ctx context.Context, app string) error
	Notify(ctx context.Context, title, message, sound string) error // sound "" means none
	Speak(ctx context.Context, text string) error
	SetVolume(ctx context.Context, percent int) error // 0-100
	DoNotDisturb(ctx context.Context, on bool) error
	RunShortcut(ctx context.Context, name, input string) (string, error) // the shortcut's output
	CreateEvent(ctx context.Context, title string, start, end time.Time) error
	CreateReminder(ctx context.Context, title string, due *time.Time) error // due nil means none
	SendEmail(ctx context.Context, to []string, subject, body string) error
	Trash(ctx context.Context, path string) error // darwin: NSWorkspace recycle

	// RunAppleScript and RunJXA run a script whose source was approved as
	// it stands; argv reaches the script as the arguments of its run
	// handler (`on run argv`, `function run(argv)`), never spliced into the
	// source. The process that runs it is started confined by confine; with
	// none they refuse. They return the script's result as text.
	RunAppleScript(ctx context.Context, src string, argv []string, confine Confine) (string, error)
	RunJXA(ctx context.Context, src string, argv []string, confine Confine) (string, error)
}

// Unavailable returns a Desktop that does nothing: every method returns an
// error wrapping ErrUnavailable that names the action, as in
// "speak text: not available on this platform". It is what an Executor
// without a Desktop uses.
func Unavailable() Desktop { return unavailable{} }

// UnavailableError is the error of an action this platform cannot do. Its
// text is safe to show the person.
type UnavailableError struct {
	Action string // what was asked, in words: "open a URL"
}

func (e *UnavailableError) Error() string { return e.Action + ": " + ErrUnavailable.Error() }
func (e *UnavailableError) Unwrap() error { return ErrUnavailable }

type unavailable struct{}

func no(action string) error { return &UnavailableError{Action: action} }

func (unavailable) FileHandler(string, string) (bridge.Handler, error) {
	return bridge.Handler{}, no("open a file")
}
func (unavailable) URLHandler(string) (bridge.Handler, error) {
	return bridge.Handler{}, no("open a URL")
}
func (unavailable) Launch(context.Context, bridge.Handler, string) (bridge.Launched, error) {
	return bridge.Launched{}, no("open an app")
}
func (unavailable) Reveal(context.Context, string) error       { return no("reveal a file") }
func (unavailable) SetClipboard(context.Context, string) error { return no("set the clipboard") }
func (unavailable) QuitApp(context.Context, string) error      { return no("quit an app") }
func (unavailable) ActivateApp(context.Context, string) error  { return no("activate an app") }
func (unavailable) Notify(context.Context, string, string, string) error {
	return no("show a notification")
}
func (unavailable) Speak(context.Context, string) error      { return no("speak text") }
func (unavailable) SetVolume(context.Context, int) error     { return no("set the volume") }
func (unavailable) DoNotDisturb(context.Context, bool) error { return no("set Do Not Disturb") }
func (unavailable) RunShortcut(context.Context, string, string) (string, error) {
	return "", no("run a shortcut")
}
func (unavailable) CreateEvent(context.Context, string, time.Time, time.Time) error {
	return no("create a calendar event")
}
func (unavailable) CreateReminder(context.Context, string, *time.Time) error {
	return no("create a reminder")
}
func (unavailable) SendEmail(context.Context, []string, string, string) error {
	return no("send an email")
}
func (unavailable) Trash(context.Context, string) error { return no("move a file to the Trash") }
func (unavailable) RunAppleScript(context.Context, string, []string, Confine) (string, error) {
	return "", no("run AppleScript")
}
func (unavailable) RunJXA(context.Context, string, []string, Confine) (string, error) {
	return "", no("run JavaScript for Automation")
}
