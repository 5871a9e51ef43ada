package sandbox

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// Every action's temporary folder lies in one folder of this user's
// (actionsFolder), not loose in the system's: so that a profile can refuse
// an action every other action's folder at once, those running beside it
// (what an approved one writes there, an agent's socket it starts there)
// and those a gate that stopped left, while it reaches its own. Linux's
// Landlock grants no action the system's temporary folder at all; macOS's
// Seatbelt reads everywhere but what is refused, so there it is this
// folder that keeps them apart (Profile.OtherTemps).
//
// The action's temporary folder (TMPDIR) is made ahead of it. Making a
// folder where the system keeps temporary files can take a good part of a
// millisecond (on a disk file system mkdir allocates the folder's block and
// journals it: 0.13 to 0.6 ms measured on ext4 here, against 10 µs on a
// tmpfs), and it does not depend on the action. So a Box keeps one empty
// folder made after the last action ended, and the next action takes it.
//
// The rules it keeps:
//   - one folder per action, never reused: a folder is handed out once,
//     and removed with its action (done);
//   - the folder an action gets is one this process made, as it was made:
//     still in the temporary folder the system names now (TMPDIR may have
//     changed since), the same inode, a folder of mode 0700, owned by us,
//     and empty. Anything else and the folder is thrown away and one is
//     made at once, as before there were folders made ahead.
type tempAhead struct {
	mu     sync.Mutex
	dir    string // the folder made ahead, "" when none
	parent string // os.TempDir() when it was made
	dev    uint64 // its device and inode as made
	ino    uint64
	making bool // a folder is being made
	closed bool // the Box is closed: none is made again
}

// take returns a new folder for one action: the one made ahead if it is
// still as it was made, else one made now. Where the system's temporary
// folder lies in one of roots (the sandbox roots) it is made there, not in
// a folder of actions' folders that would stay among the person's files.
func (t *tempAhead) take(roots []string) (string, error) {
	t.mu.Lock()
	dir, parent, dev, ino := t.dir, t.parent, t.dev, t.ino
	t.dir = ""
	t.mu.Unlock()
	if dir != "" {
		if parent == filepath.Clean(os.TempDir()) && untouched(dir, dev, ino) {
			return dir, nil
		}
		os.RemoveAll(dir)
	}
	into := filepath.Clean(os.TempDir())
	if !inRoots(into, roots) {
		var err error
		if into, err = actionsFolder(into); err != nil {
			return "", err
		}
	}
	d, err := os.MkdirTemp(into, tempDirPattern)
	if err != nil {
		return "", fmt.Errorf("sandbox: making the action's temporary folder: %w", err)
	}
	return d, nil
}

// inRoots reports whether dir lies in one of roots.
func inRoots(dir string, roots []string) bool {
	return slices.ContainsFunc(roots, func(r string) bool { return within(dir, r) })
}

// actionsFolderPrefix starts the name of the folder, in the system's
// temporary folder, that holds this user's actions' temporary folders; the
// user's id ends it.
const actionsFolderPrefix = "airlock-actions-"

// actionsFolder returns the folder in tmp that holds this user's actions'
// temporary folders, made (mode 0700) if missing. One that is there must
// be a folder, not a link, of this user's, that no one else may enter
// (mode 0700): in a temporary folder others may write in, another user
// could have made it first to see what actions leave there.
func actionsFolder(tmp string) (string, error) {
	dir := filepath.Join(filepath.Clean(tmp), actionsFolderPrefix+strconv.Itoa(os.Getuid()))
	err := os.Mkdir(dir, 0o700)
	if err == nil || !errors.Is(err, fs.ErrExist) {
		if err != nil {
			return "", fmt.Errorf("sandbox: making the folder of the actions' temporary folders: %w", err)
		}
		return dir, nil
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", fmt.Errorf("sandbox: the folder of the actions' temporary folders: %w", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || !fi.IsDir() || fi.Mode().Perm() != 0o700 || int(st.Uid) != os.Getuid() {
		return "", fmt.Errorf("sandbox: %s, where actions' temporary folders are made, is not a folder of this user's alone "+
			"(mode 0700, not a link: it is %v, owner %d); remove it, or set TMPDIR to another folder", dir, fi.Mode(), stUID(st))
	}
	return dir, nil
}

// stUID is st's owner, -1 without one.
func stUID(st *syscall.Stat_t) int {
	if st == nil {
		return -1
	}
	return int(st.Uid)
}

// otherTemps is the folder holding every action's temporary folder when
// temp lies in one (actionsFolder), for Profile.OtherTemps.
func otherTemps(temp string) string {
	if d := filepath.Dir(temp); strings.HasPrefix(filepath.Base(d), actionsFolderPrefix) && strings.HasPrefix(filepath.Base(temp), tempDirPattern) {
		return d
	}
	return ""
}

// fill makes the next action's folder in the background, unless one is
// made or being made, or the Box is closed, or the temporary folder the
// system names lies in one of roots (the sandbox roots): a folder left
// waiting there would be one more thing in the person's files, which an
// approved action could write in and an unasked one sees through its
// view.
func (t *tempAhead) fill(roots []string) {
	parent := filepath.Clean(os.TempDir())
	if inRoots(parent, roots) {
		return
	}
	t.mu.Lock()
	if t.closed || t.making || t.dir != "" {
		t.mu.Unlock()
		return
	}
	t.making = true
	t.mu.Unlock()
	go func() {
		dir, err := actionsFolder(parent)
		if err == nil {
			dir, err = os.MkdirTemp(dir, tempDirPattern)
		}
		var dev, ino uint64
		if err == nil {
			dev, ino, err = identity(dir)
		}
		t.mu.Lock()
		t.making = false
		keep := err == nil && !t.closed && t.dir == "" && parent == filepath.Clean(os.TempDir())
		if keep {
			t.dir, t.parent, t.dev, t.ino = dir, parent, dev, ino
		}
		t.mu.Unlock()
		if err == nil && !keep {
			os.RemoveAll(dir)
		}
	}()
}

// close removes the folder made ahead and makes none again.
func (t *tempAhead) close() {
	t.mu.Lock()
	dir := t.dir
	t.dir, t.closed = "", true
	t.mu.Unlock()
	if dir != "" {
		os.RemoveAll(dir)
	}
}

// identity returns a folder's device and inode, read without following a
// link.
func identity(dir string) (dev, ino uint64, err error) {
	fi, err := os.Lstat(dir)
	if err != nil {
		return 0, 0, err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || !fi.IsDir() {
		return 0, 0, errors.New("not a folder")
	}
	return uint64(st.Dev), uint64(st.Ino), nil
}

// untouched reports whether dir is still the folder made ahead: opened
// without following a link, the same device and inode, a folder of mode
// 0700 owned by this process's user, with nothing in it.
func untouched(dir string, dev, ino uint64) bool {
	if !filepath.IsAbs(dir) {
		return false
	}
	f, err := os.OpenFile(dir, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_DIRECTORY, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || uint64(st.Dev) != dev || uint64(st.Ino) != ino ||
		!fi.IsDir() || fi.Mode().Perm() != 0o700 || int(st.Uid) != os.Getuid() {
		return false
	}
	_, err = f.Readdirnames(1)
	return errors.Is(err, io.EOF)
}
