//go:build linux

package sandbox

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// copyOnWrite says that actions that run unasked here see the sandbox
// roots through a copy-on-write view (overlayfs), reviewed after they end.
const copyOnWrite = true

// The attributes overlayfs keeps in the upper layer when mounted with
// userxattr (Documentation/filesystems/overlayfs.rst).
const (
	attrOpaque   = "user.overlay.opaque"   // "y": a folder that hides what lies below it
	attrWhiteout = "user.overlay.whiteout" // on an empty file: the other form of a whiteout
)

// charWhiteout reports whether fi, a character device, is overlayfs's
// whiteout: device 0/0.
func charWhiteout(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Rdev == 0
}

// xattrWhiteout reports whether the empty regular file name in dir carries
// overlayfs's whiteout attribute.
func xattrWhiteout(dir *os.Root, name string) bool {
	f, err := dir.OpenFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	_, err = unix.Fgetxattr(int(f.Fd()), attrWhiteout, nil)
	return err == nil
}

// opaqueDir reports whether the folder dir is opaque: nothing below it
// shows through.
func opaqueDir(dir *os.Root) (bool, error) {
	f, err := dir.Open(".")
	if err != nil {
		return false, err
	}
	defer f.Close()
	var v [8]byte
	n, err := unix.Fgetxattr(int(f.Fd()), attrOpaque, v[:])
	switch {
	case errors.Is(err, unix.ENODATA), errors.Is(err, unix.EOPNOTSUPP), errors.Is(err, unix.ERANGE):
		return false, nil
	case err != nil:
		return false, err
	}
	return string(v[:n]) == "y", nil
}

// bootID returns this boot's ID, or "" when it cannot be read. It is read
// once: a process lives in one boot, and every layer is stamped with it.
var bootID = sync.OnceValue(func() string {
	b, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
})

// mountID returns the ID of the mount path lies on, or 0 when it cannot
// be read.
func mountID(path string) uint64 {
	var st unix.Statx_t
	if err := unix.Statx(unix.AT_FDCWD, path, unix.AT_SYMLINK_NOFOLLOW, unix.STATX_MNT_ID, &st); err != nil || st.Mask&unix.STATX_MNT_ID == 0 {
		return 0
	}
	return st.Mnt_id
}
