package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/policy"
)

// writeRulesSettings writes settings.json in the test's data directory
// holding rules (JSON), and returns its path.
func writeRulesSettings(t *testing.T, rules string) string {
	t.Helper()
	dir := os.Getenv("AIRLOCK_DATA_DIR")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, policy.SettingsFile)
	if err := os.WriteFile(p, []byte(`{"rules": `+rules+"}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// `airlock rules list` numbers the rules from 1; `remove N` removes allow
// rule N and refuses to remove a deny or ask rule (that lets more run, and
// is the person's edit).
func TestRulesListRemove(t *testing.T) {
	tempHome(t)
	code, out, _ := runCLI(t, "", "rules", "list")
	if code != 0 || !strings.Contains(out, "no rules") {
		t.Errorf("list with no settings: exit %d\n%s", code, out)
	}
	p := writeRulesSettings(t, `[
		{"decision": "allow", "prefix": ["git", "status"], "dir": "~/proj"},
		{"decision": "deny", "prefix": ["git", "push"], "why": "I push myself"},
		{"decision": "allow", "prefix": ["ls"], "client": "claude"}]`)
	code, out, stderr := runCLI(t, "", "rules", "list")
	for _, want := range []string{`1. allow ["git","status"] in ~/proj`, `2. deny  ["git","push"]: I push myself`, `3. allow ["ls"] from client "claude"`} {
		if !strings.Contains(out, want) {
			t.Errorf("list lacks %q: exit %d\n%s%s", want, code, out, stderr)
		}
	}
	before, _ := os.ReadFile(p)
	if code, _, stderr := runCLI(t, "", "rules", "remove", "2"); code != 1 || !strings.Contains(stderr, "deny rule") || !strings.Contains(stderr, "editing") {
		t.Errorf("remove a deny rule: exit %d, %s", code, stderr)
	}
	for _, n := range []string{"0", "4"} {
		if code, _, stderr := runCLI(t, "", "rules", "remove", n); code != 1 || !strings.Contains(stderr, "numbered 1 to 3") {
			t.Errorf("remove %s: exit %d, %s", n, code, stderr)
		}
	}
	if code, _, stderr := runCLI(t, "", "rules", "remove", "x"); code != 2 || !strings.Contains(stderr, "not a rule number") {
		t.Errorf("remove x: exit %d, %s", code, stderr)
	}
	if after, _ := os.ReadFile(p); string(after) != string(before) {
		t.Errorf("a refused remove changed the file:\n%s", after)
	}
	code, out, stderr = runCLI(t, "", "rules", "remove", "1")
	if code != 0 || !strings.Contains(out, "removed rule 1") || !strings.Contains(out, "no confirmation") {
		t.Fatalf("remove 1: exit %d\n%s%s", code, out, stderr)
	}
	s, err := policy.LoadSettings(p)
	if err != nil || len(s.Rules) != 2 || s.Rules[0].Decision != policy.RuleDeny || s.Rules[1].Client != "claude" {
		t.Errorf("after remove 1: %v %+v", err, s.Rules)
	}
	if fi, err := os.Stat(p); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("settings after remove: %v %v", fi.Mode(), err)
	}
}

// `airlock rules test` sees a command as the gate would (the program on
// the PATH, the folder), says which rule decides it, and prints an allow
// rule with pins that, pasted into settings.json, covers exactly it until
// its script changes.
func TestRulesTest(t *testing.T) {
	tempHome(t)
	home := os.Getenv("HOME")
	proj := filepath.Join(home, "Documents", "proj")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(proj, "build.sh")
	if err := os.WriteFile(script, []byte("echo build\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	writeRulesSettings(t, `[{"decision": "deny", "prefix": ["cat"], "why": "no cat"}]`)
	code, out, stderr := runCLI(t, "", "rules", "test", "--dir", proj, "--", "cat", "x")
	if code != 0 || !strings.Contains(out, `rule:    1 (deny  ["cat"]: no cat): refused`) {
		t.Errorf("test cat: exit %d\n%s%s", code, out, stderr)
	}
	code, out, stderr = runCLI(t, "", "rules", "test", "--dir", proj, "--", "sh", "build.sh")
	if code != 0 || !strings.Contains(out, "rule:    none matches") || !strings.Contains(out, "level 1 (smart default): ask") {
		t.Fatalf("test sh build.sh: exit %d\n%s%s", code, out, stderr)
	}
	_, item, ok := strings.Cut(out, "settings.json (the pins are what its files hold now):\n")
	if !ok || !strings.Contains(item, script) {
		t.Fatalf("no rule to add that pins %s:\n%s", script, out)
	}
	writeRulesSettings(t, "["+item+"]")
	code, out, stderr = runCLI(t, "", "rules", "test", "--dir", proj, "--", "sh", "build.sh")
	if code != 0 || !strings.Contains(out, "): runs unasked") {
		t.Fatalf("with the printed rule: exit %d\n%s%s", code, out, stderr)
	}
	if err := os.WriteFile(script, []byte("curl x | sh\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, _ = runCLI(t, "", "rules", "test", "--dir", proj, "--", "sh", "build.sh")
	if code != 0 || !strings.Contains(out, "changed since the rule pinned it; the gate asks") {
		t.Errorf("changed script: exit %d\n%s", code, out)
	}
	if code, _, stderr := runCLI(t, "", "rules", "test"); code != 2 || !strings.Contains(stderr, "name the command") {
		t.Errorf("test without a command: exit %d, %s", code, stderr)
	}
	if code, out, _ := runCLI(t, "", "rules", "test", "--help"); code != 0 || !strings.Contains(out, "-client") || !strings.Contains(out, "-dir") {
		t.Errorf("test --help: exit %d\n%s", code, out)
	}
	if code, _, stderr := runCLI(t, "", "rules", "add"); code != 2 || !strings.Contains(stderr, "unknown rules command") {
		t.Errorf("rules add: exit %d, %s", code, stderr)
	}
}
