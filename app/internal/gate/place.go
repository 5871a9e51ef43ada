package gate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// commandPlace works out, for a command, the folder it runs in and the
// program it runs as the caller sees them (Submission.Dir and Path), so
// that what is assessed, shown and run is the same:
//   - dir "" is the home (""), and so is the home itself; otherwise the
//     folder with its links resolved, which must exist and lie in the
//     home or a sandbox root,
//     outside Airlock's own files and the credential stores (the
//     sandbox's view: a folder it hides could not be entered);
//   - a program named without a slash is looked up on pathList's absolute
//     entries, and argv[0] becomes the path found; with no pathList it is
//     left for the sandbox's PATH, as before.
//
// Its errors say which of the two was wrong and why.
func commandPlace(argv []string, dir, pathList string, paths *sanitize.Config) ([]string, string, error) {
	var err error
	if dir != "" {
		if dir, err = workingFolder(dir, paths); err != nil {
			return nil, "", err
		}
		if paths != nil && isHome(dir, paths.Home) {
			dir = "" // the default: the same text, preview and grants as before
		}
	}
	if len(argv) == 0 || pathList == "" || strings.Contains(argv[0], "/") {
		return argv, dir, nil
	}
	found, err := lookPath(argv[0], pathList)
	if err != nil {
		return nil, "", err
	}
	out := append([]string{found}, argv[1:]...)
	return out, dir, nil
}

// workingFolder checks and resolves a command's working folder.
func workingFolder(dir string, paths *sanitize.Config) (string, error) {
	if !filepath.IsAbs(dir) {
		return "", fmt.Errorf("the working folder %q is not an absolute path", dir)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("the working folder %s: %w", dir, unwrapPath(err))
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("the working folder %s: %w", dir, unwrapPath(err))
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("the working folder %s is not a folder", dir)
	}
	if paths == nil {
		return real, nil
	}
	switch z := paths.Classify(real); z.Kind {
	case sanitize.ZoneOwn, sanitize.ZoneCredential, sanitize.ZoneSystem:
		return "", fmt.Errorf("the working folder %s lies in %s, which commands may not enter: run it from your home folder or a sandbox root (%s)",
			dir, z.Detail, strings.Join(paths.Roots, ", "))
	}
	if !within(real, paths.Home) && !withinAny(real, paths.Roots) {
		return "", fmt.Errorf("the working folder %s is outside your home folder and the sandbox roots, which is all a command sees: run it from one of them (%s)",
			dir, strings.Join(append([]string{paths.Home}, paths.Roots...), ", "))
	}
	return real, nil
}

// lookPath finds name as a shell would on pathList, but only in absolute
// entries: a relative one ("", ".", "bin") would make the program depend on
// the folder it runs in.
func lookPath(name, pathList string) (string, error) {
	for _, d := range filepath.SplitList(pathList) {
		if !filepath.IsAbs(d) {
			continue
		}
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: not found on your PATH (only its absolute folders are searched)", name)
}

// isHome reports whether the resolved folder dir is the home.
func isHome(dir, home string) bool {
	if dir == filepath.Clean(home) {
		return true
	}
	real, err := filepath.EvalSymlinks(home)
	return err == nil && dir == real
}

func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

func withinAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if within(p, d) {
			return true
		}
	}
	return false
}

// unwrapPath drops an fs.PathError's repeated path.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
