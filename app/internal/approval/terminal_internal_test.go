package approval

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
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
	a, err := term.Prompt(context.Background(), r)
	if err != nil || a.Outcome != Denied {
		t.Fatalf("Prompt = %+v, %v; the typed-ahead yes answered", a, err)
	}
}

// FuzzVisible checks that visible lets nothing through that a terminal would
// act on or hide, and changes nothing else.
func FuzzVisible(f *testing.F) {
	for _, s := range []string{"plain", "tab\there", "esc \x1b[2J", "\u202egnp.exe", "bad \xff byte", "zw\u200bj", "line\u2028sep", "\r\n", "⟨U+001B⟩", "\ufffd"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v := visible(s)
		if !utf8.ValidString(v) {
			t.Fatalf("visible(%q) = %q is not UTF-8", s, v)
		}
		for _, r := range v {
			if hidden(r) {
				t.Fatalf("visible(%q) = %q keeps %U", s, v, r)
			}
		}
		clean := utf8.ValidString(s)
		for _, r := range s {
			clean = clean && !hidden(r)
		}
		if clean != (v == s) {
			t.Fatalf("visible(%q) = %q", s, v)
		}
		if clean && strings.Contains(s, "\n") {
			t.Fatal("a newline counted as visible")
		}
	})
}
