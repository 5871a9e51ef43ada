//go:build linux

package bridge

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Warm is a process started ahead of the command it stands in for, waiting
// on WarmFD (warm.go) for that command's standard input and ExtraFiles.
// StartArgv, given a Command whose Warm field holds it, sends them and
// returns the process as its *Proc, the same kind of process a cold start
// makes (a child of this process, in the session, group and namespaces the
// command asks for), so that Wait, the kill switch and the live output
// treat it as any other. A Warm is used by one command, ever: StartArgv
// with a Warm that is used, closed, gone or of another shape starts the
// command cold instead.
//
// It is safe for concurrent use.
type Warm struct {
	shape Command       // the command it stands in for, as StartWarm was given it
	p     *Proc         // the process, from its start
	sock  *os.File      // this end of the socket (non-blocking, so that Close wakes a read)
	ready chan struct{} // closed once it said it waits, or once it is gone
	acked chan struct{} // closed once it said it took its command
	gone  chan struct{} // closed once its end of the socket closed (or it said something else)
	done  chan struct{} // closed once an unclaimed process has been reaped
	ended chan struct{} // closed once it said its command has ended (WarmEnd)
	code  int           // the command's exit status, as it said: set before ended is closed

	mu    sync.Mutex
	state warmState // guarded by mu
}

// warmState is where a Warm is in its one life.
type warmState int

const (
	warmWaiting warmState = iota // started, nobody has claimed it
	warmClaimed                  // a command claimed it (closed again if the handover failed)
	warmClosed                   // closed, or found gone or broken before a claim
)

// errWarmTaken is claim's error for a Warm that is not waiting.
var errWarmTaken = errors.New("the warm process was claimed, closed or has gone")

// StartWarm starts argv in place of c, to wait for a command of c's shape
// (its Argv, Env, Dir and how it starts: NewSession, Namespaces,
// HostNetwork, DieWithParent), which then runs through it: the process
// reads that command's standard input and ExtraFiles from WarmFD when
// StartArgv hands them over. c gives no standard input, extra files,
// Output or Linger: those are the command's, given when it comes. Nor
// Contain: the process starts with none of this one's descriptors but
// WarmFD, as a contained one does, and the rest of Contain (the subreaper,
// the orphans its end sweeps) is applied when a contained command comes.
func StartWarm(c Command, argv []string) (*Warm, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("starting a warm process: no program given")
	}
	if c.Linger || c.Output != nil || c.Stdin != "" || len(c.ExtraFiles) > 0 || c.Warm != nil {
		return nil, fmt.Errorf("starting a warm process for %s: its shape must carry no standard input, extra files, output tap, warm process or Linger", argv[0])
	}
	ours, theirs, err := warmSockets()
	if err != nil {
		return nil, fmt.Errorf("starting a warm process for %s: %w", argv[0], err)
	}
	start := c
	start.Argv, start.Contain, start.ownPipes = argv, false, true
	start.ExtraFiles = []*os.File{theirs} // WarmFD
	var p *Proc
	if err = closeOnExec(); err == nil {
		p, err = StartArgv(start)
	}
	theirs.Close()
	if err != nil {
		ours.Close()
		return nil, err
	}
	return newWarm(c, p, ours), nil
}

// newWarm returns the Warm of p, started for commands of c's shape, whose
// end of the socket is sock, and starts watching what it says.
func newWarm(c Command, p *Proc, sock *os.File) *Warm {
	c.Argv, c.Env, c.Contain = slices.Clone(c.Argv), slices.Clone(c.Env), false
	w := &Warm{shape: c, p: p, sock: sock, ready: make(chan struct{}), acked: make(chan struct{}),
		gone: make(chan struct{}), done: make(chan struct{}), ended: make(chan struct{})}
	go w.watch()
	return w
}

// watch reads what the process says: WarmReady once it waits, WarmAck
// once it has taken its command, then WarmEnd with the command's exit
// status once the command has ended (or nothing), and then its end of the
// socket closes. Gone (or saying anything else) before a claim, it is
// killed and reaped here.
func (w *Warm) watch() {
	defer w.sock.Close()
	var b [2]byte
	said := WarmReady
	for {
		n, err := w.sock.Read(b[:])
		if err != nil || n != 1 || b[0] != said {
			break
		}
		if said == WarmAck {
			close(w.acked)
			w.watchEnd()
			return
		}
		close(w.ready)
		said = WarmAck
	}
	if said == WarmReady {
		close(w.ready)
	}
	close(w.gone)
	w.mu.Lock()
	if w.state != warmWaiting {
		w.mu.Unlock()
		return
	}
	w.state = warmClosed
	w.mu.Unlock()
	w.reap()
}

// watchEnd reads, once the process has taken its command, whether it says
// the command has ended: WarmEnd and the exit status, in one message of
// two bytes. Anything else is not heard: its Wait then waits for the
// process's exit, as for a process that says nothing.
func (w *Warm) watchEnd() {
	var b [3]byte
	n, err := w.sock.Read(b[:])
	if err != nil || n != 2 || b[0] != WarmEnd {
		return
	}
	w.code = int(b[1])
	close(w.ended)
}

// Ready waits until the process waits for its command, and returns nil
// then, or an error once it cannot be used (claimed, closed, gone) or ctx
// is done.
func (w *Warm) Ready(ctx context.Context) error {
	select {
	case <-w.ready:
	case <-ctx.Done():
		return context.Cause(ctx)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.state != warmWaiting {
		return errWarmTaken
	}
	return nil
}

// Pid is the warm process's id.
func (w *Warm) Pid() int { return w.p.pgid }

// Claimed reports whether a command took the process (StartArgv), or is
// being handed to it.
func (w *Warm) Claimed() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.state == warmClaimed
}

// Gone reports whether the process can no longer be used: it was closed,
// or went (or broke the protocol) before a command came.
func (w *Warm) Gone() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.state == warmClosed
}

// Close kills the process and reaps it, unless a command has claimed it
// (then it is that command's, and its Wait's). Once Close returns the
// process is gone. It may be called more than once.
func (w *Warm) Close() {
	w.mu.Lock()
	switch w.state {
	case warmClaimed:
		w.mu.Unlock()
		return
	case warmClosed:
		w.mu.Unlock()
		<-w.done // closed or found gone: reaped by whoever closed it
		return
	}
	w.state = warmClosed
	w.mu.Unlock()
	w.sock.Close() // it reads end of file: nothing will come
	w.reap()
}

// reap kills and reaps a process that ran no command: it started nothing
// of its own, so nothing is swept on its account.
func (w *Warm) reap() {
	defer close(w.done)
	killGroup(w.p.pgid)
	w.p.contained = false
	_, _, _ = w.p.Wait(context.Background())
}

// claim hands c to the waiting process and returns it as c's Proc: c's
// standard input (a pipe fed Stdin, or /dev/null) and ExtraFiles go over
// the socket, its output is capped at limit and tapped as c says, and,
// contained, the orphans it will leave alone are the ones there are now,
// as for a cold start. An error means nothing of c reached a process that
// runs: StartArgv starts c cold.
func (w *Warm) claim(c Command, name string, limit int) (*Proc, error) {
	if !w.fits(c) {
		return nil, errors.New("the warm process was started for a command of another shape")
	}
	w.mu.Lock()
	if w.state != warmWaiting {
		w.mu.Unlock()
		return nil, errWarmTaken
	}
	w.state = warmClaimed
	w.mu.Unlock()
	stdin, err := stdinOf(c.Stdin)
	if err != nil {
		w.abandon()
		return nil, err
	}
	p := w.p
	p.program, p.warm = name, w
	if c.Contain {
		if err := subreaper(); err != nil {
			stdin.Close()
			w.abandon()
			return nil, err
		}
		p.contained = true
		if !p.ownPIDNS {
			p.before = orphansNow()
		}
	}
	var out, errOut func([]byte)
	if c.Output != nil {
		out = func(b []byte) { c.Output(b, false) }
		errOut = func(b []byte) { c.Output(b, true) }
	}
	p.out.set(limit, out)
	p.errOut.set(limit, errOut)
	err = w.send(append([]*os.File{stdin}, c.ExtraFiles...))
	stdin.Close()
	if err != nil {
		w.abandon()
		return nil, fmt.Errorf("handing %s to its warm process: %w", name, err)
	}
	// Taken only once it says so: a process that was dying (killed, its
	// last thread not yet gone) may hold its socket open long enough for
	// the send to work, and runs nothing.
	t := time.NewTimer(ackWait)
	defer t.Stop()
	select {
	case <-w.acked:
		return p, nil
	case <-w.gone:
	case <-t.C:
		if w.stopLate() {
			return p, nil
		}
	}
	w.abandon()
	return nil, fmt.Errorf("handing %s to its warm process: it did not take it", name)
}

// ackWait bounds how long claim waits for a process to say it took its
// command (a live one says so at once): one that does not is killed, and
// the command starts cold unless it had taken it after all.
var ackWait = 10 * time.Second

// stopLate stops a claimed process that did not say in time that it took
// its command, and reports whether it had: then it may have begun the
// command, which must not run a second time cold; it was killed, and its
// Wait says so. It is killed first and asked after: once it is dead its
// end of the socket is closed, so watch reads what it said before its
// end, and an ack sent in the moment before the kill is not missed.
func (w *Warm) stopLate() (taken bool) {
	select {
	case <-w.acked:
		return true
	default:
	}
	killGroup(w.p.pgid)
	t := time.NewTimer(ackWait)
	defer t.Stop()
	select {
	case <-w.acked:
		return true
	case <-w.gone:
		return false
	case <-t.C:
		return true // still not gone: it may have taken it, so never again
	}
}

// abandon kills and reaps a claimed process whose handover failed: it
// took no command, and is closed.
func (w *Warm) abandon() {
	w.mu.Lock()
	w.state = warmClosed
	w.mu.Unlock()
	w.sock.Close()
	w.reap()
}

// fits reports whether c is a command of the shape the process was
// started for.
func (w *Warm) fits(c Command) bool {
	s := w.shape
	return slices.Equal(s.Argv, c.Argv) && (s.Env == nil) == (c.Env == nil) && slices.Equal(s.Env, c.Env) &&
		s.Dir == c.Dir && s.NewSession == c.NewSession && s.DieWithParent == c.DieWithParent &&
		s.Namespaces == c.Namespaces && s.HostNetwork == c.HostNetwork && !c.Linger
}

// send writes WarmGo with files attached, in one message.
func (w *Warm) send(files []*os.File) error {
	fds := make([]int, len(files))
	for i, f := range files {
		fds[i] = int(f.Fd())
	}
	rights := unix.UnixRights(fds...)
	rc, err := w.sock.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	err = rc.Write(func(fd uintptr) bool {
		serr = unix.Sendmsg(int(fd), []byte{WarmGo}, rights, nil, unix.MSG_NOSIGNAL)
		if serr == nil {
			// Nothing more will come. Shut, not closed: closing a socket
			// with the ready byte unread in it would reset the process's
			// end (ECONNRESET) over the message; watch closes it. The
			// command is handed over whatever this says (ENOTCONN: the
			// process has taken it and closed its end already).
			_ = unix.Shutdown(int(fd), unix.SHUT_WR)
		}
		return serr != unix.EAGAIN
	})
	runtime.KeepAlive(files)
	if err != nil {
		return err
	}
	return serr
}

// stdinOf returns what a process is given as standard input for s, as
// os/exec gives it: /dev/null for "", else a pipe fed s by a goroutine that
// closes it once written (or once the reader has gone).
func stdinOf(s string) (*os.File, error) {
	if s == "" {
		f, err := os.Open(os.DevNull)
		if err != nil {
			return nil, fmt.Errorf("opening standard input: %w", err)
		}
		return f, nil
	}
	r, wr, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("making standard input: %w", err)
	}
	go func() {
		_, _ = io.WriteString(wr, s)
		wr.Close()
	}()
	return r, nil
}

// warmSockets returns the two ends of a warm process's socket: ours, which
// does not block, and theirs, its WarmFD.
func warmSockets() (ours, theirs *os.File, err error) {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	if err := unix.SetNonblock(fds[0], true); err != nil {
		unix.Close(fds[0])
		unix.Close(fds[1])
		return nil, nil, err
	}
	return os.NewFile(uintptr(fds[0]), "warm socket"), os.NewFile(uintptr(fds[1]), "warm socket"), nil
}
