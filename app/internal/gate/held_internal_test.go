package gate

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// A name an action chose may hold a newline: in the held-changes popup
// and the undo confirmation (whose text keeps newlines) it must not show
// a line of its own, such as a harmless-looking "Keep:" line.
func TestHeldTextOneLinePerPath(t *testing.T) {
	const fake = "Keep: created ~/Documents/notes.txt (harmless)"
	path := "/home/ann/Documents/work/.git/hooks/pre-commit\n" + fake
	text := heldText(0, "sh -c true", execute.HeldChange{Change: sandbox.Change{Kind: sandbox.Created, Path: path}, Reason: "a git hooks folder"})
	lines := strings.Split(text, "\n")
	if len(lines) != 2 {
		t.Errorf("the held change's text has %d lines, want 2: %q", len(lines), text)
	}
	for _, ln := range lines {
		if strings.HasPrefix(ln, "Keep:") {
			t.Errorf("the name made a line of its own: %q", ln)
		}
	}
	if !strings.Contains(text, "⟨U+000A⟩") {
		t.Errorf("the newline is not shown: %q", text)
	}

	g := &Gate{}
	q, n := g.undoQuestion("r1", []execute.ChangeRecord{{Kind: sandbox.Created, Path: "/home/ann/Documents/a\n\nNothing will change.", Status: execute.ChangeApplied, Placed: true}})
	if n != 1 {
		t.Fatalf("%d changes to undo, want 1", n)
	}
	for _, ln := range strings.Split(q.Text, "\n") {
		if ln == "Nothing will change." {
			t.Errorf("the name made a line of its own in the undo question: %q", q.Text)
		}
	}
}

// oneLine leaves a plain path as it is.
func TestOneLinePlain(t *testing.T) {
	for _, p := range []string{"/home/ann/Documents/a b/ü.txt", ""} {
		if got := oneLine(p); got != p {
			t.Errorf("oneLine(%q) = %q", p, got)
		}
	}
	if got := oneLine("a\tb\x1b[2Kc"); got != "a⟨U+0009⟩b⟨U+001B⟩[2Kc" {
		t.Errorf("oneLine = %q", got)
	}
}
