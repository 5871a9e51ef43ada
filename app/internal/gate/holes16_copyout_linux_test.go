//go:build linux

package gate_test

import "testing"

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
	copiesHeld(t, r, cases.Out)
	copiesRun(t, r, cases.Lookalikes)
}
