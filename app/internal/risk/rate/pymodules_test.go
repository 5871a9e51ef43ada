package rate_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// TestPythonModulesIn: what in a working folder Python imports by a
// module's name (python -m searches it first), and what it does not.
func TestPythonModulesIn(t *testing.T) {
	for _, tt := range []struct {
		name  string
		files []string // relative; ending in "/" a folder
		want  rate.Presence
	}{
		{"empty", nil, rate.Absent},
		{"data and notes", []string{"data.json", "notes.txt", "README.md", ".json.py.swp"}, rate.Absent},
		{"a source module", []string{"data.json", "json.py"}, rate.PresentFile},
		{"a compiled module", []string{"calendar.pyc"}, rate.PresentFile},
		{"an extension module", []string{"json.cpython-312-darwin.so"}, rate.PresentFile},
		{"a plain extension module", []string{"platform.so"}, rate.PresentFile},
		{"a Windows module", []string{"traceback.pyw"}, rate.PresentFile},
		{"a package", []string{"platform/__init__.py"}, rate.PresentFile},
		{"a compiled package", []string{"json/__init__.pyc"}, rate.PresentFile},
		{"a namespace folder", []string{"docs/", "src/app.js", "out/result.txt"}, rate.Absent},
		{"a module in a subfolder only", []string{"tools/cleanup.py"}, rate.Absent},
		{"a dotted name no import can name", []string{"my.notes.py"}, rate.Absent},
	} {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			dir := filepath.Join(home, "Documents", "proj")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range tt.files {
				p := filepath.Join(dir, f)
				if f[len(f)-1] == '/' {
					if err := os.MkdirAll(p, 0o755); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cfg, err := sanitize.NewConfig(home, nil)
			if err != nil {
				t.Fatal(err)
			}
			env := &rate.Env{Paths: cfg}
			for _, d := range []string{dir, "~/Documents/proj"} {
				if got := env.PythonModulesIn(d); got != tt.want {
					t.Errorf("PythonModulesIn(%s) = %v, want %v", d, got, tt.want)
				}
			}
		})
	}
}

// TestPythonModulesInCannotTell: a folder it cannot read, a path it does
// not judge and an Env that knows no paths are PresenceUnknown.
func TestPythonModulesInCannotTell(t *testing.T) {
	home := t.TempDir()
	cfg, err := sanitize.NewConfig(home, nil)
	if err != nil {
		t.Fatal(err)
	}
	env := &rate.Env{Paths: cfg}
	for _, d := range []string{filepath.Join(home, "missing"), "~/a/../b", "relative/dir", ""} {
		if got := env.PythonModulesIn(d); got != rate.PresenceUnknown {
			t.Errorf("PythonModulesIn(%q) = %v, want PresenceUnknown", d, got)
		}
	}
	if got := (&rate.Env{}).PythonModulesIn(home); got != rate.PresenceUnknown {
		t.Errorf("an Env without paths: %v, want PresenceUnknown", got)
	}
}
