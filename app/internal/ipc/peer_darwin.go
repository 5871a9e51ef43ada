//go:build darwin

package ipc

import (
	"fmt"
	"net"

	"golang.org/x/sys/unix"
)

// xucredVersion is XUCRED_VERSION from <sys/ucred.h>.
const xucredVersion = 0

// peerUID returns the uid of the process at the other end of c, as the
// kernel recorded it when the connection was made (LOCAL_PEERCRED, what
// getpeereid reads).
func peerUID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, fmt.Errorf("identifying the peer: %w", err)
	}
	var cred *unix.Xucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	}); err != nil {
		return -1, fmt.Errorf("identifying the peer: %w", err)
	}
	if cerr != nil {
		return -1, fmt.Errorf("identifying the peer: %w", cerr)
	}
	if cred.Version != xucredVersion {
		return -1, fmt.Errorf("identifying the peer: xucred version %d, want %d", cred.Version, xucredVersion)
	}
	return int(cred.Uid), nil
}
