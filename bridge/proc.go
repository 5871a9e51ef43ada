package bridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
// exited or been killed, for its output pipes to close: a process that left
// the group (setsid) may hold them open.
const waitDelay = 2 * time.Second

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
// session escapes both; RunArgv then waits at most a couple of seconds for
// its pipes before returning.
//
// A non-zero exit is an *ExitError naming the status and the last line of
// stderr.
func RunArgv(ctx context.Context, c Command) (stdout, stderr string, err error) {
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return "", "", errors.New("running a process: no program given")
	}
	if err := context.Cause(ctx); err != nil {
		return "", "", fmt.Errorf("running %s: stopped before it started: %w", c.Argv[0], err)
	}
	limit := c.MaxOutput
	if limit <= 0 {
		limit = DefaultMaxOutput
	}
	cmd := exec.Command(c.Argv[0], c.Argv[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = c.Env
	out, errOut := &capped{limit: limit}, &capped{limit: limit}
	if c.Linger {
		if c.Stdin != "" {
			f, err := stdinFile(c.Stdin)
			if err != nil {
				return "", "", fmt.Errorf("running %s: %w", c.Argv[0], err)
			}
			defer f.Close()
			cmd.Stdin = f
		}
	} else {
		if c.Stdin != "" {
			cmd.Stdin = strings.NewReader(c.Stdin)
		}
		cmd.Stdout, cmd.Stderr = out, errOut
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = waitDelay
	if err := cmd.Start(); err != nil {
		return "", "", fmt.Errorf("running %s: %w", c.Argv[0], err)
	}
	pgid := cmd.Process.Pid

	stopped := false
	werr := waitGroupLeader(ctx, cmd, pgid, !c.Linger, func() { stopped = true })
	if errors.Is(werr, exec.ErrWaitDelay) {
		werr = nil // output pipes held by an escaped process; what was read is kept
	}
	stdout, stderr = out.String(), errOut.String()
	if stopped {
		return stdout, stderr, fmt.Errorf("running %s: stopped: %w", c.Argv[0], context.Cause(ctx))
	}
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		x := &ExitError{Program: c.Argv[0], Code: ee.ExitCode(), LastLine: LastLine(stderr)}
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			x.Signal = ws.Signal().String()
		}
		return stdout, stderr, x
	}
	if werr != nil {
		return stdout, stderr, fmt.Errorf("running %s: %w", c.Argv[0], werr)
	}
	return stdout, stderr, nil
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

// capped keeps the first limit bytes written to it and drops the rest.
type capped struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int
}

func (w *capped) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if room := w.limit - w.buf.Len(); room > 0 {
		w.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (w *capped) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.buf.String()
}
