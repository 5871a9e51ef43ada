package gate_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/bridge"
)

// A seventh red team: what the person is shown against what runs.

// lookalike is one case of testdata/red7/lookalikes.json: an action
// (argv for a command, plan for a script) whose text differs from its
// twin's only by characters that render as nothing, and the twin the
// person would believe they approve.
type lookalike struct {
	Name string          `json:"name"`
	Kind string          `json:"kind"`
	Argv []string        `json:"argv"`
	Plan string          `json:"plan"`
	Twin json.RawMessage `json:"twin"`
}

func (c lookalike) submissions(t *testing.T) (attack, twin gate.Submission) {
	t.Helper()
	attack = gate.Submission{Client: "agent", Kind: c.Kind, Argv: c.Argv, Plan: c.Plan}
	twin = attack
	var err error
	if c.Kind == gate.KindCommand {
		twin.Argv = nil
		err = json.Unmarshal(c.Twin, &twin.Argv)
	} else {
		err = json.Unmarshal(c.Twin, &twin.Plan)
	}
	if err != nil {
		t.Fatalf("testdata/red7/lookalikes.json, case %q: its twin: %v", c.Name, err)
	}
	return attack, twin
}

// shownItem is an item of a request as every prompter shows it: the
// popups (bridge.ShowApproval) and the terminal prompter show the preview
// and the text through the bridge's escaping.
func shownItem(it approval.Item) string {
	return bridge.EscapeBlock(it.Preview) + "\n" + bridge.EscapeBlock(it.Text)
}

// looksLatin are letters of other scripts that most fonts draw as a Latin
// letter (Unicode's confusables), as the cases use them.
var looksLatin = map[rune]rune{'\u043e': 'o', '\u0430': 'a', '\u0435': 'e', '\u0440': 'p', '\u03bf': 'o', '\u057d': 'u'}

// rendered is s as a person reads it on screen: without the default-
// ignorable code points (format characters, variation selectors and the
// others Unicode lists), which render as nothing, and with a letter that
// looks Latin read as that Latin letter.
func rendered(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point) {
			return -1
		}
		if l, ok := looksLatin[r]; ok {
			return l
		}
		return r
	}, s)
}

// readTwins reads the cases of testdata/red7/NAME.
func readTwins(t *testing.T, name string) []lookalike {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "red7", name))
	if err != nil {
		t.Fatal(err)
	}
	var cases []lookalike
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatalf("testdata/red7/%s: %v", name, err)
	}
	return cases
}

// Attack 1. Characters that render as nothing but are not format
// characters: the variation selectors (Mn) and the other default-
// ignorable code points (the Hangul fillers, Lo; the combining grapheme
// joiner and the Khmer inherent vowels, Mn). The popup escaped control and
// format characters only, so `python3 ~/Documents/build<U+FE0F>.py` — a
// script the agent wrote — was shown exactly as `python3
// ~/Documents/build.py`, the person's own: the person approves a twin they
// cannot tell apart. What is shown for two different actions must look
// different.
func TestRedShownInvisibleTwins(t *testing.T) { testTwins(t, readTwins(t, "lookalikes.json")) }

// Attack 1b. Letters of another script that look Latin (Cyrillic о, а, е,
// р; Greek ο; Armenian ս) inside a Latin word: `python3
// ~/Documents/t<U+043E>ols.py` read as the person's tools.py. Escaping
// every non-ASCII letter would make Russian or Greek text unreadable; a
// word that mixes ASCII letters with such letters has no use but to pass
// for another, so its foreign letters must be shown as ⟨U+XXXX⟩.
func TestRedShownHomoglyphTwins(t *testing.T) { testTwins(t, readTwins(t, "homoglyphs.json")) }

func testTwins(t *testing.T, cases []lookalike) {
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			r := newRig(t, policy.SmartDefault, denyAll)
			attack, twin := c.submissions(t)
			var shown [2]string
			for i, s := range []gate.Submission{attack, twin} {
				before := r.ask.count()
				rep, _ := r.g.Submit(context.Background(), s, nil)
				if r.ask.count() != before+1 {
					if i == 0 && rep.Status == gate.StatusRefused {
						t.Logf("refused: %v", rep.Error)
						return // refused outright: never offered, so never mistaken
					}
					t.Fatalf("submission %d was not offered for approval (%s, %s): %+v", i, rep.Status, rep.Risk, rep)
				}
				r.ask.mu.Lock()
				req := r.ask.asked[len(r.ask.asked)-1]
				r.ask.mu.Unlock()
				if len(req.Items) != 1 {
					t.Fatalf("submission %d: %d items offered, want 1", i, len(req.Items))
				}
				shown[i] = shownItem(req.Items[0])
			}
			if rendered(shown[0]) == rendered(shown[1]) {
				t.Fatalf("HOLE: the person is shown the same text for two different actions:\n%s", shown[0])
			}
			if len(r.exec.names()) != 0 {
				t.Fatalf("something ran though every request was denied: %v", r.exec.names())
			}
		})
	}
}
