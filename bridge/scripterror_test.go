package bridge_test

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/bridge"
)

// Every one of seed 000's ten kinds is recognised by its error number alone
// and by its message alone, and the overlapping cases go to the specific
// kind.
func TestClassify(t *testing.T) {
	tests := []struct {
		name    string
		number  int
		message string
		want    bridge.ErrorKind
	}{
		{"app not running by number", -600, "", bridge.KindAppNotRunning},
		{"app not running, -609", -609, "", bridge.KindAppNotRunning},
		{"app not running by message", 0, "Mail got an error: Application isn’t running.", bridge.KindAppNotRunning},
		{"automation by number", -1743, "", bridge.KindAutomationPermission},
		{"automation by message", 0, "Not authorized to send Apple events to Finder.", bridge.KindAutomationPermission},
		{"file access by number", -5000, "", bridge.KindFileAccess},
		{"file access, privilege violation", -10004, "", bridge.KindFileAccess},
		{"file access by message", 0, "Operation not permitted", bridge.KindFileAccess},
		{"accessibility by number", -25211, "", bridge.KindAccessibility},
		{"accessibility by message", -1719, "System Events got an error: osascript is not allowed assistive access.", bridge.KindAccessibility},
		{"syntax by number", -2741, "", bridge.KindSyntax},
		{"syntax, -2740", -2740, "", bridge.KindSyntax},
		{"syntax by message", 0, "Expected “,” but found end of line.", bridge.KindSyntax},
		{"not understood by number", -1708, "", bridge.KindNotUnderstood},
		{"not understood by message", 0, "Finder got an error: Can’t continue frobnicate. The app doesn't understand the “frobnicate” message.", bridge.KindNotUnderstood},
		{"can't get by number", -1728, "", bridge.KindCantGet},
		{"invalid index is can't get", -1719, "Invalid index.", bridge.KindCantGet},
		{"can't get by message, typographic apostrophe", 0, "Can’t get window 3 of application \"Safari\".", bridge.KindCantGet},
		{"timeout by number", -1712, "", bridge.KindTimeout},
		{"timeout by message", 0, "AppleEvent timed out.", bridge.KindTimeout},
		{"user cancelled by number", -128, "", bridge.KindUserCancelled},
		{"user cancelled by message", 0, "User canceled.", bridge.KindUserCancelled},
		{"missing value by message", -1700, "Can’t make missing value into type text.", bridge.KindMissingValue},
		{"can't get of missing value is missing value", -1728, "Can’t get name of missing value.", bridge.KindMissingValue},
		{"accessibility wins over can't get", -1719, "Can't get window 1: not allowed assistive access.", bridge.KindAccessibility},
		{"other", -2753, "The variable x is not defined.", bridge.KindOther},
		{"nothing known", 0, "", bridge.KindOther},
	}
	seen := map[bridge.ErrorKind]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := bridge.Classify(tt.number, tt.message); got != tt.want {
				t.Fatalf("Classify(%d, %q) = %v, want %v", tt.number, tt.message, got, tt.want)
			}
		})
		seen[tt.want] = true
	}
	for k := bridge.KindAppNotRunning; k <= bridge.KindMissingValue; k++ {
		if !seen[k] {
			t.Errorf("no case for %v", k)
		}
	}
}

// Each kind's message says how to fix it, and the permission kinds name the
// System Settings pane to open.
func TestScriptErrorText(t *testing.T) {
	tests := []struct {
		err  bridge.ScriptError
		want []string
	}{
		{bridge.ScriptError{Number: -600, Message: "Application isn't running.", App: "Mail"},
			[]string{"Application isn't running. (error -600)", "Mail is not running", "activate"}},
		{bridge.ScriptError{Number: -1743, Message: "Not authorized to send Apple events to Mail.", App: "Mail"},
			[]string{"(error -1743)", "Privacy & Security → Automation", "turn on Mail", "Privacy_Automation"}},
		{bridge.ScriptError{Number: -5000, Message: "Access not allowed."},
			[]string{"Full Disk Access", "Privacy_AllFiles"}},
		{bridge.ScriptError{Number: -25211, Message: "not allowed assistive access."},
			[]string{"Privacy & Security → Accessibility", "Privacy_Accessibility"}},
		{bridge.ScriptError{Number: -2741, Message: "Expected end of line but found identifier.", Start: 10, Length: 5, Compile: true},
			[]string{"at characters 11-15", "does not compile", "end tell"}},
		{bridge.ScriptError{Number: -1708, Message: "Safari got an error: doesn't understand the frob message.", App: "Safari"},
			[]string{"Safari does not know that command", "Open Dictionary"}},
		{bridge.ScriptError{Number: -1728, Message: "Can't get window 9."}, []string{"does not exist or is named differently"}},
		{bridge.ScriptError{Number: -1712, Message: "AppleEvent timed out.", App: "Finder"}, []string{"Finder did not answer in time", "with timeout"}},
		{bridge.ScriptError{Number: -128, Message: "User canceled."}, []string{"was cancelled", "nothing needs fixing"}},
		{bridge.ScriptError{Number: -1700, Message: "Can't make missing value into type text."}, []string{"missing value (empty)"}},
		{bridge.ScriptError{Number: -2753, Message: "The variable x is not defined."}, []string{"The variable x is not defined. (error -2753)"}},
		{bridge.ScriptError{Number: -1, Brief: "brief only"}, []string{"brief only (error -1)"}},
	}
	for _, tt := range tests {
		got := tt.err.Error()
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%+v: %q lacks %q", tt.err, got, w)
			}
		}
	}
	for k := bridge.KindAppNotRunning; k <= bridge.KindMissingValue; k++ {
		if k.Fix("") == "" || strings.Contains(k.String(), "ErrorKind") {
			t.Errorf("%d: fix %q, name %q", k, k.Fix(""), k)
		}
	}
	if bridge.KindOther.Fix("X") != "" {
		t.Error("KindOther has a fix")
	}
}

// osascript's error line becomes a *ScriptError.
func TestParseOSAError(t *testing.T) {
	tests := []struct {
		stderr      string
		wantNum     int
		wantMsg     string
		wantCompile bool
	}{
		{"-: execution error: Error: ReferenceError: Can't find variable: x (-2700)\n", -2700, "Error: ReferenceError: Can't find variable: x", false},
		{"warning first\n-:12:15: script error: Expected end of line. (-2741)\n", -2741, "Expected end of line.", true},
		{"osascript: no such file\n", 0, "", false},
	}
	for _, tt := range tests {
		se := bridge.ParseOSAError(tt.stderr)
		if tt.wantNum == 0 {
			if se != nil {
				t.Errorf("%q: %+v, want none", tt.stderr, se)
			}
			continue
		}
		if se == nil || se.Number != tt.wantNum || se.Message != tt.wantMsg || se.Compile != tt.wantCompile {
			t.Errorf("%q: %+v", tt.stderr, se)
		}
	}
}
