//go:build linux

package execute

import (
	"errors"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// openRoot opens the folder at the absolute path root, refusing a symbolic
// link in any element of it (openat2, RESOLVE_NO_SYMLINKS).
func openRoot(root string) (*os.File, error) {
	return openat2(unix.AT_FDCWD, root, unix.RESOLVE_NO_SYMLINKS|unix.RESOLVE_NO_MAGICLINKS, func() (*os.File, error) {
		return walkFromSlash(root)
	})
}

// openBeneath opens the folder rel (relative, clean) beneath dir, refusing
// a symbolic link in any element and any way out of dir (openat2,
// RESOLVE_NO_SYMLINKS|RESOLVE_BENEATH).
func openBeneath(dir *os.File, rel string) (*os.File, error) {
	f, err := openat2(int(dir.Fd()), rel, unix.RESOLVE_NO_SYMLINKS|unix.RESOLVE_NO_MAGICLINKS|unix.RESOLVE_BENEATH, func() (*os.File, error) {
		return walkBeneath(dir, rel)
	})
	runtime.KeepAlive(dir)
	return f, err
}

// openat2 opens the folder path from dirfd with resolve. A kernel without
// openat2 (before 5.6) takes fallback, which opens one element at a time
// with O_NOFOLLOW; a rename elsewhere during the lookup (EAGAIN) is tried
// again.
func openat2(dirfd int, path string, resolve uint64, fallback func() (*os.File, error)) (*os.File, error) {
	how := &unix.OpenHow{Flags: unix.O_RDONLY | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: resolve}
	for range 16 {
		fd, err := unix.Openat2(dirfd, path, how)
		switch {
		case err == nil:
			return os.NewFile(uintptr(fd), path), nil
		case errors.Is(err, unix.ENOSYS):
			return fallback()
		case errors.Is(err, unix.EAGAIN), errors.Is(err, unix.EINTR):
			continue
		default:
			return nil, err
		}
	}
	return nil, unix.EAGAIN
}

// renameNoReplace renames as renameAt does, but fails with an error
// wrapping fs.ErrExist where something is at toName already
// (RENAME_NOREPLACE).
func renameNoReplace(from *folder, fromName string, to *folder, toName string) error {
	return renameWith(from, fromName, to, toName, func(ffd int, fname string, tfd int, tname string) error {
		return unix.Renameat2(ffd, fname, tfd, tname, unix.RENAME_NOREPLACE)
	})
}
