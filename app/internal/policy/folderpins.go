package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk"
)

// The bounds of a folder pin (risk.Folder): the code files beside a script
// are read whole and hashed again every time the grant or rule is checked,
// so a folder past any bound cannot be pinned and the person is asked,
// told why. A script in a project's folder is well within them; one in the
// home folder or Downloads is not, and is asked about every time.
const (
	maxFolderFiles   = 256     // code files hashed
	maxFolderBytes   = 8 << 20 // their bytes together
	maxFolderEntries = 4096    // names read in the folder and its subfolders, code or not
	maxFolderDepth   = 8       // subfolders below the script's folder
)

// errFolderBound is wrapped by folderSum's error when a folder is past a
// bound.
var errFolderBound = errors.New("too much code beside the script to pin")

// folderPin pins the folder f's interpreter loads code from: Path is the
// script's folder, Sum folderSum's digest.
func folderPin(f risk.Folder) (Pin, error) {
	sum, err := folderSum(f)
	if err != nil {
		return Pin{}, err
	}
	loads := f
	loads.Exts = append([]string(nil), f.Exts...)
	return Pin{Path: filepath.Dir(f.Script), Sum: sum, Loads: &loads}, nil
}

// folderSum returns the hex SHA-256 of the names and contents of the code
// files f's interpreter may load beside its script: those whose names end
// in one of f.Exts directly in the script's folder and, when f.Deep, in
// its subfolders (never node_modules or .git), in the folder of the file
// the script links to as well when that is another. A file added, removed,
// renamed or changed there changes it; any other file (README.md,
// data.csv) does not. Its error says why the folder cannot be pinned: not
// readable, past a bound, or a code file that hashFile refuses.
func folderSum(f risk.Folder) (string, error) {
	sum, _, err := folderDigest(f, false)
	return sum, err
}

// folderHold is folderSum that also returns each code file it read, as it
// read it (Hold).
func folderHold(f risk.Folder) (string, []Held, error) {
	return folderDigest(f, true)
}

func folderDigest(f risk.Folder, hold bool) (string, []Held, error) {
	roots := []string{filepath.Dir(f.Script)}
	real, err := filepath.EvalSymlinks(f.Script)
	if err != nil {
		return "", nil, fmt.Errorf("resolving %s: %w", f.Script, err)
	}
	if d := filepath.Dir(real); d != roots[0] {
		roots = append(roots, d)
	}
	w := &folderWalk{f: f, h: framedHash{sha256.New()}, hold: hold}
	w.h.str("airlock-folder-v1")
	for _, root := range roots {
		w.h.str(root)
		if err := w.walk(root, "", 0); err != nil {
			return "", nil, err
		}
	}
	return hex.EncodeToString(w.h.Sum(nil)), w.held, nil
}

// folderWalk is the state of one folderSum.
type folderWalk struct {
	f                     risk.Folder
	h                     framedHash
	entries, files, bytes int
	// hold says to keep each code file's bytes in held (folderHold).
	hold bool
	held []Held
}

// walk adds the code files of dir (rel below the root) to the digest, in
// the order of their names.
func (w *folderWalk) walk(dir, rel string, depth int) error {
	ents, err := w.readDir(dir)
	if err != nil {
		return err
	}
	for _, e := range ents {
		name, full := e.Name(), filepath.Join(dir, e.Name())
		isDir := e.IsDir()
		if e.Type()&fs.ModeSymlink != 0 {
			fi, err := os.Stat(full)
			isDir = err == nil && fi.IsDir()
		}
		switch {
		case isDir:
			if !w.f.Deep || name == "node_modules" || name == ".git" {
				continue
			}
			if depth+1 > maxFolderDepth {
				return fmt.Errorf("%w: %s is more than %d folders deep", errFolderBound, full, maxFolderDepth)
			}
			if err := w.walk(full, joinRel(rel, name), depth+1); err != nil {
				return err
			}
		case codeFile(name, w.f.Exts):
			if err := w.file(full, joinRel(rel, name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// readDir reads the names in dir, sorted, no more than the bound on names
// leaves: a folder of a million files is not read whole to find it is too
// big.
func (w *folderWalk) readDir(dir string) ([]fs.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("reading the folder %s: %w", dir, err)
	}
	defer f.Close()
	left := maxFolderEntries - w.entries
	ents, err := f.ReadDir(left + 1)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("reading the folder %s: %w", dir, err)
	}
	if w.entries += len(ents); len(ents) > left {
		return nil, fmt.Errorf("%w: %s and its subfolders hold more than %d names", errFolderBound, filepath.Dir(w.f.Script), maxFolderEntries)
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, nil
}

// file adds one code file, by its name below the root and its content's
// hash ("" for a link to nothing: the name alone is pinned).
func (w *folderWalk) file(full, rel string) error {
	if w.files++; w.files > maxFolderFiles {
		return fmt.Errorf("%w: %s holds more than %d %s files", errFolderBound, filepath.Dir(w.f.Script), maxFolderFiles, w.f.Lang)
	}
	if fi, err := os.Stat(full); err == nil {
		if w.bytes += int(min(fi.Size(), int64(maxFolderBytes)+1)); w.bytes > maxFolderBytes {
			return fmt.Errorf("%w: the %s files in %s hold more than %d MiB", errFolderBound, w.f.Lang, filepath.Dir(w.f.Script), maxFolderBytes>>20)
		}
	}
	var sum string
	if w.hold {
		h, found, err := readHeld(full)
		if err != nil {
			return err
		}
		if found {
			sum = sumOf(h.Bytes)
			w.held = append(w.held, h)
		}
	} else {
		var err error
		if sum, err = hashFile(full); err != nil {
			return err
		}
	}
	w.h.str(rel)
	w.h.str(sum)
	return nil
}

func joinRel(rel, name string) string {
	if rel == "" {
		return name
	}
	return rel + "/" + name
}

// codeFile reports whether name ends in one of exts, without regard to case
// (macOS's file system finds json.PY for json.py).
func codeFile(name string, exts []string) bool {
	lower := strings.ToLower(name)
	for _, x := range exts {
		if strings.HasSuffix(lower, x) && len(lower) > len(x) {
			return true
		}
	}
	return false
}
