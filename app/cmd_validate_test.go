package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/mcp"
	"github.com/airlockhq/airlock/bridge"
)

// tempUser points HOME and the data directory into a temporary folder.
func tempUser(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("AIRLOCK_DATA_DIR", filepath.Join(home, "data"))
	return home
}

func TestValidateCommand(t *testing.T) {
	tempUser(t)
	const bad = "tell application \"Finder\"\n  empty trash\nend tel"
	compiled := ""
	old := compileAppleScript
	t.Cleanup(func() { compileAppleScript = old })
	compileAppleScript = func(_ context.Context, src string) error {
		compiled = src
		if src == bad {
			return &bridge.ScriptError{Number: -2741, Message: "Expected \"tell\" but found identifier.", Start: 42, Length: 3, Compile: true}
		}
		return nil
	}

	code, out, errOut := runCLI(t, `tell application "Finder" to empty trash`, "validate", "-")
	if code != 0 || !strings.Contains(out, "valid: the script compiles (it was not run)") || !strings.Contains(out, "risk if run: destructive") || compiled != `tell application "Finder" to empty trash` {
		t.Errorf("a valid script: exit %d\n%s%s", code, out, errOut)
	}

	f := filepath.Join(t.TempDir(), "bad.applescript")
	if err := os.WriteFile(f, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI(t, "", "validate", f)
	if code != 1 || !strings.Contains(out, `invalid: Expected "tell" but found identifier. (error -2741) at characters 43-45`) ||
		!strings.Contains(out, "every `tell` has its `end tell`") {
		t.Errorf("an invalid script: exit %d\n%s", code, out)
	}

	code, out, _ = runCLI(t, bad, "validate", "--json", "-")
	var v mcp.Validation
	if err := json.Unmarshal([]byte(out), &v); err != nil || code != 1 || v.Valid || len(v.Errors) != 1 || v.Risk == "" {
		t.Errorf("--json: exit %d, %v\n%s", code, err, out)
	}

	for _, args := range [][]string{{"validate"}, {"validate", "a", "b"}, {"validate", "--fast", "-"}} {
		if code, _, errOut := runCLI(t, "", args...); code != 2 || !strings.Contains(errOut, "usage: airlock validate") {
			t.Errorf("%q: exit %d, %s", args, code, errOut)
		}
	}
}

// TestValidateNeedsMacOS runs the real compiler off macOS: it says it needs
// macOS and fails, rather than calling the script valid.
func TestValidateNeedsMacOS(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("macOS compiles AppleScript")
	}
	tempUser(t)
	code, out, errOut := runCLI(t, "beep", "validate", "-")
	if code != 1 || out != "" || !strings.Contains(errOut, "needs macOS") || !strings.Contains(errOut, "airlock assess --kind applescript") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
