//go:build linux

package gate_test

import "testing"

// TestHoles16SecretsUnderEmacsNames: the files Emacs keeps beside a file
// being edited hold its text: the auto-save file #.env# (written every
// few hundred keystrokes, left behind when Emacs ends unsaved) and its
// backup .env~; its lock .#.env is a link, but a file under that name is
// the secret's twin all the same. Each was read unasked and printed
// (od -c, a shape the redactor does not know), but .env~; the test FAILS
// when a secret comes back from an unasked command
// (testdata/holes16/emacs.json).
func TestHoles16SecretsUnderEmacsNames(t *testing.T) {
	secretTwinsHidden(t, "holes16", "emacs.json")
}

// TestHoles16EmacsNamesLookalikes: Emacs's auto-save and lock names of
// files that hold no secret (code, notes, a public key), and a name that
// only starts with "#", are read unasked.
func TestHoles16EmacsNamesLookalikes(t *testing.T) {
	twinLookalikesRead(t, "holes16", "emacs-lookalikes.json")
}
