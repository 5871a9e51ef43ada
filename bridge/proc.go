package bridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"
)

// DefaultMaxOutput is the cap on each of stdout and stderr when
// Command.MaxOutput is 0.
const DefaultMaxOutput = 1 << 20

// waitDelay bounds how long RunArgv waits, once the process it started has
// exited, for its output pipes to close: a process that left the group
// (setsid) may hold them open. A contained process's escapes are killed
// first, so for it only a descriptor handed to an unrelated process can.
const waitDelay = 2 * time.Second

// stoppedWaitDelay is waitDelay once ctx is done: the output of a stopped
// process is not waited for, so the kill switch never waits on a pipe.
const stoppedWaitDelay = 10 * time.Millisecond

// Command is a process to run: an argument vector, never a shell line.
type Command struct {
	Argv      []string // Argv[0] is the program: a path, or a name looked up in PATH
	Dir       string   // working folder; "" means the current one
	Env       []string // the whole environment; nil means this process's own
	Stdin     string   // fed to standard input; "" means none (/dev/null)
	MaxOutput int      // cap in bytes on each of stdout and stderr; 0 means DefaultMaxOutput

	// Linger leaves running what the program starts in its group once the
	// program itself has exited: a launcher's app (gio open, gio launch,
	// xdg-open) or a clipboard owner that serves the selection (xclip,
	// wl-copy). Cancelling ctx while the program runs still kills the whole
	// group. The program's output is not collected (it goes to /dev/null,
	// since what lingers would hold a pipe open), and Stdin is given from an
	// unlinked temporary file so that nothing can block on it.
	Linger bool

	// ExtraFiles are given to the program as file descriptors 3, 4, ….
	ExtraFiles []*os.File

	// Contain runs the program as an action: in a session of its own (so it
	// has no controlling terminal) with none of Airlock's file descriptors
	// but the ones given, and so that nothing it starts outlives it. On
	// Linux that reaches what left its group too: when the program exits
	// or ctx is done, every process it started is killed, including ones
	// that called setsid or double-forked (contain_linux.go says how).
	// Elsewhere only its process group is killed. Not with Linger.
	Contain bool

	// DieWithParent has the kernel SIGKILL the program if Airlock dies
	// first, so that, for example, a popup never outlives the app that
	// would have read its answer. Linux only (the parent-death signal);
	// elsewhere it does nothing.
	DieWithParent bool

	// NewSession starts the program in a session of its own instead of
	// only a process group: it has no controlling terminal, so it can
	// neither read nor inject input into the terminal Airlock runs in. It
	// still leads its own process group, which is killed as RunArgv says.
	NewSession bool

	// Namespaces (Linux only; elsewhere StartArgv refuses it) starts the
	// program, in a session of its own, in new user, mount, PID, IPC and
	// (unless HostNetwork) network namespaces, with this user's uid and
	// gid mapped to themselves: it
	// is PID 1 there, so that when it exits every process it left behind
	// is killed by the kernel. It holds CAP_SYS_ADMIN and CAP_SETPCAP in
	// those namespaces (only there), to set them up; it must drop them
	// before it runs anything else. It is how the sandbox's launcher
	// starts.
	Namespaces bool

	// HostNetwork keeps a program started with Namespaces in the host's
	// network namespace. Without it the program's network namespace is
	// new: an unconfigured loopback only, so nothing listening on this
	// machine or beyond it can be reached, and /proc/net lists only its
	// own sockets.
	HostNetwork bool

	// Name is what errors call the program; "" means Argv[0]. A launcher
	// that runs another program gives that program's name.
	Name string

	// Output, when not nil, is handed each piece of stdout (stderr false)
	// and stderr (true) as the program writes it, within the cap: what it
	// is handed, in order, is exactly what RunArgv returns. It is called
	// from the goroutines that read the pipes, so it must not block (a
	// program blocks on a full pipe) and must not keep p. Not with Linger.
	Output func(p []byte, stderr bool)

	// Warm, when not nil, is a process started ahead for a command of
	// this one's shape (StartWarm): StartArgv hands this command to it
	// instead of starting a new process, and starts it cold as usual when
	// that process is used, closed, gone or of another shape. Linux only.
	Warm *Warm

	// ownPipes has StartArgv read the output's pipes itself, not os/exec
	// (StartWarm: a warm process's Wait may end on its word, before its
	// exit).
	ownPipes bool
}

// ExitError is the error of a process that ran and failed.
type ExitError struct {
	Program  string // Argv[0]
	Code     int    // the exit status, or -1 when a signal ended it
	Signal   string // the signal that ended it, or ""
	LastLine string // the last non-blank line of stderr, trimmed
}

func (e *ExitError) Error() string {
	what := fmt.Sprintf("exited with status %d", e.Code)
	if e.Signal != "" {
		what = "was killed by " + e.Signal
	}
	msg := filepath.Base(e.Program) + " " + what
	if e.LastLine != "" {
		msg += ": " + e.LastLine
	}
	return msg
}

// RunArgv runs c.Argv[0] with the arguments c.Argv[1:] exactly as given: no
// shell sees them, so "$(id)" or "; rm -rf ~" are just text. It returns what
// the process wrote, each stream cut at the cap (the rest is read and
// dropped, so the process never blocks on a full pipe).
//
// The process is the leader of a new process group. When it exits, anything
// it left running in that group is killed (unless c.Linger), so nothing
// started here outlives the call. When ctx is done first, the whole group
// gets SIGKILL at once, RunArgv returns promptly, and its error wraps
// context.Cause(ctx). A process that moves itself to another group or
// session escapes both unless c.Contain; RunArgv then waits at most a
// couple of seconds for its pipes before returning (a few milliseconds
// once ctx is done).
//
// A non-zero exit is an *ExitError naming the status and the last line of
// stderr.
func RunArgv(ctx context.Context, c Command) (stdout, stderr string, err error) {
	if len(c.Argv) > 0 {
		if err := context.Cause(ctx); err != nil {
			return "", "", fmt.Errorf("running %s: stopped before it started: %w", c.Argv[0], err)
		}
	}
	p, err := StartArgv(c)
	if err != nil {
		return "", "", err
	}
	return p.Wait(ctx)
}

// Proc is a process started by StartArgv, the leader of its own process
// group. Wait must be called once, to reap it.
type Proc struct {
	cmd         *exec.Cmd
	pgid        int
	program     string
	linger      bool
	contained   bool
	ownPIDNS    bool           // started in a PID namespace of its own (Namespaces): nothing it starts becomes our orphan
	before      map[int]uint64 // for Contain: the orphans we had when it started (contain_linux.go)
	out, errOut *capped
	stdin       *os.File // Linger's temporary file, closed by Wait

	// pipes are the output's pipes when this process reads them itself
	// (a warm process's: its Wait may end before the process does), not
	// os/exec.
	pipes *outPipes
	// warm is the warm process this command runs in (StartWarm), which
	// may say that the command has ended before it exits itself.
	warm *Warm
}

// StartArgv starts c as RunArgv does and returns at once; Proc.Wait waits
// for it. It is for a process that must be running before its work is
// known, such as a popup that loads while the request is on its way.
func StartArgv(c Command) (*Proc, error) {
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return nil, errors.New("running a process: no program given")
	}
	name := c.Name
	if name == "" {
		name = c.Argv[0]
	}
	if c.Contain && c.Linger {
		return nil, fmt.Errorf("running %s: a contained process cannot linger", name)
	}
	if c.Output != nil && c.Linger {
		return nil, fmt.Errorf("running %s: the output of a lingering process is not read", name)
	}
	if c.Namespaces && runtime.GOOS != "linux" {
		return nil, fmt.Errorf("running %s: namespaces are Linux only", name)
	}
	limit := c.MaxOutput
	if limit <= 0 {
		limit = DefaultMaxOutput
	}
	if c.Warm != nil {
		if p, err := c.Warm.claim(c, name, limit); err == nil {
			return p, nil
		}
		// Used, closed, gone or of another shape: a cold start, as if there
		// had been none.
	}
	cmd := exec.Command(c.Argv[0], c.Argv[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	cmd.ExtraFiles = c.ExtraFiles
	p := &Proc{cmd: cmd, program: name, linger: c.Linger, contained: c.Contain, ownPIDNS: c.Namespaces,
		out: &capped{limit: limit}, errOut: &capped{limit: limit}}
	if c.Output != nil {
		p.out.tap = func(b []byte) { c.Output(b, false) }
		p.errOut.tap = func(b []byte) { c.Output(b, true) }
	}
	if c.Linger {
		if c.Stdin != "" {
			f, err := stdinFile(c.Stdin)
			if err != nil {
				return nil, fmt.Errorf("running %s: %w", name, err)
			}
			p.stdin = f
			cmd.Stdin = f
		}
	} else {
		if c.Stdin != "" {
			cmd.Stdin = strings.NewReader(c.Stdin)
		}
		cmd.Stdout, cmd.Stderr = p.out, p.errOut
		if c.ownPipes {
			var err error
			if p.pipes, err = newOutPipes(); err != nil {
				return nil, fmt.Errorf("running %s: %w", name, err)
			}
			cmd.Stdout, cmd.Stderr = p.pipes.w[0], p.pipes.w[1]
		}
	}
	cmd.SysProcAttr = sysProcAttr(c)
	cmd.WaitDelay = waitDelay
	before, err := startCmd(cmd, c.Contain, c.Contain && !c.Namespaces)
	if err != nil {
		if p.stdin != nil {
			p.stdin.Close()
		}
		if p.pipes != nil {
			p.pipes.closeAll()
		}
		return nil, fmt.Errorf("running %s: %w", name, err)
	}
	if p.pipes != nil {
		p.pipes.copy(p.out, p.errOut)
	}
	p.before = before
	p.pgid = cmd.Process.Pid
	return p, nil
}

// Stderr is what the process has written to standard error so far (cut at
// the cap), for a caller that looks before Wait returns.
func (p *Proc) Stderr() string { return p.errOut.String() }

// Pid is the process's id, which is also its group's.
func (p *Proc) Pid() int { return p.pgid }

// Wait waits for the process to exit, or kills its group when ctx is done
// first, and returns as RunArgv does.
func (p *Proc) Wait(ctx context.Context) (stdout, stderr string, err error) {
	if p.stdin != nil {
		defer p.stdin.Close()
	}
	stopped := false
	werr := p.waitLeader(ctx, func() { stopped = true })
	if errors.Is(werr, exec.ErrWaitDelay) {
		werr = nil // output pipes held by an escaped process; what was read is kept
	}
	stdout, stderr = p.out.String(), p.errOut.String()
	if stopped {
		return stdout, stderr, fmt.Errorf("running %s: stopped: %w", p.program, context.Cause(ctx))
	}
	var end endedWith
	if errors.As(werr, &end) {
		// Said by the warm process: as the exit status of a process that
		// exits (the sandbox's launcher exits with it).
		return stdout, stderr, &ExitError{Program: p.program, Code: int(end), LastLine: LastLine(stderr)}
	}
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		x := &ExitError{Program: p.program, Code: ee.ExitCode(), LastLine: LastLine(stderr)}
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			x.Signal = ws.Signal().String()
		}
		return stdout, stderr, x
	}
	if werr != nil {
		return stdout, stderr, fmt.Errorf("running %s: %w", p.program, werr)
	}
	return stdout, stderr, nil
}

// endedWith is waitLeader's error for a command whose warm process said it
// ended with this non-zero status (its Wait did not wait for the process's
// own exit).
type endedWith int

func (e endedWith) Error() string { return fmt.Sprintf("ended with status %d", int(e)) }

// outPipes are a process's standard output and error pipes, read here
// rather than by os/exec, so that their end can be waited for apart from
// the process's exit.
type outPipes struct {
	r, w [2]*os.File   // read ends (ours), write ends (the process's, closed here once it has started)
	done chan struct{} // closed once both have been read to their end, or closed
}

// newOutPipes makes the two pipes.
func newOutPipes() (*outPipes, error) {
	o := &outPipes{done: make(chan struct{})}
	for i := range o.r {
		r, w, err := os.Pipe()
		if err != nil {
			o.closeAll()
			return nil, fmt.Errorf("making the output's pipes: %w", err)
		}
		o.r[i], o.w[i] = r, w
	}
	return o, nil
}

// closeAll closes both ends of both pipes (a process that did not start).
func (o *outPipes) closeAll() {
	for i := range o.r {
		if o.r[i] != nil {
			o.r[i].Close()
			o.w[i].Close()
		}
	}
}

// copy closes the write ends (the process has its own) and reads each pipe
// into its capped writer until its end.
func (o *outPipes) copy(out, errOut *capped) {
	var wg sync.WaitGroup
	for i, w := range []*capped{out, errOut} {
		o.w[i].Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, _ = io.Copy(w, o.r[i])
			o.r[i].Close()
		}()
	}
	go func() {
		wg.Wait()
		close(o.done)
	}()
}

// drain waits until both pipes have been read to their end, or delay has
// passed: then it closes them (what holds them is not the command: a
// descriptor it handed away), keeping what was read, as os/exec's
// WaitDelay does.
func (o *outPipes) drain(delay time.Duration) {
	t := time.NewTimer(delay)
	defer t.Stop()
	select {
	case <-o.done:
		return
	case <-t.C:
	}
	o.r[0].Close()
	o.r[1].Close()
	<-o.done
}

// stdinFile returns an unlinked temporary file holding s, positioned at its
// start.
func stdinFile(s string) (*os.File, error) {
	f, err := os.CreateTemp("", "airlock-stdin-")
	if err != nil {
		return nil, fmt.Errorf("buffering standard input: %w", err)
	}
	os.Remove(f.Name())
	if _, err := f.WriteString(s); err != nil {
		f.Close()
		return nil, fmt.Errorf("buffering standard input: %w", err)
	}
	if _, err := f.Seek(0, 0); err != nil {
		f.Close()
		return nil, fmt.Errorf("buffering standard input: %w", err)
	}
	return f, nil
}

// killGroup sends SIGKILL to every process in the group. ESRCH (nothing
// left) is not an error.
func killGroup(pgid int) {
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
}

// LastLine returns the last non-blank line of s, trimmed and cut to 200
// bytes: what a failed program's stderr says in one line.
func LastLine(s string) string {
	s = lastLine(s)
	if len(s) > 200 {
		cut := 200
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

// lastLine returns the last non-blank line of s, trimmed.
func lastLine(s string) string {
	s = strings.TrimRight(s, " \t\r\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return strings.TrimSpace(s)
}

// capped keeps the first limit bytes written to it and drops the rest;
// tap, when set, is handed what it keeps (Command.Output).
type capped struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int
	tap   func([]byte)
}

func (w *capped) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if room := w.limit - w.buf.Len(); room > 0 {
		kept := p[:min(len(p), room)]
		w.buf.Write(kept)
		if w.tap != nil {
			w.tap(kept)
		}
	}
	return len(p), nil
}

// set sets the cap and the tap of a capped that has kept nothing yet (a
// warm process's, when its command comes).
func (w *capped) set(limit int, tap func([]byte)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.limit, w.tap = limit, tap
}

func (w *capped) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}
