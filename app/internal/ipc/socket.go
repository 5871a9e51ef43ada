package ipc

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// maxSocketPath is the longest socket path both macOS (104-byte sun_path)
// and Linux (108) accept, leaving room for the terminating NUL.
const maxSocketPath = 103

// bindPrefix names the private directories bind makes the socket in.
const bindPrefix = ".bind-"

// bind makes the socket at dir/name with mode 0600 and listens on it.
// It never exists with a wider mode at that name: the socket is made in a
// fresh 0700 directory inside dir, restricted there, and only then renamed
// into place. (A process-wide umask would also tighten files other
// goroutines create meanwhile; fchmod on a socket before bind does not reach
// the file bind makes on Linux.)
func bind(dir, name string) (*net.UnixListener, os.FileInfo, error) {
	path := filepath.Join(dir, name)
	tmp, err := os.MkdirTemp(dir, bindPrefix)
	if err != nil {
		return nil, nil, fmt.Errorf("making the socket: %w", err)
	}
	defer os.Remove(tmp)
	tmpPath := filepath.Join(tmp, "s")
	if len(tmpPath) > maxSocketPath {
		return nil, nil, fmt.Errorf("making the socket: %s is %d bytes long; a socket path may have at most %d: use a shorter data directory (AIRLOCK_DATA_DIR)",
			tmpPath, len(tmpPath), maxSocketPath)
	}
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: tmpPath, Net: "unix"})
	if err != nil {
		return nil, nil, fmt.Errorf("making the socket: %w", err)
	}
	ln.SetUnlinkOnClose(false) // it moves; Server.Close removes it by its new name
	fail := func(err error) (*net.UnixListener, os.FileInfo, error) {
		ln.Close()
		os.Remove(tmpPath)
		return nil, nil, fmt.Errorf("making the socket: %w", err)
	}
	if err := os.Chmod(tmpPath, 0o600); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmpPath, path); err != nil {
		return fail(err)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		ln.Close()
		return nil, nil, fmt.Errorf("making the socket: %w", err)
	}
	return ln, fi, nil
}

// clearStale removes what a gate that died left behind in dir: a socket
// nobody listens on, its kill socket, and bind's temporary directories. It
// must be called with the lock held. A socket something still answers on is
// not stale: that is a gate that holds no lock, and the error wraps
// ErrAlreadyRunning. The kill socket is never dialled to find out (that
// would trip the switch): with the lock held and nothing answering on the
// socket, it is stale.
func clearStale(dir string) error {
	leftovers, _ := filepath.Glob(filepath.Join(dir, bindPrefix+"*"))
	for _, d := range leftovers {
		os.Remove(filepath.Join(d, "s"))
		os.Remove(d)
	}
	path := filepath.Join(dir, SocketName)
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return clearStaleKill(dir)
	}
	if err != nil {
		return fmt.Errorf("checking for a stale socket: %w", err)
	}
	if fi.Mode().Type() != os.ModeSocket {
		return fmt.Errorf("%s exists and is not a socket: move it away to start the gate", path)
	}
	c, err := net.DialTimeout("unix", path, time.Second)
	if err == nil {
		c.Close()
		return fmt.Errorf("%w (something answers on %s)", ErrAlreadyRunning, path)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("checking for a stale socket: %w", err)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing the stale socket: %w", err)
	}
	return clearStaleKill(dir)
}

// clearStaleKill removes a kill socket a gate that died left behind.
func clearStaleKill(dir string) error {
	path := filepath.Join(dir, KillSocketName)
	fi, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("checking for a stale kill socket: %w", err)
	}
	if fi.Mode().Type() != os.ModeSocket {
		return fmt.Errorf("%s exists and is not a socket: move it away to start the gate", path)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("removing the stale kill socket: %w", err)
	}
	return nil
}
