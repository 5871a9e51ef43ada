package execute

import (
	"context"
	"errors"
	"fmt"
	"net/mail"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sanitize"
	"github.com/airlockhq/airlock/bridge"
)

// Executor carries out one approved action at a time. Its fields are set
// once, before use, and changed after only by Reconfigure; it is safe for
// concurrent use.
type Executor struct {
	Desktop Desktop          // everything that is not a file operation; nil means Unavailable()
	Trash   Trasher          // where deleted and replaced things go; nil refuses them
	Paths   *sanitize.Config // the sandbox, checked again here; nil refuses every path
	// Sandbox confines commands and scripts (the OS sandbox). nil runs
	// commands unconfined and refuses scripts: for tests only.
	Sandbox *sandbox.Box

	// one holds a token while an action runs: actions run one at a time, so
	// that no action can move or swap a folder (a link to a credential store
	// inside it) between another action's path check and its use.
	one chan struct{}
	mk  sync.Once
	// links is the index of the links in the sandbox roots, kept across
	// reviews (rootlinks.go).
	links rootLinks
	// home is the index of the home's folders outside the roots
	// (homesecrets.go), for Linux, where the sandbox hides by path.
	home homeIndex
	// stores is what the parts of the repositories' object stores hold
	// (gitstore.go).
	stores gitStores
	// shown are the files launches opened, while their programs run
	// (shown.go).
	shown shownFiles
	// boxMu guards Sandbox for KillEscaped, which reads it without the
	// turn (the kill switch does not wait for one); Reconfigure writes it
	// holding both.
	boxMu sync.Mutex
}

// turn waits for the executor's one action at a time, or for ctx to end
// (the kill switch); release gives it back.
func (e *Executor) turn(ctx context.Context) (release func(), err error) {
	e.mk.Do(func() { e.one = make(chan struct{}, 1) })
	select {
	case e.one <- struct{}{}:
		return func() { <-e.one }, nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

// Reconfigure gives the executor the sandbox paths and OS sandbox of
// settings the person reloaded. It waits for the executor's turn (the
// action running now ends with what it started with) or for ctx to end;
// every action after it checks its paths against paths and is confined by
// box. Every read of Paths and Sandbox happens while an action holds the
// turn, so the swap needs no lock of its own.
func (e *Executor) Reconfigure(ctx context.Context, paths *sanitize.Config, box *sandbox.Box) error {
	if paths == nil {
		return errors.New("reconfiguring the executor: no sandbox paths")
	}
	release, err := e.turn(ctx)
	if err != nil {
		return fmt.Errorf("reconfiguring the executor: %w", err)
	}
	defer release()
	old := e.Sandbox
	e.boxMu.Lock()
	e.Paths, e.Sandbox = paths, box
	e.boxMu.Unlock()
	// No launcher started ahead under the old settings serves the new.
	if old != nil && old != box {
		old.Close()
	} else if old != nil {
		old.Discard()
	}
	return nil
}

// KillEscaped kills every process that left the tree of a command this
// executor ran and is still alive, waits until they have died, and returns
// how many it killed (bridge.KillEscaped; 0 where there is no subreaper).
// It also kills the sandbox's launchers started ahead (sandbox.Box.Discard),
// and none is started again until the next action.
func (e *Executor) KillEscaped() int {
	e.boxMu.Lock()
	box := e.Sandbox
	e.boxMu.Unlock()
	if box != nil {
		box.Discard()
	}
	return bridge.KillEscaped()
}

// Result is what an action did.
type Result struct {
	Output  string   // for the person and the history: one line, or a shortcut's output
	Trashed []string // where replaced or deleted things went, in the Trash
	// Changes are what a command that ran unasked changed, as it was
	// applied or put in the Trash (review.go): for the history and undo.
	Changes []ChangeRecord
	// Held, when not nil, are its changes that plant code the person would
	// run later: not applied until the gate has asked the person and
	// called Held.Resolve; then it must call Release, which removes the
	// action's layers.
	Held    *Held
	Release func()
}

// Run carries out one action. Every path is checked again with e.Paths at
// this moment, so a path the sanitiser now blocks is refused even if it
// passed the assessment; the error then wraps sanitize.ErrBlocked. Free text
// passes sanitize.Text (email bodies sanitize.Content) again, and a write
// over sanitize.MaxWriteBytes is refused.
//
// File operations are whole or not at all:
//   - WRITE_FILE, WRITE_DOC: written to a temporary file beside the target and
//     renamed into place; an existing file goes to the Trash first.
//   - APPEND_FILE: appended in place; the old version is not trashed, since
//     it stays intact as the start of the file (the output gives the old
//     size); a failed append is truncated back.
//   - MOVE_FILE, COPY_FILE: an existing destination goes to the Trash first; a
//     folder is copied to a temporary name and renamed. A move across disks
//     is refused.
//   - DELETE_FILE: to the Trash, never unlinked. A symbolic link is deleted
//     or moved as the link; writes and copies act on what it points to.
//   - CREATE_FOLDER: with any missing parents; one already there is fine.
//
// Between the check and the use nothing can redirect a path: every file
// operation opens the sandbox root that holds the path and the folders
// beneath it without following a symbolic link in any element (openat2
// with RESOLVE_NO_SYMLINKS|RESOLVE_BENEATH on Linux, O_NOFOLLOW_ANY on
// macOS), then acts on a name in the open folder (openat, renameat,
// mkdirat with O_NOFOLLOW), the Trash included (Trasher.TrashAt). A folder
// of the path swapped for a link after the check makes the action fail
// with an error wrapping ErrSwapped, having done nothing.
//
// The parent folder of a new file must exist. Everything else goes to
// e.Desktop. Run checks ctx, and the check WithCheck attached to it, before
// it starts; a folder copy stops when ctx is
// done, and the Desktop honours ctx itself.
func (e *Executor) Run(ctx context.Context, a action.Action) (Result, error) {
	return e.RunAssessed(ctx, a, level.Caution)
}

// RunAssessed is Run for an action that was assessed (and approved, or let
// run by the autonomy level) at assessed. A launch — OPEN_FILE, OPEN_URL,
// OPEN_APP — is rated again right before it starts, with the handler the OS
// would start now and the file as it is now (facts.LaunchEffect), and refused
// with an error wrapping ErrLaunchChanged when that is above assessed; the
// handler rated is the one started. Run assumes Caution: what runs unasked.
func (e *Executor) RunAssessed(ctx context.Context, a action.Action, assessed level.Level) (Result, error) {
	if a.Cmd == nil {
		return Result{}, errors.New("running an action: it has no command")
	}
	release, err := e.turn(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("%s: stopped before it started: %w", a.Cmd.Name, err)
	}
	defer release()
	if err := context.Cause(ctx); err != nil {
		return Result{}, fmt.Errorf("%s: stopped before it started: %w", a.Cmd.Name, err)
	}
	if err := Check(ctx); err != nil {
		return Result{}, fmt.Errorf("%s: not started: %w", a.Cmd.Name, err)
	}
	args := argReader{a: a}
	switch a.Cmd.Name {
	case "WRITE_FILE", "WRITE_DOC":
		path, content := args.str("path"), args.str("content")
		if args.err != nil {
			return Result{}, args.err
		}
		return e.writeFile(ctx, path, content)
	case "APPEND_FILE":
		path, content := args.str("path"), args.str("content")
		if args.err != nil {
			return Result{}, args.err
		}
		return e.appendFile(ctx, path, content)
	case "MOVE_FILE", "COPY_FILE":
		from, to := args.str("from"), args.str("to")
		if args.err != nil {
			return Result{}, args.err
		}
		if a.Cmd.Name == "MOVE_FILE" {
			return e.moveFile(ctx, from, to)
		}
		return e.copyFile(ctx, from, to)
	case "DELETE_FILE":
		path := args.str("path")
		if args.err != nil {
			return Result{}, args.err
		}
		return e.deleteFile(ctx, path)
	case "CREATE_FOLDER":
		path := args.str("path")
		if args.err != nil {
			return Result{}, args.err
		}
		return e.createFolder(ctx, path)
	}
	out, err := e.desktop(ctx, a, &args, assessed)
	if err != nil {
		return Result{}, err
	}
	return Result{Output: out}, nil
}

// desktop runs an action through e.Desktop, after checking its arguments.
func (e *Executor) desktop(ctx context.Context, a action.Action, args *argReader, assessed level.Level) (string, error) {
	d := e.Desktop
	if d == nil {
		d = Unavailable()
	}
	var run func() error
	var out string
	switch a.Cmd.Name {
	case "OPEN_FILE":
		p, app := args.path(e, "path", sanitize.OpOpen), args.app(e, "app")
		run = func() (err error) { out, err = e.launchFile(ctx, d, p, app, assessed); return err }
	case "REVEAL_IN_FINDER":
		p := args.path(e, "path", sanitize.OpOpen)
		run = func() error { return d.Reveal(ctx, p) }
	case "OPEN_URL":
		u := args.url(e, "url")
		run = func() (err error) { out, err = e.launchURL(ctx, d, u, assessed); return err }
	case "COPY_TO_CLIPBOARD":
		t := args.text("text")
		run = func() error { return d.SetClipboard(ctx, t) }
	case "OPEN_APP":
		app := args.app(e, "app")
		run = func() (err error) { out, err = e.launchApp(ctx, d, app, assessed); return err }
	case "QUIT_APP", "ACTIVATE_APP":
		app := args.app(e, "app")
		f := map[string]func(context.Context, string) error{
			"QUIT_APP": d.QuitApp, "ACTIVATE_APP": d.ActivateApp,
		}[a.Cmd.Name]
		run = func() error { return f(ctx, app) }
	case "NOTIFY":
		title, msg, sound := args.text("title"), args.text("message"), args.text("sound")
		run = func() error { return d.Notify(ctx, title, msg, sound) }
	case "SPEAK":
		t := args.text("text")
		run = func() error { return d.Speak(ctx, t) }
	case "SET_VOLUME":
		n := args.number("level", 0, 100)
		run = func() error { return d.SetVolume(ctx, n) }
	case "DO_NOT_DISTURB":
		on := args.onOff("state")
		run = func() error { return d.DoNotDisturb(ctx, on) }
	case "RUN_SHORTCUT":
		name, input := args.text("name"), args.text("input")
		run = func() (err error) { out, err = d.RunShortcut(ctx, name, input); return err }
	case "CREATE_EVENT":
		title, start, end := args.text("title"), args.time("start"), args.time("end")
		if args.err == nil && end.Before(*start) {
			args.err = errors.New("CREATE_EVENT: end is before start")
		}
		run = func() error { return d.CreateEvent(ctx, title, *start, *end) }
	case "CREATE_REMINDER":
		title, due := args.text("title"), args.time("due")
		run = func() error { return d.CreateReminder(ctx, title, due) }
	case "SEND_EMAIL":
		to, subject, body := args.emails("to"), args.text("subject"), args.content("body")
		run = func() error { return d.SendEmail(ctx, to, subject, body) }
	default:
		return "", fmt.Errorf("%s: execute does not know this command", a.Cmd.Name)
	}
	if args.err != nil {
		return "", args.err
	}
	if err := run(); err != nil {
		return "", err
	}
	return out, nil
}

// argReader reads an action's arguments, keeping the first error; optional
// arguments that are absent read as zero values.
type argReader struct {
	a   action.Action
	err error
}

func (r *argReader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
}

// get returns the named argument; a missing one that the command requires
// is an error.
func (r *argReader) get(name string) (string, bool) {
	v, ok := r.a.Arg(name)
	if ok {
		return v, true
	}
	for _, s := range r.a.Cmd.Args {
		if s.Name == name && s.Optional {
			return "", false
		}
	}
	r.fail(fmt.Errorf("%s: the argument %q is missing", r.a.Cmd.Name, name))
	return "", false
}

func (r *argReader) str(name string) string {
	v, _ := r.get(name)
	return v
}

func (r *argReader) text(name string) string {
	v, ok := r.get(name)
	if !ok {
		return ""
	}
	t, err := sanitize.Text(v)
	if err != nil {
		r.fail(err)
	}
	return t
}

func (r *argReader) content(name string) string {
	v, ok := r.get(name)
	if !ok {
		return ""
	}
	t, err := sanitize.Content(v)
	if err != nil {
		r.fail(err)
	}
	return t
}

// app reads an app's name, refused unless the allowed apps (e.Paths) list
// it: checked here again, as the sandbox is.
func (r *argReader) app(e *Executor, name string) string {
	v, ok := r.get(name)
	if !ok {
		return ""
	}
	if err := sanitize.Strict("app", v); err != nil {
		r.fail(err)
	} else if err := e.Paths.App(v); err != nil {
		r.fail(err)
	}
	return v
}

func (r *argReader) path(e *Executor, name string, op sanitize.Op) string {
	v, ok := r.get(name)
	if !ok || r.err != nil {
		return ""
	}
	p, err := e.checkPath(v, op)
	if err != nil {
		r.fail(err)
	}
	return p.Resolved
}

// url checks a URL; a file: URL's path must pass the sandbox for opening.
func (r *argReader) url(e *Executor, name string) string {
	v, ok := r.get(name)
	if !ok || r.err != nil {
		return ""
	}
	u, err := sanitize.URL(v)
	if err != nil {
		r.fail(err)
		return ""
	}
	if strings.EqualFold(u.Scheme, "file") {
		if _, err := e.checkPath(u.Path, sanitize.OpOpen); err != nil {
			r.fail(err)
		}
	}
	return v
}

func (r *argReader) number(name string, lo, hi int) int {
	v, ok := r.get(name)
	if !ok {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		r.fail(fmt.Errorf("%s: %s must be a whole number from %d to %d", r.a.Cmd.Name, name, lo, hi))
	}
	return n
}

func (r *argReader) onOff(name string) bool {
	v, ok := r.get(name)
	if !ok {
		return false
	}
	switch strings.ToUpper(v) {
	case "ON":
		return true
	case "OFF":
		return false
	}
	r.fail(fmt.Errorf("%s: %s must be ON or OFF", r.a.Cmd.Name, name))
	return false
}

// time parses a datetime argument as local time; nil when it is absent.
func (r *argReader) time(name string) *time.Time {
	v, ok := r.get(name)
	if !ok {
		return nil
	}
	for _, layout := range []string{"2006-01-02 15:04:05", "2006-01-02 15:04"} {
		if t, err := time.ParseInLocation(layout, v, time.Local); err == nil {
			return &t
		}
	}
	r.fail(fmt.Errorf("%s: %s is not a date and time like \"2024-01-28 14:00\"", r.a.Cmd.Name, name))
	return &time.Time{}
}

func (r *argReader) emails(name string) []string {
	v, ok := r.get(name)
	if !ok {
		return nil
	}
	var to []string
	for _, s := range strings.Split(v, ",") {
		if s = strings.TrimSpace(s); s != "" {
			if err := sanitize.Strict("email address", s); err != nil {
				r.fail(err)
			} else if a, err := mail.ParseAddress(s); err != nil || a.Name != "" || a.Address != s {
				r.fail(fmt.Errorf("%s: %s is not a bare email address", r.a.Cmd.Name, sanitize.Display(s)))
			}
			to = append(to, s)
		}
	}
	if len(to) == 0 {
		r.fail(fmt.Errorf("%s: %s names no address", r.a.Cmd.Name, name))
	}
	if err := sanitize.List("recipients", to); err != nil {
		r.fail(err)
	}
	return to
}
