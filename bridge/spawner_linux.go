//go:build linux

package bridge

import (
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/bridge/spawn"
)

// Spawner is a process that starts warm processes in new namespaces in
// this one's place (package bridge/spawn says why: this process's own
// start of one copies its page tables, which cost 2 to 50 ms as this
// process grows). It is started once, with no namespaces; what it starts
// is this process's child (CLONE_PARENT), recorded as one of ours before
// anything looks at our children, and from then on a Warm like any other.
//
// It is safe for concurrent use: requests go one at a time.
type Spawner struct {
	mu   sync.Mutex
	cmd  *exec.Cmd
	sock *os.File // nil once closed or broken
}

// StartSpawner starts argv (a program that serves spawn.Serve on WarmFD;
// the sandbox's launcher with launcher.SpawnFlag) in a process group of
// its own, with env and no descriptor of ours but its socket.
func StartSpawner(argv, env []string) (*Spawner, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("starting a spawner: no program given")
	}
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("starting a spawner: %w", err)
	}
	// A spawner that does not answer in time is taken for broken: the
	// reaper and the kill switch wait while a request is under way.
	tv := unix.NsecToTimeval(spawnerWait.Nanoseconds())
	for _, opt := range []int{unix.SO_RCVTIMEO, unix.SO_SNDTIMEO} {
		if err := unix.SetsockoptTimeval(fds[0], unix.SOL_SOCKET, opt, &tv); err != nil {
			unix.Close(fds[0])
			unix.Close(fds[1])
			return nil, fmt.Errorf("starting a spawner: %w", err)
		}
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "spawner socket"), os.NewFile(uintptr(fds[1]), "spawner socket")
	defer theirs.Close()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = env, "/"
	cmd.ExtraFiles = []*os.File{theirs} // WarmFD
	cmd.SysProcAttr = launchAttr(Command{})
	if err := closeOnExec(); err != nil {
		ours.Close()
		return nil, fmt.Errorf("starting a spawner: %w", err)
	}
	if _, err := startCmd(cmd, false, false); err != nil {
		ours.Close()
		return nil, fmt.Errorf("starting a spawner: %w", err)
	}
	return &Spawner{cmd: cmd, sock: ours}, nil
}

// spawnerWait bounds how long a request waits for the spawner to take it
// and answer (it answers within milliseconds): past it the spawner is
// closed (killed), and a process it may have started after all, recorded
// nowhere, is an orphan, which the reaper and the kill switch kill.
var spawnerWait = 5 * time.Second

// Pid is the spawner's process id.
func (s *Spawner) Pid() int { return s.cmd.Process.Pid }

// Close ends the spawner (it exits once its socket closes; it is killed
// too, in case it does not) and reaps it. What it started is not touched.
// It may be called more than once.
func (s *Spawner) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeLocked()
}

// closeLocked is Close with s.mu held.
func (s *Spawner) closeLocked() {
	if s.sock == nil {
		return
	}
	s.sock.Close()
	s.sock = nil
	_ = s.cmd.Process.Kill()
	_ = s.cmd.Wait()
	forget(s.cmd.Process.Pid)
}

// StartWarm is StartWarm (warm_linux.go) through the spawner: the same
// process, started in namespaces of its own as c asks, waiting on WarmFD.
// c must ask for Namespaces, and not for DieWithParent (the parent-death
// signal follows the thread that started the process, which is the
// spawner's here) nor a working folder or environment the spawner cannot
// pass (a NUL byte). Where the spawner fails (it went, or broke the
// protocol) it is closed and every later call fails: the caller starts
// the process itself.
func (s *Spawner) StartWarm(c Command, argv []string) (*Warm, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("starting a warm process: no program given")
	}
	if !c.Namespaces || c.DieWithParent || c.Linger || c.Output != nil || c.Stdin != "" || len(c.ExtraFiles) > 0 || c.Warm != nil {
		return nil, fmt.Errorf("starting a warm process for %s through the spawner: its shape must ask for namespaces and carry no parent-death signal, standard input, extra files, output tap, warm process or Linger", argv[0])
	}
	dir := c.Dir
	if dir == "" { // this process's folder, as a start here has it
		var err error
		if dir, err = os.Getwd(); err != nil {
			return nil, fmt.Errorf("starting a warm process for %s: %w", argv[0], err)
		}
	}
	msg, err := spawn.Encode(spawn.Request{HostNetwork: c.HostNetwork, Dir: dir, Argv: argv, Env: c.Env})
	if err != nil {
		return nil, fmt.Errorf("starting a warm process for %s: %w", argv[0], err)
	}
	ours, theirs, err := warmSockets()
	if err != nil {
		return nil, fmt.Errorf("starting a warm process for %s: %w", argv[0], err)
	}
	defer theirs.Close()
	pipes, err := newOutPipes()
	if err != nil {
		ours.Close()
		return nil, fmt.Errorf("starting a warm process for %s: %w", argv[0], err)
	}
	pid, err := s.request(msg, []int{int(pipes.w[0].Fd()), int(pipes.w[1].Fd()), int(theirs.Fd())})
	if err != nil {
		ours.Close()
		pipes.closeAll()
		return nil, fmt.Errorf("starting a warm process for %s through the spawner: %w", argv[0], err)
	}
	// Our child, recorded (request): a pidfd of it names it for good.
	proc, err := os.FindProcess(pid)
	if err != nil { // not on Linux: FindProcess always finds one
		ours.Close()
		pipes.closeAll()
		return nil, err
	}
	p := &Proc{cmd: &exec.Cmd{Process: proc, WaitDelay: waitDelay}, program: argv[0], ownPIDNS: true,
		out: &capped{limit: DefaultMaxOutput}, errOut: &capped{limit: DefaultMaxOutput}, pipes: pipes, pgid: pid}
	pipes.copy(p.out, p.errOut)
	return newWarm(c, p, ours), nil
}

// request sends one request with its descriptors and returns the id of
// the process the spawner started, recorded as ours before the reaper
// can look at our children.
func (s *Spawner) request(msg []byte, fds []int) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.sock == nil {
		return 0, errors.New("the spawner has gone")
	}
	contain.spawn.RLock()
	defer contain.spawn.RUnlock()
	pid, err := s.exchange(msg, fds)
	if err != nil {
		var said spawnerSaid
		if !errors.As(err, &said) {
			s.closeLocked() // it broke: later starts are the caller's own
		}
		return 0, err
	}
	contain.mu.Lock()
	if contain.started == nil {
		contain.started = make(map[int]bool)
	}
	contain.started[pid] = true
	contain.mu.Unlock()
	return pid, nil
}

// spawnerSaid is the spawner's own refusal: it is still usable.
type spawnerSaid string

func (e spawnerSaid) Error() string { return string(e) }

// exchange writes msg with fds and reads the answer.
func (s *Spawner) exchange(msg []byte, fds []int) (int, error) {
	fd := int(s.sock.Fd())
	for {
		err := unix.Sendmsg(fd, msg, unix.UnixRights(fds...), nil, unix.MSG_NOSIGNAL)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return 0, err
		}
		break
	}
	var b [4096]byte
	for {
		n, err := unix.Read(fd, b[:])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		switch {
		case err != nil:
			return 0, err
		case n == 5 && b[0] == 'p':
			if pid := int(binary.LittleEndian.Uint32(b[1:5])); pid > 0 {
				return pid, nil
			}
		case n >= 1 && b[0] == 'x':
			return 0, spawnerSaid(b[1:n])
		}
		return 0, fmt.Errorf("the spawner's answer is not one (%d bytes)", n)
	}
}
