//go:build linux

package execute_test

import (
	"errors"
	"testing"

	"github.com/airlockhq/airlock/app/internal/execute"
)

// TestHoles16ScriptHandsAppComputedPath: more of the class
// TestRed15bScriptComputesHiddenKeysName holds (testdata/review/
// holes16-handed.json), run unasked in red15b's home: a hidden key's name
// computed by a join or a reversal and handed to Preview or TextEdit,
// which the analyzer folds to the key's path, and paths built from argv,
// a date or the Finder's listing, which nothing can check. None starts.
func TestHoles16ScriptHandsAppComputedPath(t *testing.T) {
	for name, err := range red15bScriptsIn(t, "holes16-handed.json", "hidden") {
		if !errors.Is(err, execute.ErrShowsSecret) {
			t.Errorf("HOLE: %s: started unasked (%v)", name, err)
		}
	}
}

// TestHoles16ScriptHandsAppLookalikes: a literal document opened in
// TextEdit, a plain document or the certificate beside the keys whose
// name the script joins, and a script that hands no path, are started.
func TestHoles16ScriptHandsAppLookalikes(t *testing.T) {
	for name, err := range red15bScriptsIn(t, "holes16-handed.json", "lookalikes") {
		if errors.Is(err, execute.ErrShowsSecret) {
			t.Errorf("%s: not started: %v", name, err)
		}
	}
}

// TestHoles16ScriptHandsAppFinderItemInVariable: TextEdit's open given a
// variable that holds a Finder item of the key's folder (files[0]) was
// taken by the JXA analyzer for the application's own object, so no
// Launch effect said a file was handed over, and handedHidden started it.
// The analyzer now follows the variable to the folder its items lie in
// (jxa's heldItems: a Launch effect on "~/Downloads/…", Caution as
// before), and handedHidden refuses an item of a folder holding a hidden
// file. Rating such an open Computed (Dangerous) would be the short way,
// and too strict: a loop opening every note of Documents/Notes in
// TextEdit (r14-bn-jxa-open-loop-docs) would ask; it is in the
// look-alikes, and started.
func TestHoles16ScriptHandsAppFinderItemInVariable(t *testing.T) {
	for name, err := range red15bScriptsIn(t, "holes16-handed.json", "open") {
		if !errors.Is(err, execute.ErrShowsSecret) {
			t.Errorf("HOLE: %s: started unasked (%v)", name, err)
		}
	}
}
