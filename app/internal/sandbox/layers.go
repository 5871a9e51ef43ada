package sandbox

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
)

// layersPattern names the folder that holds one action's layers: one
// folder per layer in it, named by its index, with "upper" and "work".
const layersPattern = "airlock-layers-"

// stage makes the copy-on-write layers of one action that runs unasked,
// whose profile is p, and returns the profile as the action gets it: it
// writes only in the roots that have a view (and in its temporary folder),
// and the staging folder is hidden from it. Extra roots get a layer each
// too, after the roots' (the probe's trial).
//
// A layer is made for each outermost write root but the temporary folder:
// a root inside another on the same mount is covered by the outer one's
// view; one on a mount of its own (which the outer view would not show)
// gets its own. A root that is missing, or not a folder, gets none, and the
// action may not write there. Each layer's Upper and Work are folders side
// by side (so on one file system) in a folder of the action's own, mode
// 0700, in the staging folder (staging); Upper takes the root's permission
// bits, because the view's top folder is Upper's.
func (b *Box) stage(p Profile, extra ...string) (Profile, []Layer, error) {
	roots := viewRoots(p)
	base, hideBase, err := stagingBase(b.s.Staging, roots)
	if err != nil {
		return p, nil, err
	}
	dir, err := os.MkdirTemp(base, layersPattern)
	if err != nil {
		return p, nil, fmt.Errorf("sandbox: making the folder of the action's layers: %w", err)
	}
	var layers []Layer
	for i, r := range append(slices.Clone(roots), extra...) {
		l, err := makeLayer(filepath.Join(dir, strconv.Itoa(i)), r)
		if err != nil {
			os.RemoveAll(dir)
			return p, nil, err
		}
		layers = append(layers, l)
	}
	p.Write = viewed(p.Write, p.TempDir, roots)
	hidden := dir
	if hideBase && !within(p.TempDir, base) {
		hidden = base
	}
	p.Hide = dedup(append(slices.Clone(p.Hide), hidden))
	slices.Sort(p.Hide)
	return p, layers, nil
}

// makeLayer makes the folder one (mode 0700) with the upper layer and the
// work folder of root in it.
func makeLayer(one, root string) (Layer, error) {
	fi, err := os.Stat(root)
	if err != nil {
		return Layer{}, fmt.Errorf("sandbox: making the layer of %s: %w", root, err)
	}
	l := Layer{Root: root, Upper: filepath.Join(one, "upper"), Work: filepath.Join(one, "work"), Boot: bootID()}
	for _, d := range []string{one, l.Upper, l.Work} {
		if err := os.Mkdir(d, 0o700); err != nil {
			return Layer{}, fmt.Errorf("sandbox: making the layer of %s: %w", root, err)
		}
	}
	if err := os.Chmod(l.Upper, special(fi.Mode())); err != nil {
		return Layer{}, fmt.Errorf("sandbox: making the layer of %s: %w", root, err)
	}
	return l, nil
}

// viewRoots returns the roots of profile p that get a copy-on-write view:
// its write folders but its temporary folder, those that exist as folders,
// outermost first, but those inside another one on the same mount.
func viewRoots(p Profile) []string {
	var out []string
	write := slices.Clone(p.Write)
	slices.Sort(write)
	for _, w := range write {
		if w == p.TempDir {
			continue
		}
		if fi, err := os.Lstat(w); err != nil || !fi.IsDir() {
			continue
		}
		covered := false
		for _, o := range out {
			if within(w, o) && mountID(w) == mountID(o) {
				covered = true
				break
			}
		}
		if !covered {
			out = append(out, w)
		}
	}
	return out
}

// viewed and within are the launcher's: the gate and the launcher must
// agree on them.
var (
	viewed = launcher.Viewed
	within = launcher.Within
)

// stagingBase returns the folder the action's layers go in: staging, or
// when it is "" or lies in a root (overlayfs refuses an upper layer inside
// a lower one) the system's temporary folder. (The action's own folder in
// it is new, so it holds no root either.) hide says the folder itself may
// be hidden from actions: staging, unless a root lies in it; in the
// temporary folder only the action's own folder is.
func stagingBase(staging string, roots []string) (base string, hide bool, err error) {
	overlaps := func(dir string) bool {
		for _, r := range roots {
			if within(dir, r) {
				return true
			}
		}
		return false
	}
	holdsRoot := func(dir string) bool {
		for _, r := range roots {
			if within(r, dir) {
				return true
			}
		}
		return false
	}
	if staging != "" && !overlaps(filepath.Clean(staging)) {
		if err := absolute("staging folder", staging); err != nil {
			return "", false, err
		}
		if err := os.MkdirAll(staging, 0o700); err != nil {
			return "", false, fmt.Errorf("sandbox: making the staging folder: %w", err)
		}
		if resolved, err := filepath.EvalSymlinks(staging); err == nil && !overlaps(resolved) {
			return resolved, !holdsRoot(resolved), nil
		}
	}
	tmp := os.TempDir()
	if resolved, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = resolved
	}
	if overlaps(tmp) {
		return "", false, fmt.Errorf("sandbox: the layers of actions that run unasked need a folder outside the sandbox roots, "+
			"and both the staging folder (%q) and the temporary folder %s lie in one", staging, tmp)
	}
	return tmp, false, nil
}

// RemoveLayers removes the upper layers and work folders of ls, as
// ConfineReviewed made them, and the folders that held them once empty. It
// copes with what overlayfs and the action left there (folders of mode
// 000, whiteout devices) and never follows a link. It refuses a layer
// whose folders are not laid out as ConfineReviewed lays them out, rather
// than remove something else.
func RemoveLayers(ls []Layer) error {
	var errs []error
	for _, l := range ls {
		one := filepath.Dir(l.Upper)
		if !filepath.IsAbs(l.Upper) || filepath.Clean(l.Upper) != l.Upper || filepath.Base(l.Upper) != "upper" ||
			l.Work != filepath.Join(one, "work") || !strings.HasPrefix(filepath.Base(filepath.Dir(one)), layersPattern) {
			errs = append(errs, fmt.Errorf("sandbox: %q and %q are not the folders of a layer: not removed", l.Upper, l.Work))
			continue
		}
		for _, d := range []string{l.Upper, l.Work} {
			if err := removeTree(d); err != nil {
				errs = append(errs, fmt.Errorf("sandbox: removing the layer of %s: %w", l.Root, err))
			}
		}
		for _, d := range []string{one, filepath.Dir(one)} {
			if err := os.Remove(d); err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, syscall.ENOTEMPTY) && !errors.Is(err, syscall.EEXIST) {
				errs = append(errs, fmt.Errorf("sandbox: removing the layer of %s: %w", l.Root, err))
			}
		}
	}
	return errors.Join(errs...)
}

// removeTree removes path and what lies in it, never following a link.
// Where a folder in it cannot be entered (overlayfs's work/work is mode
// 000, and the action may have made others so), it makes the folders its
// owner's to enter first.
func removeTree(path string) error {
	err := os.RemoveAll(path)
	if err == nil {
		return nil
	}
	if oerr := openFolders(path); oerr != nil {
		return errors.Join(err, oerr)
	}
	return os.RemoveAll(path)
}

// openFolders gives the owner full access to the folder path and every
// folder in it, through file descriptors, so that no link is followed out
// and no path grows too long.
func openFolders(path string) error {
	fi, err := os.Lstat(path)
	if err != nil || !fi.IsDir() {
		return err
	}
	if err := os.Chmod(path, 0o700); err != nil {
		return err
	}
	r, err := os.OpenRoot(path)
	if err != nil {
		return err
	}
	defer r.Close()
	return openFoldersIn(r)
}

func openFoldersIn(r *os.Root) error {
	f, err := r.Open(".")
	if err != nil {
		return err
	}
	names, err := f.Readdirnames(-1)
	f.Close()
	if err != nil {
		return err
	}
	for _, name := range names {
		fi, err := r.Lstat(name)
		if err != nil || !fi.IsDir() {
			continue
		}
		if err := r.Chmod(name, 0o700); err != nil {
			return err
		}
		sub, err := r.OpenRoot(name)
		if err != nil {
			return err
		}
		err = openFoldersIn(sub)
		sub.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// RemoveStale removes the layers that actions left in the staging folder
// when the gate that ran them stopped before it could review them (a crash,
// a power cut): no gate can apply them any more (ReadLayer refuses a layer
// of an earlier gate's boot, and nothing records which request each was),
// and the person's files were never touched by them. Only layers made
// before the time before are removed (those of this gate's actions are
// not): call it once, when the gate starts, with the time it started. It
// returns how many it removed.
func RemoveStale(staging string, before time.Time) (int, error) {
	if staging == "" {
		return 0, nil
	}
	entries, err := os.ReadDir(staging)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("sandbox: reading the staging folder: %w", err)
	}
	n := 0
	var errs []error
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), layersPattern) {
			continue
		}
		if fi, err := e.Info(); err != nil || !fi.ModTime().Before(before) {
			continue
		}
		if err := removeTree(filepath.Join(staging, e.Name())); err != nil {
			errs = append(errs, fmt.Errorf("sandbox: removing a stale layer: %w", err))
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}
