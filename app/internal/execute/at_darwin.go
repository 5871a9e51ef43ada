//go:build darwin

package execute

import (
	"errors"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// openRoot opens the folder at the absolute path root, refusing a symbolic
// link in any element of it (O_NOFOLLOW_ANY, macOS 11 and later).
func openRoot(root string) (*os.File, error) {
	return openNoFollowAny(unix.AT_FDCWD, root)
}

// openBeneath opens the folder rel (relative, clean, without "..": the
// callers check) beneath dir, refusing a symbolic link in any element
// (O_NOFOLLOW_ANY).
func openBeneath(dir *os.File, rel string) (*os.File, error) {
	f, err := openNoFollowAny(int(dir.Fd()), rel)
	runtime.KeepAlive(dir)
	return f, err
}

func openNoFollowAny(dirfd int, path string) (*os.File, error) {
	for {
		fd, err := unix.Openat(dirfd, path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC|unix.O_NOFOLLOW_ANY, 0)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return os.NewFile(uintptr(fd), path), nil
	}
}

// renameNoReplace renames as renameAt does, but fails with an error
// wrapping fs.ErrExist where something is at toName already (RENAME_EXCL).
func renameNoReplace(from *folder, fromName string, to *folder, toName string) error {
	return renameWith(from, fromName, to, toName, func(ffd int, fname string, tfd int, tname string) error {
		return unix.RenameatxNp(ffd, fname, tfd, tname, unix.RENAME_EXCL)
	})
}
