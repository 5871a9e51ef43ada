package execute

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// systemTrasher moves the item at an absolute path to the Trash through
// the system's own interface and returns where it lies now. It takes a path
// (macOS: NSFileManager's trashItemAtURL:resultingItemURL:error:), so the
// Trasher that falls back to it checks the path right before the call.
type systemTrasher func(path string) (where string, err error)

// homeSystemTrash is the system's Trash interface on this platform, or nil
// when it has none HomeTrash could fall back to (set by trash_darwin.go).
var homeSystemTrash systemTrasher

// viaSystem is TrashAt where the Trash's own folder cannot be opened (on
// macOS 10.15 and later the privacy protections refuse reading ~/.Trash to
// a program without Full Disk Access, so moving into it by name in an open
// folder is not possible). The item is moved by path, through the system,
// after the path is checked to name, right now, the entry the executor
// checked: the folder the path names (opened again, refusing a symbolic
// link in any element) must be the open folder, and the entry there the
// one the open folder holds under name. Afterwards, what went to the Trash
// must be that entry too; if the system moved something else (the path was
// swapped in between), nothing is lost, since that went to the Trash as
// well, and the error says so.
//
// What this gives up against TrashAt proper: between the check and the
// system's move there is a window (microseconds) in which a folder of the
// path could be swapped by something that may rename in it; the worst it
// gets is another of the person's items moved to the Trash instead, from
// which Finder's Put Back restores it. Nothing is ever unlinked.
func (t *freedesktop) viaSystem(ctx context.Context, from *folder, name, path string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if !filepath.IsAbs(path) || filepath.Base(path) != name {
		return "", fmt.Errorf("moving %s to the Trash: the path does not end in %q", path, name)
	}
	want, err := from.lstat(name)
	if err == nil && want == nil {
		err = fs.ErrNotExist
	}
	if err != nil {
		return "", fmt.Errorf("moving %s to the Trash: %w", path, err)
	}
	if err := samePlace(from, name, path, want); err != nil {
		return "", fmt.Errorf("moving %s to the Trash: %w", path, err)
	}
	where, err := t.system(path)
	if err != nil {
		return "", fmt.Errorf("moving %s to the Trash: %w", path, err)
	}
	if where == "" {
		return t.files, nil // moved, the system did not say where
	}
	var st unix.Stat_t
	if err := unix.Lstat(where, &st); err == nil && !infoOf(&st).same(want) {
		return where, fmt.Errorf("moving %s to the Trash: %w: what went to the Trash (%s) is not the item that was checked; both are safe, in the Trash and in place", path, ErrSwapped, where)
	}
	return where, nil
}

// samePlace checks that path names, through folders without symbolic
// links, the entry want that the open folder from holds under name.
func samePlace(from *folder, name, path string, want *entryInfo) error {
	dir, err := openRoot(filepath.Dir(path))
	if err != nil {
		return pathErr("opening", filepath.Dir(path), err)
	}
	again := &folder{f: dir, path: filepath.Dir(path)}
	defer again.Close()
	a, err := again.stat()
	if err != nil {
		return err
	}
	b, err := from.stat()
	if err != nil {
		return err
	}
	if !a.same(b) {
		return fmt.Errorf("%w: %s is no longer the folder that was checked", ErrSwapped, filepath.Dir(path))
	}
	got, err := again.lstat(name)
	if err != nil {
		return err
	}
	if got == nil || !got.same(want) {
		return fmt.Errorf("%w: %s is no longer the item that was checked", ErrSwapped, path)
	}
	return nil
}

// trashDirRefused reports whether opening the Trash's folder failed because
// the system refuses it (EPERM, EACCES), not because it is missing or
// broken.
func trashDirRefused(err error) bool { return errors.Is(err, fs.ErrPermission) }
