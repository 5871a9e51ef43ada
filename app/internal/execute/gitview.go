package execute

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"golang.org/x/sys/unix"
)

// The git checks (gitstate.go) read files as the action left them: its
// new version when it changed one, the root's otherwise, nothing when it
// removed the file or made anew a folder the file lay in. No link is
// followed on the way: a link where git's own files or the work tree
// have a folder makes the file unreadable here, and the change is held.

// viewEntry is where a file lies in the view the action left: its new
// version in the layer (upper), or the root's (name in the open folder
// dir).
type viewEntry struct {
	upper string
	dir   *folder
	name  string
}

func (v viewEntry) Close() {
	if v.dir != nil {
		v.dir.Close()
	}
}

// changeKey is the key of a path in gitFolders.changed: folded where the
// file system folds case.
func changeKey(p string) string {
	if foldCase {
		return strings.ToLower(p)
	}
	return p
}

// locate finds p in the view; false when nothing is there. The caller
// closes what it returns.
func (g *gitFolders) locate(p string) (viewEntry, bool, error) {
	if c, ok := g.changed[changeKey(p)]; ok {
		if c.Kind == sandbox.Removed {
			return viewEntry{}, false, nil
		}
		return viewEntry{upper: c.Upper}, true, nil
	}
	root := outerRoot(g.e.Paths.Roots, p)
	if root == "" || p == root {
		return viewEntry{}, false, fmt.Errorf("%s lies in no sandbox root", p)
	}
	for a := filepath.Dir(p); a != root && inside(a, root); a = filepath.Dir(a) {
		c, ok := g.changed[changeKey(a)]
		if !ok {
			continue
		}
		if c.Kind == sandbox.Removed {
			return viewEntry{}, false, nil
		}
		fi, err := os.Lstat(c.Upper)
		if err != nil {
			return viewEntry{}, false, err
		}
		if !fi.IsDir() || newFolder(c, fi.Mode()) {
			// A file or link now where a folder was, or a folder made
			// anew whose entries are all changes of their own.
			return viewEntry{}, false, nil
		}
	}
	dir, err := g.e.reach(filepath.Dir(p))
	if errors.Is(err, fs.ErrNotExist) {
		return viewEntry{}, false, nil
	}
	if err != nil {
		return viewEntry{}, false, err
	}
	if fi, err := dir.lstat(filepath.Base(p)); err != nil || fi == nil {
		dir.Close()
		return viewEntry{}, false, err
	}
	return viewEntry{dir: dir, name: filepath.Base(p)}, true, nil
}

// mode returns the entry's type and permission bits.
func (v viewEntry) mode() (fs.FileMode, error) {
	if v.dir == nil {
		fi, err := os.Lstat(v.upper)
		if err != nil {
			return 0, err
		}
		return fi.Mode(), nil
	}
	fi, err := v.dir.lstat(v.name)
	if err != nil {
		return 0, err
	}
	if fi == nil {
		return 0, fs.ErrNotExist
	}
	return fi.mode, nil
}

// open opens the entry for reading, refusing a link.
func (v viewEntry) open() (*os.File, error) {
	if v.dir == nil {
		return os.OpenFile(v.upper, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	}
	return v.dir.open(v.name, os.O_RDONLY, 0)
}

// readlink returns a link's target.
func (v viewEntry) readlink() (string, error) {
	if v.dir == nil {
		return os.Readlink(v.upper)
	}
	var target string
	err := v.dir.do(func(fd int) error {
		buf := make([]byte, unix.PathMax)
		n, err := unix.Readlinkat(fd, v.name, buf)
		target = string(buf[:max(n, 0)])
		return err
	})
	return target, err
}

// readAfter reads the regular file p as the action left it, at most limit
// bytes: false when nothing is there; an error when it is not a regular
// file, is longer, or cannot be read.
func (g *gitFolders) readAfter(p string, limit int64) ([]byte, bool, error) {
	v, ok, err := g.locate(p)
	if !ok || err != nil {
		return nil, false, err
	}
	defer v.Close()
	f, err := v.open()
	if err != nil {
		return nil, true, err
	}
	b, err := readBounded(f, limit)
	return b, true, err
}

// readBefore reads rel, a file of the git folder d, as the root holds it,
// at most limit bytes: false when nothing is there.
func (g *gitFolders) readBefore(d, rel string, limit int64) ([]byte, bool, error) {
	f, err := g.openReal(d, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	b, err := readBounded(f, limit)
	return b, true, err
}

// readBounded reads the whole of the regular file f, at most limit bytes,
// and closes it.
func readBounded(f *os.File, limit int64) ([]byte, error) {
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", f.Name())
	}
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err == nil && int64(len(b)) > limit {
		err = fmt.Errorf("%s is over %d bytes", f.Name(), limit)
	}
	return b, err
}
