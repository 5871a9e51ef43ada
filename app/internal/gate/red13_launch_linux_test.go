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

// TestRed13SwappedAfterTheLaunchCheck: the executor rates the handler and
// the file right before a launch (launchFile) and hands the viewer a
// path. A viewer reads the file when it has started, a moment later,
// while the plan goes on: MOVE_FILE, Caution, moves the inert file (or
// its folder) away and another, a PostScript program named report.txt,
// into its place. The viewer then opens the program, and Evince or
// Okular run PostScript in Ghostscript, outside the sandbox. The
// stand-in viewer here reads what is at its path once the plan is done,
// as a real one that takes longer to start than two renames do (and
// Evince reloads a file that changes while it shows it, so a later plan
// does the same). Each step is Caution: the analyzer rates the launch by
// the path's name (nothing is there at assessment) and each move as one
// to a free name. The test FAILS when what the viewer reads is a program.
//
// Open (skipped): it fails on main. The fix is the launch's, not the
// plan's: a file opened unasked is handed to the viewer as a read-only
// copy of what was checked, in a folder of Airlock's outside the roots
// (no action can write there), so neither the next moves nor a later
// plan can change what the viewer reads; an editor among the viewers
// (gedit, TextEdit) then saves to the copy, which needs the lead's say.
func TestRed13SwappedAfterTheLaunchCheck(t *testing.T) {
	if os.Getenv("AIRLOCK_RED_OPEN") == "" {
		t.Skip("open: a file launched unasked can be swapped under the viewer by the next Caution moves (fix: hand the viewer a read-only copy of what was checked); AIRLOCK_RED_OPEN=1 runs it")
	}
	for _, plan := range []string{"swap-after-open.plan", "swap-file-after-open.plan"} {
		t.Run(plan, func(t *testing.T) {
			r := newLaunchRig(t, 1)
			for _, d := range []string{"Documents/figures", "Documents/incoming"} {
				if err := os.MkdirAll(filepath.Join(r.home, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(r.home, "Documents/figures/report.txt"), []byte("quarterly figures\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			r.write(t, "Documents/incoming/report.txt", "red-postscript.ps", 0o644)
			b, err := os.ReadFile(filepath.Join("testdata", "red13", plan))
			if err != nil {
				t.Fatal(err)
			}
			rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindPlan, Plan: string(b)}, nil)
			t.Logf("%s: %s (status %s), %v\n%+v", plan, rep.Risk, rep.Status, err, rep)
			deadline := time.Now().Add(5 * time.Second)
			for !r.started("evince") && time.Now().Before(deadline) {
				time.Sleep(10 * time.Millisecond)
			}
			if !r.started("evince") {
				return // nothing was opened
			}
			log, _ := os.ReadFile(r.log + ".evince")
			given := strings.Fields(string(log))
			got, _ := os.ReadFile(given[len(given)-1])
			if bytes.HasPrefix(got, []byte("%!")) {
				t.Fatalf("HOLE: the viewer, given %s after the check, reads a PostScript program there (status %s)", given[len(given)-1], rep.Status)
			}
		})
	}
}
