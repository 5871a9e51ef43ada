package datadir_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/datadir"
)

func TestData(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("XDG applies to Linux")
	}
	t.Setenv("AIRLOCK_DATA_DIR", "")
	t.Setenv("XDG_DATA_HOME", "/x/data")
	if d, err := datadir.Data(); err != nil || d != "/x/data/airlock" {
		t.Errorf("Data() = %q, %v; want /x/data/airlock", d, err)
	}
	t.Setenv("XDG_DATA_HOME", "relative")
	if _, err := datadir.Data(); err == nil || !strings.Contains(err.Error(), "XDG_DATA_HOME") {
		t.Errorf("relative XDG_DATA_HOME: err = %v, want one naming it", err)
	}
	t.Setenv("AIRLOCK_DATA_DIR", "/y")
	if d, err := datadir.Data(); err != nil || d != "/y" {
		t.Errorf("override: %q, %v", d, err)
	}
}

func TestEnsure(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	if err := datadir.Ensure(dir); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := datadir.Ensure(dir); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(dir)
	if fi.Mode().Perm() != 0o700 {
		t.Errorf("mode %v, want 0700", fi.Mode().Perm())
	}
	file := filepath.Join(t.TempDir(), "f")
	os.WriteFile(file, nil, 0o600)
	if err := datadir.Ensure(file); err == nil {
		t.Error("Ensure accepted a file")
	}
}

func TestPlaces(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("AIRLOCK_DATA_DIR", filepath.Join(home, "gate-data"))
	t.Setenv("XDG_DATA_HOME", "/x/data")
	t.Setenv("XDG_STATE_HOME", "")
	places, err := datadir.Places()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range places {
		if !filepath.IsAbs(p.Path) || p.What == "" {
			t.Errorf("place %+v: want an absolute path and what it is", p)
		}
		got[p.Path] = p.What
	}
	for p, what := range map[string]string{
		filepath.Join(home, "gate-data"):                                      "Airlock's data folder",
		filepath.Join(home, "gate-data", "settings.json"):                     "Airlock's settings",
		filepath.Join(home, "gate-data", "history.db-wal"):                    "Airlock's history",
		filepath.Join(home, "gate-data", "gate.sock"):                         "Airlock's socket",
		filepath.Join(home, ".local/share/airlock"):                           "Airlock's data folder",
		filepath.Join(home, "Library/Application Support/Airlock"):            "Airlock's data folder",
		filepath.Join(home, "Library/Application Support/Airlock/history.db"): "Airlock's history",
		"/x/data/airlock": "Airlock's data folder",
		filepath.Join(home, ".local/state/airlock"): "Airlock's log folder",
	} {
		if !strings.HasPrefix(got[p], what) {
			t.Errorf("%s is %q, want %q", p, got[p], what)
		}
	}
	exe, _ := os.Executable()
	exe, _ = filepath.EvalSymlinks(exe)
	if got[exe] != "Airlock's program" {
		t.Errorf("the program %s is not listed: %v", exe, got)
	}
}
