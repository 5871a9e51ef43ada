package sanitize

import (
	"strings"
	"unicode/utf8"
)

// Files that run code when the person opens one (a double-click in the
// Finder), with no executable bit and no question first: Terminal runs a
// settings file's CommandString in a new window; a Finder, web or internet
// location opens the file or URL it names (an app, a script, a man-page
// URL that runs a command); Jar Launcher runs a jar. A .command, a .tool
// and a bundle's program (an app's, its extensions' and Quick Look
// plug-ins', in Contents/MacOS of each) need executable bits, which
// Seatbelt lets a new file be created with (seatbelt_unasked.go). Left in the Desktop or
// the Downloads under a name like "Invoice", such a file runs an unasked
// action's code at the person's next double-click (a sixteenth red team's
// find, TestRed16DoubleClickRunners).
//
// They are not the persistence table's: nothing runs them by itself, and
// saving one the person asked for (a download, a copy) is no more than the
// write it is, so the analyzer's ratings do not change. What runs unasked
// may not leave one: the review of its changes holds it for the person
// (execute.plants), and Seatbelt refuses the write on a Mac.

// openRunners are the entries: "*.ext" for a file of that extension, or
// "*/A/B" for what lies at A/B in any folder.
var openRunners = []entry{
	{"*.terminal", "a Terminal settings file, whose command runs when it is opened"},
	{"*.command", "a script Terminal runs when it is opened"},
	{"*.tool", "a script Terminal runs when it is opened"},
	{"*.fileloc", "a Finder location, which opens the file it names (an app, a script) when it is opened"},
	{"*.webloc", "a web location, which opens the URL it names (an app's scheme, a file) when it is opened"},
	{"*.inetloc", "an internet location, which opens the URL it names (an app's scheme, a file) when it is opened"},
	{"*.afploc", "a server location, which connects to the server it names and opens what it names there when it is opened"},
	{"*.ftploc", "a server location, which opens the URL it names when it is opened"},
	{"*.mailloc", "a mail location, which opens the URL it names when it is opened"},
	{"*.newsloc", "a news location, which opens the URL it names when it is opened"},
	{"*.jar", "a Java archive, which Jar Launcher runs when it is opened"},
	{"*/Contents/MacOS", "a bundle's programs: an app's, run when it is opened, and its extensions' and Quick Look plug-ins', run when the Finder shows a file"},
}

// OpenRunnerPlaces returns the places of files that run code when opened,
// wherever they lie (Under ""), as PersistencePlaces does for the
// persistence table, for an OS sandbox that refuses writes there by
// pattern.
func OpenRunnerPlaces() []PersistencePlace {
	out := make([]PersistencePlace, 0, len(openRunners))
	for _, e := range openRunners {
		out = append(out, PersistencePlace{Elems: elems(e.path), Entry: "**/" + e.path, What: e.what})
	}
	return out
}

// RunsWhenOpened says what the file or folder at abs (an absolute clean
// path) is when it is, or lies in, a file that runs code when opened: its
// name's extension is one of openRunners' (in any case: a Mac's file
// system folds it), or it lies in a bundle's Contents/MacOS. It does no
// I/O.
func RunsWhenOpened(abs string) (string, bool) {
	els := elems(abs)
	for i, el := range els {
		for _, e := range openRunners {
			pat := elems(e.path)
			if !hasFoldSuffix(el, pat[0][1:]) || i+len(pat) > len(els) {
				continue
			}
			match := true
			for j, p := range pat[1:] {
				match = match && strings.EqualFold(els[i+1+j], p)
			}
			if match {
				return e.what, true
			}
		}
	}
	return "", false
}

// hasFoldSuffix reports whether s ends in suffix, case folded as
// strings.EqualFold folds (ſ as s, the Kelvin sign as k).
func hasFoldSuffix(s, suffix string) bool {
	rs, n := []rune(s), utf8.RuneCountInString(suffix)
	return len(rs) >= n && strings.EqualFold(string(rs[len(rs)-n:]), suffix)
}
