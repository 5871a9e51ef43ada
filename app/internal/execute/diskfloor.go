package execute

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// An action that runs unasked writes where the person's files are: into
// its copy-on-write layers (in Airlock's data folder or the system's
// temporary folder), its own temporary folder, and on macOS the roots
// themselves. The analyzer rates `yes > big.txt` or a loop of `dd` safe,
// and RLIMIT_FSIZE bounds one file, not how many: without a floor one
// such action fills the disk (or its inodes, with empty files), so that
// the person's apps fail to save, and Airlock's history and the review
// of what it changed fail too. The floor stops it: while it runs, the
// free space of each file system it can write on is looked at every
// diskEvery, and when one falls below its floor the action is killed and
// what it wrote is dropped, not reviewed (its layers hold only its own
// writes; the person's files are as they were).
//
// Memory likewise: each process's heap is bounded (sandbox/limits.go) but
// not the action's sum, and 2,000 processes of 10 MiB each take 20 GiB;
// the kernel's OOM killer then kills the largest process, the person's
// browser or editor, not one of the action's many small ones. So on Linux
// the memory available is looked at too, and below its floor the action
// is killed: all of its processes, which frees what they held.

// diskEvery is how often the free space and the memory are looked at: a
// writer at 2 GB/s passes the floor by about 100 MB before it is stopped.
const diskEvery = 50 * time.Millisecond

// diskReserve is the free space an unasked action may not take a file
// system below: 2 GiB, or a twentieth of the file system where that is
// more, but never more than half of what was free when it started (so
// that on a nearly full disk it still runs, with half of what is left).
func diskReserve(size, freeAtStart uint64) uint64 {
	r := max(uint64(2<<30), size/20)
	return min(r, freeAtStart/2)
}

// inodeReserve is the same for the file system's inodes (files, folders
// and links of every size), which empty files use up without a byte:
// 100,000, or a twentieth of them where that is more, never more than
// half of those free when it started.
func inodeReserve(inodes, freeAtStart uint64) uint64 {
	r := max(uint64(100_000), inodes/20)
	return min(r, freeAtStart/2)
}

// memoryReserve is the memory available (MemAvailable: free, and what
// the kernel can reclaim at once) that an unasked action may not take the
// machine below: 1 GiB, or a twentieth of the memory where that is more,
// never more than half of what was available when it started.
func memoryReserve(total, availableAtStart uint64) uint64 {
	r := max(uint64(1<<30), total/20)
	return min(r, availableAtStart/2)
}

// Tests replace these to bound a small file system or the memory.
var (
	reserveOf       = diskReserve
	inodeReserveOf  = inodeReserve
	memoryReserveOf = memoryReserve
)

// floorError is the cause of the cancel of an action stopped at a floor:
// what fell below its floor, and how far.
type floorError struct{ why string }

func (f *floorError) Error() string { return f.why }

// A watch is one floor: below says what is left when it is below it, or
// "".
type watch interface{ below() string }

// diskWatch is one file system an action can write on, and its floors.
type diskWatch struct {
	path       string // a folder on it
	shown      string // what the message calls it
	floor      uint64 // bytes
	inodeFloor uint64 // 0 where the file system does not count inodes (btrfs, APFS say 0 or a made-up number)
}

// below returns what the file system now lacks, or "" when it is above
// both floors or cannot be examined.
func (w diskWatch) below() string {
	s, err := space(w.path)
	switch {
	case err != nil:
		return ""
	case s.free < w.floor:
		return fmt.Sprintf("the free space on %s fell to %s, below the %s an action that runs unasked must leave",
			w.shown, bytesText(s.free), bytesText(w.floor))
	case w.inodeFloor > 0 && s.freeInodes < w.inodeFloor:
		return fmt.Sprintf("the inodes free on %s (room for that many more files) fell to %d, below the %d an action that runs unasked must leave",
			w.shown, s.freeInodes, w.inodeFloor)
	}
	return ""
}

// memoryWatch is the machine's memory and its floor.
type memoryWatch struct{ floor uint64 }

func (w memoryWatch) below() string {
	if _, available, ok := memory(); ok && available < w.floor {
		return fmt.Sprintf("the machine's memory available fell to %s, below the %s an action that runs unasked must leave",
			bytesText(available), bytesText(w.floor))
	}
	return ""
}

// memory returns the machine's memory and how much is available, from
// Linux's /proc/meminfo; ok is false where it cannot be read.
func memory() (total, available uint64, ok bool) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, 0, false
	}
	var seen int
	for line := range strings.Lines(string(b)) {
		name, rest, _ := strings.Cut(line, ":")
		var v *uint64
		switch name {
		case "MemTotal":
			v = &total
		case "MemAvailable":
			v = &available
		default:
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, 0, false
		}
		n, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			return 0, 0, false
		}
		*v, seen = n<<10, seen+1
	}
	return total, available, seen == 2
}

// A disk is a folder on a file system an action writes on, and what a
// message calls that file system.
type disk struct{ path, shown string }

// watchRoom returns ctx, cancelled with a floorError cause when the file
// system of one of disks, or the machine's memory, falls below its floor,
// and the function that stops the watch. Folders that cannot be examined,
// and file systems seen already (by device), are left out.
func watchRoom(ctx context.Context, disks []disk) (context.Context, func()) {
	var watches []watch
	if total, available, ok := memory(); ok {
		watches = append(watches, memoryWatch{floor: memoryReserveOf(total, available)})
	}
	seen := map[uint64]bool{}
	for _, d := range disks {
		p := d.path
		var st unix.Stat_t
		if p == "" || unix.Stat(p, &st) != nil || seen[uint64(st.Dev)] {
			continue
		}
		s, err := space(p)
		if err != nil {
			continue
		}
		seen[uint64(st.Dev)] = true
		w := diskWatch{path: p, shown: d.shown, floor: reserveOf(s.size, s.free)}
		if s.inodes > 0 {
			w.inodeFloor = inodeReserveOf(s.inodes, s.freeInodes)
		}
		watches = append(watches, w)
	}
	if len(watches) == 0 {
		return ctx, func() {}
	}
	wctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		tick := time.NewTicker(diskEvery)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-wctx.Done():
				return
			case <-tick.C:
			}
			for _, w := range watches {
				if why := w.below(); why != "" {
					cancel(&floorError{why})
					return
				}
			}
		}
	}()
	return wctx, func() {
		close(done)
		<-finished
		cancel(nil)
	}
}

// room is what statfs says of a file system: its size and the bytes free
// to this user, its inodes and those free.
type room struct{ size, free, inodes, freeInodes uint64 }

// space returns the room of the file system of path.
func space(path string) (room, error) {
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		return room{}, err
	}
	return room{size: uint64(st.Blocks) * uint64(st.Bsize), free: uint64(st.Bavail) * uint64(st.Bsize),
		inodes: uint64(st.Files), freeInodes: uint64(st.Ffree)}, nil
}

// bytesText says n bytes in MiB or GiB.
func bytesText(n uint64) string {
	if n >= 10<<30 {
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%d MiB", n>>20)
}

// disks are the file systems an unasked action writes on: those of its
// layers (named by the folder each shows), of the system's temporary
// folder (its own is made there) and of the roots.
func (e *Executor) disks(layers []sandbox.Layer) []disk {
	out := []disk{{os.TempDir(), "the disk of the temporary folder"}}
	for _, l := range layers {
		out = append(out, disk{l.Upper, "the disk that holds its changes to " + l.Root})
	}
	for _, r := range e.roots() {
		out = append(out, disk{r, "the disk of " + r})
	}
	return out
}

// stoppedAtFloor returns the error of an action ctx stopped at a floor
// (watchRoom), or nil; dropped says that what it wrote was dropped (its
// layers), else it stays where it wrote it (macOS, where it writes in
// place).
func stoppedAtFloor(ctx context.Context, dropped bool) error {
	var f *floorError
	if err := context.Cause(ctx); errors.As(err, &f) {
		if dropped {
			return fmt.Errorf("stopped, and nothing it wrote was kept (your files are as they were): %w", err)
		}
		return fmt.Errorf("stopped (what it wrote until then is where it wrote it): %w", err)
	}
	return nil
}

// landingFits returns a floorError when landing changes (the review of an
// unasked action's layers) would take the file system of a root below its
// floor. The watch sees only the layers fill while the action runs; where
// they lie on another disk than the roots, what lands is written there
// only now, and whole: a sparse file that takes no room in the layer is
// written out in full. A new version is counted at its size unless it is
// renamed out of its layer (the same file system, one link), which takes
// no more room.
func landingFits(changes []sandbox.Change) error {
	need := map[uint64]uint64{}
	where := map[uint64]string{}
	for _, c := range changes {
		if c.Kind == sandbox.Removed || c.Upper == "" {
			continue
		}
		var up unix.Stat_t
		if unix.Lstat(c.Upper, &up) != nil || up.Mode&unix.S_IFMT != unix.S_IFREG {
			continue
		}
		dir, ok := existingFolder(filepath.Dir(c.Path))
		if !ok {
			continue
		}
		var st unix.Stat_t
		if unix.Stat(dir, &st) != nil {
			continue
		}
		dev := uint64(st.Dev)
		if dev == uint64(up.Dev) && up.Nlink == 1 {
			continue
		}
		need[dev] += uint64(up.Size)
		if _, ok := where[dev]; !ok {
			where[dev] = dir
		}
	}
	for dev, n := range need {
		s, err := space(where[dev])
		if err != nil {
			continue
		}
		floor := reserveOf(s.size, s.free)
		if n > s.free || s.free-n < floor {
			return &floorError{fmt.Sprintf("landing what it wrote would take the free space on the disk of %s from %s to %s, below the %s an action that runs unasked must leave",
				where[dev], bytesText(s.free), bytesText(s.free-min(n, s.free)), bytesText(floor))}
		}
	}
	return nil
}

// existingFolder returns p or the nearest folder above it that exists.
func existingFolder(p string) (string, bool) {
	for {
		if fi, err := os.Stat(p); err == nil {
			return p, fi.IsDir()
		}
		up := filepath.Dir(p)
		if up == p {
			return "", false
		}
		p = up
	}
}
