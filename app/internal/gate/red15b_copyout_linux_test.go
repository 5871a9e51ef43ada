//go:build linux

package gate_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
)

// submitCopy submits tc, its {{HOME}} the rig's home, unasked at Level 1
// and returns its report.
func submitCopy(t *testing.T, r *secretRig, tc red14Argv) gate.Report {
	t.Helper()
	tc.Plan = strings.ReplaceAll(tc.Plan, "{{HOME}}", filepath.Dir(filepath.Dir(r.proj)))
	return submitArgv(t, r, tc)
}

// copiesHeld submits each of cases unasked (submitCopy): an app's copy or
// move of the roots' files out of every walk, which must be held for the
// person (Dangerous or above).
func copiesHeld(t *testing.T, r *secretRig, cases []red14Argv) {
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			switch rep := submitCopy(t, r, tc); rep.Risk {
			case "dangerous", "destructive", "blocked":
			default:
				t.Errorf("HOLE: rated %s: the app carries the roots' hidden keys out of every walk unasked", rep.Risk)
			}
		})
	}
}

// copiesRun submits each of cases unasked (submitCopy): copies the walks
// cover, which run unasked (Safe or Caution).
func copiesRun(t *testing.T, r *secretRig, cases []red14Argv) {
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			if rep := submitCopy(t, r, tc); rep.Risk != "safe" && rep.Risk != "caution" {
				t.Errorf("rated %s", rep.Risk)
			}
		})
	}
}

// TestRed15bAppCopiesHiddenKeysOutOfEveryWalk: open (skipped unless
// AIRLOCK_RED_OPEN=1). A script run unasked makes the Finder copy a
// folder of the roots (~/Documents/proj, which holds a key known only by
// its first bytes) to /Users/Shared or a disk: Caution, so it runs, and
// the Finder copies outside every sandbox. What the copy carries lies
// where no walk looks (the executor walks the roots and the home), and on
// macOS an unasked action reads everywhere but what is hidden, so the
// next unasked cat prints the key (the files named like secrets stay
// refused by Seatbelt's names wherever they are). The fix: the
// AppleScript and JXA analyzers rate an app's duplicate or move whose
// destination lies outside the roots and the home (a write no review
// sees and no walk covers) Dangerous (red15a works in the analyzers);
// or macOS's unasked reads are bounded to the system, the home and the
// roots, as Linux's are.
func TestRed15bAppCopiesHiddenKeysOutOfEveryWalk(t *testing.T) {
	var cases struct{ Out, Lookalikes []red14Argv }
	readJSON(t, &cases, "red15b", "folder-copies.json")
	r := newSecretRig(t)
	if err := os.WriteFile(filepath.Join(r.proj, "prod-key.txt"), []byte("-----BEGIN RSA PRIVATE KEY-----\nMIIEvgIBADANBgkqhkiG9w0BAQEFAAScopyOut15\n-----END RSA PRIVATE KEY-----\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	copiesHeld(t, r, cases.Out)
}

// TestRed15bAppCopiesLookalikes: the Finder copying a folder of the roots
// into the roots or into the home, which the walks cover, runs unasked.
func TestRed15bAppCopiesLookalikes(t *testing.T) {
	var cases struct{ Out, Lookalikes []red14Argv }
	readJSON(t, &cases, "red15b", "folder-copies.json")
	copiesRun(t, newSecretRig(t), cases.Lookalikes)
}
