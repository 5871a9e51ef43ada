//go:build linux || darwin

package launcher

import (
	"fmt"
	"syscall"

	"golang.org/x/sys/unix"
)

// rlimits are the setrlimit resources of the Limit* names on this
// platform (their numbers differ between Linux and macOS).
var rlimits = map[string]int{
	LimitProcesses: unix.RLIMIT_NPROC,
	LimitData:      unix.RLIMIT_DATA,
	LimitFileSize:  unix.RLIMIT_FSIZE,
	LimitCore:      unix.RLIMIT_CORE,
	LimitOpenFiles: unix.RLIMIT_NOFILE,
}

// setLimits bounds this process, and so the program it starts and all that
// program starts, by ls: the soft and the hard limit of each resource both
// become the Limit's Max, or the soft limit already in force if it is
// lower. Lowering needs no privilege, and a hard limit once lowered cannot
// be raised again without one the launcher has dropped. It uses syscall's
// Setrlimit, not x/sys's: only that one tells the Go runtime not to put
// back the open-file limit the launcher started with in the program it
// starts.
func setLimits(ls []Limit) error {
	if err := CheckLimits(ls); err != nil {
		return err
	}
	for _, l := range ls {
		r := rlimits[l.Resource]
		var cur syscall.Rlimit
		if err := syscall.Getrlimit(r, &cur); err != nil {
			return fmt.Errorf("reading the %s limit: %w", l.Resource, err)
		}
		v := min(l.Max, uint64(cur.Cur))
		if err := syscall.Setrlimit(r, &syscall.Rlimit{Cur: v, Max: v}); err != nil {
			return fmt.Errorf("bounding %s to %d: %w", l.Resource, v, err)
		}
	}
	return nil
}
