//go:build unix

package execute

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"golang.org/x/sys/unix"
)

// Every file operation acts through open folders. The sanitiser checks a
// path, and then the path is used: anything that can rename folders in the
// sandbox (another program, a shell action run earlier in the background)
// could swap a folder of the path for a link to ~/.ssh in between, and an
// open by path would follow it. So a path is never opened as a whole: the
// sandbox root that holds it is opened, then the folder of the entry
// beneath it, refusing a symbolic link in any element (openat2 with
// RESOLVE_NO_SYMLINKS|RESOLVE_BENEATH on Linux, O_NOFOLLOW_ANY on macOS),
// and everything after that is done to a name in that open folder (openat,
// renameat, mkdirat … with O_NOFOLLOW). A swap after the check makes the
// action fail; it cannot redirect it.

// ErrSwapped is wrapped by the error of a file operation that found a
// symbolic link (or something that is not a folder) where the path had a
// folder when it was checked: something changed the path in between, and
// nothing was done.
var ErrSwapped = errors.New("the path changed after it was checked (a folder in it is now a link or not a folder): nothing was done")

// folder is an open folder inside a sandbox root (or a Trash), reached
// without following a symbolic link in any element of its path.
type folder struct {
	f    *os.File
	path string // where it was when opened: for messages and the Trash's record
}

func (d *folder) Close() error { return d.f.Close() }

// do calls f with the folder's descriptor, which stays open meanwhile.
func (d *folder) do(f func(fd int) error) error {
	err := f(int(d.f.Fd()))
	runtime.KeepAlive(d.f)
	return err
}

// at is the path of name in d, for messages.
func (d *folder) at(name string) string { return filepath.Join(d.path, name) }

// opened wraps a descriptor openat returned.
func opened(fd int, path string) *os.File { return os.NewFile(uintptr(fd), path) }

// retry calls f again while it is interrupted by a signal.
func retry(f func() error) error {
	for {
		if err := f(); !errors.Is(err, unix.EINTR) {
			return err
		}
	}
}

// sub opens the folder name in d, refusing a link.
func (d *folder) sub(name string) (*folder, error) {
	if err := oneName(name); err != nil {
		return nil, err
	}
	var fd int
	err := d.do(func(dfd int) error {
		return retry(func() (err error) {
			fd, err = unix.Openat(dfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			return err
		})
	})
	if err != nil {
		return nil, pathErr("opening", d.at(name), err)
	}
	return &folder{f: opened(fd, d.at(name)), path: d.at(name)}, nil
}

// open opens the entry name in d with flag, never following a link there
// (O_NOFOLLOW: a link makes it fail).
func (d *folder) open(name string, flag int, perm uint32) (*os.File, error) {
	if err := oneName(name); err != nil {
		return nil, err
	}
	var fd int
	err := d.do(func(dfd int) error {
		return retry(func() (err error) {
			fd, err = unix.Openat(dfd, name, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, perm)
			return err
		})
	})
	if err != nil {
		return nil, pathErr("opening", d.at(name), err)
	}
	return opened(fd, d.at(name)), nil
}

// entryInfo is what fstatat says of an entry, not following a link.
type entryInfo struct {
	mode     fs.FileMode
	size     int64
	dev, ino uint64
}

// same reports whether a and b are one file.
func (a *entryInfo) same(b *entryInfo) bool { return a.dev == b.dev && a.ino == b.ino }

// lstat describes the entry name in d (nil when nothing is there); a link
// is described, not followed.
func (d *folder) lstat(name string) (*entryInfo, error) {
	if err := oneName(name); err != nil {
		return nil, err
	}
	var st unix.Stat_t
	err := d.do(func(dfd int) error {
		return retry(func() error { return unix.Fstatat(dfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) })
	})
	if errors.Is(err, unix.ENOENT) {
		return nil, nil
	}
	if err != nil {
		return nil, pathErr("examining", d.at(name), err)
	}
	return infoOf(&st), nil
}

// stat describes d itself.
func (d *folder) stat() (*entryInfo, error) {
	var st unix.Stat_t
	if err := d.do(func(fd int) error { return unix.Fstat(fd, &st) }); err != nil {
		return nil, pathErr("examining", d.path, err)
	}
	return infoOf(&st), nil
}

func infoOf(st *unix.Stat_t) *entryInfo {
	m := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	case unix.S_IFREG:
	case unix.S_IFIFO:
		m |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		m |= fs.ModeSocket
	case unix.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		m |= fs.ModeDevice
	default:
		m |= fs.ModeIrregular
	}
	return &entryInfo{mode: m, size: int64(st.Size), dev: uint64(st.Dev), ino: uint64(st.Ino)}
}

// mkdir makes the folder name in d.
func (d *folder) mkdir(name string, perm uint32) error {
	if err := oneName(name); err != nil {
		return err
	}
	err := d.do(func(dfd int) error { return retry(func() error { return unix.Mkdirat(dfd, name, perm) }) })
	return pathErr("making", d.at(name), err)
}

// tempName is a new name for a temporary entry: tempPrefix, kind, random.
func tempName(kind string) string {
	var b [8]byte
	rand.Read(b[:])
	return tempPrefix + kind + "-" + hex.EncodeToString(b[:])
}

// createTemp makes a new file in d, open for writing, with mode perm; it
// returns the file and its name in d.
func (d *folder) createTemp(perm fs.FileMode) (*os.File, string, error) {
	for range 100 {
		name := tempName("tmp")
		f, err := d.open(name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, "", err
		}
		if err := f.Chmod(perm); err != nil {
			f.Close()
			d.remove(name)
			return nil, "", err
		}
		return f, name, nil
	}
	return nil, "", fmt.Errorf("making a temporary file in %s: no free name", d.path)
}

// mkdirTemp makes a new folder in d (0700) and returns its name.
func (d *folder) mkdirTemp() (string, error) {
	for range 100 {
		name := tempName("copy")
		err := d.mkdir(name, 0o700)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return name, err
	}
	return "", fmt.Errorf("making a temporary folder in %s: no free name", d.path)
}

// remove unlinks the file name in d. Only for Airlock's own temporary
// files: what the person has is never unlinked.
func (d *folder) remove(name string) error {
	err := d.do(func(dfd int) error { return unix.Unlinkat(dfd, name, 0) })
	return pathErr("removing", d.at(name), err)
}

// removeTemp removes Airlock's own temporary entry name in d, a file or a
// folder with what it holds, without following links.
func (d *folder) removeTemp(name string) error {
	info, err := d.lstat(name)
	if err != nil || info == nil {
		return err
	}
	if !info.mode.IsDir() {
		return d.remove(name)
	}
	sub, err := d.sub(name)
	if err != nil {
		return err
	}
	names, err := sub.f.Readdirnames(-1)
	for _, n := range names {
		if rerr := sub.removeTemp(n); err == nil {
			err = rerr
		}
	}
	sub.Close()
	if err != nil {
		return err
	}
	err = d.do(func(dfd int) error { return unix.Unlinkat(dfd, name, unix.AT_REMOVEDIR) })
	return pathErr("removing", d.at(name), err)
}

// renameAt renames from's entry fromName to to's toName, replacing what is
// there; neither name is followed if it is a link.
func renameAt(from *folder, fromName string, to *folder, toName string) error {
	return renameWith(from, fromName, to, toName, unix.Renameat)
}

// renameWith is renameAt by the call rename.
func renameWith(from *folder, fromName string, to *folder, toName string, rename func(int, string, int, string) error) error {
	if err := oneName(fromName); err != nil {
		return err
	}
	if err := oneName(toName); err != nil {
		return err
	}
	err := from.do(func(ffd int) error {
		return to.do(func(tfd int) error {
			return retry(func() error { return rename(ffd, fromName, tfd, toName) })
		})
	})
	if err != nil {
		return &os.LinkError{Op: "rename", Old: from.at(fromName), New: to.at(toName), Err: err}
	}
	return nil
}

// oneName refuses a name that is not one element of a path: it must not
// lead anywhere but into its folder.
func oneName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') || strings.ContainsRune(name, 0) {
		return fmt.Errorf("%q is not the name of one entry", name)
	}
	return nil
}

// pathErr wraps err (nil stays nil) as an *fs.PathError, with ErrSwapped
// where a link or a non-folder stood in the way.
func pathErr(op, path string, err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.EXDEV) && op == "opening" {
		return fmt.Errorf("%s %s: %w", op, path, ErrSwapped)
	}
	return &fs.PathError{Op: op, Path: path, Err: err}
}

// openPath opens the folder at the absolute path p, which must hold no
// symbolic link in any element, with its folders from root (an element of
// the list roots, which p lies in) opened by openRoot and openBeneath.
func openFolder(root, rel string) (*folder, error) {
	r, err := openRoot(root)
	if err != nil {
		return nil, pathErr("opening", root, err)
	}
	if rel == "." {
		return &folder{f: r, path: root}, nil
	}
	defer r.Close()
	f, err := openBeneath(r, rel)
	if err != nil {
		return nil, pathErr("opening", filepath.Join(root, rel), err)
	}
	return &folder{f: f, path: filepath.Join(root, rel)}, nil
}

// walkBeneath opens the folder rel (relative, clean, no "..") beneath dir
// one element at a time, refusing a link in any of them: the portable way
// openBeneath goes where the system has no better one.
func walkBeneath(dir *os.File, rel string) (*os.File, error) {
	cur := &folder{f: dir, path: dir.Name()}
	owned := false
	for _, name := range strings.Split(rel, "/") {
		next, err := cur.sub(name)
		if owned {
			cur.Close()
		}
		if err != nil {
			return nil, err
		}
		cur, owned = next, true
	}
	if !owned {
		return nil, fmt.Errorf("%q names no folder beneath %s", rel, dir.Name())
	}
	return cur.f, nil
}

// walkFromSlash is walkBeneath from /, for an absolute path.
func walkFromSlash(path string) (*os.File, error) {
	if !filepath.IsAbs(path) || path == "/" {
		return nil, fmt.Errorf("%q is not an absolute path below /", path)
	}
	slash, err := os.Open("/")
	if err != nil {
		return nil, err
	}
	defer slash.Close()
	return walkBeneath(slash, path[1:])
}
