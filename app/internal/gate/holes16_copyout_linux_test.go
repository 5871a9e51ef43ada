//go:build linux

package gate_test

import (
	"testing"
)

// TestHoles16AppCopiesOutOfEveryWalk: more of the class
// TestRed15bAppCopiesHiddenKeysOutOfEveryWalk holds
// (testdata/red15b/holes16-copyout.json), submitted unasked through the
// real gate: the Finder moving a folder of the roots to /Users/Shared by
// its specifier or by a path, copying it to a disk in JXA, and copying
// one key known only by its content out. Each is held for the person
// (Dangerous or above); everyday copies within the home and Music's
// playlists stay Safe or Caution.
func TestHoles16AppCopiesOutOfEveryWalk(t *testing.T) {
	var cases struct{ Out, Lookalikes []red14Argv }
	readJSON(t, &cases, "red15b", "holes16-copyout.json")
	r := newSecretRig(t)
	for _, tc := range cases.Out {
		t.Run(tc.Name, func(t *testing.T) {
			switch rep := submitCopy(t, r, tc); rep.Risk {
			case "dangerous", "destructive", "blocked":
			default:
				t.Errorf("HOLE: rated %s: the app carries the roots' hidden keys out of every walk unasked", rep.Risk)
			}
		})
	}
	for _, tc := range cases.Lookalikes {
		t.Run(tc.Name, func(t *testing.T) {
			if rep := submitCopy(t, r, tc); rep.Risk != "safe" && rep.Risk != "caution" {
				t.Errorf("rated %s", rep.Risk)
			}
		})
	}
}
