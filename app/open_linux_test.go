package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenHistoryFallsBack checks the opener "Open history" uses on Linux:
// without xdg-open it falls back to `gio open`, and with neither it says
// that nothing could open the report, where it is, and what else shows it.
func TestOpenHistoryFallsBack(t *testing.T) {
	report := filepath.Join(t.TempDir(), "history.html")
	bin := t.TempDir()
	t.Setenv("PATH", bin)
	err := openInBrowser(report)
	if err == nil {
		t.Fatal("opened the report with no opener installed")
	}
	for _, want := range []string{"could not open the history report", "xdg-open or gio", report, "airlock history"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not say %q", err, want)
		}
	}

	// A stand-in gio that records how it was called.
	called := filepath.Join(t.TempDir(), "called")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > '" + called + "'\n"
	if err := os.WriteFile(filepath.Join(bin, "gio"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := openInBrowser(report); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(called)
	if err != nil {
		t.Fatal(err)
	}
	if want := "open\n--\n" + report + "\n"; string(got) != want {
		t.Errorf("gio was called with %q, want %q", got, want)
	}
}
