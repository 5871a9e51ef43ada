//go:build linux

package bridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// The Linux popups are zenity dialogs; zenity_linux.go says how they are
// built. Each runs in its own process group, which is SIGKILLed when the
// caller's context ends (answered elsewhere, timeout, kill switch), so the
// window closes at once, and which the kernel kills if Airlock dies first
// (the parent-death signal), so no popup outlives the app that would read
// its answer.
//
// zenity takes about a tenth of a second to start (it loads some 170
// libraries), most of the time between a request and its popup. So the
// approval popup is started before its request: a spare zenity loads, builds
// its dialog and then waits, reading the text to show from a pipe
// (--filename=/dev/fd/3), until the request comes; its window appears a few
// milliseconds after the text does. One spare is kept, of the kind last
// shown (with or without the remember button); it shows nothing and takes
// no processor time while it waits.

// ruleOffered says whether the approval popup offers "always allow this
// exact command here" (ApprovalPopup.AllowRule) on this platform: zenity shows it as one more button.
const ruleOffered = true

const popupName = "zenity"

func popupsAvailable() error {
	if _, err := exec.LookPath("zenity"); err != nil {
		return fmt.Errorf("%w: zenity is not installed (apt install zenity)", ErrNoPopups)
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return fmt.Errorf("%w: no display (DISPLAY and WAYLAND_DISPLAY are unset)", ErrNoPopups)
	}
	return nil
}

func showApproval(ctx context.Context, p ApprovalPopup) (choice, error) {
	var early time.Duration
	for {
		args, text := zenityApproval(p, early, time.Now())
		r, err := spares.show(ctx, args, text)
		if err != nil {
			return choiceDeny, err
		}
		c, err := approvalResult(r.stdout, r.stderr, r.code)
		if err != nil || c == choiceDeny {
			return choiceDeny, err
		}
		if c == choiceEdit {
			return c, nil // it approves nothing: no arm delay
		}
		if r.shown < p.ArmDelay {
			early = max(r.shown, time.Millisecond)
			continue
		}
		return c, nil
	}
}

func ask(ctx context.Context, q question) (bool, error) {
	var early time.Duration
	for {
		var left time.Duration
		if dl, ok := ctx.Deadline(); ok {
			left = time.Until(dl)
		}
		icon := ""
		if q.warning {
			icon = zenityIcon(ctx)
		}
		r, err := runZenity(ctx, zenityQuestion(q, early, left, icon), "")
		if err != nil {
			return false, err
		}
		yes, err := questionResult(r.stderr, r.code)
		if err != nil || !yes {
			return false, err
		}
		if r.shown < q.arm {
			early = max(r.shown, time.Millisecond)
			continue
		}
		return true, nil
	}
}

func askText(ctx context.Context, title, prompt string) (string, bool, error) {
	r, err := runZenity(ctx, zenityEntry(title, prompt), "")
	if err != nil {
		return "", false, err
	}
	return entryResult(r.stdout, r.stderr, r.code)
}

// editText runs zenity's editable text window with text on its standard
// input, and reads the edit from its standard output.
func editText(ctx context.Context, _ EditPopup, text string) (string, bool, error) {
	r, err := runZenity(ctx, zenityEditor(), text)
	if err != nil {
		return "", false, err
	}
	return editorResult(r.stdout, r.stderr, r.code)
}

func showText(ctx context.Context, title, text string) error {
	r, err := runZenity(ctx, zenityViewer(title), text)
	if err != nil {
		return err
	}
	return viewerResult(r.stderr, r.code)
}

// zenityRun is how one zenity dialog ended.
type zenityRun struct {
	stdout, stderr string
	code           int
	shown          time.Duration // from when it had its text (a spare) or was started, to its exit
}

// spares holds the spare approval popup.
var spares sparePopups

// prepareApprovalPopup starts a spare approval popup of the common kind
// (with the remember and edit buttons: a plan from a verified client).
func prepareApprovalPopup() {
	if popupsAvailable() != nil {
		return
	}
	args, _ := zenityApproval(ApprovalPopup{AllowRemember: true, AllowEdit: true}, 0, time.Now())
	spares.prepare(args)
}

// sparePopups keeps at most one spare: a zenity process started ahead of
// its request, waiting for its text.
type sparePopups struct {
	mu     sync.Mutex
	spare  *spare
	noFeed atomic.Bool // zenity could not read its text from a pipe: no spares
}

// show shows a zenity dialog started with args whose text (read from fd 3)
// is text, and waits until it ends or ctx does. It uses the spare when the
// spare was started with the same arguments and environment and is still
// waiting; otherwise it starts zenity now. Either way it then starts a
// spare like it for the next request.
func (sp *sparePopups) show(ctx context.Context, args []string, text string) (zenityRun, error) {
	if err := ctx.Err(); err != nil {
		return zenityRun{}, err
	}
	if sp.noFeed.Load() {
		// This zenity cannot read its text from a pipe: it gets it on
		// standard input, and no spare is kept.
		return runZenity(ctx, args, text)
	}
	env := popupEnv()
	if s := sp.take(args, env); s != nil {
		r, done, err := sp.showSpare(ctx, s, text)
		if done {
			return r, err
		}
	}
	s, err := startSpare(args, env)
	if err != nil {
		return zenityRun{}, err
	}
	// The next spare starts once this popup has ended, so that it does not
	// slow this one down.
	defer func() { go sp.prepare(args) }()
	r, err := s.show(ctx, text)
	if err == nil && unread(r) {
		sp.noFeed.Store(true)
		return zenityRun{}, errUnread
	}
	return r, err
}

// showSpare shows text in spare s. done is false when s ended without
// anyone having seen it, and the request is to be shown in a fresh zenity.
func (sp *sparePopups) showSpare(ctx context.Context, s *spare, text string) (r zenityRun, done bool, err error) {
	if unread(zenityRun{stderr: s.proc.Stderr()}) {
		// It could not open its pipe, and so shows an empty box already.
		s.discard()
		sp.noFeed.Store(true)
		r, err = runZenity(ctx, s.args, text)
		return r, true, err
	}
	go sp.prepare(s.args)
	r, err = s.show(ctx, text)
	switch {
	case err == nil && unread(r):
		sp.noFeed.Store(true)
		return zenityRun{}, true, errUnread
	case err == nil && r.code == zenityClosed && r.stdout == "" && r.shown < unseen:
		// Closed sooner than anyone could have read it, with no button:
		// its display connection was most likely lost while it waited
		// (zenity then exits as if closed, and says nothing).
		return r, false, nil
	case err == nil || ctx.Err() != nil:
		return r, true, err
	}
	// It did not run to an answer (killed while it waited, by the OOM
	// killer say): nobody saw it.
	return r, false, err
}

// unseen is how soon after its text a spare popup can end without anyone
// having seen it: sooner than a person can react to a window appearing.
const unseen = 200 * time.Millisecond

// errUnread is the error of an approval popup that could not read its text
// (a zenity confined so that it cannot open /dev/fd/3): it showed an empty
// box, so whatever was pressed in it denies.
var errUnread = errors.New("the approval popup could not read the request it was to show, so it counts as a denial; later popups get it on standard input")

// unread reports whether zenity said it could not read its text, or that
// the text was not UTF-8 (it then shows only what came before). Its
// answer then stands for nothing the person saw.
func unread(r zenityRun) bool {
	return strings.Contains(r.stderr, "Cannot open file") || strings.Contains(r.stderr, "Invalid UTF-8")
}

// take returns the spare if it matches and is still waiting, and forgets it
// either way.
func (sp *sparePopups) take(args, env []string) *spare {
	sp.mu.Lock()
	s := sp.spare
	sp.spare = nil
	sp.mu.Unlock()
	switch {
	case s == nil:
		return nil
	case !s.usable(args, env):
		s.discard()
		return nil
	}
	return s
}

// prepare starts a spare for args unless one is already waiting.
func (sp *sparePopups) prepare(args []string) {
	if sp.noFeed.Load() {
		return
	}
	env := popupEnv()
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if s := sp.spare; s != nil {
		if s.usable(args, env) {
			return
		}
		s.discard()
		sp.spare = nil
	}
	if displayIdentity(env) == "" {
		return // no spare could be used: each popup starts zenity itself
	}
	s, err := startSpare(args, env)
	if err != nil {
		return // the next popup starts zenity itself and reports the error
	}
	sp.spare = s
}

// spare is a zenity process started with its arguments but not yet its
// text: it blocks reading fd 3 before it shows anything.
type spare struct {
	args, env []string
	display   string // displayIdentity(env) when it was started
	proc      *Proc
	text      *os.File           // the write end of the pipe zenity reads its text from
	stop      context.CancelFunc // kills zenity's group
	exited    chan struct{}      // closed when zenity has exited and been reaped
	stdout    string             // set before exited is closed
	stderr    string
	err       error
}

// startSpare starts zenity with args and the read end of a fresh pipe as fd
// 3, whose name is its --filename.
func startSpare(args, env []string) (*spare, error) {
	path, err := exec.LookPath("zenity")
	if err != nil {
		return nil, fmt.Errorf("%w: zenity is not installed", ErrNoPopups)
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("running zenity: %w", err)
	}
	defer r.Close() // zenity has its own copy
	argv := append([]string{path}, args...)
	argv = append(argv, "--filename=/dev/fd/3")
	p, err := StartArgv(Command{Argv: argv, Env: env, ExtraFiles: []*os.File{r}, MaxOutput: maxOutput, DieWithParent: true})
	if err != nil {
		w.Close()
		return nil, err
	}
	ctx, stop := context.WithCancel(context.Background())
	s := &spare{args: args, env: env, display: displayIdentity(env), proc: p, text: w, stop: stop, exited: make(chan struct{})}
	go func() {
		defer close(s.exited)
		s.stdout, s.stderr, s.err = p.Wait(ctx)
	}()
	return s, nil
}

// usable reports whether the spare can show a popup started with args and
// env now: it is still waiting, and on the same display server. A spare
// blocked on its pipe does not notice its display server going away; shown
// then, it would exit at once as if closed, a denial nobody saw. So the
// server's socket is checked: a server started since has a new one.
func (s *spare) usable(args, env []string) bool {
	return s.alive() && slices.Equal(s.args, args) && slices.Equal(s.env, env) &&
		s.display != "" && s.display == displayIdentity(env)
}

// displayIdentity names the display server env points at by its socket's
// inode and change time, or is "" when there is no local socket to look
// at (a remote display), so a spare is not used there.
func displayIdentity(env []string) string {
	var id []string
	if d := lookupEnv(env, "DISPLAY"); d != "" {
		// ":0", ":0.0", "unix:0": the local socket /tmp/.X11-unix/X0.
		host, num, ok := strings.Cut(d, ":")
		num, _, _ = strings.Cut(num, ".")
		if !ok || (host != "" && host != "unix") || num == "" {
			return ""
		}
		id = append(id, socketIdentity("/tmp/.X11-unix/X"+num))
	}
	if w := lookupEnv(env, "WAYLAND_DISPLAY"); w != "" {
		if !filepath.IsAbs(w) {
			w = filepath.Join(lookupEnv(env, "XDG_RUNTIME_DIR"), w)
		}
		id = append(id, socketIdentity(w))
	}
	if len(id) == 0 || slices.Contains(id, "") {
		return ""
	}
	return strings.Join(id, " ")
}

// socketIdentity is path's inode and change time, or "" if it is not a
// socket.
func socketIdentity(path string) string {
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFSOCK {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d.%d", path, st.Ino, st.Ctim.Sec, st.Ctim.Nsec)
}

// alive reports whether zenity is still waiting (a spare whose display
// closed its connection while zenity was reading it, for one, has exited).
func (s *spare) alive() bool {
	select {
	case <-s.exited:
		return false
	default:
		return true
	}
}

// discard kills a spare that will not be shown.
func (s *spare) discard() {
	s.stop()
	s.text.Close()
}

// show gives zenity its text and waits until it exits or ctx ends, when it
// kills zenity's group. shown is counted from when the text was given.
func (s *spare) show(ctx context.Context, text string) (zenityRun, error) {
	defer s.discard()
	stopOnCancel := context.AfterFunc(ctx, s.stop)
	defer stopOnCancel()
	fed := time.Now()
	go func() {
		// Closing the pipe is the end of the text: zenity then shows it. A
		// write to a zenity that has died fails, and its exit is reported.
		io.WriteString(s.text, text)
		s.text.Close()
	}()
	<-s.exited
	return zenityEnded(ctx, s.stdout, s.stderr, s.err, time.Since(fed))
}

// maxOutput bounds what is kept of zenity's output.
const maxOutput = 64 << 10

// runZenity runs zenity with args and stdin until it exits or ctx ends. When
// ctx ends it SIGKILLs zenity's process group and returns ctx's error.
func runZenity(ctx context.Context, args []string, stdin string) (zenityRun, error) {
	path, err := exec.LookPath("zenity")
	if err != nil {
		return zenityRun{}, fmt.Errorf("%w: zenity is not installed", ErrNoPopups)
	}
	if err := ctx.Err(); err != nil {
		return zenityRun{}, err
	}
	start := time.Now()
	stdout, stderr, err := RunArgv(ctx, Command{Argv: append([]string{path}, args...),
		Env: popupEnv(), Stdin: stdin, MaxOutput: maxOutput, DieWithParent: true})
	return zenityEnded(ctx, stdout, stderr, err, time.Since(start))
}

// zenityEnded is how a zenity dialog ended, from what RunArgv or Proc.Wait
// returned: ctx's error when ctx ended it, an error when zenity could not
// run or was killed, otherwise its status and output.
func zenityEnded(ctx context.Context, stdout, stderr string, err error, shown time.Duration) (zenityRun, error) {
	if ctx.Err() != nil {
		return zenityRun{}, ctx.Err()
	}
	var ee *ExitError
	switch {
	case errors.As(err, &ee) && ee.Signal == "":
		return zenityRun{stdout, stderr, ee.Code, shown}, nil
	case err != nil:
		return zenityRun{}, fmt.Errorf("running zenity: %w", err)
	}
	return zenityRun{stdout, stderr, 0, shown}, nil
}

// popupEnv is zenity's environment: this process's, with a UTF-8 locale
// (zenityEnv) and NO_AT_BRIDGE, so that GTK does not look for the
// accessibility bus at start-up, which cost each popup tens of
// milliseconds here.
func popupEnv() []string {
	return append(zenityEnv(os.Environ()), "NO_AT_BRIDGE=1")
}

// zenityIcons caches the warning icon's argument for this zenity, read
// from `zenity --version` once it could be (zenity 3 needs a display even
// for that): see zenityIconArg.
var zenityIcons struct {
	mu    sync.Mutex
	known bool   // guarded by mu
	arg   string // guarded by mu
}

// zenityIcon returns the warning icon's argument ("" when the version
// could not be read: the question then shows zenity's own icon).
func zenityIcon(ctx context.Context) string {
	zenityIcons.mu.Lock()
	defer zenityIcons.mu.Unlock()
	if zenityIcons.known {
		return zenityIcons.arg
	}
	path, err := exec.LookPath("zenity")
	if err != nil {
		return ""
	}
	vctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	out, _, err := RunArgv(vctx, Command{Argv: []string{path, "--version"}, Env: popupEnv(), MaxOutput: 4096, DieWithParent: true})
	if err != nil {
		return ""
	}
	zenityIcons.arg, zenityIcons.known = zenityIconArg(out), true
	return zenityIcons.arg
}
