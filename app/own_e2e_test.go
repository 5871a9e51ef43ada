package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOwnFilesEndToEnd is issue 12's "own files" attacks from inside
// actions the gate would run unasked at Level 1 (caution before), against
// the real gate in a temporary home: they are refused, the settings and
// the history stay as they were, and a history moved aside anyway (here
// by the test, as if by a way the analyzers missed) is never "intact".
func TestOwnFilesEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary")
	}
	w := newWorld(t, `{"approvalTimeout": "10s"}`)
	data := filepath.Join(w.home, "airlock-data")
	w.startGate()
	settings := filepath.Join(data, "settings.json")
	before, err := os.ReadFile(settings)
	if err != nil {
		t.Fatal(err)
	}
	evil := filepath.Join(w.home, "Documents", "evil.json")
	if err := os.WriteFile(evil, []byte(`{"autonomy": 2}`), 0o600); err != nil {
		t.Fatal(err)
	}
	// Something in the history, so that moving it aside loses a record.
	if out, code := w.client("", "run", "--kind", "command", "--", "printf", "recorded"); code != 0 {
		t.Fatalf("a command: exit %d\n%s", code, out)
	}
	elsewhere := filepath.Join(w.home, "Documents", "elsewhere")
	for _, argv := range [][]string{
		{"cp", evil, settings},
		{"cp", evil, "~/.local/share/airlock/settings.json"},
		{"mv", filepath.Join(data, "history.db"), elsewhere},
		{"sh", "-c", "mv " + filepath.Join(data, "history.db") + "* " + elsewhere},
		{"kill", "-STOP", strconv.Itoa(w.gate.Process.Pid)},
		{"sh", "-c", "kill -STOP $PPID"},
	} {
		out, code := w.client("", append([]string{"run", "--kind", "command", "--"}, argv...)...)
		if code == 0 || !strings.Contains(out, "blocked") {
			t.Errorf("%q: exit %d, want refused as blocked:\n%s", argv, code, out)
		}
	}
	if after, _ := os.ReadFile(settings); string(after) != string(before) {
		t.Fatalf("the settings changed: %q", after)
	}
	if _, err := os.Stat(filepath.Join(data, "history.db")); err != nil {
		t.Fatalf("the history moved: %v", err)
	}
	if out, code := w.client("", "status"); code != 0 {
		t.Fatalf("the gate stopped answering: exit %d\n%s", code, out)
	}
	w.stopGate()
	if out, code := w.client("", "audit", "verify"); code != 0 || !strings.Contains(out, "intact") {
		t.Fatalf("audit verify: exit %d\n%s", code, out)
	}

	// The history moved aside after all: verify says so, before the gate
	// restarts and after.
	if err := os.MkdirAll(elsewhere, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Rename(filepath.Join(data, "history.db"+suffix), filepath.Join(elsewhere, "history.db"+suffix)); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	if out, code := w.client("", "audit", "verify"); code == 0 || !strings.Contains(out, "missing") {
		t.Fatalf("audit verify of a moved history: exit %d\n%s", code, out)
	}
	w.launchGate()
	if out, code := w.client("", "run", "--kind", "command", "--", "printf", "recorded"); code != 0 {
		t.Fatalf("the restarted gate: exit %d\n%s", code, out)
	}
	w.stopGate()
	out, code := w.client("", "audit", "verify")
	if code == 0 || !strings.Contains(out, "started over") {
		t.Fatalf("audit verify of the new history: exit %d\n%s", code, out)
	}
	t.Logf("audit verify: %s", out)
}
