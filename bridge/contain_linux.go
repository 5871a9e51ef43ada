//go:build linux

package bridge

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// On Linux a contained process (Command.Contain) is followed wherever it
// goes. The first one makes this process a child subreaper
// (PR_SET_CHILD_SUBREAPER): from then on a process whose parent exits is
// reparented to us, not to init, so nothing an action starts can leave our
// tree — neither a child that called setsid nor a grandchild whose parent
// exited (a double fork). Two facts tell such an orphan apart from a child
// we started:
//
//   - every child the bridge starts is recorded before anything looks at
//     our children (contain.spawn orders the two), and stays recorded until
//     its own Wait has reaped it;
//   - an action starts in a session of its own, and no process can ever
//     join a session it is not in, so an action's orphan is never in ours.
//
// What is killed, and waited for until it has died:
//   - when a contained process is stopped, its whole tree while it still
//     stands; and when it has exited or been stopped, every orphan outside
//     our session that reached us while it ran (what escaped it);
//   - on KillEscaped (the kill switch), every orphan outside our session.
//
// An orphan does not say which action it came from, so with contained
// processes running at once, one's end also kills what escaped another
// while it ran (the gate's executor runs one action at a time). And a
// trusted program that puts a child in a session of its own (none of the
// bridge's do) would have that child killed by the kill switch.
//
// A contained process started in a PID namespace of its own (Namespaces:
// the sandbox's launcher, PID 1 there) leaves no orphan of ours: the kernel
// hands what loses its parent in that namespace to a subreaper or the PID
// 1 of that namespace, never to a process outside it, and kills all of it
// when its PID 1 ends (a PID 1 cannot clone with CLONE_PARENT either). So
// its start lists none of our orphans, and its end sweeps none (two reads
// of /proc per thread and per child of ours); stopped, its tree is killed
// as any contained process's, and the orphans that were there then are
// left alone.
//
// Orphans are reaped by a goroutine woken by SIGCHLD. It reaps only
// children that nobody else waits for: ones outside our session, and ones
// in it that neither lead a process group nor are in ours (what a lingering
// program left behind, such as xclip's serving child). A child started with
// os/exec elsewhere in the program stays in our group or leads its own, so
// its Wait still works. Code outside the bridge must not start children
// with Setsid: the reaper would take them for orphans.
//
// Not covered: a process in uninterruptible sleep does not die until it
// wakes (a sweep waits killWait for it once, then goes on without it); a
// fork bomb that outruns the sweep's rounds (maxRounds); and a process an
// action has someone else start (systemd-run, a D-Bus activation), which
// was never in our tree.
var contain struct {
	once sync.Once
	err  error       // why this process could not become a subreaper
	on   atomic.Bool // this process is a subreaper

	// spawn is held for reading from just before a child is started until
	// its pid is recorded, and for writing while the reaper or a sweep
	// decides which of our children are orphans.
	spawn sync.RWMutex

	mu      sync.Mutex
	started map[int]bool // guarded by mu; children started here, not yet reaped by their Wait
}

// Bounds of a sweep.
const (
	killWait  = time.Second // how long one round waits for what it killed to die
	maxRounds = 64          // rounds of look, kill and wait before a sweep gives up
)

// subreaper makes this process a child subreaper, once, and starts the
// reaper.
func subreaper() error {
	contain.once.Do(func() {
		if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
			contain.err = fmt.Errorf("containing actions: becoming a child subreaper: %w", err)
			return
		}
		contain.on.Store(true)
		wake := make(chan os.Signal, 1)
		signal.Notify(wake, unix.SIGCHLD)
		go func() {
			for range wake {
				reapOrphans()
			}
		}()
	})
	return contain.err
}

// startCmd starts cmd and records its pid so that the reaper never takes it
// for an orphan. For a contained process it first makes this process a
// subreaper and marks every descriptor close-on-exec (so the process gets
// only the ones given), and, with orphans, returns the orphans we had when
// it started: the ones its sweep will leave alone.
func startCmd(cmd *exec.Cmd, contained, orphans bool) (before map[int]uint64, err error) {
	if contained {
		if err := subreaper(); err != nil {
			return nil, err
		}
		if err := closeOnExec(); err != nil {
			return nil, fmt.Errorf("containing actions: %w", err)
		}
		if orphans {
			before = orphansNow()
		}
	}
	contain.spawn.RLock()
	defer contain.spawn.RUnlock()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	contain.mu.Lock()
	if contain.started == nil {
		contain.started = make(map[int]bool)
	}
	contain.started[cmd.Process.Pid] = true
	contain.mu.Unlock()
	return before, nil
}

// orphansNow returns our children as they are now, with their start
// times: the ones a contained process started now leaves alone when it
// ends.
func orphansNow() map[int]uint64 {
	before := make(map[int]uint64)
	for _, pid := range children(os.Getpid()) {
		if st, ok := readStat(pid); ok {
			before[pid] = st.start
		}
	}
	return before
}

// forget drops pid from the record once its Wait has reaped it.
func forget(pid int) {
	contain.mu.Lock()
	delete(contain.started, pid)
	contain.mu.Unlock()
}

func ours(pid int) bool {
	contain.mu.Lock()
	defer contain.mu.Unlock()
	return contain.started[pid]
}

// KillEscaped kills every process that left the tree of an action and was
// reparented to this process — every orphan outside our session — with all
// it started, waits until they have died, and returns how many it killed.
// The kill switch calls it after stopping what was running; it does nothing
// until a contained process has been started. Linux only: elsewhere orphans
// go to launchd or init and it returns 0.
func KillEscaped() int {
	if !contain.on.Load() {
		return 0
	}
	return sweep(0, nil)
}

// sweep kills the tree of leader (0: none) and the orphans outside our
// session that are not in before (nil: all of them), with everything below
// them, waits for them to die, and looks again until a look finds nothing
// alive that it has not already killed (one still alive a round after its
// SIGKILL is in uninterruptible sleep, and is not waited for again). It
// returns how many processes it killed.
func sweep(leader int, before map[int]uint64) int {
	killed := make(map[proc]bool)
	for range maxRounds {
		var fresh []proc
		for _, p := range look(leader, before) {
			if !killed[p] {
				fresh = append(fresh, p)
			}
		}
		if len(fresh) == 0 {
			break
		}
		for _, p := range killAll(fresh) {
			killed[p] = true
		}
	}
	return len(killed) // the reaper reaps them, woken by their SIGCHLD
}

// proc is a process as one look saw it; start tells it from a later process
// that reuses its pid.
type proc struct {
	pid   int
	start uint64
}

// look returns the live processes a sweep must kill.
func look(leader int, before map[int]uint64) []proc {
	roots := orphans(before)
	if leader > 0 {
		roots = append(roots, leader)
	}
	var found []proc
	seen := make(map[int]bool)
	for len(roots) > 0 {
		pid := roots[len(roots)-1]
		roots = roots[:len(roots)-1]
		if seen[pid] {
			continue
		}
		seen[pid] = true
		st, ok := readStat(pid)
		if !ok || st.dead() {
			continue // a dead process has no children: they were reparented
		}
		found = append(found, proc{pid, st.start})
		roots = append(roots, children(pid)...)
	}
	return found
}

// strays returns our children that were not started here: orphans, and
// children started with os/exec elsewhere. A child being started here is
// never among them: it is recorded before contain.spawn lets this look.
func strays() []int {
	contain.spawn.Lock()
	defer contain.spawn.Unlock()
	kids := children(os.Getpid())
	out := kids[:0]
	for _, pid := range kids {
		if !ours(pid) {
			out = append(out, pid)
		}
	}
	return out
}

// orphans returns our children that escaped an action: not started here,
// outside our session, and not among before (the ones we had when the
// action started; nil means none).
func orphans(before map[int]uint64) []int {
	sid, err := unix.Getsid(0)
	if err != nil {
		return nil
	}
	var out []int
	for _, pid := range strays() {
		st, ok := readStat(pid)
		if !ok || st.sid == sid {
			continue
		}
		if start, had := before[pid]; had && start == st.start {
			continue
		}
		out = append(out, pid)
	}
	return out
}

// killAll sends SIGKILL to each process (through a pidfd, after checking
// that the pid still names the process that was seen) and waits up to
// killWait for them to die. It returns the ones it signalled.
func killAll(ps []proc) []proc {
	var fds []int
	var signalled []proc
	for _, p := range ps {
		fd, err := unix.PidfdOpen(p.pid, 0)
		if errors.Is(err, unix.ENOSYS) {
			if killByPid(p) {
				signalled = append(signalled, p)
			}
			continue
		}
		if err != nil {
			continue // gone already
		}
		if st, ok := readStat(p.pid); !ok || st.start != p.start || st.dead() {
			unix.Close(fd)
			continue
		}
		if unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0) != nil {
			unix.Close(fd)
			continue
		}
		signalled = append(signalled, p)
		fds = append(fds, fd)
	}
	waitDead(fds)
	return signalled
}

// waitDead waits until every pidfd is readable (its process has exited), or
// killWait has passed, and closes them.
func waitDead(fds []int) {
	defer func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	}()
	deadline := time.Now().Add(killWait)
	pending := make([]unix.PollFd, len(fds))
	for i, fd := range fds {
		pending[i] = unix.PollFd{Fd: int32(fd), Events: unix.POLLIN}
	}
	for len(pending) > 0 {
		left := time.Until(deadline)
		if left <= 0 {
			return
		}
		if _, err := unix.Poll(pending, int(left.Milliseconds())+1); err != nil && err != unix.EINTR {
			return
		}
		rest := pending[:0]
		for _, p := range pending {
			if p.Revents == 0 {
				p.Revents = 0
				rest = append(rest, p)
			}
		}
		pending = rest
	}
}

// killByPid is killAll's way where the kernel has no pidfds (before 5.3):
// kill(2) after checking the pid, then a look at /proc until it has died.
func killByPid(p proc) bool {
	if st, ok := readStat(p.pid); !ok || st.start != p.start || st.dead() {
		return false
	}
	if unix.Kill(p.pid, unix.SIGKILL) != nil {
		return false
	}
	for deadline := time.Now().Add(killWait); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if st, ok := readStat(p.pid); !ok || st.start != p.start || st.dead() {
			break
		}
	}
	return true
}

// reapOrphans reaps the children that have exited and that nobody else will
// wait for (see the comment on contain).
func reapOrphans() {
	sid, err := unix.Getsid(0)
	if err != nil {
		return
	}
	pgid := unix.Getpgrp()
	for _, pid := range strays() {
		st, ok := readStat(pid)
		if !ok || st.state != 'Z' {
			continue
		}
		if st.sid == sid && (st.pgid == pid || st.pgid == pgid) {
			continue // started with os/exec elsewhere: its Wait reaps it
		}
		var info unix.Siginfo
		_ = unix.Waitid(unix.P_PID, pid, &info, unix.WEXITED|unix.WNOHANG, nil)
	}
}

// children lists pid's children, from every one of its threads.
func children(pid int) []int {
	dir := "/proc/" + strconv.Itoa(pid) + "/task"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []int
	for _, t := range tasks {
		b, err := os.ReadFile(dir + "/" + t.Name() + "/children")
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	return out
}

// stat is what /proc/PID/stat says of a process.
type stat struct {
	state           byte
	ppid, pgid, sid int
	start           uint64 // clock ticks after boot
}

func (s stat) dead() bool { return s.state == 'Z' || s.state == 'X' }

// readStat reads /proc/pid/stat; ok is false once the process is gone.
func readStat(pid int) (st stat, ok bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return st, false
	}
	// The name, in parentheses, may itself hold ") ": the fields start
	// after the last one.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return st, false
	}
	f := strings.Fields(s[i+1:]) // state ppid pgrp session … starttime is the 20th
	if len(f) < 20 || len(f[0]) != 1 {
		return st, false
	}
	st.state = f[0][0]
	st.ppid, _ = strconv.Atoi(f[1])
	st.pgid, _ = strconv.Atoi(f[2])
	st.sid, _ = strconv.Atoi(f[3])
	st.start, _ = strconv.ParseUint(f[19], 10, 64)
	return st, true
}

// closeOnExec marks every descriptor above standard error close-on-exec,
// so that a contained process inherits none of ours but the ones it is
// given (os/exec puts those in place without the flag).
func closeOnExec() error {
	d, err := os.Open("/proc/self/fd")
	if err != nil {
		return fmt.Errorf("listing open descriptors: %w", err)
	}
	defer d.Close()
	names, err := d.Readdirnames(-1)
	if err != nil {
		return fmt.Errorf("listing open descriptors: %w", err)
	}
	for _, name := range names {
		fd, err := strconv.Atoi(name)
		if err != nil || fd <= 2 {
			continue
		}
		flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
		if err != nil || flags&unix.FD_CLOEXEC != 0 {
			continue // closed meanwhile, or already marked
		}
		if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, flags|unix.FD_CLOEXEC); err != nil && err != unix.EBADF {
			return fmt.Errorf("marking descriptor %d close-on-exec: %w", fd, err)
		}
	}
	return nil
}

// startDetached starts argv, with env, in a session of its own and does
// not wait for it: a launched application, which outlives the action that
// opened it. It is not recorded as ours, so from its start it counts as an
// orphan outside our session: the reaper reaps it when it exits, and
// KillEscaped (the kill switch) kills it and all it started. This process
// becomes a child subreaper first, so nothing the program starts can leave
// our tree by exiting its parent.
func startDetached(argv []string, env []string) (int, error) {
	if err := subreaper(); err != nil {
		return 0, err
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setpgid: false}
	contain.spawn.RLock()
	err := cmd.Start()
	contain.spawn.RUnlock()
	if err != nil {
		return 0, err
	}
	pid := cmd.Process.Pid
	_ = cmd.Process.Release() // the reaper waits for it, not os/exec
	reapOrphans()             // in case it has already exited
	return pid, nil
}
