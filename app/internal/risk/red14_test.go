package risk_test

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/risk"
)

// TestRed14WhatAppsDoForTheScript: what an application does for a script
// happens outside every sandbox, and each of these was rated below what
// it does (cases in testdata/red14-outside.jsonl, with look-alikes that
// must stay below Dangerous):
//   - save: JXA's save({in: …}), export({to: …}) and close or quit
//     saving: the app writes a document where it is told (a shell
//     start-up file, LaunchAgents) or over the file it came from, with
//     nothing in the Trash; AppleScript's save and export were rated so,
//     JXA's were caution or safe;
//   - open: a secret's path joined from strings ("/Users/me/." & "netrc")
//     opened in TextEdit, whose text the script then asks for: the launch
//     folded the path, the read check saw only its pieces;
//   - items: the Finder copying every file, the items, the entire
//     contents or file 1 of a credential store out of it (AppleScript),
//     and JXA's entireContents: only items named by a literal were
//     checked;
//   - app: an application in the home named through /Applications/..,
//     an HFS path's :: or %2E%2E in a file: URL counted as installed, and
//     open -a of one in the home with nothing to open was caution;
//   - name: a Finder or System Events item named through a variable or
//     strings joined (set n to ".netrc" … file n of home) was no path,
//     so a secret it copied or renamed was not checked;
//   - alias: a Finder alias file made to a secret (under any name) is
//     followed to it by the app given it: checked as a copy is;
//   - plant: the Finder or TextEdit writing for the script into places
//     the persistence table did not list (Gradle's init scripts, a
//     project's pnpm-workspace.yaml; TestRed14PlantsByOtherNames in
//     execute has the rest);
//   - data: JXA's make({…, withData: Path(…)}) (a Notes attachment): the
//     app reads the file, as AppleScript's make … with data is checked;
//   - clip: JXA's NSPasteboard writes were safe (a value class, its
//     methods unrated), AppleScriptObjC's the clipboard they replace;
//   - base: an item of the startup disk named by the disk's name, of the
//     home held in a variable, or some items of the home not named by a
//     literal (every file of home, a whose clause), whose hidden ones
//     are secrets, were no path the checks knew;
//   - to: a Finder duplicate whose source says path to home folder took
//     that to for the command's, so the destination (LaunchAgents) and
//     the source were never checked; Mail's file name: built the same
//     way was not folded;
//   - jxa: System Events' diskItems given an HFS path or one under a
//     folder computed at run time, and for (x of items) … open(x), were
//     no items the checks knew;
//   - argv: an app's open given item 1 of argv (argv[0]), the agent's
//     text, which the app takes as a path: safe or Caution, the file
//     never checked;
//   - var: a variable or a repeat variable holding items of a credential
//     store (every file of folder ".ssh" of home), copied or renamed.
func TestRed14WhatAppsDoForTheScript(t *testing.T) {
	env := fixtureEnv(t)
	for _, c := range loadCases(t, "red14-outside.jsonl") {
		v := risk.Assess(caseKind(t, c), c.Input, env)
		if v.Level < c.Min || v.Level > c.Max {
			t.Errorf("%s: got %v, want %v..%v (%s)\n    input: %q\n    reasons: %s",
				c.ID, v.Level, c.Min, c.Max, c.Why, c.Input, strings.Join(v.Texts(), " | "))
		}
	}
}
