package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// heldPrompt is the terminal prompter's question about held changes.
var heldPrompt = regexp.MustCompile(`Approve\? \[y/N\]`)

// reviewWorld is a gate at Level 2 in a home holding a thesis, notes, a
// repository and, in a folder of the person's own programs, issue 21's
// attack as a program nobody knows (so rated dangerous: run unasked at
// this level).
func reviewWorld(t *testing.T) (*world, string) {
	t.Helper()
	w := newWorld(t, `{"autonomy": 2}`)
	docs := filepath.Join(w.home, "Documents")
	bin := filepath.Join(w.home, ".local", "bin")
	for _, d := range []string{filepath.Join(docs, "work", ".git", "hooks"), bin} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range map[string]string{"thesis.docx": "four years of work", "notes.txt": "notes"} {
		if err := os.WriteFile(filepath.Join(docs, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	payload, err := os.ReadFile(filepath.Join("testdata", "review", "plant.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "tidy-up"), payload, 0o755); err != nil {
		t.Fatal(err)
	}
	w.startGate()
	return w, bin
}

// trashed returns what the Trash holds under name (the freedesktop.org
// home trash of the world's home), "" for nothing.
func trashed(t *testing.T, w *world, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(w.home, ".local", "share", "Trash", "files", name))
	if err != nil {
		return ""
	}
	return string(b)
}

// TestUnaskedActionCannotDestroyOrPlant is issue 21's attack, end to end at
// Level 2 with nobody approving it: an unasked command empties a thesis,
// removes notes and plants a git hook. The thesis's old version and the
// notes are in the Trash; the hook is held, shown to the person, and not
// applied when they say no; the harmless new file lands.
func TestUnaskedActionCannotDestroyOrPlant(t *testing.T) {
	w, bin := reviewWorld(t)
	docs := filepath.Join(w.home, "Documents")
	run := w.clientAsync("", "run", "--kind", "command", "--", filepath.Join(bin, "tidy-up"))
	shown := w.expect(heldPrompt)
	for _, want := range []string{"Keep: created", filepath.Join("work", ".git", "hooks", "pre-commit"), "plants code"} {
		if !strings.Contains(shown, want) {
			t.Errorf("the held-changes question does not show %q:\n%s", want, shown)
		}
	}
	w.answer("n")
	r := wait(t, run)
	if !strings.Contains(r.out, "planted") || !strings.Contains(r.out, "held for you: 0 kept") {
		t.Errorf("the report does not say what became of the changes:\n%s", r.out)
	}
	if got := trashed(t, w, "thesis.docx"); got != "four years of work" {
		t.Errorf("the thesis's old version in the Trash: %q", got)
	}
	if got := trashed(t, w, "notes.txt"); got != "notes" {
		t.Errorf("the removed notes in the Trash: %q", got)
	}
	if _, err := os.Stat(filepath.Join(docs, "work", ".git", "hooks", "pre-commit")); err == nil {
		t.Error("the planted hook was applied although the person said no")
	}
	if b, err := os.ReadFile(filepath.Join(docs, "new.txt")); err != nil || string(b) != "new\n" {
		t.Errorf("the new file: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(docs, "HOOKED")); err == nil {
		t.Error("the hook ran")
	}
}

// TestHeldChangeKeptByThePerson checks the other answer: the person keeps
// the held hook (its own yes, as a destructive item), and it lands.
func TestHeldChangeKeptByThePerson(t *testing.T) {
	w, bin := reviewWorld(t)
	run := w.clientAsync("", "run", "--kind", "command", "--", filepath.Join(bin, "tidy-up"))
	w.expect(heldPrompt)
	w.answer("y")
	w.expect(regexp.MustCompile(`Type yes to run item 1`))
	w.answer("yes")
	r := wait(t, run)
	if !strings.Contains(r.out, "1 kept") {
		t.Errorf("the report:\n%s", r.out)
	}
	fi, err := os.Stat(filepath.Join(w.home, "Documents", "work", ".git", "hooks", "pre-commit"))
	if err != nil || fi.Mode()&0o111 == 0 {
		t.Errorf("the kept hook: %v, %v", fi, err)
	}
}
