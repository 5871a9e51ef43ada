//go:build linux

package execute_test

import (
	"errors"
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
// data; TextEdit or the Finder printing a key named at run time (the app
// reads it to print it, to a network printer or a PDF printer's folder);
// System Events reading a key named at run time as a property list file;
// the Finder renaming an item of the keys' folder, which puts
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
// track, Preview opening or printing a report, TextEdit printing its
// front document, Notes given a report or text as data, System Events
// reading a setting of a property list in the notes, the Finder
// renaming a note, a script renaming its own object, are started.
func TestRed18ScriptHandsAppItemLookalikes(t *testing.T) {
	for name, err := range red15bScriptsIn(t, "red18-handed.json", "lookalikes") {
		if errors.Is(err, execute.ErrShowsSecret) {
			t.Errorf("%s: not started: %v", name, err)
		}
	}
}
