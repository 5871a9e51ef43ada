//go:build linux

package gate_test

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/execute"
)

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
func TestRed18ScriptTellsPlantedAppByAnotherForm(t *testing.T) {
	var cases struct{ Plant, Launch, Lookalikes []red14Argv }
	readJSON(t, &cases, "red18", "apps.json")
	g, d, home := newAppsRig(t)
	for _, tc := range cases.Plant {
		if rep, err := submitApp(t, g, home, tc); err != nil || rep.Status != "ok" {
			t.Fatalf("%s: %s, %v", tc.Name, rep.Status, err)
		}
	}
	for _, tc := range cases.Launch {
		t.Run(tc.Name, func(t *testing.T) {
			rep, err := submitApp(t, g, home, tc)
			d.mu.Lock()
			started := len(d.started) > 0
			d.started = nil
			d.mu.Unlock()
			if rep.Status == "pending" || rep.Status == "asked" {
				return // the person is asked: not unasked
			}
			if started || err == nil || !strings.Contains(err.Error(), execute.ErrAppNotInstalled.Error()) {
				t.Errorf("HOLE: started unasked (%s, %v)", rep.Status, err)
			}
		})
	}
}

// TestRed18ScriptTellsInstalledAppByAnotherForm: Music in parentheses,
// Music and Safari held in JXA variables, and a JXA name in a variable
// that is an installed app's, start unasked.
func TestRed18ScriptTellsInstalledAppByAnotherForm(t *testing.T) {
	var cases struct{ Plant, Launch, Lookalikes []red14Argv }
	readJSON(t, &cases, "red18", "apps.json")
	g, d, home := newAppsRig(t)
	for _, tc := range cases.Lookalikes {
		t.Run(tc.Name, func(t *testing.T) {
			_, err := submitApp(t, g, home, tc)
			d.mu.Lock()
			started := len(d.started) > 0
			d.started = nil
			d.mu.Unlock()
			if !started || err != nil {
				t.Errorf("not started: %v", err)
			}
		})
	}
}
