//go:build linux

package launcher

import (
	"fmt"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// bindPinned puts each pinned file's checked bytes over its path in this
// mount namespace (whose mounts launch made private), read-only: whatever
// the path holds outside by the time the action opens it (a file renamed
// over it, rewritten in place), the action reads what was checked.
//
// The copies are files of a tmpfs of the launcher's own, mounted on stage
// (the action's temporary folder) only while they are made and bound, then
// taken off it: nothing reaches them but through the read-only binds, and
// no process outside this namespace sees them at all. (A memfd, which
// could be sealed, cannot be bound: it lies in no mount of this
// namespace.) Each bind follows the path as it is now: a path that no
// longer leads to a file (removed, a folder put in its place) fails the
// launch, and nothing runs.
//
// What a bind cannot hold: the kernel takes every mount off a file that is
// renamed over or removed, in every namespace, so a file renamed over its
// path after the bind (or a folder above it swapped) is what the path
// leads to again. bindPinned returns each bind, and stillBound, right
// before the program starts, fails the launch when one is gone; from the
// program's start on, such a swap is not caught.
func bindPinned(ps []Pinned, stage string) ([]bound, error) {
	if len(ps) == 0 {
		return nil, nil
	}
	if !filepath.IsAbs(stage) {
		return nil, fmt.Errorf("running the files it runs as they were checked: no temporary folder to make their copies in")
	}
	size := 1 << 20
	for _, p := range ps {
		size += len(p.Bytes) + 4096
	}
	opts := "mode=0700,size=" + strconv.Itoa(size) + ",nr_inodes=" + strconv.Itoa(len(ps)+2)
	if err := unix.Mount("tmpfs", stage, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, opts); err != nil {
		return nil, fmt.Errorf("running the files it runs as they were checked: mounting a folder for their copies: %w", err)
	}
	var err error
	binds := make([]bound, 0, len(ps))
	for i, p := range ps {
		var b bound
		if b, err = bindOne(p, filepath.Join(stage, strconv.Itoa(i))); err != nil {
			err = fmt.Errorf("running %s as it was checked: %w", p.Path, err)
			break
		}
		binds = append(binds, b)
	}
	if uerr := unix.Unmount(stage, unix.MNT_DETACH); uerr != nil && err == nil {
		err = fmt.Errorf("running the files it runs as they were checked: taking the folder of their copies off: %w", uerr)
	}
	return binds, err
}

// bound is one pinned file's copy as bound over its path.
type bound struct {
	path     string
	dev, ino uint64
}

// stillBound returns an error naming the first path that no longer leads
// to its copy: the file was renamed over or removed since the bind.
func stillBound(binds []bound) error {
	var st unix.Stat_t
	for _, b := range binds {
		if err := lookUp(b.path, &st); err != nil || st.Dev != b.dev || st.Ino != b.ino {
			return fmt.Errorf("%s was replaced while the action was being set up: it did not start", b.path)
		}
	}
	return nil
}

// bindOne writes p's bytes to copy, a new file, and binds it over p.Path,
// read-only.
func bindOne(p Pinned, copy string) (bound, error) {
	fd, err := unix.Open(copy, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return bound{}, fmt.Errorf("making its copy: %w", err)
	}
	werr := writeAll(fd, p.Bytes)
	if werr == nil {
		werr = unix.Fchmod(fd, p.Mode&0o777)
	}
	if werr == nil {
		t := unix.NsecToTimespec(p.ModTime)
		werr = unix.UtimesNano("/proc/self/fd/"+strconv.Itoa(fd), []unix.Timespec{t, t})
	}
	if cerr := unix.Close(fd); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return bound{}, fmt.Errorf("writing its copy: %w", werr)
	}
	var st unix.Stat_t
	if err := unix.Lstat(copy, &st); err != nil {
		return bound{}, fmt.Errorf("reading its copy: %w", err)
	}
	if err := unix.Mount(copy, p.Path, "", unix.MS_BIND, ""); err != nil {
		return bound{}, fmt.Errorf("putting its copy in place: %w", err)
	}
	if err := unix.Mount("", p.Path, "", unix.MS_REMOUNT|unix.MS_BIND|unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV, ""); err != nil {
		return bound{}, fmt.Errorf("making its copy read-only: %w", err)
	}
	return bound{path: p.Path, dev: st.Dev, ino: st.Ino}, nil
}

// writeAll writes b to fd whole.
func writeAll(fd int, b []byte) error {
	for len(b) > 0 {
		n, err := unix.Write(fd, b)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return err
		}
		b = b[n:]
	}
	return nil
}
