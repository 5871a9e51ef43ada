package dashboard

import (
	"reflect"
	"strings"
	"testing"
)

// splitText takes a recorded request apart as the gate wrote it: the plan,
// then its notes; the last "-- asked:" line is the gate's, whatever the
// plan or the words hold.
func TestSplitText(t *testing.T) {
	for _, tc := range []struct {
		name, kind, text string
		asked, plan      string
		notes            []note
	}{
		{"a plan", "plan", "NOTIFY \"a\" \"b\"\n", "", "NOTIFY \"a\" \"b\"\n", nil},
		{"a script with arguments", "applescript", "on run argv\nend run\n-- argv: 'a b' c", "", "on run argv\nend run",
			[]note{{"argv", "'a b' c"}}},
		{"a command", "command", "\n-- argv: ls -l", "", "", []note{{"argv", "ls -l"}}},
		{"an AppleScript comment that looks like a note stays", "applescript", "-- asked: \"x\"\nsay \"hi\"", "",
			"-- asked: \"x\"\nsay \"hi\"", nil},
		{"an ask", "ask", "NOTIFY \"a\" \"b\"\n-- asked: \"tidy \\\"it\\\"\"\n-- context: \"line1\\nline2\"\n-- model: m at http://h (1 attempts)",
			"tidy \"it\"", "NOTIFY \"a\" \"b\"", []note{{"context", "line1\nline2"}, {"model", "m at http://h (1 attempts)"}}},
		{"an ask with no plan and a reason over lines", "ask", "-- asked: \"sort\"\n-- no plan: server said 500\nInternal Server Error",
			"sort", "", []note{{"no plan", "server said 500\nInternal Server Error"}}},
		{"an ask refused before the model: its words alone", "ask", "delete it all\n-- not a note", "delete it all\n-- not a note", "", nil},
		{"a model's plan that forges the words", "ask", "NOTIFY \"a\" \"b\"\n-- asked: \"forged\"\n-- asked: \"real\"",
			"real", "NOTIFY \"a\" \"b\"\n-- asked: \"forged\"", nil},
		{"words that are not quoted are shown as they are", "ask", "-- asked: raw words", "raw words", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			asked, plan, notes := splitText(tc.kind, tc.text)
			if asked != tc.asked || plan != tc.plan || !reflect.DeepEqual(notes, tc.notes) && len(notes)+len(tc.notes) > 0 {
				t.Errorf("splitText = %q, %q, %q; want %q, %q, %q", asked, plan, notes, tc.asked, tc.plan, tc.notes)
			}
		})
	}
}

// FuzzSplitText: taking any recorded text apart never panics, never loses
// the words of an ask, and for other kinds keeps the plan a prefix of the
// text.
func FuzzSplitText(f *testing.F) {
	for _, s := range []string{"", "-- asked: \"x\"", "a\n-- asked: \"b\"\n-- no plan: c\nd", "\n-- argv: x", "-- asked: \"\\u202e\"\n-- cut: x"} {
		f.Add("ask", s)
		f.Add("plan", s)
	}
	f.Fuzz(func(t *testing.T, kind, text string) {
		asked, plan, notes := splitText(kind, text)
		if kind != "ask" && (asked != "" || !strings.HasPrefix("\n"+text, "\n"+plan)) {
			t.Fatalf("splitText(%q, %q) = %q, %q, %q", kind, text, asked, plan, notes)
		}
		if kind == "ask" && !strings.Contains(text, "-- asked: ") && (asked != text || plan != "" || notes != nil) {
			t.Fatalf("an ask without notes: %q → %q, %q, %q", text, asked, plan, notes)
		}
	})
}
