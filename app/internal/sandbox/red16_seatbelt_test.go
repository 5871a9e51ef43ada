package sandbox_test

import (
	"regexp"
	"slices"
	"strings"
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

// TestRed16SeatbeltLookedPlants: the places the executor found by looking
// (Grant.Plants: a file a start-up file loads, a glob of them, where a
// place of the home leads through a link) are refused to an unasked action,
// in any case of their names, with what lies under them; a glob's "*"
// stays within one element. An approved action is refused none of them.
func TestRed16SeatbeltLookedPlants(t *testing.T) {
	const d = "/Users/ann/Documents/dotfiles"
	g := sandbox.Grant{Plants: []string{d + "/zsh.d/*.zsh", d + "/aliases.sh", d + "/fish", d + "/x?/[ab].vim"}}
	text := mustSeatbelt(t, macProfile(t, sandbox.KindCommand, g))
	refused := lookedRules(t, text)
	for _, path := range []string{d + "/zsh.d/update.zsh", d + "/ZSH.D/a.Zsh", d + "/zsh.d/.zsh", d + "/aliases.sh",
		d + "/fish", d + "/fish/conf.d/evil.fish", d + "/xy/c.vim"} {
		if !refused(path) {
			t.Errorf("%s is not refused", path)
		}
	}
	for _, path := range []string{d + "/zsh.d/notes.txt", d + "/zsh.d/sub/a.zsh.txt", d + "/aliases.sh.txt", d + "/fishes", d + "/README.md",
		"/Users/ann/Documents/aliases.sh", d + "/xyz/c.vim"} {
		if refused(path) {
			t.Errorf("%s is refused", path)
		}
	}
	g.Approved = true
	if text := mustSeatbelt(t, macProfile(t, sandbox.KindCommand, g)); strings.Contains(text, "Grant.Plants") {
		t.Errorf("an approved action is refused the looked-at places:\n%s", text)
	}
}

// lookedRules returns whether the rule of Grant.Plants in a Seatbelt text
// refuses writing a path.
func lookedRules(t *testing.T, text string) func(string) bool {
	t.Helper()
	_, rule, ok := strings.Cut(text, "(the executor looked: Grant.Plants).\n")
	if !ok {
		t.Fatalf("no rule of the looked-at places:\n%s", text)
	}
	var res []*regexp.Regexp
	for _, line := range strings.Split(rule, "\n")[1:] {
		if !strings.HasPrefix(line, "  ") {
			break
		}
		// (regex #"…"), and the last one's ")" closing the rule
		src := strings.TrimPrefix(strings.TrimSpace(line), `(regex #"`)
		src = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(src, ")"), ")"), `"`)
		res = append(res, regexp.MustCompile(src))
	}
	return func(p string) bool {
		return slices.ContainsFunc(res, func(re *regexp.Regexp) bool { return re.MatchString(p) })
	}
}
