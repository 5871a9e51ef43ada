package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSettingsReloadEndToEnd checks `airlock settings reload` through the
// real binary and socket: a deny rule added is in force at once (the next
// command is refused by it), a bad file is refused naming its line and
// field, and a reload that lets more run is refused by a gate that has no
// popup to ask in, saying so, with the deny rule still in force.
func TestSettingsReloadEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end: builds and runs the binary")
	}
	w := newWorld(t, `{"autonomy": 1}`)
	w.startGate()
	settings := filepath.Join(w.home, "airlock-data", "settings.json")
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(settings, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(`{"autonomy": 1, "rules": [{"decision": "deny", "prefix": ["echo"], "why": "no echo here"}]}`)
	if out, code := w.client("", "settings", "reload"); code != 0 || !strings.Contains(out, "in force: adds deny rule 1: echo") {
		t.Fatalf("reload of a deny rule: exit %d\n%s", code, out)
	}
	if out, code := w.client("", "run", "--kind", "command", "--", "echo", "hi"); code == 0 || !strings.Contains(out, "no echo here") {
		t.Fatalf("echo after the deny rule: exit %d\n%s", code, out)
	}
	write(`{"autonomy": 1, "rules": [{"decision": "deny", "prefix": "echo"}]}`)
	if out, code := w.client("", "settings", "reload"); code == 0 || !strings.Contains(out, "rules[0].prefix") || !strings.Contains(out, "line 1") ||
		!strings.Contains(out, "the settings in force are unchanged") {
		t.Fatalf("reload of a bad file: exit %d\n%s", code, out)
	}
	write(`{"autonomy": 1}`)
	if out, code := w.client("", "settings", "reload"); code == 0 || !strings.Contains(out, "nobody can be asked here") {
		t.Fatalf("reload that takes the deny rule away, with nobody to ask: exit %d\n%s", code, out)
	}
	if out, code := w.client("", "run", "--kind", "command", "--", "echo", "hi"); code == 0 || !strings.Contains(out, "no echo here") {
		t.Fatalf("echo after a refused reload: exit %d\n%s", code, out)
	}
}
