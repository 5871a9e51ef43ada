package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// PinnedCopy is a private copy of a pinned file that an action runs in its
// place where the platform has no private view of a path (macOS): the
// file's checked bytes are written to Copy, and the command line names
// Copy where it named the file.
type PinnedCopy struct {
	Pinned
	Copy string
}

// PinnedArgv is the decision, for a platform with no mount namespace
// (macOS), of how an approved action runs the files it runs as they were
// checked: by naming private copies of them on its command line. Each
// pinned file must be named by a word of argv, as the program (./tool) or
// as an argument (the script of python3 build.py): relative words are
// resolved against dir. Each such word is rewritten to name a copy of the
// file, with the same name, in a folder of its own in folder (the
// action's temporary folder), so that the file's name as the program
// sees it ($0, __file__) is unchanged. A pinned file no word names (a
// module the script imports, a makefile, package.json, what a folder pin
// holds beside the script) cannot be redirected so, and the action is
// refused: its error names the file. It returns the new argv and the
// copies to make; argv itself is not changed.
func PinnedArgv(argv []string, dir string, pinned []Pinned, folder string) ([]string, []PinnedCopy, error) {
	if len(pinned) == 0 {
		return argv, nil, nil
	}
	if !filepath.IsAbs(folder) {
		return nil, nil, fmt.Errorf("sandbox: no temporary folder to copy the files the action runs into")
	}
	out := append([]string(nil), argv...)
	copies := make([]PinnedCopy, 0, len(pinned))
	for i, p := range pinned {
		c := PinnedCopy{Pinned: p, Copy: filepath.Join(folder, "pinned-"+strconv.Itoa(i), filepath.Base(p.Path))}
		named := false
		for j, w := range argv {
			if w == "" {
				continue
			}
			if j > 0 && w[0] == '-' || j == 0 && !strings.Contains(w, "/") {
				continue // an option; a program looked up on PATH
			}
			if namesPath(w, dir, p.Path) {
				out[j], named = c.Copy, true
			}
		}
		if !named {
			return nil, nil, fmt.Errorf("sandbox: %s, which the action runs, is not named on its command line, and on this platform "+
				"a file can be run as it was checked only by naming a copy of it there: it did not start", p.Path)
		}
		copies = append(copies, c)
	}
	return out, copies, nil
}

// namesPath reports whether the command-line word w names path, resolved
// against dir when relative.
func namesPath(w, dir, path string) bool {
	if !filepath.IsAbs(w) {
		if dir == "" {
			return false
		}
		w = filepath.Join(dir, w)
	}
	return filepath.Clean(w) == path
}

// makePinnedCopies writes each copy's checked bytes to a new file at its
// path, in a new folder of its own, with the file's permissions and time:
// never through a link, never over a file already there.
func makePinnedCopies(copies []PinnedCopy) error {
	for _, c := range copies {
		if err := os.Mkdir(filepath.Dir(c.Copy), 0o700); err != nil {
			return fmt.Errorf("sandbox: copying %s to run it as it was checked: %w", c.Path, err)
		}
		f, err := os.OpenFile(c.Copy, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
		if err != nil {
			return fmt.Errorf("sandbox: copying %s to run it as it was checked: %w", c.Path, err)
		}
		_, err = f.Write(c.Bytes)
		if err == nil {
			err = f.Chmod(os.FileMode(c.Mode & 0o777))
		}
		err = errors.Join(err, f.Close())
		if err == nil {
			t := time.Unix(0, c.ModTime)
			err = os.Chtimes(c.Copy, t, t)
		}
		if err != nil {
			return fmt.Errorf("sandbox: copying %s to run it as it was checked: %w", c.Path, err)
		}
	}
	return nil
}

// pinnedCopies is spec s made to run private copies of its pinned files,
// for a platform with no mount namespace (macOS): PinnedArgv decides, the
// copies are made in the action's temporary folder, and the spec that
// reaches the launcher names them and pins nothing (the launcher there
// refuses a spec that pins files).
func pinnedCopies(s spec) (spec, error) {
	if len(s.Pinned) == 0 {
		return s, nil
	}
	argv, copies, err := PinnedArgv(s.Argv, s.Dir, s.Pinned, s.Profile.TempDir)
	if err != nil {
		return s, err
	}
	if err := makePinnedCopies(copies); err != nil {
		return s, err
	}
	s.Argv, s.Pinned = argv, nil
	return s, nil
}
