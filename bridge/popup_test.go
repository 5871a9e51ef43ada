package bridge_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/airlockhq/airlock/bridge"
)

func TestShownLine(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "Write a file: ~/a.txt", "Write a file: ~/a.txt"},
		{"markup stays literal", "<b>x</b> &amp; <span>", "<b>x</b> &amp; <span>"},
		{"backslashes stay", `a\nb \\ c`, `a\nb \\ c`},
		{"non-ASCII", "café — ünïcode ✓", "café — ünïcode ✓"},
		{"newline", "a\nb", "a⟨U+000A⟩b"},
		{"tab", "a\tb", "a⟨U+0009⟩b"},
		{"carriage return", "ok\rfake", "ok⟨U+000D⟩fake"},
		{"terminal escape", "\x1b[2Jx", "⟨U+001B⟩[2Jx"},
		{"NUL", "a\x00b", "a⟨U+0000⟩b"},
		{"DEL and C1", "a\x7fb\u0085c", "a⟨U+007F⟩b⟨U+0085⟩c"},
		{"bidi override", "txt.\u202eexe", "txt.⟨U+202E⟩exe"},
		{"zero width", "rm\u200b -rf", "rm⟨U+200B⟩ -rf"},
		{"byte order mark", "\ufeffx", "⟨U+FEFF⟩x"},
		{"line separator", "a\u2028b\u2029c", "a⟨U+2028⟩b⟨U+2029⟩c"},
		{"bad UTF-8", "a\xffb\xc3", "a⟨0xFF⟩b⟨0xC3⟩"},
		{"replacement character", "a\ufffdb", "a⟨U+FFFD⟩b"},
		// Red team 7: what renders as nothing without being a format character.
		{"variation selector after ASCII", "build\ufe0f.py", "build⟨U+FE0F⟩.py"},
		{"supplementary variation selector", "run\U000e0100.sh", "run⟨U+E0100⟩.sh"},
		{"second variation selector", "\u2764\ufe0f\ufe0f", "\u2764\ufe0f⟨U+FE0F⟩"},
		{"variation selector first", "\ufe0fx", "⟨U+FE0F⟩x"},
		{"Hangul filler", "build\u3164.py", "build⟨U+3164⟩.py"},
		{"halfwidth Hangul filler", "a\uffa0b", "a⟨U+FFA0⟩b"},
		{"combining grapheme joiner", "a\u034fb", "a⟨U+034F⟩b"},
		{"Mongolian selector after ASCII", "a\u180bb", "a⟨U+180B⟩b"},
		// What draws as a space but is not one: one word that reads as two.
		{"no-break space", "rm\u00a0-rf ~", "rm⟨U+00A0⟩-rf ~"},
		{"en space", "rm\u2002-rf", "rm⟨U+2002⟩-rf"},
		{"ideographic space", "a\u3000b", "a⟨U+3000⟩b"},
		{"braille blank", "build\u2800.py", "build⟨U+2800⟩.py"},
		// Look-alikes that stay as they were: the selector changes what is seen.
		{"emoji presentation", "Notes \u2764\ufe0f.txt", "Notes \u2764\ufe0f.txt"},
		{"text presentation", "\u263a\ufe0e", "\u263a\ufe0e"},
		{"ideographic variant", "\u845b\U000e0100", "\u845b\U000e0100"},
		{"Hangul text", "\ud55c\uad6d\uc5b4", "\ud55c\uad6d\uc5b4"},
		// Letters that pass for Latin ones, in a word with ASCII letters.
		{"Cyrillic o in a Latin word", "t\u043eols.py", "t⟨U+043E⟩ols.py"},
		{"Greek omicron and Cyrillic p", "\u0440yth\u03bfn3", "⟨U+0440⟩yth⟨U+03BF⟩n3"},
		{"Armenian s", "b\u057dild", "b⟨U+057D⟩ild"},
		{"Cyrillic after a digit and marks", "x2\u0430\u0301", "x2⟨U+0430⟩\u0301"},
		// Words all in one script stay, beside Latin ones.
		{"Russian text", "\u043f\u0440\u0438\u0432\u0435\u0442 world", "\u043f\u0440\u0438\u0432\u0435\u0442 world"},
		{"Greek text", "\u03b1\u03b2\u03b3 = abc", "\u03b1\u03b2\u03b3 = abc"},
		{"Latin with accents", "Schr\u00f6dinger caf\u00e9", "Schr\u00f6dinger caf\u00e9"},
		{"digits beside Cyrillic", "\u0444\u0430\u0439\u043b2.txt", "\u0444\u0430\u0439\u043b2.txt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := bridge.ShownLine(tt.in); got != tt.want {
				t.Errorf("ShownLine(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestShownBlock(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"lines and tabs stay", "tell app \"Finder\"\n\tempty trash\nend tell", "tell app \"Finder\"\n\tempty trash\nend tell"},
		{"CRLF shows the CR", "a\r\nb", "a⟨U+000D⟩\nb"},
		{"escape in a script", "do shell script \"echo \x1b[31m\"", "do shell script \"echo ⟨U+001B⟩[31m\""},
		{"bidi in a script", "-- \u2066hidden\u2069", "-- ⟨U+2066⟩hidden⟨U+2069⟩"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := bridge.ShownBlock(tt.in); got != tt.want {
				t.Errorf("ShownBlock(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// FuzzShown checks that no input gets a hiding character through, that the
// output is UTF-8, that shown text is shown as it is, and that clean text
// is left alone.
func FuzzShown(f *testing.F) {
	for _, s := range []string{"", "plain", "a\nb\tc\r", "\x1b[2J", "\u202e\u200b\ufeff", "\xff\xfe", "\xff\ufe0f", "\u2764\ufe0f\ufe0f", "a\u3164\U000e0100", "t\u043eols", "\u043f\u0440\u0438 ok", "⟨U+000A⟩", "<b>&amp;</b>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, block := range []bool{false, true} {
			out := bridge.ShownLine(s)
			if block {
				out = bridge.ShownBlock(s)
			}
			if !utf8.ValidString(out) {
				t.Fatalf("block=%v: %q gives invalid UTF-8 %q", block, s, out)
			}
			prev := rune(-1)
			for _, r := range out {
				if block && (r == '\n' || r == '\t') {
					prev = r
					continue
				}
				if r == utf8.RuneError || unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Other_Default_Ignorable_Code_Point) {
					t.Fatalf("block=%v: %q gives %q, which holds %U", block, s, out, r)
				}
				// A variation selector is shown only right after a symbol,
				// an ideograph or a Mongolian letter, which it changes.
				if unicode.Is(unicode.Variation_Selector, r) && (prev < 0x80 || prev == utf8.RuneError || unicode.Is(unicode.Variation_Selector, prev) ||
					!(unicode.IsSymbol(prev) || unicode.Is(unicode.Han, prev) || unicode.Is(unicode.Mongolian, prev) && unicode.IsLetter(prev))) {
					t.Fatalf("block=%v: %q gives %q, which holds %U after %U", block, s, out, r, prev)
				}
				prev = r
			}
			// No word mixes ASCII letters with letters that pass for them.
			for _, w := range strings.FieldsFunc(out, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) }) {
				ascii := strings.ContainsFunc(w, func(r rune) bool { return r < 0x80 && unicode.IsLetter(r) })
				foreign := strings.ContainsFunc(w, func(r rune) bool {
					return r >= 0x370 && unicode.IsLetter(r) && unicode.In(r, unicode.Cyrillic, unicode.Greek, unicode.Armenian, unicode.Cherokee)
				})
				if ascii && foreign {
					t.Fatalf("block=%v: %q gives %q, whose word %q mixes ASCII letters with look-alikes", block, s, out, w)
				}
			}
			again := bridge.ShownLine(out)
			if block {
				again = bridge.ShownBlock(out)
			}
			if again != out {
				t.Fatalf("block=%v: not stable: %q → %q → %q", block, s, out, again)
			}
			if !strings.Contains(out, "⟨") && out != s {
				t.Fatalf("block=%v: %q changed to %q without marking it", block, s, out)
			}
		}
	})
}

func TestExcerpt(t *testing.T) {
	tests := []struct {
		name            string
		in              string
		lines, bytes    int
		want            string
		wantUnshortened bool
	}{
		{"short stays", "a\nb", 5, 100, "a\nb", true},
		{"lines", "1\n2\n3\n4", 2, 100, "1\n2\n… (4 more bytes not shown here)", false},
		{"bytes", "abcdefghij", 5, 4, "abcd\n… (6 more bytes not shown here)", false},
		{"on a character boundary", "ééé", 5, 3, "é\n… (4 more bytes not shown here)", false},
		{"exactly the line limit", "1\n2", 2, 100, "1\n2", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := bridge.Excerpt(tt.in, tt.lines, tt.bytes)
			if got != tt.want {
				t.Errorf("Excerpt(%q, %d, %d) = %q, want %q", tt.in, tt.lines, tt.bytes, got, tt.want)
			}
			if !utf8.ValidString(got) {
				t.Errorf("invalid UTF-8: %q", got)
			}
		})
	}
}

var clock = time.Date(2025, 3, 1, 14, 0, 0, 0, time.Local)

func hostilePopup() bridge.ApprovalPopup {
	return bridge.ApprovalPopup{
		Client:   "mcp: <b>claude</b>\nApproved by admin",
		Tool:     "run_script\x1b[2J",
		Deadline: clock.Add(5 * time.Minute),
		ArmDelay: bridge.DefaultArmDelay,
		Items: []bridge.PopupItem{
			{Number: 1, Level: "dangerous", Preview: "Write a file: ~/Documents/a.txt", Text: `WRITE_FILE "~/Documents/a.txt" "hi"`, Reasons: []string{"writes or overwrites a file"}},
			{Number: 2, Level: "destructive", Preview: "Run AppleScript \u202etxt.exe", Text: "tell application \"Finder\"\n\tempty trash\nend tell", Reasons: []string{"empties the Trash", "cannot be undone\r\nsafe"}, Confirm: true},
		},
	}
}

func TestDetailsShowEverything(t *testing.T) {
	p := hostilePopup()
	got := bridge.Details(p, clock.Add(30*time.Second))
	for _, want := range []string{
		"mcp: <b>claude</b>⟨U+000A⟩Approved by admin asks to run 2 actions (destructive, dangerous).",
		"Asked by: mcp: <b>claude</b>⟨U+000A⟩Approved by admin\n",
		"Tool:     run_script⟨U+001B⟩[2J\n",
		"No answer by 14:05:00 denies it (4m30s after this appeared).\n",
		"1 of the 2 actions cannot be undone; they are listed first.\n",
		"1. [dangerous] Write a file: ~/Documents/a.txt\n",
		"   • writes or overwrites a file\n",
		"   │ WRITE_FILE \"~/Documents/a.txt\" \"hi\"\n",
		"2. [destructive] Run AppleScript ⟨U+202E⟩txt.exe\n",
		"   ⚠ cannot be undone: asked about again on its own after Approve\n",
		"   • cannot be undone⟨U+000D⟩⟨U+000A⟩safe\n",
		"   │ tell application \"Finder\"\n   │ \tempty trash\n   │ end tell\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the details lack %q:\n%s", want, got)
		}
	}
	if strings.ContainsAny(got, "\x1b\r\u202e") {
		t.Errorf("the details let a hiding character through:\n%q", got)
	}
	if d, o := strings.Index(got, "2. [destructive]"), strings.Index(got, "1. [dangerous]"); d < 0 || o < 0 || d > o {
		t.Errorf("the destructive action is not listed first:\n%s", got)
	}
	if strings.Contains(got, "Time left") {
		t.Errorf("the details hold a countdown that cannot count down:\n%s", got)
	}
}

// The destructive actions come first, each group in plan order, and the
// popup says so only when there is something else to put them before.
func TestDetailsDestructiveFirst(t *testing.T) {
	item := func(n int, confirm bool) bridge.PopupItem {
		l := "dangerous"
		if confirm {
			l = "destructive"
		}
		return bridge.PopupItem{Number: n, Level: l, Preview: fmt.Sprintf("action %d", n), Text: "x", Confirm: confirm}
	}
	p := bridge.ApprovalPopup{Client: "cli", Items: []bridge.PopupItem{item(1, false), item(2, true), item(3, false), item(4, true)}}
	got := bridge.Details(p, clock)
	var order []string
	for _, line := range strings.Split(got, "\n") {
		if n, _, ok := strings.Cut(line, ". ["); ok && len(n) == 1 {
			order = append(order, n)
		}
	}
	if want := []string{"2", "4", "1", "3"}; !slices.Equal(order, want) {
		t.Errorf("order %v, want %v:\n%s", order, want, got)
	}
	if !strings.Contains(got, "2 of the 4 actions cannot be undone") {
		t.Errorf("no word on the order:\n%s", got)
	}
	p.Items = []bridge.PopupItem{item(1, true)}
	if got := bridge.Details(p, clock); strings.Contains(got, "listed first") {
		t.Errorf("a lone destructive action is said to be listed first:\n%s", got)
	}
}

func TestTimeLeft(t *testing.T) {
	for _, tc := range []struct {
		deadline time.Time
		want     string
	}{
		{clock.Add(90 * time.Second), "Time left: 1m30s; no answer by 14:01:30 denies it."},
		{clock.Add(-time.Second), "Time left: 0s; no answer by 13:59:59 denies it."},
		{time.Time{}, "No time limit."},
	} {
		if got := bridge.TimeLeft(tc.deadline, clock); got != tc.want {
			t.Errorf("TimeLeft(%v) = %q, want %q", tc.deadline, got, tc.want)
		}
	}
}

func TestDetailsWithoutDeadline(t *testing.T) {
	p := hostilePopup()
	p.Deadline = time.Time{}
	if got := bridge.Details(p, clock); !strings.Contains(got, "No time limit.") {
		t.Errorf("details without a deadline:\n%s", got)
	}
	p.Deadline = clock.Add(-time.Minute)
	if got := bridge.Details(p, clock); !strings.Contains(got, "No answer by 13:59:00 denies it: the time is up.") {
		t.Errorf("details past the deadline:\n%s", got)
	}
}

func TestSummaryCountsActions(t *testing.T) {
	p := hostilePopup()
	p.Items = p.Items[:1]
	p.Client = ""
	if got, want := bridge.Summary(p), "(unknown client) asks to run 1 action (dangerous)"; got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
}

func TestConfirmItemQuestion(t *testing.T) {
	p := hostilePopup()
	it := p.Items[1]
	it.Text = strings.Repeat("do shell script \"rm -rf ~\"\n", 50_000) // 1.35 MB
	title, text, yes, no, arm := bridge.ConfirmItem(p, it, clock)
	if title != bridge.ConfirmTitle || yes != "Run action 2" || no != "Skip it" || arm != bridge.DefaultArmDelay {
		t.Errorf("question = %q, %q / %q, arm %v", title, yes, no, arm)
	}
	for _, want := range []string{"Action 2 is destructive and needs its own yes.", "Run AppleScript ⟨U+202E⟩txt.exe", "do shell script \"rm -rf ~\"", "more bytes not shown here)\n(The approval popup showed all of it.)", "• empties the Trash", "Skip (the default: Return, Escape)"} {
		if !strings.Contains(text, want) {
			t.Errorf("the question lacks %q:\n%s", want, text)
		}
	}
	if len(text) > 4000 {
		t.Errorf("the question is %d bytes long: a question cannot scroll", len(text))
	}
}

func TestShowApprovalRefusesAnEmptyPopup(t *testing.T) {
	a, err := bridge.ShowApproval(context.Background(), bridge.ApprovalPopup{Client: "cli"})
	if err == nil || a.Approve {
		t.Fatalf("ShowApproval with no items = %+v, %v; want a denial with an error", a, err)
	}
}

func TestShowApprovalAfterItsDeadline(t *testing.T) {
	p := hostilePopup()
	p.Deadline = time.Now().Add(-time.Second)
	a, err := bridge.ShowApproval(context.Background(), p)
	if err != nil || a.Approve || len(a.Items) != 2 || a.Items[0] || a.Items[1] {
		t.Fatalf("ShowApproval past its deadline = %+v, %v; want a plain denial", a, err)
	}
}

func TestDetailsSayWhoEdited(t *testing.T) {
	p := hostilePopup()
	if strings.Contains(bridge.Details(p, clock), "Edited:") {
		t.Error("an unedited plan says it was edited")
	}
	p.EditedBy = "the person, in the approval popup (zenity)\u202e"
	if d := bridge.Details(p, clock); !strings.Contains(d, "Edited:   by the person, in the approval popup (zenity)⟨U+202E⟩; judged again from scratch") {
		t.Errorf("details do not say who edited:\n%s", d)
	}
}

func TestEditErrorsQuestion(t *testing.T) {
	title, text, yes, no := bridge.EditErrors(bridge.EditPopup{Client: "mcp: agent\x1b[2J", What: "plan", Text: "FOO",
		Errors: []string{"line 1: unknown command \"FOO\"\u202e", "line 3: missing argument"}, Deadline: clock.Add(time.Minute)}, clock)
	if title != bridge.EditErrorsTitle || yes != "Edit again" || no != "Cancel" {
		t.Errorf("question %q: %q / %q", title, yes, no)
	}
	for _, want := range []string{"Your edit of the plan from mcp: agent⟨U+001B⟩[2J does not parse", "• line 1: unknown command \"FOO\"⟨U+202E⟩\n",
		"• line 3: missing argument\n", "Cancel (the default: Return, Escape) denies the plan", "No answer by"} {
		if !strings.Contains(text, want) {
			t.Errorf("question lacks %q:\n%s", want, text)
		}
	}
}

func TestEditTextAfterItsDeadline(t *testing.T) {
	text, ok, err := bridge.EditText(context.Background(), bridge.EditPopup{Text: "x", Deadline: time.Now().Add(-time.Second)})
	if text != "" || ok || err != nil {
		t.Fatalf("EditText after its deadline = %q, %v, %v; want nothing, no error", text, ok, err)
	}
}

// TestSummaryLeadsWithTheHighestLevel checks that the headline lists the
// levels highest first, whatever the plan's order.
func TestSummaryLeadsWithTheHighestLevel(t *testing.T) {
	p := bridge.ApprovalPopup{Client: "cli", Items: []bridge.PopupItem{
		{Number: 1, Level: "caution"}, {Number: 2, Level: "safe"}, {Number: 3, Level: "destructive"}, {Number: 4, Level: "dangerous"}, {Number: 5, Level: "caution"},
	}}
	if got, want := bridge.Summary(p), "cli asks to run 5 actions (destructive, dangerous, caution, safe)"; got != want {
		t.Errorf("Summary = %q, want %q", got, want)
	}
}

// TestDetailsSayWhichActionsNeedTheYes checks that when some actions of a
// plan would run anyway, each says whether it needs the person's yes; and
// that a plan where every action needs it carries no such lines.
func TestDetailsSayWhichActionsNeedTheYes(t *testing.T) {
	p := bridge.ApprovalPopup{Client: "cli", Items: []bridge.PopupItem{
		{Number: 1, Level: "safe", Preview: "Notify", RunsAnyway: true},
		{Number: 2, Level: "dangerous", Preview: "Run thing"},
	}}
	got := bridge.Details(p, time.Now())
	safeAt, needAt := strings.Index(got, "1. [safe] Notify"), strings.Index(got, "2. [dangerous] Run thing")
	anyway, yes := strings.Index(got, "runs at your level without a yes"), strings.Index(got, "needs your yes")
	if safeAt < 0 || needAt < 0 || anyway < safeAt || anyway > needAt || yes < needAt {
		t.Errorf("each action does not say whether it needs the yes:\n%s", got)
	}
	p.Items[0].RunsAnyway = false
	if got := bridge.Details(p, time.Now()); strings.Contains(got, "needs your yes") {
		t.Errorf("a plan where everything needs the yes says so of each:\n%s", got)
	}
}
