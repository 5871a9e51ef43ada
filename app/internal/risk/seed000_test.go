package risk_test

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk"
)

// TestSeed000Table checks every row of seed 000's pattern table: the
// pattern at its level (mapped as DESIGN.md says: critical → destructive,
// high → dangerous, medium → caution) with the table's warning, and the
// same words inside a string literal or a comment triggering nothing.
func TestSeed000Table(t *testing.T) {
	env := fixtureEnv(t)
	tests := []struct {
		name    string
		script  string
		want    level.Level
		warning string
	}{
		// Critical
		{"delete every file", `tell application "Finder" to delete every file of desktop`, level.Destructive, "BULK DELETE: This will delete multiple files/folders"},
		{"delete all folders", `tell application "Finder" to delete all folders of home`, level.Destructive, "BULK DELETE"},
		{"delete every item", `tell application "Finder" to delete every item of folder "x" of desktop`, level.Destructive, "BULK DELETE"},
		{"delete every document", `tell application "TextEdit" to delete every document`, level.Destructive, "BULK DELETE"},
		{"empty trash", `tell application "Finder" to empty trash`, level.Destructive, "EMPTY TRASH: Permanently deletes all items in Trash"},
		{"empty the trash", `tell application "Finder" to empty the trash`, level.Destructive, "EMPTY TRASH"},
		{"delete every event", `tell application "Calendar" to delete every event of calendar "Work"`, level.Destructive, "BULK DELETE CALENDAR: Deletes multiple calendar events/reminders"},
		{"delete all reminders", `tell application "Reminders" to delete all reminders`, level.Destructive, "BULK DELETE CALENDAR"},
		{"delete every calendar", `tell application "Calendar" to delete every calendar`, level.Destructive, "BULK DELETE CALENDAR"},
		{"delete every note", `tell application "Notes" to delete every note`, level.Destructive, "BULK DELETE: Deletes multiple notes or contacts"},
		{"delete every contact", `tell application "Contacts" to delete every person`, level.Destructive, "BULK DELETE: Deletes multiple notes or contacts"},
		{"send every message", `tell application "Mail" to send every outgoing message`, level.Destructive, "BULK EMAIL: Will send multiple emails"},
		{"send all mail", `tell application "Mail" to send all mail`, level.Destructive, "BULK EMAIL"},
		{"shell rm", `do shell script "rm -rf ~/Documents/old"`, level.Destructive, "rm -rf"},
		{"shell sudo", `do shell script "sudo purge"`, level.Destructive, "DANGEROUS SHELL COMMAND: Contains destructive shell commands (sudo runs as root)"},
		// (On the home itself they are blocked: it holds credential stores,
		// which seed 003 keeps every action away from.)
		{"shell chmod", `do shell script "chmod -R 777 ~/Documents"`, level.Destructive, "recursively changes"},
		{"shell chown", `do shell script "chown -R nobody /Users/me/Documents"`, level.Destructive, "recursively changes"},
		{"shell mkfs", `do shell script "mkfs.apfs /dev/disk4"`, level.Destructive, "formats a disk"},
		{"shell dd", `do shell script "dd if=/dev/zero of=/dev/disk2"`, level.Destructive, "overwrites a file or disk"},
		{"shell format", `do shell script "diskutil eraseDisk APFS X disk4"`, level.Destructive, "erases or repartitions"},
		// High
		{"delete file", `tell application "Finder" to delete file "a.txt" of desktop`, level.Dangerous, "DELETE: Will delete a file or folder (goes to Trash)"},
		{"delete folder", `tell application "Finder" to delete folder "old" of desktop`, level.Dangerous, "DELETE: Will delete a file or folder"},
		{"move every file", `tell application "Finder" to move every file of desktop to folder "x" of home`, level.Dangerous, "BULK MOVE: Will move multiple files/folders"},
		{"shutdown", `tell application "System Events" to shut down`, level.Dangerous, "SYSTEM POWER"},
		{"restart", `tell application "Finder" to restart`, level.Dangerous, "SYSTEM POWER"},
		{"sleep", `tell application "System Events" to sleep`, level.Dangerous, "SYSTEM POWER"},
		{"do shell script", `do shell script "ls ~"`, level.Dangerous, "SHELL COMMAND: Review carefully for dangerous operations"},
		{"quit every application", `tell application "System Events" to quit every application`, level.Dangerous, "QUIT ALL APPS: Will quit multiple applications"},
		// Medium
		{"duplicate every file", `tell application "Finder" to duplicate every file of desktop`, level.Caution, "BULK DUPLICATE: May use significant disk space"},
		{"keystroke", `tell application "System Events" to keystroke "a"`, level.Caution, "KEYSTROKE: Simulates keyboard input"},
		{"key code", `tell application "System Events" to key code 36`, level.Caution, "KEY CODE: Simulates key presses"},
		{"send outgoing message", "tell application \"Mail\"\n\tset m to make new outgoing message with properties {subject:\"Hi\"}\n\tsend m\nend tell", level.Dangerous, "SEND"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := risk.AppleScript(tt.script, env)
			if v.Level != tt.want {
				t.Errorf("level = %v, want %v\nreasons: %s", v.Level, tt.want, strings.Join(v.Texts(), " | "))
			}
			if !strings.Contains(strings.Join(v.Texts(), "\n"), tt.warning) {
				t.Errorf("no warning containing %q in %q", tt.warning, v.Texts())
			}
			for _, r := range v.Reasons {
				if r.Span.End > len(tt.script) || r.Span.Start > r.Span.End {
					t.Errorf("reason %q has span %v outside the input", r.Text, r.Span)
				}
			}
		})
	}
}

// TestSeed000NotInStringsOrComments: the table's words inside string
// literals and comments are text, not verbs.
func TestSeed000NotInStringsOrComments(t *testing.T) {
	env := fixtureEnv(t)
	for _, script := range []string{
		`display dialog "This will delete every file and empty trash, then shut down"`,
		`display notification "restart not required" with title "CI"`,
		"-- delete every file\n-- do shell script \"rm -rf ~\"\nbeep",
		"# empty trash\nbeep",
		"(* delete every file (* nested: empty trash *) still a comment *)\nbeep",
		`set msg to "keystroke and key code and send every message"`,
		`log "sudo rm -rf /"`,
	} {
		if v := risk.AppleScript(script, env); v.Level > level.Safe {
			t.Errorf("%q: got %v (%s); want safe", script, v.Level, strings.Join(v.Texts(), " | "))
		}
	}
}
