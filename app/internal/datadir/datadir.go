// Package datadir says where Airlock keeps its files: the history database,
// settings and the gate's socket under the data directory. (Its log goes to
// the system log; Logs names where earlier versions kept log files.) It
// creates directories owner-only (0700) and refuses to use one that another
// user owns or that others can enter.
package datadir

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
)

// Data returns the data directory: ~/Library/Application Support/Airlock on
// macOS, $XDG_DATA_HOME/airlock (default ~/.local/share/airlock) elsewhere.
// AIRLOCK_DATA_DIR overrides both, for tests and for running several gates
// side by side.
func Data() (string, error) {
	if d := os.Getenv("AIRLOCK_DATA_DIR"); d != "" {
		return absolute("AIRLOCK_DATA_DIR", d)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("finding the data directory: %w", err)
	}
	if runtime.GOOS == "darwin" {
		return filepath.Join(home, "Library", "Application Support", "Airlock"), nil
	}
	if x := os.Getenv("XDG_DATA_HOME"); x != "" {
		if !filepath.IsAbs(x) {
			return "", fmt.Errorf("XDG_DATA_HOME is %q: it must be an absolute path", x)
		}
		return filepath.Join(x, "airlock"), nil
	}
	return filepath.Join(home, ".local", "share", "airlock"), nil
}

// Logs returns the directory where earlier versions kept their log files:
// ~/Library/Logs/Airlock on macOS, $XDG_STATE_HOME/airlock (default
// ~/.local/state/airlock) elsewhere. Airlock writes nothing there now (it
// logs to the system log), but what an earlier version left is still its
// own, and kept out of the sandbox roots.
func Logs() (string, error) {
	if d := os.Getenv("AIRLOCK_DATA_DIR"); d != "" {
		p, err := absolute("AIRLOCK_DATA_DIR", d)
		return filepath.Join(p, "logs"), err
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("finding the log directory: %w", err)
	}
	if runtime.GOOS == "darwin" {
		return filepath.Join(home, "Library", "Logs", "Airlock"), nil
	}
	if x := os.Getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "airlock"), nil
	}
	return filepath.Join(home, ".local", "state", "airlock"), nil
}

func absolute(name, p string) (string, error) {
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("%s is %q: it must be an absolute path", name, p)
	}
	return filepath.Clean(p), nil
}

// Ensure creates dir (and its parents) if needed and checks that it belongs
// to this user and that nobody else may enter it: mode 0700. A directory
// with wider permissions that this user owns is tightened; one owned by
// someone else is refused.
func Ensure(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("checking %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory", dir)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok && int(st.Uid) != os.Getuid() {
		return fmt.Errorf("%s belongs to uid %d, not to this user (uid %d)", dir, st.Uid, os.Getuid())
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("making %s private: %w", dir, err)
		}
	}
	return nil
}
