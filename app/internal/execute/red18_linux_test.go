//go:build linux

package execute_test

import (
	"errors"
	"os"
	"testing"

	"github.com/airlockhq/airlock/app/internal/execute"
)

// TestRed18ScriptHandsAppItemToCopyOrAttach: holes16 refused an unasked
// script whose app is handed a hidden file to open, by the Launch effects
// the analyzer folds. An app handed a file to copy, move, attach or send
// reads it outside every sandbox as well, and those items were not
// checked (testdata/review/red18-handed.json, run unasked in red15b's
// home; each rated Caution, so Level 1 runs it): Mail attaching a key by
// a name joined at run time (Mail keeps the draft, and syncs it to the
// mail server),
// or a path from the clipboard; the Finder copying the keys' folder into
// the roots, where the copy is no longer hidden, or an item of it by
// index where it lies; the Finder moving a key named at run time into
// the notes; Notes given a key named at run time as a new attachment's
// data; the Finder renaming an item of the keys' folder, which puts
// it out of hiding. None starts.
func TestRed18ScriptHandsAppItemToCopyOrAttach(t *testing.T) {
	for name, err := range red15bScriptsIn(t, "red18-handed.json", "copy") {
		if !errors.Is(err, execute.ErrShowsSecret) {
			t.Errorf("HOLE: %s: started unasked (%v)", name, err)
		}
	}
}

// TestRed18ScriptHandsAppItemLookalikes: the Finder copying a note or the
// notes folder to the Desktop, Mail attaching a report, Music copying a
// track, Preview opening a report, the Finder renaming a note, a script
// renaming its own object, are started.
func TestRed18ScriptHandsAppItemLookalikes(t *testing.T) {
	for name, err := range red15bScriptsIn(t, "red18-handed.json", "lookalikes") {
		if errors.Is(err, execute.ErrShowsSecret) {
			t.Errorf("%s: not started: %v", name, err)
		}
	}
}

// TestRed18ScriptHandsAppFileToPrint: open (skipped unless
// AIRLOCK_RED_OPEN=1). TextEdit's and the Finder's print of a file named
// at run time (a hidden key's name joined) is rated Safe, and the app
// reads the file outside every sandbox to print it (to a network printer,
// or a PDF printer's folder). The analyzer has no print command in its
// table, so nothing tells the executor what is printed. The fix: a print
// row (the item given is handed, as a duplicate's is: objPaths to
// rate.Env.Handed, "" for a file named at run time), which is a rule
// table change left to the analyzer's owners this round.
func TestRed18ScriptHandsAppFileToPrint(t *testing.T) {
	if os.Getenv("AIRLOCK_RED_OPEN") == "" {
		t.Skip("open: an app's print of a file named at run time is not checked (AIRLOCK_RED_OPEN=1 runs it)")
	}
	for name, err := range red15bScriptsIn(t, "red18-handed.json", "print") {
		if !errors.Is(err, execute.ErrShowsSecret) {
			t.Errorf("HOLE: %s: started unasked (%v)", name, err)
		}
	}
}
