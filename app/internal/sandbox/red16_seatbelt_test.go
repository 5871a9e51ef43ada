package sandbox_test

import (
	"testing"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// TestRed16SeatbeltDoubleClickRunners: on a Mac an unasked action writes
// into the roots directly, and Seatbelt lets it create a new file with its
// executable bits set. A file the person's double-click runs — a Terminal
// settings file, a .command or .tool, a Finder, web or internet location,
// a jar, a bundle's program (an app's, an extension's, a Quick Look
// plug-in's) — is refused, in any case of its name (a Mac's file system
// folds case); documents of like names are not.
func TestRed16SeatbeltDoubleClickRunners(t *testing.T) {
	res := plantingRules(t, mustSeatbelt(t, macProfile(t, sandbox.KindCommand, sandbox.Grant{})))
	const d = "/Users/ann/Documents"
	for _, path := range []string{d + "/Open me.terminal", d + "/Invoice.fileloc", d + "/Manual.webloc",
		d + "/Server.inetloc", d + "/Share.afploc", d + "/x.FtpLoc", d + "/viewer.jar", d + "/Read me.command", d + "/setup.tool",
		d + "/Reader.app/Contents/MacOS/Reader", d + "/Reader.app/Contents/MacOS", d + "/Reader.app/Contents/PlugIns/P.appex/Contents/MacOS/P", d + "/R.app/Contents/Library/QuickLook/R.qlgenerator/Contents/MacOS/R", d + "/x/Run.TERMINAL",
		d + "/Read me.Command", "/Users/ann/Downloads/Invoice.command"} {
		if !anyMatch(res, path) {
			t.Errorf("%s is not refused: opening it runs code", path)
		}
	}
	for _, path := range []string{d + "/terminal notes.txt", d + "/commands.md", d + "/bookmarks.html",
		d + "/webloc/readme.txt", d + "/jar/notes.txt", d + "/Reader.app/Contents/Info.plist",
		d + "/Reader.app/Contents/Resources/icon.icns", d + "/docs/Contents/notes.md", d + "/docs/MacOS/x", d + "/site.webloc.txt", d + "/tool/x.md"} {
		if anyMatch(res, path) {
			t.Errorf("%s is refused: opening it runs nothing", path)
		}
	}
}
