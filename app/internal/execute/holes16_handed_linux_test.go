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
