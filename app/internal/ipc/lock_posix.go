//go:build linux || darwin

package ipc

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// lock takes an exclusive flock on path and records this process's id in
// it. The lock lasts until the returned file is closed, or the process ends.
// When another process holds it, the error wraps ErrAlreadyRunning and
// names that process's id if it recorded one.
func lock(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return nil, fmt.Errorf("opening the gate's lock: %w", err)
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		b, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, unix.EWOULDBLOCK) {
			if pid, perr := strconv.Atoi(strings.TrimSpace(string(b))); perr == nil && pid > 0 {
				return nil, fmt.Errorf("%w (pid %d holds %s)", ErrAlreadyRunning, pid, path)
			}
			return nil, fmt.Errorf("%w (another process holds %s)", ErrAlreadyRunning, path)
		}
		return nil, fmt.Errorf("locking %s: %w", path, err)
	}
	// The pid only makes a second gate's refusal clearer; failing to
	// record it changes nothing else.
	if f.Truncate(0) == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return f, nil
}
