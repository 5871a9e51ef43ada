//go:build linux

package gate_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// A fourteenth red team's attacks on the DSL's file operations (round 13
// of the brief). Each plan of testdata/red13/fileops.json is submitted as
// the agent at Level 1 with nobody to approve, through the real gate and
// executor in the test's temporary home, which holds the file's "files".

// red13FileOps is testdata/red13/fileops.json.
type red13FileOps struct {
	Files    map[string]string `json:"files"`
	Removes  []red13Plan       `json:"removes settings"`
	Lookalke []red13Plan       `json:"lookalikes"`
}

// red13Plan is one plan; Keep is a file (in the home) that must still be
// there afterwards, Gone one that must not.
type red13Plan struct {
	Name string   `json:"name"`
	Plan string   `json:"plan"`
	Argv []string `json:"argv"` // a command instead of a plan, run in Dir
	Dir  string   `json:"dir"`
	Keep string   `json:"keep"`
	Gone string   `json:"gone"`
}

func readRed13FileOps(t *testing.T) red13FileOps {
	t.Helper()
	var f red13FileOps
	readJSON(t, &f, "red13", "fileops.json")
	return f
}

// newRed13FileOpsRig is newFileOpsRig's gate with the files of f added to
// its home.
func newRed13FileOpsRig(t *testing.T, f red13FileOps) *fileOpsRig {
	t.Helper()
	r := newFileOpsRigAt(t, policy.SmartDefault, nil)
	for rel, body := range f.Files {
		p := filepath.Join(r.home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// submit runs p as the agent and fails the test if the review left a
// folder of its own behind.
func (r *fileOpsRig) submit(t *testing.T, p red13Plan) {
	t.Helper()
	sub := gate.Submission{Client: "agent", Plan: p.Plan}
	if p.Argv != nil {
		sub = gate.Submission{Client: "agent", Kind: gate.KindCommand, Argv: p.Argv, Dir: filepath.Join(r.home, p.Dir)}
	}
	rep, err := r.g.Submit(context.Background(), sub, nil)
	t.Logf("%s%q: %s (status %s), %v", p.Plan, p.Argv, rep.Risk, rep.Status, err)
	for _, root := range []string{"Documents", "Downloads", "Desktop"} {
		if left, _ := filepath.Glob(filepath.Join(r.home, root, "*", ".airlock-*")); len(left) > 0 {
			t.Errorf("the review of the move left %q behind", left)
		}
	}
}

// TestRed13FolderMovedTakesItsSettings: removing a project's settings
// file that restricts what its tools run (a Cargo config whose wrapper
// confines the build, a pip.conf that takes built wheels only) is held
// for the person, by the sandbox's review and by the review before an
// unasked MOVE_FILE (red6, red12). But the rule looked at the removed
// entry alone: a folder removed was "a folder, which turns nothing on".
// MOVE_FILE of the folder that holds the settings (.cargo) to another
// name is Caution and ran unasked: the project kept building, now with
// no wrapper, and the next cargo build ran every build script unconfined.
// A folder moved away is judged by the settings it takes from the place
// it leaves.
func TestRed13FolderMovedTakesItsSettings(t *testing.T) {
	f := readRed13FileOps(t)
	for _, tc := range f.Removes {
		t.Run(tc.Name, func(t *testing.T) {
			r := newRed13FileOpsRig(t, f)
			r.submit(t, tc)
			if _, err := os.Stat(filepath.Join(r.home, tc.Keep)); err != nil {
				t.Fatalf("HOLE: %s ran unasked and took %s away (%v): what it turned off runs at the next build", tc.Plan+fmt.Sprint(tc.Argv), tc.Keep, err)
			}
		})
	}
}

// TestRed13FolderMovesLookalikes: a folder of notes moved, a whole
// project moved with its settings, and installed code moved away land
// unasked.
func TestRed13FolderMovesLookalikes(t *testing.T) {
	f := readRed13FileOps(t)
	for _, tc := range f.Lookalke {
		t.Run(tc.Name, func(t *testing.T) {
			r := newRed13FileOpsRig(t, f)
			r.submit(t, tc)
			if _, err := os.Stat(filepath.Join(r.home, tc.Gone)); err == nil {
				t.Fatalf("%s did not land unasked: %s is still there", tc.Plan+fmt.Sprint(tc.Argv), tc.Gone)
			}
		})
	}
}
