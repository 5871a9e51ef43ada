package policy_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/risk/shell"
)

// holdRig is a project whose script imports a module beside it, pinned as
// a grant pins it: the script, an optional file that is absent, and the
// folder of code the interpreter loads from.
func holdRig(t *testing.T) (dir string, runs risk.Runs, pins []policy.Pin) {
	t.Helper()
	dir = t.TempDir()
	write(t, filepath.Join(dir, "build.py"), "import helpers\n")
	write(t, filepath.Join(dir, "helpers.py"), "def f(): pass\n")
	write(t, filepath.Join(dir, "README.md"), "# notes\n")
	if err := os.Chmod(filepath.Join(dir, "build.py"), 0o750); err != nil {
		t.Fatal(err)
	}
	when := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(dir, "helpers.py"), when, when); err != nil {
		t.Fatal(err)
	}
	folder := shell.Loads["python"]
	folder.Script = filepath.Join(dir, "build.py")
	runs = risk.Runs{Known: true, Files: []string{filepath.Join(dir, "build.py")},
		Optional: []string{filepath.Join(dir, ".env")}, Folders: []risk.Folder{folder}}
	pins, err := policy.PinNow(runs)
	if err != nil {
		t.Fatal(err)
	}
	return dir, runs, pins
}

// TestHoldReturnsWhatItChecked: unchanged, every file a pin names is held
// once (the script is pinned itself and as a file of its folder), with its
// bytes, permissions and time; what the interpreter does not load
// (README.md) and the optional file that is absent are not.
func TestHoldReturnsWhatItChecked(t *testing.T) {
	dir, _, pins := holdRig(t)
	held, err := policy.Hold(pins, "it was approved")
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, h := range held {
		paths = append(paths, h.Path)
		b, err := os.ReadFile(h.Path)
		if err != nil || string(b) != string(h.Bytes) {
			t.Errorf("%s held %q, holds %q (%v)", h.Path, h.Bytes, b, err)
		}
	}
	slices.Sort(paths)
	if want := []string{filepath.Join(dir, "build.py"), filepath.Join(dir, "helpers.py")}; !slices.Equal(paths, want) {
		t.Fatalf("held %v, want %v", paths, want)
	}
	for _, h := range held {
		switch filepath.Base(h.Path) {
		case "build.py":
			if h.Mode != 0o750 {
				t.Errorf("build.py held with mode %v, want 0750", h.Mode)
			}
		case "helpers.py":
			if h.ModTime.Year() != 2024 {
				t.Errorf("helpers.py held with time %v", h.ModTime)
			}
		}
	}
}

// TestHoldRefusesWhatChanged: whatever changed since the pins were taken
// refuses the hold, wrapping ErrLapsed and saying what; what the
// interpreter does not load does not.
func TestHoldRefusesWhatChanged(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, dir string)
		says   string // "" holds
	}{
		{"the script rewritten", func(t *testing.T, dir string) { write(t, filepath.Join(dir, "build.py"), "import os\n") }, "build.py changed"},
		{"the script removed", func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "build.py")) }, "build.py was removed"},
		{"the optional file put in place", func(t *testing.T, dir string) { write(t, filepath.Join(dir, ".env"), "X=1\n") }, ".env was put in place"},
		{"the module rewritten", func(t *testing.T, dir string) { write(t, filepath.Join(dir, "helpers.py"), "import os\n") }, "was changed, added or removed"},
		{"a module planted", func(t *testing.T, dir string) { write(t, filepath.Join(dir, "json.py"), "import os\n") }, "was changed, added or removed"},
		{"the notes rewritten", func(t *testing.T, dir string) { write(t, filepath.Join(dir, "README.md"), "# other\n") }, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, _, pins := holdRig(t)
			tc.change(t, dir)
			held, err := policy.Hold(pins, "it was approved")
			switch {
			case tc.says == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.says != "" && (!errors.Is(err, policy.ErrLapsed) || !strings.Contains(err.Error(), tc.says)):
				t.Fatalf("held %d files, err %v; want ErrLapsed saying %q", len(held), err, tc.says)
			}
		})
	}
}

// TestPinsOfGrantsAndRules: a grant's and an allow rule's pins, as Hold
// holds them, are those they were given; none for what they do not cover.
func TestPinsOfGrantsAndRules(t *testing.T) {
	dir, runs, _ := holdRig(t)
	g := policy.NewGrants(nil)
	if _, err := g.Allow(me, runText, runs, level.Dangerous, 0); err != nil {
		t.Fatal(err)
	}
	pins := g.PinsOf(me, runText, runs)
	if len(pins) != 3 {
		t.Fatalf("the grant's pins: %+v", pins)
	}
	if _, err := policy.Hold(pins, "it was approved"); err != nil {
		t.Fatalf("hold of the grant's pins: %v", err)
	}
	if other := g.PinsOf(me, "python3 other.py", runs); other != nil {
		t.Fatalf("pins of a text no grant covers: %+v", other)
	}
	rulePins, err := policy.RulePins(runs)
	if err != nil {
		t.Fatal(err)
	}
	r := policy.Rule{Decision: policy.RuleAllow, Pins: rulePins}
	pins = r.PinsOf(runs)
	if len(pins) != 3 {
		t.Fatalf("the rule's pins: %+v", pins)
	}
	write(t, filepath.Join(dir, "helpers.py"), "import os\n")
	if _, err := policy.Hold(pins, "the rule pinned it"); !errors.Is(err, policy.ErrLapsed) {
		t.Fatalf("hold of the rule's pins after a module changed: %v", err)
	}
}
