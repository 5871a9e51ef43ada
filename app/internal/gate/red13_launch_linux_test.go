//go:build linux

package gate_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/gate"
)

// newSwapRig is newLaunchRig at Level 1, its commands run in the real
// sandbox (reviewed), whose ~/Documents/figures holds a
// report in plain text and whose ~/Documents/incoming holds a PostScript
// program under the same name.
func newSwapRig(t *testing.T) *launchRig {
	t.Helper()
	d := baseRed()
	d.boxed = true
	r := newRedRig(t, 1, d)
	for _, d := range []string{"Documents/figures", "Documents/incoming"} {
		if err := os.MkdirAll(filepath.Join(r.home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(r.home, "Documents/figures/report.txt"), []byte("quarterly figures\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.write(t, "Documents/incoming/report.txt", "red-postscript.ps", 0o644)
	return r
}

// submitPlanFile submits testdata/red13/name as the agent's plan.
func (r *launchRig) submitPlanFile(t *testing.T, name string) gate.Report {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "red13", name))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindPlan, Plan: string(b)}, nil)
	t.Logf("%s: %s (status %s), %v", name, rep.Risk, rep.Status, err)
	for _, a := range rep.Actions {
		t.Logf("  %s", strings.TrimSpace(a.Output+" "+a.Error))
	}
	return rep
}

// submitSteps submits, one after the other, the steps of
// testdata/red13/name: plans ({home} the home), or commands run in a
// folder of the home.
func (r *launchRig) submitSteps(t *testing.T, name string) {
	t.Helper()
	var steps []struct {
		Plan string   `json:"plan"`
		Argv []string `json:"argv"`
		Dir  string   `json:"dir"`
	}
	readJSON(t, &steps, "red13", name)
	for _, s := range steps {
		sub := gate.Submission{Client: "agent", Kind: gate.KindPlan, Plan: strings.ReplaceAll(s.Plan, "{home}", r.home)}
		if s.Argv != nil {
			sub = gate.Submission{Client: "agent", Kind: gate.KindCommand, Argv: s.Argv, Dir: filepath.Join(r.home, s.Dir)}
		}
		rep, err := r.g.Submit(context.Background(), sub, nil)
		t.Logf("%s%q: %s (status %s), %v", s.Plan, s.Argv, rep.Risk, rep.Status, err)
	}
}

// viewerReads waits for the stand-in viewer and returns the path it was
// given and what lies there now: what a viewer that reads it after the
// plan's next actions (or reloads it) reads.
func (r *launchRig) viewerReads(t *testing.T) (string, []byte) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !r.started("evince") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	log, err := os.ReadFile(r.log + ".evince")
	if err != nil {
		t.Fatalf("the viewer was not started: %v", err)
	}
	given := strings.Fields(string(log))
	p := given[len(given)-1]
	b, _ := os.ReadFile(p)
	return p, b
}

// TestRed13SwappedAfterTheLaunchCheck: the executor rates the handler and
// the file right before a launch (launchFile) and hands the viewer a
// path. A viewer reads the file when it has started, a moment later,
// while the plan goes on: MOVE_FILE, Caution, moves the inert file (or
// its folder) away and another, a PostScript program named report.txt,
// into its place. The viewer then opens the program, and Evince or
// Okular run PostScript in Ghostscript, outside the sandbox. The
// stand-in viewer here reads what is at its path once the plan is done,
// as a real one that takes longer to start than two renames do (and
// Evince reloads a file that changes while it shows it, so later
// commands do the same: the third case, mv unasked in the sandbox). Each
// step is Caution: the analyzer rates the launch by the path's name
// (nothing is there at assessment) and each move as one to a free name.
// The test FAILS when what the viewer reads is a program.
func TestRed13SwappedAfterTheLaunchCheck(t *testing.T) {
	for _, plan := range []string{"swap-after-open.plan", "swap-file-after-open.plan"} {
		t.Run(plan, func(t *testing.T) {
			r := newSwapRig(t)
			r.submitPlanFile(t, plan)
			if p, got := r.viewerReads(t); bytes.HasPrefix(got, []byte("%!")) {
				t.Fatalf("HOLE: the viewer, given %s after the check, reads a PostScript program there", p)
			}
		})
	}
	for _, steps := range []string{"swap-commands.json", "swap-through-link.json"} {
		t.Run(steps, func(t *testing.T) {
			r := newSwapRig(t)
			r.submitSteps(t, steps)
			if !r.waitFor("evince", time.Second) {
				return // it did not open unasked (a file: URL through a link asks)
			}
			if p, got := r.viewerReads(t); bytes.HasPrefix(got, []byte("%!")) {
				t.Fatalf("HOLE: the viewer, given %s, reads a PostScript program there after the next steps", p)
			}
		})
	}
}

// newFolderSwapRig is newSwapRig with Files (the stand-in Nautilus) the
// handler of folders.
func newFolderSwapRig(t *testing.T) *launchRig {
	t.Helper()
	d := baseRed()
	d.boxed = true
	d.bins["nautilus"] = "viewer.sh"
	d.desktop["org.gnome.Nautilus.desktop"] = "[Desktop Entry]\nType=Application\nName=Files\nExec=nautilus %U\nMimeType=inode/directory;\n"
	d.mimeapps += "inode/directory=org.gnome.Nautilus.desktop;\n"
	r := newRedRig(t, 1, d)
	for _, dir := range []string{"Documents/figures", "Documents/incoming"} {
		if err := os.MkdirAll(filepath.Join(r.home, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(r.home, "Documents/figures/report.txt"), []byte("quarterly figures\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.write(t, "Documents/incoming/report.txt", "red-postscript.ps", 0o644)
	return r
}

// TestRed13ProgramIntoShownFolder: a folder opens unasked in the file
// manager only when it holds nothing its thumbnailers run (PostScript, by
// name or first bytes: TestRedLaunchFolderOfPrograms). Once it is shown,
// the plan's next MOVE_FILE (Caution) put a PostScript program into it
// as chart.pdf (or an unasked cp, or ln -s a link to one), and Files
// thumbnails what appears in the folder it shows:
// Evince's thumbnailer ran the program. The test FAILS when the program
// lies in the shown folder afterwards.
func TestRed13ProgramIntoShownFolder(t *testing.T) {
	for _, steps := range []string{"into-shown-folder.plan", "into-shown-folder-commands.json"} {
		t.Run(steps, func(t *testing.T) {
			r := newFolderSwapRig(t)
			if strings.HasSuffix(steps, ".plan") {
				r.submitPlanFile(t, steps)
			} else {
				r.submitSteps(t, steps)
			}
			if !r.waitFor("nautilus", 5*time.Second) {
				t.Fatalf("the folder was not opened")
			}
			for _, name := range []string{"chart.pdf", "scan.pdf"} {
				if b, err := os.ReadFile(filepath.Join(r.home, "Documents/figures", name)); err == nil && bytes.HasPrefix(b, []byte("%!")) {
					t.Errorf("HOLE: a PostScript program was put unasked in the folder the file manager shows (%s)", name)
				}
			}
		})
	}
}

// TestRed13IntoShownFolderLookalikes: while the file manager shows a
// folder, a document copied into it lands unasked.
func TestRed13IntoShownFolderLookalikes(t *testing.T) {
	r := newFolderSwapRig(t)
	rep := r.submitPlanFile(t, "into-shown-folder-lookalike.plan")
	if rep.Status != gate.StatusOK {
		t.Fatalf("the plan did not run unasked: %+v", rep)
	}
	if _, err := os.Stat(filepath.Join(r.home, "Documents/figures/report-2.txt")); err != nil {
		t.Errorf("the copy did not land: %v", err)
	}
}

// TestRed13SwapLookalikes: while the viewer shows a file, a file moved
// beside it lands unasked, and the file it shows is still there.
func TestRed13SwapLookalikes(t *testing.T) {
	r := newSwapRig(t)
	rep := r.submitPlanFile(t, "move-sibling-after-open.plan")
	if rep.Status != gate.StatusOK {
		t.Fatalf("the plan did not run unasked: %+v", rep)
	}
	if _, err := os.Stat(filepath.Join(r.home, "Documents/figures/next.txt")); err != nil {
		t.Errorf("the file moved beside the one shown did not land: %v", err)
	}
	if _, got := r.viewerReads(t); string(got) != "quarterly figures\n" {
		t.Errorf("the viewer reads %q", got)
	}
}
