package bridge

import (
	"context"
	"io"
	"time"
)

// For the tests.
var (
	ShownLine  = shownLine
	ShownBlock = shownBlock
	PressOffer = pressOffer
	Excerpt    = excerpt
	DateArgs   = dateArgs
	TimeLeft   = timeLeft
)

// SetAuthenticateOwner makes ShowApproval ask f for the owner's
// authentication until the returned function restores Authenticate.
func SetAuthenticateOwner(f func(ctx context.Context, reason string) error) (restore func()) {
	old := authenticateOwner
	authenticateOwner = f
	return func() { authenticateOwner = old }
}

// Details is p's full text as its popup shows it.
func Details(p ApprovalPopup, now time.Time) string { return p.details(now) }

// EditErrors is the question that shows why an edit was refused.
func EditErrors(p EditPopup, now time.Time) (title, text, yes, no string) {
	q := editErrorsQuestion(p, now)
	return q.title, q.text, q.yes, q.no
}

// Summary is p's headline.
func Summary(p ApprovalPopup) string { return p.summary() }

// ConfirmItem is the question that asks about it on its own.
func ConfirmItem(p ApprovalPopup, it PopupItem, now time.Time) (title, text, yes, no string, arm time.Duration) {
	q := confirmItemQuestion(p, it, now)
	return q.title, q.text, q.yes, q.no, q.arm
}

// What the tests reach inside the package: the portable halves of the
// macOS paths (the helper protocol, osascript, shortcuts) run on Linux
// against stand-ins.

// ServeHelper is AppleScriptHelper with a stand-in interpreter.
func ServeHelper(stdin io.Reader, stdout io.Writer, args []string, interp func(src string, argv []string, compile bool) (string, error)) int {
	return serveHelper(stdin, stdout, args, interp)
}

// RunHelper runs one script through d's helper child.
func RunHelper(ctx context.Context, d *Desktop, src string, argv []string, compile bool) (string, error) {
	return d.runHelper(ctx, src, argv, compile, nil)
}

// RunJXA runs a JXA script through osascript (a shim in the tests).
func RunJXA(ctx context.Context, d *Desktop, src string, argv []string) (string, error) {
	return d.runJXA(ctx, src, argv, nil)
}

// RunShortcut runs a shortcut through the shortcuts CLI (a shim).
func RunShortcut(ctx context.Context, d *Desktop, name, input string) (string, error) {
	return d.runShortcut(ctx, name, input)
}

// SetTool makes d run path for the program name.
func SetTool(d *Desktop, name, path string) {
	if d.tools == nil {
		d.tools = map[string]string{}
	}
	d.tools[name] = path
}

// Paths of the macOS tools, for SetTool.
const (
	OsascriptPath = osascriptPath
	ShortcutsPath = shortcutsPath
)

// DesktopEntry is what FindDesktopFile reports.
type DesktopEntry = desktopEntry

var (
	FindDesktopFile = findDesktopFile
	FindAppBundle   = findAppBundle
	ParseOSAError   = parseOSAError
	CheckAppName    = checkAppName
)

// DecodeAnswer reports whether b is a valid helper answer, and re-encodes
// it.
func DecodeAnswer(b []byte) (ok bool, err error) {
	_, err = decodeAnswer(b)
	return err == nil, err
}

// DecodeRequest decodes a helper request.
func DecodeRequest(r io.Reader) (src string, argv []string, compile bool, err error) {
	req, err := decodeRequest(r)
	return req.Source, req.Argv, req.Compile, err
}

// Scripts are the fixed AppleScripts behind DSL commands.
var Scripts = map[string]string{
	"notify": notifyScript, "volume": volumeScript, "event": eventScript,
	"reminder": reminderScript, "mail": mailScript,
}
