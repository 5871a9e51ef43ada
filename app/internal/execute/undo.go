package execute

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// ErrNotUndone is wrapped by the error of Undo when some changes could not
// be undone; the report says which, and why.
var ErrNotUndone = errors.New("some changes were not undone")

// An UndoItem is what Undo did about one change.
type UndoItem struct {
	Path string
	Done bool   // undone, or nothing to undo
	What string // what was done, or why not
	// Trashed is where the action's version went in the Trash; "" when it
	// did not go there.
	Trashed string
}

// UndoReport says, path by path, what Undo did.
type UndoReport struct {
	Items []UndoItem
}

// NotDone lists the paths Undo could not undo, with why.
func (r UndoReport) NotDone() []UndoItem {
	var out []UndoItem
	for _, it := range r.Items {
		if !it.Done {
			out = append(out, it)
		}
	}
	return out
}

// Undo undoes an action's changes from their records (ApplyChanges' and
// Held.Resolve's, in the order they were made), last first:
//
//   - what the action put at a path (a new version, kept or not held) goes
//     to the Trash, when it is still what the action put there: a regular
//     file with the recorded hash, a link with the recorded target, a
//     folder (one left empty is removed instead: it holds nothing to keep);
//   - what it replaced or removed is put back from the Trash, when it is
//     still there and, where its hash was recorded, unchanged, and nothing
//     is at its path;
//   - a folder whose permissions it changed gets its old ones back, when
//     they are still the action's.
//
// Undo never unlinks anything: what it takes away goes to the Trash. It
// reaches every path as ApplyChanges does (no link followed, from the
// sandbox root down) and the Trash by path (the Trash is the gate's, no
// action's). A change that was discarded or not applied has nothing to
// undo but what it moved to the Trash. Anything that changed since, the
// report names and Undo leaves as it is; the error then wraps
// ErrNotUndone, listing those paths. ctx is checked between changes; once
// it ends the rest are reported as not undone. It waits for the
// executor's turn.
func (e *Executor) Undo(ctx context.Context, records []ChangeRecord) (UndoReport, error) {
	release, err := e.turn(ctx)
	if err != nil {
		return UndoReport{}, fmt.Errorf("undoing: %w", err)
	}
	defer release()
	if err := e.canReview(); err != nil {
		return UndoReport{}, err
	}
	var rep UndoReport
	for i := len(records) - 1; i >= 0; i-- {
		r := records[i]
		if err := ctx.Err(); err != nil {
			rep.Items = append(rep.Items, UndoItem{Path: r.Path, What: "not undone: stopped: " + context.Cause(ctx).Error()})
			continue
		}
		rep.Items = append(rep.Items, e.undoOne(r))
	}
	bad := rep.NotDone()
	if len(bad) == 0 {
		return rep, nil
	}
	lines := make([]string, len(bad))
	for i, it := range bad {
		lines[i] = e.short(it.Path) + " (" + it.What + ")"
	}
	return rep, fmt.Errorf("%w: %d of %d: %s", ErrNotUndone, len(bad), len(rep.Items), strings.Join(lines, "; "))
}

// undoOne undoes one change.
func (e *Executor) undoOne(r ChangeRecord) UndoItem {
	it := UndoItem{Path: r.Path, Done: true}
	permsOnly := r.Status == ChangeApplied && r.Kind == sandbox.Changed && !r.Placed && r.Old == "" &&
		r.Mode.IsDir() && r.OldMode.IsDir() && r.Mode.Perm() != r.OldMode.Perm()
	if (r.Status != ChangeApplied || !r.Placed) && r.Old == "" && !permsOnly {
		it.What = "nothing to undo"
		if r.Discarded != "" {
			it.What = "nothing to undo: its new version was never applied (it is in the Trash at " + r.Discarded + ")"
		}
		return it
	}
	if _, rel, ok := rootOf(e.Paths.Roots, r.Path, foldCase); !ok || rel == "." {
		return notDone(it, fmt.Errorf("it lies in no sandbox root now"))
	}
	s, err := e.locate(r.Path)
	if err != nil {
		return notDone(it, err)
	}
	defer s.dir.Close()
	var did []string
	if permsOnly {
		return e.undoPerms(s, r, it)
	}
	if r.Status == ChangeApplied && r.Placed {
		what, where, err := e.takeBack(s, r)
		if err != nil {
			return notDone(it, err)
		}
		it.Trashed = where
		did = append(did, what)
	}
	if r.Old != "" {
		if err := e.putBack(s, r); err != nil {
			it = notDone(it, err)
			it.What = strings.Join(append(did, it.What), "; ")
			return it
		}
		did = append(did, "put back what it replaced, from the Trash")
	}
	it.What = strings.Join(did, "; ")
	return it
}

func notDone(it UndoItem, err error) UndoItem {
	it.Done, it.What = false, "not undone: "+err.Error()
	return it
}

// undoPerms gives a folder back the permissions the action changed.
func (e *Executor) undoPerms(s spot, r ChangeRecord, it UndoItem) UndoItem {
	cur, err := s.dir.lstat(s.name)
	switch {
	case err != nil:
		return notDone(it, err)
	case cur == nil || !cur.mode.IsDir():
		return notDone(it, errors.New("the folder is gone"))
	case cur.mode.Perm() != r.Mode.Perm():
		return notDone(it, fmt.Errorf("its permissions changed since (%v, the action set %v): left as they are", cur.mode.Perm(), r.Mode.Perm()))
	}
	sub, err := s.dir.sub(s.name)
	if err != nil {
		return notDone(it, err)
	}
	defer sub.Close()
	if err := sub.f.Chmod(r.OldMode.Perm()); err != nil {
		return notDone(it, err)
	}
	it.What = "its permissions are back to " + r.OldMode.Perm().String()
	return it
}

// takeBack moves what the action put at s to the Trash, when it is still
// that; a folder it made that is empty now is removed (it holds nothing).
// Nothing there is fine: the person removed it.
func (e *Executor) takeBack(s spot, r ChangeRecord) (what, where string, err error) {
	cur, err := s.dir.lstat(s.name)
	if err != nil {
		return "", "", err
	}
	if cur == nil {
		return "what it put there is gone already", "", nil
	}
	if cur.mode.Type() != r.Mode.Type() {
		return "", "", fmt.Errorf("%s is there now, not what the action put there: left as it is", kindOfFile(cur.mode))
	}
	switch {
	case cur.mode.IsRegular():
		h, err := hashAt(s.dir, s.name)
		if err != nil {
			return "", "", err
		}
		if h != r.Hash {
			return "", "", errors.New("it changed since the action: left as it is")
		}
	case cur.mode&fs.ModeSymlink != 0:
		t, err := readlinkAt(s.dir, s.name)
		if err != nil {
			return "", "", err
		}
		if hashString(t) != r.Hash {
			return "", "", errors.New("the link points elsewhere since the action: left as it is")
		}
	case cur.mode.IsDir():
		err := s.dir.do(func(fd int) error { return unix.Unlinkat(fd, s.name, unix.AT_REMOVEDIR) })
		if err == nil {
			return "removed the folder it made (empty)", "", nil
		}
		if !errors.Is(err, unix.ENOTEMPTY) && !errors.Is(err, unix.EEXIST) {
			return "", "", pathErr("removing", s.path(), err)
		}
	}
	where, err = e.trash(context.Background(), s)
	if err != nil {
		return "", "", err
	}
	return "moved the action's version to the Trash", where, nil
}

// putBack moves r's old version from the Trash back to s, when it is
// still in the Trash as it went there and nothing is at s.
func (e *Executor) putBack(s spot, r ChangeRecord) error {
	if !filepath.IsAbs(r.Old) || filepath.Clean(r.Old) != r.Old {
		return fmt.Errorf("its Trash location %q is not an absolute path", r.Old)
	}
	td, err := e.openTrashed(filepath.Dir(r.Old))
	if err != nil {
		return fmt.Errorf("what it replaced is no longer in the Trash: %w", err)
	}
	defer td.Close()
	name := filepath.Base(r.Old)
	old, err := td.lstat(name)
	switch {
	case err != nil:
		return err
	case old == nil:
		return fmt.Errorf("what it replaced is no longer in the Trash at %s", r.Old)
	case old.mode.Type() != r.OldMode.Type():
		return fmt.Errorf("%s in the Trash is not what went there", r.Old)
	}
	if r.OldHash != "" {
		var h string
		if old.mode&fs.ModeSymlink != 0 {
			t, err := readlinkAt(td, name)
			if err != nil {
				return err
			}
			h = hashString(t)
		} else if h, err = hashAt(td, name); err != nil {
			return err
		}
		if h != r.OldHash {
			return fmt.Errorf("%s in the Trash changed since it went there: left there", r.Old)
		}
	}
	if err := renameNoReplace(td, name, s.dir, s.name); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("something is at %s now: what it replaced stays in the Trash at %s", s.path(), r.Old)
		}
		return fmt.Errorf("putting back %s: %w", r.Old, err)
	}
	e.forgetTrashInfo(r.Old)
	return nil
}

// openTrashed opens the folder dir of the Trash where an old version lies:
// through the Trash's own folders, never following a link (openTrashDir),
// when it is the freedesktop Trash's, else by path.
func (e *Executor) openTrashed(dir string) (*folder, error) {
	if t, ok := e.Trash.(*freedesktop); ok && (dir == t.files || dir == t.info) {
		return t.openTrashDir(dir)
	}
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	return &folder{f: f, path: dir}, nil
}

// forgetTrashInfo removes the freedesktop Trash's record of an item put
// back (Trash/info/NAME.trashinfo beside Trash/files/NAME): an orphan
// record would show a ghost in the file manager's Trash. It is the Trash's
// own bookkeeping, not the person's data. The info folder is reached as
// openTrashed reaches it: a link there is never followed to remove
// something elsewhere.
func (e *Executor) forgetTrashInfo(where string) {
	files := filepath.Dir(where)
	if filepath.Base(files) != "files" {
		return
	}
	info, err := e.openTrashed(filepath.Join(filepath.Dir(files), "info"))
	if err != nil {
		return
	}
	defer info.Close()
	if fi, err := info.lstat(filepath.Base(where) + ".trashinfo"); err == nil && fi != nil && fi.mode.IsRegular() {
		info.remove(filepath.Base(where) + ".trashinfo")
	}
}
