//go:build linux

package ipc

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// peerUID returns the uid of the process at the other end of c, as the
// kernel recorded it when the connection was made (SO_PEERCRED).
func peerUID(c *net.UnixConn) (int, error) {
	cred, _, err := peerCred(c, false)
	if err != nil {
		return -1, err
	}
	return int(cred.Uid), nil
}

// peerCred reads SO_PEERCRED and, when pidfd is set, SO_PEERPIDFD: a pidfd
// for the very process that connected, which stays tied to it even if its
// process id is reused (Linux 6.5 and later). The caller closes the pidfd;
// it is -1 when the kernel has none to give.
func peerCred(c *net.UnixConn, pidfd bool) (*unix.Ucred, int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return nil, -1, fmt.Errorf("identifying the peer: %w", err)
	}
	var cred *unix.Ucred
	fd := -1
	var cerr error
	if err := raw.Control(func(sock uintptr) {
		cred, cerr = unix.GetsockoptUcred(int(sock), unix.SOL_SOCKET, unix.SO_PEERCRED)
		if cerr == nil && pidfd {
			if n, err := unix.GetsockoptInt(int(sock), unix.SOL_SOCKET, unix.SO_PEERPIDFD); err == nil {
				fd = n
			}
		}
	}); err != nil {
		return nil, -1, fmt.Errorf("identifying the peer: %w", err)
	}
	if cerr != nil {
		return nil, -1, fmt.Errorf("identifying the peer: %w", cerr)
	}
	return cred, fd, nil
}

// peerOf identifies the process at the other end of c and its program. It
// fails only when the kernel gives no credentials at all; a program that
// cannot be verified is a Peer with a Problem.
//
// The executable is read from /proc/PID/exe, and only then is the pidfd the
// kernel gave for the connecting process asked whether that process still
// runs: if it does, its process id cannot have been reused in between, so
// /proc/PID was that process.
func peerOf(c *net.UnixConn) (Peer, error) {
	cred, pidfd, err := peerCred(c, true)
	if err != nil {
		return Peer{}, err
	}
	p := Peer{UID: int(cred.Uid), PID: int(cred.Pid)}
	switch {
	case p.PID <= 0:
		p.Problem = "the kernel did not say which process connected"
		return p, nil
	case pidfd < 0:
		p.Problem = "this kernel cannot name the connecting process safely (SO_PEERPIDFD needs Linux 6.5)"
		return p, nil
	}
	defer unix.Close(pidfd)
	p.Program, p.Problem = exeProgram(readExe(pidfd, p.PID))
	resolveLauncher(&p, self(), func() (Program, string) { return parentOf(pidfd, p.PID) })
	return p, nil
}

// readExe reads what /proc says of pid's executable, then whether the
// process pidfd names still runs.
func readExe(pidfd, pid int) linuxExe {
	e := linuxExe{PID: pid}
	exe := "/proc/" + strconv.Itoa(pid) + "/exe"
	e.Path, _ = os.Readlink(exe)
	var st unix.Stat_t
	if err := unix.Stat(exe, &st); err != nil {
		e.Path = ""
	}
	e.Dev, e.Ino = uint64(st.Dev), uint64(st.Ino)
	e.CtimeSec, e.CtimeNsec = int64(st.Ctim.Sec), int64(st.Ctim.Nsec)
	e.StillRunning = unix.PidfdSendSignal(pidfd, 0, nil, 0) == nil
	return e
}

// parentOf looks up the program of the parent of the process pidfd names.
// The parent's pidfd is opened by process id, which could name another
// process if the parent had died; so the child's parent is read again
// afterwards: a child whose parent died is moved to another (init or a
// subreaper) at once, and a child still alive with the same parent shows
// that the pidfd names that parent.
func parentOf(pidfd, pid int) (Program, string) {
	ppid, err := readPPID(pid)
	if err != nil {
		return Program{}, err.Error()
	}
	if ppid <= 1 {
		return Program{}, "its parent process is gone"
	}
	ppfd, err := unix.PidfdOpen(ppid, 0)
	if err != nil {
		return Program{}, "its parent process is gone"
	}
	defer unix.Close(ppfd)
	e := readExe(ppfd, ppid)
	again, err := readPPID(pid)
	if err != nil || again != ppid || unix.PidfdSendSignal(pidfd, 0, nil, 0) != nil {
		return Program{}, "its parent changed while it was being identified"
	}
	return exeProgram(e)
}

// readPPID reads a process's parent from /proc/PID/stat, whose second
// field, the command name in parentheses, may hold any character: the
// fields after the last ')' are the state, then the parent's id.
func readPPID(pid int) (int, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, errors.New("its process ended before its parent could be read")
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, errors.New("its process status cannot be read")
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 2 {
		return 0, errors.New("its process status cannot be read")
	}
	ppid, err := strconv.Atoi(f[1])
	if err != nil {
		return 0, errors.New("its process status cannot be read")
	}
	return ppid, nil
}

// self is the gate's own program, to recognise a client that is Airlock
// itself (`airlock mcp`, `airlock run`).
var self = sync.OnceValue(func() Program {
	fd, err := unix.PidfdOpen(os.Getpid(), 0)
	if err != nil {
		return Program{}
	}
	defer unix.Close(fd)
	p, _ := exeProgram(readExe(fd, os.Getpid()))
	return p
})
