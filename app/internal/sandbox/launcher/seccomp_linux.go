//go:build linux

package launcher

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
	offArg2 = 32
	offArg3 = 40
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

// denyLocalSockets installs socketFilter.
func denyLocalSockets() error { return installFilter(socketFilter) }

// installFilter installs the filter build returns for this architecture on
// every thread of this process (the launcher's no_new_privs, set by
// Landlock, lets it; TSYNC reaches the other threads), so that the program
// it starts inherits it.
func installFilter(build func(arch uint32, x32 bool) []unix.SockFilter) error {
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
	prog := build(arch, x32)
	fprog := unix.SockFprog{Len: uint16(len(prog)), Filter: &prog[0]}
	_, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC, uintptr(unsafe.Pointer(&fprog)))
	runtime.KeepAlive(prog)
	if e != 0 {
		return e
	}
	return nil
}

// Landlock's TCP rules (ABI 4) see bind and connect of TCP sockets only.
// netFilter refuses, for every network grant but the host's, what reaches
// the network around them (each tried in the tests): MPTCP sockets, which
// fall back to plain TCP with a peer that lacks MPTCP and which Landlock
// does not treat as TCP (connect, bind and listen go through unchecked); TCP Fast Open (sendto, sendmsg or sendmmsg with
// MSG_FASTOPEN), which connects without connect; stream sockets of any
// other protocol (SCTP, SMC); and every address family but inet, inet6,
// netlink and unix, whose sockets may reach past a network namespace
// (vsock reaches the hypervisor from any) or the LAN by other means
// (packet, Bluetooth, CAN, TIPC, RDS, XDP …); of netlink only the routing
// family stays (name lookups read the addresses there), not socket
// diagnostics (which list the host's sockets), generic netlink or uevents.
// io_uring, whose requests would bypass the filter, is refused too. Unix
// sockets are socketFilter's.
func netFilter(arch uint32, x32 bool) []unix.SockFilter {
	const msgFastOpen = 0x20000000 // MSG_FASTOPEN
	var b bpf
	b.nativeCall(arch, x32)
	b.jeq(uint32(unix.SYS_IO_URING_SETUP), "enosys", "")
	b.jeq(uint32(unix.SYS_SOCKET), "socket", "")
	b.jeq(uint32(unix.SYS_SENDTO), "flags3", "")
	b.jeq(uint32(unix.SYS_SENDMMSG), "flags3", "")
	b.jeq(uint32(unix.SYS_SENDMSG), "flags2", "")
	b.ret(seccompRetAllow)

	b.label("socket")
	b.ld(offArg0)
	b.jeq(unix.AF_UNIX, "allow", "")
	b.jeq(unix.AF_NETLINK, "netlink", "")
	b.jeq(unix.AF_INET, "inet", "")
	b.jeq(unix.AF_INET6, "inet", "")
	b.ret(errnoRet(unix.EAFNOSUPPORT))
	b.label("netlink")
	b.ld(offArg2)
	b.jeq(unix.NETLINK_ROUTE, "allow", "eacces")
	b.label("inet")
	b.ld(offArg1)
	b.and(0xf) // the type without its flags
	b.jeq(unix.SOCK_DGRAM, "allow", "")
	b.jeq(unix.SOCK_STREAM, "", "eacces")
	b.ld(offArg2)
	b.jeq(0, "allow", "")
	b.jeq(unix.IPPROTO_TCP, "allow", "noproto")

	b.label("flags3")
	b.ld(offArg3)
	b.jset(msgFastOpen, "eacces", "allow")
	b.label("flags2")
	b.ld(offArg2)
	b.jset(msgFastOpen, "eacces", "allow")

	b.label("allow")
	b.ret(seccompRetAllow)
	b.label("eacces")
	b.ret(errnoRet(unix.EACCES))
	b.label("noproto")
	// As a kernel without MPTCP answers: programs that try MPTCP first
	// (Go's listeners do) fall back to plain TCP, which Landlock sees.
	b.ret(errnoRet(unix.EPROTONOSUPPORT))
	b.label("enosys")
	b.ret(errnoRet(unix.ENOSYS))
	return b.program()
}

// unaskedFilter is the filter of an action that runs unasked. It refuses
// setsid (yieldCPU says why) with EPERM; fallocate with EOPNOTSUPP, as a
// file system without it does: it takes a disk's free space whole in
// under a millisecond (900 MiB of ext4), before the floor's watch, which
// looks every 50 ms, sees it (glibc's posix_fallocate then writes the
// zeros, at the pace of writes); io_uring, whose requests (a fallocate)
// would bypass the filter, with ENOSYS; and every call of another ABI
// with ENOSYS, as the other filters do.
func unaskedFilter(arch uint32, x32 bool) []unix.SockFilter {
	var b bpf
	b.nativeCall(arch, x32)
	b.jeq(uint32(unix.SYS_FALLOCATE), "eopnotsupp", "")
	b.jeq(uint32(unix.SYS_IO_URING_SETUP), "enosys", "")
	b.jeq(uint32(unix.SYS_SETSID), "", "allow")
	b.ret(errnoRet(unix.EPERM))
	b.label("eopnotsupp")
	b.ret(errnoRet(unix.EOPNOTSUPP))
	b.label("allow")
	b.ret(seccompRetAllow)
	b.label("enosys")
	b.ret(errnoRet(unix.ENOSYS))
	return b.program()
}

func errnoRet(e unix.Errno) uint32 { return seccompRetErrno | uint32(e) }

// bpf assembles a classic BPF program whose jumps name labels ("" is the
// next instruction), so that no offset is counted by hand.
type bpf struct {
	prog   []unix.SockFilter
	jumps  map[int][2]string // instruction → its true and false labels
	labels map[string]int
}

func (b *bpf) emit(f unix.SockFilter) { b.prog = append(b.prog, f) }

// nativeCall jumps to the label "enosys" for a call of another
// architecture, or of the x32 ABI where x32 (it shares the architecture
// value; its numbers carry bit 30), and leaves the call's number loaded.
func (b *bpf) nativeCall(arch uint32, x32 bool) {
	b.ld(offArch)
	b.jeq(arch, "", "enosys")
	b.ld(offNr)
	if x32 {
		b.jge(0x40000000, "enosys", "")
	}
}

func (b *bpf) ld(off uint32) {
	b.emit(unix.SockFilter{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: off})
}

func (b *bpf) and(k uint32) {
	b.emit(unix.SockFilter{Code: unix.BPF_ALU | unix.BPF_AND | unix.BPF_K, K: k})
}

func (b *bpf) ret(k uint32) { b.emit(unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: k}) }

func (b *bpf) jump(op uint16, k uint32, jt, jf string) {
	if b.jumps == nil {
		b.jumps = map[int][2]string{}
	}
	b.jumps[len(b.prog)] = [2]string{jt, jf}
	b.emit(unix.SockFilter{Code: unix.BPF_JMP | op | unix.BPF_K, K: k})
}

func (b *bpf) jeq(k uint32, jt, jf string)  { b.jump(unix.BPF_JEQ, k, jt, jf) }
func (b *bpf) jge(k uint32, jt, jf string)  { b.jump(unix.BPF_JGE, k, jt, jf) }
func (b *bpf) jset(k uint32, jt, jf string) { b.jump(unix.BPF_JSET, k, jt, jf) }

func (b *bpf) label(name string) {
	if b.labels == nil {
		b.labels = map[string]int{}
	}
	if _, ok := b.labels[name]; ok {
		panic("bpf: label " + name + " defined twice")
	}
	b.labels[name] = len(b.prog)
}

// program resolves the jumps. A label that is missing, lies behind its
// jump or more than 255 instructions ahead is a bug in this file: it
// panics.
func (b *bpf) program() []unix.SockFilter {
	for at, to := range b.jumps {
		off := func(name string) uint8 {
			if name == "" {
				return 0
			}
			target, ok := b.labels[name]
			if !ok || target <= at || target-at-1 > 255 {
				panic(fmt.Sprintf("bpf: bad jump from %d to %q", at, name))
			}
			return uint8(target - at - 1)
		}
		b.prog[at].Jt, b.prog[at].Jf = off(to[0]), off(to[1])
	}
	return b.prog
}
