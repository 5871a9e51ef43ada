package sandbox_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// TestRed14SeatbeltEditorHistory: editors keep a copy of every file the
// person saves, under a name that says nothing of it (VS Code's and its
// forks' local history: User/History/<hash>/<4 letters><extension>,
// .env and keys included; Sublime Text's session holds unsaved text).
// The home is readable to an unasked action on macOS but for what the
// profile hides: those copies were read unasked and printed. Each is
// hidden (reads and writes), and the editors' own settings beside them
// are not.
func TestRed14SeatbeltEditorHistory(t *testing.T) {
	p := macProfile(t, sandbox.KindCommand, sandbox.Grant{})
	hidden := func(path string) bool {
		return slices.ContainsFunc(p.Hide, func(h string) bool { return path == h || strings.HasPrefix(path, h+"/") })
	}
	const as = "/Users/ann/Library/Application Support/"
	for _, path := range []string{as + "Code/User/History/-5e1b2c3d/Zx8q", as + "Code - Insiders/User/History/1a/AbCd.env",
		as + "Cursor/User/History/7f3a/Qw3e.pem", as + "VSCodium/User/History/2b/x", as + "Windsurf/User/History/3c/y",
		as + "Sublime Text/Local/Session.sublime_session"} {
		if !hidden(path) {
			t.Errorf("%s is not hidden: an editor's copy of a file the person saved", path)
		}
	}
	for _, path := range []string{as + "Code/User/settings.json", as + "Sublime Text/Packages/User/Preferences.sublime-settings",
		"/Users/ann/Documents/proj/History/notes.md"} {
		if hidden(path) {
			t.Errorf("%s is hidden: it is no copy of a saved file", path)
		}
	}
}
