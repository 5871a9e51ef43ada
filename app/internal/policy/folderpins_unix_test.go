//go:build unix

package policy_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/risk/shell"
)

// pyRuns is what Runs names for `python3 DIR/build.py`: the script and
// the folder Python loads its imports from.
func pyRuns(script string) risk.Runs {
	f := shell.Loads["python"]
	f.Script = script
	return risk.Runs{Known: true, Files: []string{script}, Folders: []risk.Folder{f}}
}

// mkfile writes content at p, making its folders.
func mkfile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, p, content)
}

// TestGrantsPinScriptFolder: a grant for a Python script lapses when code
// Python could import beside it changes — a module rewritten, one added
// that shadows the standard library, a package, a cached or compiled
// module, a module renamed — and holds when anything else there changes
// (notes, data, output, node_modules, .git).
func TestGrantsPinScriptFolder(t *testing.T) {
	for _, tt := range []struct {
		name   string
		change func(t *testing.T, dir string)
		lapses bool
	}{
		{"a module rewritten", func(t *testing.T, dir string) { mkfile(t, filepath.Join(dir, "helpers.py"), "x = 2\n") }, true},
		{"a module shadowing json added", func(t *testing.T, dir string) { mkfile(t, filepath.Join(dir, "json.py"), "x\n") }, true},
		{"the same in upper case", func(t *testing.T, dir string) { mkfile(t, filepath.Join(dir, "JSON.PY"), "x\n") }, true},
		{"a package added", func(t *testing.T, dir string) { mkfile(t, filepath.Join(dir, "json", "__init__.py"), "x\n") }, true},
		{"a namespace package's module", func(t *testing.T, dir string) { mkfile(t, filepath.Join(dir, "pkg", "sub", "m.py"), "x\n") }, true},
		{"a cached module", func(t *testing.T, dir string) {
			mkfile(t, filepath.Join(dir, "__pycache__", "helpers.cpython-312.pyc"), "x")
		}, true},
		{"an extension module", func(t *testing.T, dir string) { mkfile(t, filepath.Join(dir, "json.abi3.so"), "x") }, true},
		{"a module removed", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "helpers.py")); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"a module renamed", func(t *testing.T, dir string) {
			if err := os.Rename(filepath.Join(dir, "helpers.py"), filepath.Join(dir, "helper.py")); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"a module linked elsewhere", func(t *testing.T, dir string) {
			other := filepath.Join(t.TempDir(), "evil.py")
			mkfile(t, other, "x = 1\n") // the same content, another file
			if err := os.Remove(filepath.Join(dir, "helpers.py")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(other, filepath.Join(dir, "helpers.py")); err != nil {
				t.Fatal(err)
			}
			write(t, other, "x = 3\n")
		}, true},
		{"notes edited", func(t *testing.T, dir string) { mkfile(t, filepath.Join(dir, "README.md"), "# edited\n") }, false},
		{"data edited", func(t *testing.T, dir string) { mkfile(t, filepath.Join(dir, "data.csv"), "a,b\n3,4\n") }, false},
		{"output written", func(t *testing.T, dir string) { mkfile(t, filepath.Join(dir, "out", "result.txt"), "ok\n") }, false},
		{"an empty folder made", func(t *testing.T, dir string) {
			if err := os.Mkdir(filepath.Join(dir, "build"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"node_modules changed", func(t *testing.T, dir string) {
			mkfile(t, filepath.Join(dir, "node_modules", "x", "index.py"), "x\n")
		}, false},
		{"git's objects changed", func(t *testing.T, dir string) { mkfile(t, filepath.Join(dir, ".git", "hooks", "x.py"), "x\n") }, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			script := filepath.Join(dir, "build.py")
			mkfile(t, script, "import json, helpers\n")
			mkfile(t, filepath.Join(dir, "helpers.py"), "x = 1\n")
			mkfile(t, filepath.Join(dir, "README.md"), "# notes\n")
			mkfile(t, filepath.Join(dir, "data.csv"), "a,b\n1,2\n")
			runs := pyRuns(script)
			g := policy.NewGrants(nil)
			gr, err := g.Allow(me, runText, runs, level.Dangerous, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(gr.Pins) != 2 || gr.Pins[1].Path != dir || gr.Pins[1].Loads == nil || len(gr.Pins[1].Sum) != 64 {
				t.Fatalf("pins %+v", gr.Pins)
			}
			rule := policy.Rule{Decision: policy.RuleAllow, Prefix: []string{"python3", script}}
			if rule.Pins, err = policy.RulePins(runs); err != nil {
				t.Fatal(err)
			}
			if len(rule.Pins) != 2 || len(rule.Pins[dir]) != 64 {
				t.Fatalf("rule pins %v", rule.Pins)
			}
			if err := policy.ValidateRules(policy.Rules{rule}); err != nil {
				t.Fatalf("the rule RulePins makes is not valid: %v", err)
			}
			cmd := policy.RuleCommand{Argv: []string{"python3", script}, Dir: dir}
			tt.change(t, dir)
			gerr := g.Check(me, runText, runs, level.Dangerous)
			rerr := rule.Covers(cmd, runs, level.Dangerous)
			switch {
			case tt.lapses && (!errors.Is(gerr, policy.ErrLapsed) || !strings.Contains(gerr.Error(), dir)):
				t.Fatalf("the grant still holds, or says nothing of the folder: %v", gerr)
			case tt.lapses && !errors.Is(rerr, policy.ErrLapsed):
				t.Fatalf("the rule still covers it: %v", rerr)
			case !tt.lapses && (gerr != nil || rerr != nil):
				t.Fatalf("a change Python never loads ended the grant (%v) or the rule (%v)", gerr, rerr)
			}
		})
	}
}

// TestGrantsScriptFolderBounds: a folder past a bound cannot be pinned —
// the approval is not remembered, and says why — and one that grows past
// it after the grant lapses it.
func TestGrantsScriptFolderBounds(t *testing.T) {
	for _, tt := range []struct {
		name string
		fill func(t *testing.T, dir string)
		says string
	}{
		{"too many modules", func(t *testing.T, dir string) {
			for i := range 257 {
				mkfile(t, filepath.Join(dir, fmt.Sprintf("m%03d.py", i)), "")
			}
		}, "more than 256 Python files"},
		{"too many bytes", func(t *testing.T, dir string) {
			big := strings.Repeat("#", 3<<20)
			for i := range 3 {
				mkfile(t, filepath.Join(dir, fmt.Sprintf("big%d.py", i)), big)
			}
		}, "more than 8 MiB"},
		{"too many names", func(t *testing.T, dir string) {
			for i := range 4097 {
				mkfile(t, filepath.Join(dir, "photos", fmt.Sprintf("p%04d.jpg", i)), "")
			}
		}, "more than 4096 names"},
		{"too deep", func(t *testing.T, dir string) {
			mkfile(t, filepath.Join(dir, "a", "b", "c", "d", "e", "f", "g", "h", "i", "m.py"), "")
		}, "folders deep"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			script := filepath.Join(dir, "build.py")
			mkfile(t, script, "print(1)\n")
			runs := pyRuns(script)
			g := policy.NewGrants(nil)
			if _, err := g.Allow(me, runText, runs, level.Dangerous, 0); err != nil {
				t.Fatal(err)
			}
			tt.fill(t, dir)
			if err := g.Check(me, runText, runs, level.Dangerous); !errors.Is(err, policy.ErrLapsed) || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("grown past the bound, the grant: %v", err)
			}
			_, err := g.Allow(me, runText, runs, level.Dangerous, 0)
			if !errors.Is(err, policy.ErrNotGrantable) || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("past the bound, Allow: %v; want it not grantable, saying %q", err, tt.says)
			}
			if _, err := policy.RulePins(runs); err == nil || !strings.Contains(err.Error(), tt.says) {
				t.Fatalf("past the bound, RulePins: %v", err)
			}
		})
	}
}

// TestGrantsScriptFolderFollowsLink: Python imports from the folder of the
// file a linked script points to; a module changed there lapses the grant,
// and so does the link pointed at another folder holding the same script.
func TestGrantsScriptFolderFollowsLink(t *testing.T) {
	dir, real := t.TempDir(), t.TempDir()
	mkfile(t, filepath.Join(real, "build.py"), "import helpers\n")
	mkfile(t, filepath.Join(real, "helpers.py"), "x = 1\n")
	script := filepath.Join(dir, "build.py")
	if err := os.Symlink(filepath.Join(real, "build.py"), script); err != nil {
		t.Fatal(err)
	}
	runs := pyRuns(script)
	g := policy.NewGrants(nil)
	if _, err := g.Allow(me, runText, runs, level.Dangerous, 0); err != nil {
		t.Fatal(err)
	}
	mkfile(t, filepath.Join(real, "helpers.py"), "x = 2\n")
	if err := g.Check(me, runText, runs, level.Dangerous); !errors.Is(err, policy.ErrLapsed) {
		t.Fatalf("a module beside the linked script changed, the grant: %v", err)
	}
	mkfile(t, filepath.Join(real, "helpers.py"), "x = 1\n")
	if err := g.Check(me, runText, runs, level.Dangerous); err != nil {
		t.Fatalf("restored: %v", err)
	}
	other := t.TempDir()
	mkfile(t, filepath.Join(other, "build.py"), "import helpers\n")
	mkfile(t, filepath.Join(other, "helpers.py"), "x = 1\n")
	if err := os.Remove(script); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(other, "build.py"), script); err != nil {
		t.Fatal(err)
	}
	if err := g.Check(me, runText, runs, level.Dangerous); !errors.Is(err, policy.ErrLapsed) {
		t.Fatalf("the link points at another folder, the grant: %v", err)
	}
}

// BenchmarkCheckScriptFolder is the grant check the gate makes twice for a
// granted Python script in a project of 100 modules of 4 KiB beside 100
// other files: every module read and hashed again.
func BenchmarkCheckScriptFolder(b *testing.B) {
	dir := b.TempDir()
	script := filepath.Join(dir, "build.py")
	if err := os.WriteFile(script, []byte("import helpers\n"), 0o600); err != nil {
		b.Fatal(err)
	}
	mod := strings.Repeat("x = 1\n", 4096/6)
	for i := range 100 {
		for _, name := range []string{fmt.Sprintf("pkg%d/m.py", i), fmt.Sprintf("data%d.csv", i)} {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(mod), 0o600); err != nil {
				b.Fatal(err)
			}
		}
	}
	runs := pyRuns(script)
	g := policy.NewGrants(nil)
	if _, err := g.Allow(me, runText, runs, level.Dangerous, 0); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(100 * int64(len(mod)))
	for b.Loop() {
		if err := g.Check(me, runText, runs, level.Dangerous); err != nil {
			b.Fatal(err)
		}
	}
}
