package main

import (
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/airlockhq/airlock/app/internal/gate"
)

// TestRed4HistoryShowsWhatRan: `airlock history` prints each action's
// error, and an action's error holds what the command wrote to its
// standard error ("command: sh exited with status 1: …"): an unasked
// command chooses it. Printed raw, its terminal escapes move the cursor
// up and erase lines (the person's terminal shows an "ok" line of the
// agent's making where the failed action was), set the window title, or
// hide text; a bidi override reorders it. Every field the agent or its
// command chooses is shown as text: no control or format character
// reaches the terminal but the line breaks the listing makes.
func TestRed4HistoryShowsWhatRan(t *testing.T) {
	const fake = "\x1b[1A\x1b[2K\r2026-01-01 00:00:00  ok       safe        auto     Run ls"
	r := historyRecord{Time: time.Unix(0, 0), Status: "failed", Risk: "caution", Decision: "auto",
		Preview: "Run sh -c 'rm -r ~/Documents/old' \u202e", Client: "agent\x1b]0;title\x07", Program: "/usr/bin/x\u200b",
		Approval: "granted\x1b[8m", EditOf: "r1", EditedBy: "you\x1b[2J",
		Error: "command: sh exited with status 1: " + fake + "\n\x1b[1Aforged line"}
	got := formatEntry(r)
	for _, ch := range got {
		if ch != '\n' && (unicode.IsControl(ch) || unicode.Is(unicode.Cf, ch)) {
			t.Fatalf("HOLE: airlock history prints %U from the agent's text to the terminal: %q", ch, got)
		}
	}
	for _, want := range []string{"Run sh -c 'rm -r ~/Documents/old'", "forged line", "command: sh exited with status 1:"} {
		if !strings.Contains(got, want) {
			t.Errorf("the listing lost %q: %q", want, got)
		}
	}
	if n := strings.Count(got, "\n"); n != 2 {
		t.Errorf("the listing has %d line breaks, want 2 (edited, error): a newline in the error made a line of its own: %q", n, got)
	}
}

// TestRed4UndoShowsWhatItPutBack: `airlock undo` lists the paths it put
// back, the names an unasked action gave its files: a name holding a
// terminal escape or a newline is written as text, one line a path.
func TestRed4UndoShowsWhatItPutBack(t *testing.T) {
	var b strings.Builder
	printUndo(&b, gate.UndoReport{Request: "r1", Undo: "u1",
		Undone:    []gate.UndoPath{{Path: "/home/u/Documents/a\x1b[1A\x1b[2Kb.txt", What: "removed", Trashed: "/home/u/.local/share/Trash/files/x\u202e"}},
		NotUndone: []gate.UndoPath{{Path: "/home/u/Documents/c\nundone: /home/u/Documents/thesis.docx: put back", What: "changed since"}}})
	got := b.String()
	for _, ch := range got {
		if ch != '\n' && (unicode.IsControl(ch) || unicode.Is(unicode.Cf, ch)) {
			t.Fatalf("HOLE: airlock undo prints %U from an action's file name to the terminal: %q", ch, got)
		}
	}
	if n := strings.Count(got, "\n"); n != 4 {
		t.Errorf("the listing has %d lines, want 4: a newline in a name made a line of its own: %q", n, got)
	}
}
