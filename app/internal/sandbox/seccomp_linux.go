//go:build linux

package sandbox

import (
	"fmt"
	"runtime"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Landlock (before ABI 9) cannot keep a program from connecting to a
// pathname unix socket it can name: the X server's, the session bus's, a
// terminal multiplexer's (tmux send-keys types into the person's terminal),
// Docker's. The mount namespace hides the display's and the bus's; this
// filter closes the rest: a program without the UI grant cannot make a
// local socket at all, so it can connect to none, by path or abstract name.
// Stream and sequenced-packet socket pairs stay (programs talk to their own
// children over them; such a socket can never be connected elsewhere);
// datagram pairs do not, since one can send to any address. io_uring is
// refused too, as its requests would bypass this filter.

// The seccomp return values (linux/seccomp.h).
const (
	seccompRetAllow = 0x7fff0000
	seccompRetErrno = 0x00050000
)

// Offsets into struct seccomp_data: the syscall number, the architecture,
// and the low 32 bits of the first two arguments (little-endian).
const (
	offNr   = 0
	offArch = 4
	offArg0 = 16
	offArg1 = 24
)

// socketFilter returns the BPF program for arch (an AUDIT_ARCH_* value).
// Jump offsets count instructions after the jump.
func socketFilter(arch uint32, x32 bool) []unix.SockFilter {
	ld := func(off uint32) unix.SockFilter {
		return unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: off}
	}
	jeq := func(k uint32, jt, jf uint8) unix.SockFilter {
		return unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, K: k, Jt: jt, Jf: jf}
	}
	ret := func(k uint32) unix.SockFilter {
		return unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: k}
	}
	errno := func(e unix.Errno) uint32 { return seccompRetErrno | uint32(e) }

	prog := []unix.SockFilter{
		ld(offArch),
		jeq(arch, 1, 0),
		ret(errno(unix.ENOSYS)), // another ABI (32-bit calls): refused whole
		ld(offNr),
	}
	if x32 {
		// The x32 ABI shares the architecture value; its numbers carry
		// this bit.
		prog = append(prog,
			unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JGE | unix.BPF_K, K: 0x40000000, Jt: 0, Jf: 1},
			ret(errno(unix.ENOSYS)))
	}
	prog = append(prog,
		jeq(uint32(unix.SYS_IO_URING_SETUP), 0, 1),
		ret(errno(unix.ENOSYS)),
		jeq(uint32(unix.SYS_SOCKET), 2, 0),
		jeq(uint32(unix.SYS_SOCKETPAIR), 3, 0),
		ret(seccompRetAllow),
		// socket(AF_UNIX, …)
		ld(offArg0),
		jeq(unix.AF_UNIX, 6, 5),
		// socketpair(AF_UNIX, SOCK_DGRAM, …)
		ld(offArg0),
		jeq(unix.AF_UNIX, 0, 3),
		ld(offArg1),
		unix.SockFilter{Code: unix.BPF_ALU | unix.BPF_AND | unix.BPF_K, K: 0xf}, // the type without its flags
		jeq(unix.SOCK_DGRAM, 1, 0),
		ret(seccompRetAllow),
		ret(errno(unix.EACCES)),
	)
	return prog
}

// denyLocalSockets installs socketFilter on every thread of this process
// (the launcher's no_new_privs, set by Landlock, lets it; TSYNC reaches the
// other threads), so that the program it starts inherits it.
func denyLocalSockets() error {
	var arch uint32
	x32 := false
	switch runtime.GOARCH {
	case "amd64":
		arch, x32 = unix.AUDIT_ARCH_X86_64, true
	case "arm64":
		arch = unix.AUDIT_ARCH_AARCH64
	default:
		return fmt.Errorf("no socket filter is written for %s", runtime.GOARCH)
	}
	prog := socketFilter(arch, x32)
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	_, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if e != 0 {
		return e
	}
	return nil
}
