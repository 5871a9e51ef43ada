package bridge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// ErrUnavailable is wrapped by the error of every action this platform
// cannot carry out, or cannot carry out here because a tool it needs is
// missing. app/internal/execute's ErrUnavailable is this same value.
var ErrUnavailable = errors.New("not available on this platform")

// Confine turns the Command that runs an action's script into one that runs
// it confined by the OS sandbox (app/internal/sandbox), and returns what to
// call once the command has ended. The bridge holds no policy: the caller
// decides what the confinement is.
type Confine func(Command) (confined Command, done func(), err error)

// ErrScriptTimeout is wrapped by the error of a script, shortcut or
// validation that ran past the script timeout (Options.ScriptTimeout); its
// process group was killed.
var ErrScriptTimeout = errors.New("ran past its time limit and was stopped")

// UnavailableError is the error of an action this platform, or this
// machine, cannot do. Its text is safe to show the person: "send an email:
// needs macOS".
type UnavailableError struct {
	Action string // what was asked, in words: "send an email"
	Reason string // why not: "needs macOS"; "" means ErrUnavailable's text
}

func (e *UnavailableError) Error() string {
	if e.Reason == "" {
		return e.Action + ": " + ErrUnavailable.Error()
	}
	return e.Action + ": " + e.Reason
}

func (e *UnavailableError) Unwrap() error { return ErrUnavailable }

// needsMacOS is the error of what only macOS can do.
func needsMacOS(action string) error {
	return &UnavailableError{Action: action, Reason: "needs macOS"}
}

// Script timeouts: the default and the range Options.ScriptTimeout may take.
const (
	DefaultScriptTimeout = 30 * time.Second
	MinScriptTimeout     = 1 * time.Second
	MaxScriptTimeout     = 300 * time.Second
)

// Options configure a Desktop.
type Options struct {
	// Helper is the airlock executable that serves --applescript-helper;
	// "" means this program (os.Executable).
	Helper string
	// ScriptTimeout bounds each AppleScript, JXA script, shortcut and
	// validation: 0 means DefaultScriptTimeout; otherwise it must lie
	// from MinScriptTimeout to MaxScriptTimeout.
	ScriptTimeout time.Duration
	// Env is the environment of every tool and helper the bridge runs, and
	// where it reads DISPLAY, WAYLAND_DISPLAY, DBUS_SESSION_BUS_ADDRESS and
	// the XDG directories; its PATH is where Linux tools are looked up.
	// nil means this process's environment.
	Env []string
}

// Desktop carries out the desktop actions of the Action DSL on this
// platform: NSWorkspace, NSPasteboard, NSAppleScript (in a helper child),
// osascript and shortcuts on macOS; gio, xdg-open, notify-send, espeak-ng,
// xclip or wl-copy, gsettings, pactl and D-Bus on Linux. Its method set is
// app/internal/execute's Desktop contract: every method honours ctx (the
// processes it starts are killed as a group when ctx is done), passes values
// as values (argv, stdin or Apple event parameters; never spliced into
// source or a shell line), holds no policy, and wraps ErrUnavailable for
// what this platform cannot do. It is safe for concurrent use.
type Desktop struct {
	helper  string
	timeout time.Duration
	env     []string
	tools   map[string]string // program name → path, set only by tests
}

// NewDesktop returns the Desktop for this platform.
func NewDesktop(opts Options) (*Desktop, error) {
	d := &Desktop{helper: opts.Helper, timeout: opts.ScriptTimeout, env: opts.Env}
	switch {
	case d.timeout == 0:
		d.timeout = DefaultScriptTimeout
	case d.timeout < MinScriptTimeout || d.timeout > MaxScriptTimeout:
		return nil, fmt.Errorf("bridge: script timeout %v: want %v to %v", opts.ScriptTimeout, MinScriptTimeout, MaxScriptTimeout)
	}
	if d.env == nil {
		d.env = os.Environ()
	}
	if d.helper == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("bridge: finding this program for the AppleScript helper: %w", err)
		}
		d.helper = exe
	}
	return d, nil
}

// getenv reads key from the Desktop's environment.
func (d *Desktop) getenv(key string) string {
	for i := len(d.env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(d.env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// tool finds a program: a test's override, then an absolute path as it
// stands, then a name in the Desktop's PATH. action names what needed it,
// for the error.
func (d *Desktop) tool(action, name string) (string, error) {
	if p, ok := d.tools[name]; ok {
		return p, nil
	}
	if filepath.IsAbs(name) {
		if isExecutable(name) {
			return name, nil
		}
		return "", &UnavailableError{Action: action, Reason: "needs " + name + ", which is not installed"}
	}
	for _, dir := range filepath.SplitList(d.getenv("PATH")) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // a relative PATH entry would run whatever is in the working folder
		}
		if p := filepath.Join(dir, name); isExecutable(p) {
			return p, nil
		}
	}
	return "", &UnavailableError{Action: action, Reason: "needs " + name + ", which is not in PATH"}
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// run runs c with the Desktop's environment.
func (d *Desktop) run(ctx context.Context, c Command) (stdout, stderr string, err error) {
	if c.Env == nil {
		c.Env = d.env
	}
	return RunArgv(ctx, c)
}

// checkText refuses a value that cannot travel intact: one with a NUL byte
// (a C string would end there, so the receiver would see a prefix of what
// was approved) or that is not UTF-8 (the conversion to NSString fails).
func checkText(what, s string) error {
	if strings.IndexByte(s, 0) >= 0 {
		return fmt.Errorf("%s holds a NUL byte, which would cut it short", what)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("%s is not valid UTF-8", what)
	}
	return nil
}

// checkScript applies checkText to a script and each of its arguments.
func checkScript(src string, argv []string) error {
	if err := checkText("the script", src); err != nil {
		return err
	}
	for i, a := range argv {
		if err := checkText(fmt.Sprintf("argument %d", i+1), a); err != nil {
			return err
		}
	}
	return nil
}

// stopError is the error of a run that failed because its context ended:
// one wrapping ErrScriptTimeout when the script timeout (sctx, made by
// scriptContext from ctx) ran out, else one wrapping the cause of ctx (the
// kill switch). It is nil when sctx has not ended.
func (d *Desktop) stopError(sctx, ctx context.Context, what string) error {
	if sctx.Err() == nil {
		return nil
	}
	if ctx.Err() == nil && errors.Is(context.Cause(sctx), errScriptDeadline) {
		return fmt.Errorf("%s %w (after %v)", what, ErrScriptTimeout, d.timeout)
	}
	return fmt.Errorf("%s was stopped: %w", what, context.Cause(ctx))
}

// errScriptDeadline is the cause of a script context's timeout, so that a
// deadline of the caller's is not mistaken for the script's.
var errScriptDeadline = errors.New("script timeout")

// scriptContext bounds one script run by the script timeout.
func (d *Desktop) scriptContext(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeoutCause(ctx, d.timeout, errScriptDeadline)
}
