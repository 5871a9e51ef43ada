package approval

import (
	"context"
	"os"
	"testing"
	"time"
)

// TestTypeAheadIgnored: a line read before the question was shown — typed
// ahead, or pasted by accident — never answers it.
func TestTypeAheadIgnored(t *testing.T) {
	out, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	term := &Terminal{f: out, lines: make(chan line, 8), asked: make(chan struct{}, 1), turn: make(chan struct{}, 1), now: time.Now}
	term.lines <- line{text: "y", at: time.Now().Add(-time.Second)}
	term.lines <- line{text: "no", at: time.Now().Add(time.Hour)}
	r := Request{ID: "x", Items: []Item{{Index: 1, Text: "a", Risk: 2}}, Deadline: time.Now().Add(time.Minute)}
	a, err := term.Prompt(context.Background(), r, func() time.Time { return r.Deadline })
	if err != nil || a.Outcome != Denied {
		t.Fatalf("Prompt = %+v, %v; the typed-ahead yes answered", a, err)
	}
}

// visible keeps tabs (script indentation) and shows everything else that
// could move the cursor or fake a line, newlines included.
func TestVisible(t *testing.T) {
	for in, want := range map[string]string{
		"plain":           "plain",
		"\tindented":      "\tindented",
		"fake\nline":      "fake⟨U+000A⟩line",
		"esc \x1b[2J":     "esc ⟨U+001B⟩[2J",
		"\u202egnp.exe":   "⟨U+202E⟩gnp.exe",
		"bad \xff byte":   "bad ⟨0xFF⟩ byte",
		"cr\rover":        "cr⟨U+000D⟩over",
		"zero\u200bwidth": "zero⟨U+200B⟩width",
	} {
		if got := visible(in); got != want {
			t.Errorf("visible(%q) = %q, want %q", in, got, want)
		}
	}
}
