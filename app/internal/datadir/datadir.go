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
	"strings"
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

// The files of the data directory, by the names their owners give them
// (package policy, package ipc, the history's opener); a test in package
// main checks they agree.
const (
	SettingsFile = "settings.json"
	HistoryFile  = "history.db"
	SocketFile   = "gate.sock"
	LockFile     = "gate.lock"
)

// Place is one of Airlock's own files or folders.
type Place struct {
	Path string // absolute and clean
	What string // read after "is" or "is inside": "Airlock's settings"
}

// Places lists where Airlock keeps what no action may touch: the data
// directory and the log directory as this process resolves them, with the
// settings, the history (and its -wal and -shm), the socket and the lock
// named; the same directories under every other configuration a gate of
// this user could run with (the platform defaults, $XDG_DATA_HOME and
// $XDG_STATE_HOME, both platforms' spellings), since an action need not
// share the gate's environment; and the program itself, or its .app bundle.
// Places that cannot be worked out (no home) are left out; the list is
// never empty when Data succeeds.
func Places() ([]Place, error) {
	var out []Place
	seen := map[string]bool{}
	add := func(p, what string) {
		if p == "" || !filepath.IsAbs(p) {
			return
		}
		p = filepath.Clean(p)
		if !seen[p] {
			seen[p] = true
			out = append(out, Place{p, what})
		}
	}
	data, err := Data()
	if err != nil {
		return nil, err
	}
	dataDir := func(dir string) {
		add(filepath.Join(dir, SettingsFile), "Airlock's settings")
		for _, s := range []string{"", "-wal", "-shm", "-journal"} {
			add(filepath.Join(dir, HistoryFile+s), "Airlock's history")
		}
		add(filepath.Join(dir, SocketFile), "Airlock's socket")
		add(filepath.Join(dir, LockFile), "the lock of Airlock's gate")
		add(dir, "Airlock's data folder (settings, history, socket)")
	}
	dataDir(data)
	if logs, err := Logs(); err == nil {
		add(logs, "Airlock's log folder")
	}
	if home, err := os.UserHomeDir(); err == nil && filepath.IsAbs(home) {
		for _, d := range []string{
			filepath.Join(home, ".local", "share", "airlock"),
			filepath.Join(home, "Library", "Application Support", "Airlock"),
		} {
			dataDir(d)
		}
		add(filepath.Join(home, ".local", "state", "airlock"), "Airlock's log folder")
		add(filepath.Join(home, "Library", "Logs", "Airlock"), "Airlock's log folder")
		add(filepath.Join(home, "Applications", "Airlock.app"), "Airlock's app bundle")
	}
	add("/Applications/Airlock.app", "Airlock's app bundle")
	if x := os.Getenv("XDG_DATA_HOME"); filepath.IsAbs(x) {
		dataDir(filepath.Join(x, "airlock"))
	}
	if x := os.Getenv("XDG_STATE_HOME"); filepath.IsAbs(x) {
		add(filepath.Join(x, "airlock"), "Airlock's log folder")
	}
	if exe, err := os.Executable(); err == nil {
		if r, err := filepath.EvalSymlinks(exe); err == nil {
			exe = r
		}
		if b := bundleOf(exe); b != "" {
			add(b, "Airlock's app bundle")
		} else {
			add(exe, "Airlock's program")
		}
	}
	return out, nil
}

// bundleOf returns the .app folder a program lives in, or "".
func bundleOf(exe string) string {
	for d := filepath.Dir(exe); d != "/" && d != "."; d = filepath.Dir(d) {
		if strings.EqualFold(filepath.Ext(d), ".app") {
			return d
		}
	}
	return ""
}
