package history

import (
	"errors"
	"fmt"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// ErrNoRoom is wrapped by the error AddRequest returns when the disk that
// holds the history is nearly full.
var ErrNoRoom = errors.New("the disk that holds the history is nearly full")

// A request costs the history up to a few MiB (its plan, its actions'
// text and previews, their outputs' ends), and the history is never
// pruned, so an agent that submits without end would fill the disk
// through it, however little each action does. New requests are refused
// while the disk that holds it has less than its floor free: 1 GiB, or a
// twentieth of the disk where that is less. Decisions and outcomes of a
// request recorded already are not: what ran is recorded.
func floorOf(size uint64) uint64 { return min(1<<30, size/20) }

// roomFor returns an error wrapping ErrNoRoom when the disk of the file
// path has less than its floor free, nil otherwise (and when it cannot
// be examined: writing then says what is wrong).
func roomFor(path string) error {
	var st unix.Statfs_t
	if err := unix.Statfs(filepath.Dir(path), &st); err != nil {
		return nil
	}
	size, free := uint64(st.Blocks)*uint64(st.Bsize), uint64(st.Bavail)*uint64(st.Bsize)
	if floor := floorOf(size); free < floor {
		return fmt.Errorf("%w: %d MiB free, below the %d MiB kept free for the person; free some space, and Airlock records and runs again",
			ErrNoRoom, free>>20, floor>>20)
	}
	return nil
}
