package applescript

import (
	"context"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
)

// TestCalibration checks the levels DESIGN.md ("Risk levels") sets for
// AppleScript, each by scripts that try to slip under it, and the rule ids
// the facade combines: every secret read is secret.*, every way out
// egress.*.
func TestCalibration(t *testing.T) {
	tests := []rated{
		// do shell script: never below dangerous; seed 000's programs destructive.
		{"shell ls", `do shell script "ls"`, level.Dangerous, level.Dangerous, "as.shell"},
		{"shell sudo", `do shell script "sudo -n true"`, level.Destructive, level.Blocked, "as.shell-destructive"},
		{"shell admin", `do shell script "ls /var/db" with administrator privileges`, level.Destructive, level.Blocked, "as.admin"},
		{"shell admin bare", `do shell script "id" administrator privileges true`, level.Destructive, level.Blocked, "as.admin"},
		{"shell rm built", "set p to \"/tmp/x\"\ndo shell script \"r\" & \"m \" & quoted form of p", level.Destructive, level.Blocked, "as.shell-destructive"},
		// File writes: dangerous.
		{"write", "set f to open for access POSIX file \"/tmp/a.txt\" with write permission\nwrite \"x\" to f\nclose access f", level.Dangerous, level.Dangerous, "as.write"},
		{"open with write permission", `open for access POSIX file "/tmp/a.txt" with write permission`, level.Dangerous, level.Dangerous, "as.write"},
		{"open to read", `set t to read (open for access POSIX file "/tmp/a.txt")`, level.Safe, level.Caution, ""},
		{"save", "tell application \"TextEdit\" to save document 1 in POSIX file \"/tmp/a.rtf\"", level.Dangerous, level.Dangerous, "as.save"},
		{"close saving", "tell application \"TextEdit\" to close every document saving yes", level.Dangerous, level.Dangerous, "as.save"},
		{"make a file with data", "tell application \"Finder\" to make new file at desktop with properties {name:\"a.txt\", contents:\"x\"}", level.Dangerous, level.Dangerous, "as.make-file"},
		{"make an empty file", "tell application \"Finder\" to make new file at desktop with properties {name:\"a.txt\"}", level.Caution, level.Caution, "as.make-file"},
		{"unsaved document", "tell application \"TextEdit\" to make new document with properties {text:\"x\"}", level.Caution, level.Caution, "as.make"},
		// Permanent removal: destructive; the Finder's Trash dangerous.
		{"system events delete", "tell application \"System Events\" to delete file \"/tmp/a.txt\"", level.Destructive, level.Blocked, "as.delete-permanent"},
		{"finder delete", "tell application \"Finder\" to delete file \"a.txt\" of desktop", level.Dangerous, level.Dangerous, "as.delete"},
		// Security, secrets, ways out.
		{"screen lock off", "tell application \"System Events\" to set require password to wake of security preferences to false", level.Destructive, level.Blocked, "as.security-setting"},
		{"automatic login", "tell application \"System Events\"\n\ttell security preferences\n\t\tset automatic login to true\n\tend tell\nend tell", level.Destructive, level.Blocked, "as.security-setting"},
		{"keychain password", "tell application \"Keychain Scripting\" to get password of first key of current keychain", level.Dangerous, level.Blocked, "secret.as.keychain"},
		{"secret file", `set k to read POSIX file "~/.ssh/id_rsa"`, level.Safe, level.Blocked, ""},
		{"send", "tell application \"Mail\" to send m", level.Dangerous, level.Dangerous, "egress.as.send"},
		{"clipboard", `set the clipboard to "x"`, level.Caution, level.Caution, "egress.as.clipboard"},
		{"open location", `open location "https://example.com/?q=1"`, level.Caution, level.Dangerous, "egress.as.open-url"},
	}
	checkRated(t, tests)
}

// rated is a script the analyzer must rate within [min, max], with rule
// among the reasons that fired ("" for no rule in particular).
type rated struct {
	name     string
	script   string
	min, max level.Level
	rule     string
}

// checkRated rates each case, in a subtest of its own, with nested shell
// scripts going to fakeShell.
func checkRated(t *testing.T, tests []rated) {
	t.Helper()
	env, end := (&Env{}).Begin(context.Background(), fakeShell{})
	defer end(&Verdict{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Rate(tt.script, env, 0)
			if v.Level < tt.min || v.Level > tt.max {
				t.Errorf("level %v, want %v..%v: %v", v.Level, tt.min, tt.max, v)
			}
			if tt.rule == "" {
				return
			}
			for _, r := range v.Reasons {
				if r.Rule == tt.rule {
					return
				}
			}
			t.Errorf("no %s among %v", tt.rule, v)
		})
	}
}

// TestRuleFamilies checks that no reason of the analyzer names a secret
// or a way out under another prefix: the facade finds them by prefix.
func TestRuleFamilies(t *testing.T) {
	env, end := (&Env{}).Begin(context.Background(), fakeShell{})
	defer end(&Verdict{})
	scripts := []string{
		"tell application \"Mail\" to send m", `set the clipboard to "x"`, `open location "https://x.example"`,
		"tell application \"Keychain Scripting\" to get password of key 1 of current keychain",
		"use framework \"Foundation\"\nset c to current application's NSHTTPCookieStorage's sharedHTTPCookieStorage()'s cookies()",
		"use framework \"AppKit\"\nset pb to current application's NSPasteboard's generalPasteboard()\npb's setString:\"x\" forType:(current application's NSPasteboardTypeString)",
		"use framework \"Foundation\"\nset r to current application's NSURLSession's sharedSession()'s dataTaskWithRequest:q",
	}
	for _, s := range scripts {
		v := Rate(s, env, 0)
		found := false
		for _, r := range v.Reasons {
			if strings.HasPrefix(r.Rule, "secret.") || strings.HasPrefix(r.Rule, "egress.") {
				found = true
			}
			for _, bad := range []string{"clipboard", "send", "url", "network", "cookie", "keychain", "secret"} {
				if strings.HasPrefix(r.Rule, "as.") && strings.Contains(r.Rule, bad) {
					t.Errorf("%q: rule %s names a secret or a way out without its prefix", s, r.Rule)
				}
			}
		}
		if !found {
			t.Errorf("%q: no secret. or egress. reason in %v", s, v)
		}
	}
}
