package sandbox

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
)

// A Layer is one sandbox root as an action that ran unasked saw it
// (launcher.Layer, which the launcher mounts): a copy-on-write view whose
// changes lie in Upper, a folder only the gate reaches, until the gate
// reviews and applies them (package execute).
type Layer = launcher.Layer

// ChangeKind says what an action did to one path of a sandbox root.
type ChangeKind uint8

// The kinds of change. A folder that only holds changes is not one itself.
const (
	// Created is a file, link or folder where there was nothing.
	Created ChangeKind = iota + 1
	// Changed is a new version of something that was there: new content
	// or mode of a file, or a file, link or folder put where another
	// thing was. What was there is in Was.
	Changed
	// Removed is something that was there and is gone.
	Removed
	// Replaced is a folder that was there and was removed and made
	// again: none of its old content is in the new one, whose entries
	// are reported as Created after it.
	Replaced
	// Unsupported is a named pipe, socket or device the action made
	// (Mode says which): it has no place in a real root and is never
	// applied, only reported, so that the person sees it was left out.
	// Was is what was at Path before, if anything.
	Unsupported
)

func (k ChangeKind) String() string {
	switch k {
	case Created:
		return "created"
	case Changed:
		return "changed"
	case Removed:
		return "removed"
	case Replaced:
		return "replaced"
	case Unsupported:
		return "not applied (not a file, link or folder)"
	}
	return "unknown change"
}

// A Change is one path an action changed under a sandbox root, read from
// its Layer after it ended. Changes come parents first.
type Change struct {
	Kind ChangeKind
	// Path is where it is in the real root: absolute and clean.
	Path string
	// Upper is the new version in the layer ("" for Removed): a regular
	// file, a symbolic link or a folder (for Unsupported, what the action
	// made instead).
	Upper string
	// Mode is the new version's type and permission bits, with the
	// set-user-ID, set-group-ID and sticky bits as it has them (0 for
	// Removed).
	Mode fs.FileMode
	// Size is the new version's size in bytes (a regular file's).
	Size int64
	// Was is the type and permission bits of what was at Path before (0
	// for Created).
	Was fs.FileMode
}

// The bounds of ReadLayer: a layer is what untrusted code wrote, and
// reviewing it must end. Past them ReadLayer fails, and nothing of the
// layer should be applied.
const (
	// maxLayerEntries is how many files, links and folders one layer may
	// hold.
	maxLayerEntries = 100_000
	// maxLayerDepth is how deep folders may nest in one.
	maxLayerDepth = 256
	// maxPathBytes is the longest path a change may have in the real
	// root: Linux's PATH_MAX, without its NUL. A longer one could not be
	// put in place by name.
	maxPathBytes = 4095
	// dirChunk is how many names are read from a folder at a time.
	dirChunk = 1024
)

// ReadLayer returns what the action that wrote l changed under l.Root,
// parents first and in name order: the paths of the upper layer compared
// with the root (never following a link in either). In overlayfs's terms:
//   - a whiteout (a character device 0/0, or a file with the
//     user.overlay.whiteout attribute) over something is Removed; over
//     nothing it is no change;
//   - an opaque folder (user.overlay.opaque "y") over a folder is Replaced,
//     and everything in it is Created;
//   - a folder over a folder is no change, unless its permission bits
//     changed (Changed); its entries are compared in turn;
//   - a file, link or folder over something else is Changed (Was says what
//     was there), over nothing Created;
//   - a named pipe, socket or other device is Unsupported.
//
// Call it only once the action has ended (its launcher exited or was
// killed: nothing in its namespaces outlives it), so that the layer no
// longer changes. Attributes overlayfs keeps for itself are read only as
// overlayfs wrote them: an action that sets user.overlay.* attributes
// through its view gets them escaped (user.overlay.overlay.*, Linux 6.7;
// earlier kernels refuse), so it cannot forge a whiteout or an opaque
// folder. An error means the layer cannot be reviewed: past the bounds
// (maxLayerEntries entries, maxLayerDepth levels, paths of maxPathBytes),
// unreadable (a folder the action made mode 000 is, unless the gate runs
// as root), or from before the machine restarted; then nothing of it
// should be applied.
func ReadLayer(l Layer) ([]Change, error) {
	return readLayer(l, maxLayerEntries, maxLayerDepth)
}

// layerWalk is one ReadLayer in progress.
type layerWalk struct {
	l                    Layer
	out                  []Change
	entries              int
	maxEntries, maxDepth int
}

func readLayer(l Layer, maxEntries, maxDepth int) ([]Change, error) {
	for _, p := range []struct{ what, path string }{{"root", l.Root}, {"upper layer", l.Upper}} {
		if err := absolute("layer's "+p.what, p.path); err != nil {
			return nil, err
		}
	}
	if l.Boot != "" && l.Boot != bootID() {
		return nil, fmt.Errorf("sandbox: the layer of %s was written before the machine last started, and its files may not have reached the disk: not read", l.Root)
	}
	l.Root, l.Upper = filepath.Clean(l.Root), filepath.Clean(l.Upper)
	upper, err := os.OpenRoot(l.Upper)
	if err != nil {
		return nil, fmt.Errorf("sandbox: reading the layer of %s: %w", l.Root, err)
	}
	defer upper.Close()
	lower, err := os.OpenRoot(l.Root)
	if err != nil {
		return nil, fmt.Errorf("sandbox: reading the layer of %s: %w", l.Root, err)
	}
	defer lower.Close()
	w := &layerWalk{l: l, maxEntries: maxEntries, maxDepth: maxDepth}
	ufi, err := upper.Lstat(".")
	if err != nil {
		return nil, w.fail(".", err)
	}
	lfi, err := lower.Lstat(".")
	if err != nil {
		return nil, w.fail(".", err)
	}
	if special(ufi.Mode()) != special(lfi.Mode()) {
		w.out = append(w.out, Change{Kind: Changed, Path: l.Root, Upper: l.Upper, Mode: ufi.Mode(), Was: lfi.Mode()})
	}
	if err := w.dir(upper, lower, ".", 0); err != nil {
		return nil, err
	}
	return w.out, nil
}

// special is a mode's permission, set-user-ID, set-group-ID and sticky
// bits: what a chmod changes.
func special(m fs.FileMode) fs.FileMode {
	return m & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
}

func (w *layerWalk) fail(rel string, err error) error {
	return fmt.Errorf("sandbox: reading the layer of %s at %q: %w", w.l.Root, filepath.Join(w.l.Root, rel), err)
}

// dir compares the entries of the upper layer's folder rel (upper), depth
// folders below the root, with the root's (lower; nil when the root has no
// folder there, or the upper one is opaque, so that nothing below shows
// through).
func (w *layerWalk) dir(upper, lower *os.Root, rel string, depth int) error {
	if depth > w.maxDepth {
		return w.fail(rel, fmt.Errorf("folders nest more than %d levels deep", w.maxDepth))
	}
	names, err := w.names(upper, rel)
	if err != nil {
		return err
	}
	for _, name := range names {
		if err := w.entry(upper, lower, rel, name, depth); err != nil {
			return err
		}
	}
	return nil
}

// names returns the names in the upper layer's folder rel, sorted, counting
// them against the bound.
func (w *layerWalk) names(upper *os.Root, rel string) ([]string, error) {
	f, err := upper.Open(".")
	if err != nil {
		return nil, w.fail(rel, err)
	}
	defer f.Close()
	var names []string
	for {
		chunk, err := f.Readdirnames(dirChunk)
		names = append(names, chunk...)
		w.entries += len(chunk)
		if w.entries > w.maxEntries {
			return nil, w.fail(rel, fmt.Errorf("the layer holds more than %d entries: too many to review", w.maxEntries))
		}
		if errors.Is(err, io.EOF) || (err == nil && len(chunk) == 0) {
			break
		}
		if err != nil {
			return nil, w.fail(rel, err)
		}
	}
	slices.Sort(names)
	return names, nil
}

// entry compares one entry of the upper layer's folder rel with what lies
// below it, records the change and, for a folder, descends.
func (w *layerWalk) entry(upper, lower *os.Root, rel, name string, depth int) error {
	child := filepath.Join(rel, name)
	path := filepath.Join(w.l.Root, child)
	if len(path) > maxPathBytes || len(filepath.Join(w.l.Upper, child)) > maxPathBytes {
		return w.fail(rel, fmt.Errorf("a path is longer than %d bytes", maxPathBytes))
	}
	if strings.ContainsRune(name, '/') || name == "." || name == ".." {
		return w.fail(rel, fmt.Errorf("the folder lists a bad name %q", name))
	}
	ufi, err := upper.Lstat(name)
	if err != nil {
		return w.fail(child, err)
	}
	var below fs.FileInfo
	if lower != nil {
		below, err = lower.Lstat(name)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			below, err = nil, nil
		}
		if err != nil {
			return w.fail(child, err)
		}
	}
	c := Change{Path: path, Upper: filepath.Join(w.l.Upper, child), Mode: ufi.Mode()}
	if below != nil {
		c.Was = below.Mode()
	}
	m := ufi.Mode()
	switch {
	case m&fs.ModeCharDevice != 0 && charWhiteout(ufi), m.IsRegular() && ufi.Size() == 0 && xattrWhiteout(upper, name):
		if below != nil {
			w.out = append(w.out, Change{Kind: Removed, Path: path, Was: below.Mode()})
		}
		return nil
	case m.IsDir():
		return w.folder(upper, lower, c, below, child, name, depth)
	case m.IsRegular():
		c.Size = ufi.Size()
		c.Kind = Created
	case m&fs.ModeSymlink != 0:
		c.Kind = Created
	default:
		c.Kind = Unsupported
		w.out = append(w.out, c)
		return nil
	}
	if below != nil {
		c.Kind = Changed
	}
	w.out = append(w.out, c)
	return nil
}

// folder records the change a folder of the upper layer makes, if any, and
// descends into it.
func (w *layerWalk) folder(upper, lower *os.Root, c Change, below fs.FileInfo, child, name string, depth int) error {
	sub, err := upper.OpenRoot(name)
	if err != nil {
		return w.fail(child, err)
	}
	defer sub.Close()
	opaque, err := opaqueDir(sub)
	if err != nil {
		return w.fail(child, err)
	}
	var subLower *os.Root
	switch {
	case below == nil:
		c.Kind = Created
	case !below.IsDir():
		c.Kind = Changed
	case opaque:
		c.Kind = Replaced
	default:
		if special(c.Mode) != special(c.Was) {
			c.Kind = Changed
		}
		if subLower, err = lower.OpenRoot(name); err != nil {
			return w.fail(child, err)
		}
		defer subLower.Close()
	}
	if c.Kind != 0 {
		w.out = append(w.out, c)
	}
	return w.dir(sub, subLower, child, depth+1)
}
