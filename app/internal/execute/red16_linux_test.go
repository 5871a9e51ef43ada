//go:build linux

package execute_test

import "testing"

// A sixteenth red team's attacks on what lands after an unasked action,
// assuming its verdict was wrong. Each payload is in
// testdata/review/red16.json and runs unasked through the real sandbox in a
// home made in a temporary folder (newRedRig); nobody keeps what is held.

// TestRed16DoubleClickRunners: a file that runs code when the person
// opens it, with no executable bit and no question first: a Terminal
// settings file (.terminal: Terminal runs its CommandString in a new
// window), a Finder location (.fileloc, .webloc, .inetloc: the open goes
// on to the file or URL it names, an app, a script, a man-page URL that
// runs a command), a jar (Jar Launcher runs it), and, made with their
// executable bits where the sandbox cannot refuse that (macOS), a
// .command or .tool (Terminal runs it) and a bundle's program (an app's;
// its extensions' and Quick Look plug-ins', which run when the Finder
// shows a file). Left in ~/Desktop or ~/Downloads under a name like
// "Invoice", it runs the agent's code at the person's next double-click.
// Each is held.
func TestRed16DoubleClickRunners(t *testing.T) {
	name := "files a double-click runs"
	plantsHeld(t, red4PlantRig(t), name, payloadIn(t, "red16.json", name))
}

// TestRed16DoubleClickRunnersLookalikes: files and folders named like
// those above that open as documents land unasked, without the person;
// so do a bundle's files other than its programs, and a project's folders
// named Contents or MacOS.
func TestRed16DoubleClickRunnersLookalikes(t *testing.T) {
	r := red4PlantRig(t)
	name := "look-alikes of files a double-click runs"
	r.lookalikesLand(t, name, payloadIn(t, "red16.json", name))
}
