//go:build linux

package gate_test

import "testing"

// TestRed18ScriptTellsPlantedAppByAnotherForm: holes16 resolved the
// applications a script tells by a literal (tell application "X",
// Application('X')) and refused one no installed application answers
// to; the names were read by a pattern. A script that names the same
// planted app in a form the pattern does not read — in parentheses, by
// «class capp», joined, in a JXA variable or template, after a comment,
// through Application taken under another name or by apply, through
// NSWorkspace's launchApplication, or in the other language's script
// run from inside (NSAppleScript's source in JXA, run script … in
// "JavaScript") — was rated Safe or Caution and
// started; Launch Services would have started the planted bundle
// outside every sandbox. Each is now not started. (osascript run as an
// unasked command sends no Apple event: Seatbelt refuses them without the
// UI grant.)
func TestRed18ScriptTellsPlantedAppByAnotherForm(t *testing.T) { plantedAppsRefused(t, "red18") }

// TestRed18ScriptTellsInstalledAppByAnotherForm: Music in parentheses,
// Music and Safari held in JXA variables, and a JXA name in a variable
// that is an installed app's, start unasked.
func TestRed18ScriptTellsInstalledAppByAnotherForm(t *testing.T) { installedAppsStart(t, "red18") }
