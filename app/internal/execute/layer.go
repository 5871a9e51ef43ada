package execute

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// How one reviewed change is put in place (changes.go says the rules).

// moveFromLayer renames a new version out of its layer, failing where
// something is at the new name. Tests replace it to take the copy that a
// layer on another file system needs.
var moveFromLayer = renameNoReplace

// upperEntry is a new version in its layer: its folder, opened by path
// (the layer is the gate's own: no action reaches it once it has ended),
// its name there and what lstat says of it.
type upperEntry struct {
	dir   *folder
	name  string
	info  *entryInfo
	nlink uint64
}

// openUpper opens the folder of the new version at p and examines it; the
// caller closes dir.
func openUpper(p string) (*upperEntry, error) {
	f, err := os.Open(filepath.Dir(p))
	if err != nil {
		return nil, fmt.Errorf("opening the layer: %w", err)
	}
	u := &upperEntry{dir: &folder{f: f, path: filepath.Dir(p)}, name: filepath.Base(p)}
	var st unix.Stat_t
	err = u.dir.do(func(fd int) error {
		return retry(func() error { return unix.Fstatat(fd, u.name, &st, unix.AT_SYMLINK_NOFOLLOW) })
	})
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("the new version is gone from the layer: %w", pathErr("examining", p, err))
	}
	u.info, u.nlink = infoOf(&st), uint64(st.Nlink)
	return u, nil
}

// applyOne applies one change now and says what became of it. Once begun
// it is finished: the kill switch waits for it.
func (e *Executor) applyOne(c sandbox.Change) ChangeRecord {
	rec := ChangeRecord{Kind: c.Kind, Path: c.Path, Status: ChangeApplied}
	if _, rel, _ := rootOf(e.Paths.Roots, c.Path, foldCase); rel == "." {
		rec.Status, rec.Note = ChangeSkipped, "a sandbox root itself: its own permissions are not applied"
		return rec
	}
	if z := e.Paths.Classify(c.Path); z.Kind == sanitize.ZoneOwn || z.Kind == sanitize.ZoneCredential || z.Kind == sanitize.ZoneSystem {
		return failed(rec, fmt.Errorf("refused: it is %s (%s)", z.Detail, z.Root))
	}
	if why := e.trashFolder(c.Path); why != "" {
		return failed(rec, errors.New("refused: "+why))
	}
	s, err := e.locate(c.Path)
	if err != nil {
		return failed(rec, err)
	}
	defer s.dir.Close()
	if c.Kind == sandbox.Removed {
		if err := e.trashOld(s, &rec); err != nil {
			return failed(rec, err)
		}
		if rec.Old == "" {
			rec.Note = "it was gone already"
		}
		return rec
	}
	up, err := openUpper(c.Upper)
	if err != nil {
		return failed(rec, err)
	}
	defer up.dir.Close()
	rec.Mode = up.info.mode.Type() | up.info.mode.Perm()
	switch m := up.info.mode; {
	case m.IsDir():
		err = e.placeFolder(s, c, up, &rec)
	case m.IsRegular():
		err = e.placeFile(s, up, &rec)
	case m&fs.ModeSymlink != 0:
		err = e.placeLink(s, up, &rec)
	default:
		rec.Status, rec.Note = ChangeSkipped, "not applied: "+kindOfFile(m)+" (only files, folders and links are)"
	}
	if err != nil {
		return failed(rec, err)
	}
	return rec
}

// trashFolder says how p touches the Trash's own folders ("" when it does
// not). Where the home is a sandbox root, an action that ran unasked may
// change them through its view; applied, a link there would send what the
// gate trashes next wherever it points: into the autostart folder (a
// .desktop entry the action removed would run at the next login), or off
// the home, beyond the Trash.
func (e *Executor) trashFolder(p string) string {
	t, ok := e.Trash.(interface{ folders() []string })
	if !ok {
		return ""
	}
	for _, f := range t.folders() {
		switch {
		case p == f:
			return "it is the Trash's folder " + f
		case inside(p, f):
			return "it lies in the Trash's folder " + f
		case inside(f, p):
			return "it holds the Trash's folder " + f
		}
	}
	return ""
}

// failed marks rec as not applied because of err.
func failed(rec ChangeRecord, err error) ChangeRecord {
	rec.Status, rec.Placed = ChangeFailed, false
	rec.Note = joinNote(rec.Note, "not applied: "+err.Error())
	return rec
}

// trashOld moves what is at s now, if anything, to the Trash, recording
// what it was and where it went. A second call (something appeared again)
// adds to rec's note.
func (e *Executor) trashOld(s spot, rec *ChangeRecord) error {
	cur, err := s.dir.lstat(s.name)
	if err != nil || cur == nil {
		return err
	}
	hash := ""
	switch {
	case cur.mode.IsRegular() && cur.size <= MaxOldHash:
		hash, _ = hashAt(s.dir, s.name) // unreadable: no hash, and Undo checks the type only
	case cur.mode&fs.ModeSymlink != 0:
		if t, err := readlinkAt(s.dir, s.name); err == nil {
			hash = hashString(t)
		}
	}
	where, err := e.trash(context.Background(), s)
	if err != nil {
		return err
	}
	if rec.Old != "" {
		rec.Note = joinNote(rec.Note, "something put there meanwhile went to the Trash too, at "+where)
		return nil
	}
	rec.Old, rec.OldMode, rec.OldHash = where, cur.mode.Type()|cur.mode.Perm(), hash
	return nil
}

// swapIn puts the finished temporary tmp (a name in s's folder) at s,
// after moving what is there to the Trash; should something appear there
// in between, it goes to the Trash too, up to three times.
func (e *Executor) swapIn(s spot, tmp string, rec *ChangeRecord) error {
	for range 3 {
		if err := e.trashOld(s, rec); err != nil {
			return err
		}
		err := renameNoReplace(s.dir, tmp, s.dir, s.name)
		if !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	return fmt.Errorf("something kept appearing at %s", s.path())
}

// placeFile puts a regular file's new version at s: renamed from the layer
// to a temporary name beside s when it lies on the same file system and
// has no other name, else copied there; its permission bits set (set-id
// and sticky dropped), flushed, then renamed into place. On failure the
// new version is back in the layer.
func (e *Executor) placeFile(s spot, up *upperEntry, rec *ChangeRecord) error {
	perm := up.info.mode.Perm()
	tmp, moved, err := stageFile(s.dir, up, perm, rec)
	if err != nil {
		return err
	}
	if err := e.swapIn(s, tmp, rec); err != nil {
		if moved {
			renameAt(s.dir, tmp, up.dir, up.name)
		} else {
			s.dir.remove(tmp)
		}
		return err
	}
	rec.Placed = true
	return nil
}

// stageFile makes the temporary beside the target that placeFile renames
// into place, recording the new version's size and hash; moved says it was
// renamed out of the layer.
func stageFile(d *folder, up *upperEntry, perm fs.FileMode, rec *ChangeRecord) (tmp string, moved bool, err error) {
	if up.nlink == 1 {
		tmp = tempName("tmp")
		err := moveFromLayer(up.dir, up.name, d, tmp)
		if err == nil {
			if err := finishMoved(d, tmp, up.info, perm, rec); err != nil {
				renameAt(d, tmp, up.dir, up.name)
				return "", false, err
			}
			return tmp, true, nil
		}
		if !errors.Is(err, syscall.EXDEV) {
			return "", false, fmt.Errorf("moving the new version from the layer: %w", err)
		}
	}
	in, err := openRegular(up.dir, up.name)
	if err != nil {
		return "", false, fmt.Errorf("reading the new version: %w", err)
	}
	defer in.Close()
	h := sha256.New()
	n := &countingWriter{w: h}
	tmp, err = writeTemp(d, perm, io.TeeReader(in, n), nil)
	if err != nil {
		return "", false, err
	}
	rec.Size, rec.Hash = n.n, hex.EncodeToString(h.Sum(nil))
	keepTimes(up, d, tmp)
	return tmp, false, nil
}

// finishMoved sets the permission bits of a new version renamed out of
// its layer to tmp in d, hashes and flushes it.
func finishMoved(d *folder, tmp string, was *entryInfo, perm fs.FileMode, rec *ChangeRecord) error {
	f, err := d.open(tmp, unix.O_RDONLY|unix.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); !ok || !st.Mode().IsRegular() || uint64(sys.Ino) != was.ino {
		return fmt.Errorf("%s changed while it was moved", d.at(tmp))
	}
	if err := f.Chmod(perm); err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return err
	}
	if err := syncFile(f); err != nil {
		return err
	}
	rec.Size, rec.Hash = n, hex.EncodeToString(h.Sum(nil))
	return nil
}

// keepTimes gives a copy its layer version's modification time (a copy
// made where a rename could not be, which should not look new).
func keepTimes(up *upperEntry, d *folder, name string) {
	var st unix.Stat_t
	if up.dir.do(func(fd int) error { return unix.Fstatat(fd, up.name, &st, unix.AT_SYMLINK_NOFOLLOW) }) != nil {
		return
	}
	ts := []unix.Timespec{st.Atim, st.Mtim}
	d.do(func(fd int) error { return unix.UtimesNanoAt(fd, name, ts, unix.AT_SYMLINK_NOFOLLOW) })
}

// placeLink makes a link with the new version's target at a temporary
// name beside s and renames it into place.
func (e *Executor) placeLink(s spot, up *upperEntry, rec *ChangeRecord) error {
	target, err := readlinkAt(up.dir, up.name)
	if err != nil {
		return fmt.Errorf("reading the new link: %w", err)
	}
	rec.Hash = hashString(target)
	tmp := tempName("link")
	if err := s.dir.do(func(fd int) error { return unix.Symlinkat(target, fd, tmp) }); err != nil {
		return pathErr("linking", s.dir.at(tmp), err)
	}
	if err := e.swapIn(s, tmp, rec); err != nil {
		s.dir.remove(tmp)
		return err
	}
	rec.Placed = true
	return nil
}

// placeFolder makes a new folder at s (what was there going to the
// Trash), merges a new one into a folder the person or another action put
// there meanwhile, or changes a folder's permissions.
func (e *Executor) placeFolder(s spot, c sandbox.Change, up *upperEntry, rec *ChangeRecord) error {
	perm := up.info.mode.Perm()
	cur, err := s.dir.lstat(s.name)
	if err != nil {
		return err
	}
	if cur != nil && cur.mode.IsDir() && c.Kind != sandbox.Replaced {
		rec.OldMode = cur.mode.Type() | cur.mode.Perm()
		if c.Kind != sandbox.Changed || !c.Was.IsDir() {
			rec.Note = "merged into the folder there"
			return nil
		}
		if cur.mode.Perm() == perm {
			rec.Note = "nothing to change"
			return nil
		}
		sub, err := s.dir.sub(s.name)
		if err != nil {
			return err
		}
		defer sub.Close()
		rec.Note = "its permissions changed"
		return sub.f.Chmod(perm)
	}
	if err := e.trashOld(s, rec); err != nil {
		return err
	}
	if err := s.dir.mkdir(s.name, 0o700); err != nil {
		return err
	}
	sub, err := s.dir.sub(s.name)
	if err != nil {
		return err
	}
	defer sub.Close()
	rec.Placed = true
	return sub.f.Chmod(perm)
}

// hashAt is the hex SHA-256 of the regular file name in d.
func hashAt(d *folder, name string) (string, error) {
	f, err := openRegular(d, name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func hashString(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// readlinkAt reads the link name in d.
func readlinkAt(d *folder, name string) (string, error) {
	var target string
	err := d.do(func(fd int) error {
		buf := make([]byte, unix.PathMax)
		n, err := unix.Readlinkat(fd, name, buf)
		target = string(buf[:max(n, 0)])
		return err
	})
	return target, pathErr("reading", d.at(name), err)
}

type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// bundle moves the new versions of items (records in recs) out of their
// layers into one folder, "TITLE (LABEL)", made in the sandbox root of the
// first, holding them by where they were to go ("Documents/proj/x"), and
// moves that folder to the Trash; recs say where each lies. A new folder
// moves with what is in it. Should the Trash refuse it, the folder stays
// in the root, and the records and the error say so: nothing is lost.
func (e *Executor) bundle(title, label string, items []pending, recs []ChangeRecord) error {
	var b *bundleFolder
	movedDirs := map[string]string{} // a new folder moved, by path: its place in the bundle
	var placed []int
	for n, it := range items {
		r := &recs[it.rec]
		if it.c.Kind == sandbox.Removed {
			r.Note = joinNote(r.Note, "nothing to keep: what it removed stays where it is")
			continue
		}
		if within, ok := insideMoved(movedDirs, it.c.Path); ok {
			r.Discarded = within
			placed = append(placed, it.rec)
			continue
		}
		up, err := openUpper(it.c.Upper)
		if err != nil {
			r.Note = joinNote(r.Note, err.Error())
			continue
		}
		if up.info.mode.IsDir() && !newFolder(it.c, up.info.mode) {
			up.dir.Close()
			r.Note = joinNote(r.Note, "only its permissions changed: nothing to keep")
			continue
		}
		if b == nil {
			if b, err = e.newBundle(it.c.Path, title, label); err != nil {
				up.dir.Close()
				for _, rest := range items[n:] {
					recs[rest.rec].Note = joinNote(recs[rest.rec].Note, "its new version could not be kept in the Trash: "+err.Error())
				}
				return err
			}
			defer b.Close()
		}
		within, err := b.take(it.c.Path, up, e.Paths.Roots)
		up.dir.Close()
		if err != nil {
			r.Note = joinNote(r.Note, "its new version could not be kept: "+err.Error())
			continue
		}
		if up.info.mode.IsDir() {
			movedDirs[it.c.Path] = within
		}
		r.Discarded = within
		placed = append(placed, it.rec)
	}
	if b == nil {
		return nil
	}
	where, err := b.trash(e)
	for _, i := range placed {
		recs[i].Discarded = filepath.Join(where, recs[i].Discarded)
		if err != nil {
			recs[i].Note = joinNote(recs[i].Note, "the Trash refused it: it is in "+where)
		}
	}
	return err
}

// insideMoved finds the moved new folder p lies in and returns p's place
// in the bundle.
func insideMoved(moved map[string]string, p string) (string, bool) {
	if len(moved) == 0 {
		return "", false
	}
	for d := filepath.Dir(p); d != "/" && d != "."; d = filepath.Dir(d) {
		if within, ok := moved[d]; ok {
			rel, _ := filepath.Rel(d, p)
			return filepath.Join(within, rel), true
		}
	}
	return "", false
}

// bundleFolder is the folder bundle fills, in a sandbox root.
type bundleFolder struct {
	root string
	rd   *folder // the root, open
	name string
	d    *folder // the bundle, open
}

func (b *bundleFolder) Close() {
	b.d.Close()
	b.rd.Close()
}

// newBundle makes the folder "TITLE (LABEL)" (0700) in the sandbox root
// of p, numbered when the name is taken.
func (e *Executor) newBundle(p, title, label string) (*bundleFolder, error) {
	root, _, ok := rootOf(e.Paths.Roots, p, foldCase)
	if !ok {
		return nil, fmt.Errorf("%s lies in no sandbox root", p)
	}
	rd, err := e.reach(root)
	if err != nil {
		return nil, err
	}
	base := bundleName(title, label)
	for n := 1; n <= maxTrashNames; n++ {
		name := base
		if n > 1 {
			name = fmt.Sprintf("%s %d", base, n)
		}
		err := rd.mkdir(name, 0o700)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			rd.Close()
			return nil, err
		}
		d, err := rd.sub(name)
		if err != nil {
			rd.Close()
			return nil, err
		}
		return &bundleFolder{root: root, rd: rd, name: name, d: d}, nil
	}
	rd.Close()
	return nil, fmt.Errorf("no free name for %q in %s", base, root)
}

// bundleName is "TITLE (LABEL)" as one file name: no slash, no control
// character, at most 200 bytes.
func bundleName(title, label string) string {
	label = strings.Map(func(r rune) rune {
		if r == '/' || r < 0x20 || r == 0x7f {
			return '-'
		}
		return r
	}, label)
	if len(label) > 160 {
		label = strings.ToValidUTF8(label[:160], "")
	}
	if label == "" {
		return title
	}
	return title + " (" + label + ")"
}

// take moves up into the bundle at the place of p ("Documents/proj/x" for
// ~/Documents/proj/x: the root's name, then p inside it), renamed, or
// copied when the layer lies on another file system. It returns that
// place.
func (b *bundleFolder) take(p string, up *upperEntry, roots []string) (string, error) {
	root, rel, _ := rootOf(roots, p, foldCase)
	within := filepath.Join(filepath.Base(root), rel)
	d := b.d
	owned := false
	for _, name := range strings.Split(filepath.Dir(within), "/") {
		next, err := makeSub(d, name)
		if owned {
			d.Close()
		}
		if err != nil {
			return "", err
		}
		d, owned = next, true
	}
	if owned {
		defer d.Close()
	}
	err := moveFromLayer(up.dir, up.name, d, up.name)
	if errors.Is(err, syscall.EXDEV) {
		err = copyLoose(up.dir, up.name, d)
	}
	if err != nil {
		return "", err
	}
	return within, nil
}

// trash moves the bundle to the Trash and returns where it lies; where
// the Trash refuses it, it stays in the root, and its place there is
// returned with the error.
func (b *bundleFolder) trash(e *Executor) (string, error) {
	here := filepath.Join(b.root, b.name)
	where, err := e.Trash.TrashAt(context.Background(), b.rd.f, b.name, here)
	if err != nil {
		return here, fmt.Errorf("moving %s to the Trash: %w", here, err)
	}
	return where, nil
}

// copyLoose copies the entry name of src into dst under the same name,
// for the Trash: a folder with everything in it, links as links (never
// followed), anything but files, folders and links left out.
func copyLoose(src *folder, name string, dst *folder) error {
	fi, err := src.lstat(name)
	if err != nil {
		return err
	}
	if fi == nil {
		return &fs.PathError{Op: "copying", Path: src.at(name), Err: fs.ErrNotExist}
	}
	switch m := fi.mode; {
	case m.IsRegular():
		return copyOne(context.Background(), src, dst, name, m.Perm())
	case m&fs.ModeSymlink != 0:
		t, err := readlinkAt(src, name)
		if err != nil {
			return err
		}
		return pathErr("linking", dst.at(name), dst.do(func(fd int) error { return unix.Symlinkat(t, fd, name) }))
	case m.IsDir():
		if err := dst.mkdir(name, 0o700); err != nil {
			return err
		}
		s, err := src.sub(name)
		if err != nil {
			return err
		}
		defer s.Close()
		d, err := dst.sub(name)
		if err != nil {
			return err
		}
		defer d.Close()
		names, err := s.f.Readdirnames(-1)
		if err != nil {
			return err
		}
		for _, n := range names {
			if err := copyLoose(s, n, d); err != nil {
				return err
			}
		}
		return nil
	}
	return nil
}
