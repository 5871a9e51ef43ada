package rate

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// Span is a byte range [Start, End) of the analysed input. The zero Span
// stands for the input as a whole.
type Span struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Reason is one finding: the effect found, the level the calibration table
// gives it (effect.Calibrate), a stable rule name, the warning shown to the
// person, and where it was found.
type Reason struct {
	Level  level.Level   `json:"level"`
	Rule   string        `json:"rule"`
	Text   string        `json:"text"`
	Span   Span          `json:"span"`
	Effect effect.Effect `json:"effect,omitzero"`
}

// Verdict is an analyzer's answer: the highest level among its reasons.
type Verdict struct {
	Level   level.Level `json:"risk"`
	Reasons []Reason    `json:"reasons"`
}

// MaxReasons bounds a verdict's reasons: a 1 MB script with a million
// keystrokes must not produce a million warnings.
const MaxReasons = 64

// Found adds a reason: effect e, at the level the calibration table gives
// it, found by rule at span, whose warning is format with args (format alone
// when there are none). A reason with the same rule and warning as one v
// has only raises that one's level (and takes e when e weighs more). Past
// MaxReasons the mildest reason gives way to a more severe one.
func (v *Verdict) Found(e effect.Effect, rule string, span Span, format string, args ...any) {
	text := format
	if len(args) > 0 {
		text = fmt.Sprintf(format, args...)
	}
	v.add(e.Level(), e, rule, span, text)
}

// FoundText is Found for a warning that needs no formatting.
func (v *Verdict) FoundText(e effect.Effect, rule string, span Span, text string) {
	v.add(e.Level(), e, rule, span, text)
}

func (v *Verdict) add(l level.Level, e effect.Effect, rule string, span Span, text string) {
	if l > v.Level {
		v.Level = l
	}
	text = safeText(text)
	for i := range v.Reasons {
		r := &v.Reasons[i]
		if r.Rule == rule && r.Text == text {
			if l > r.Level {
				r.Level = l
				if e.Kind != 0 {
					r.Effect = e
				}
			}
			return
		}
	}
	if len(v.Reasons) >= MaxReasons {
		// Keep the most severe findings: replace the mildest one.
		low := 0
		for i, r := range v.Reasons {
			if r.Level < v.Reasons[low].Level {
				low = i
			}
		}
		if v.Reasons[low].Level >= l {
			return
		}
		v.Reasons[low] = Reason{l, rule, text, span, e}
		return
	}
	v.Reasons = append(v.Reasons, Reason{l, rule, text, span, e})
}

// Merge adds every reason of w to v. With at non-zero, the reasons are
// re-anchored to that span of v's input (used for nested analysis: the shell
// command inside an AppleScript string literal).
func (v *Verdict) Merge(w Verdict, at *Span) {
	for _, r := range w.Reasons {
		if at != nil {
			r.Span = *at
		}
		v.add(r.Level, r.Effect, r.Rule, r.Span, r.Text)
	}
	if w.Level > v.Level {
		v.Level = w.Level
	}
}

// Sort orders v's reasons most severe first, then by position.
func (v *Verdict) Sort() {
	slices.SortStableFunc(v.Reasons, func(a, b Reason) int {
		if a.Level != b.Level {
			return cmp.Compare(b.Level, a.Level)
		}
		return cmp.Compare(a.Span.Start, b.Span.Start)
	})
}

// Texts returns the reasons' warnings, most severe first.
func (v Verdict) Texts() []string {
	out := make([]string, len(v.Reasons))
	for i, r := range v.Reasons {
		out[i] = r.Text
	}
	return out
}

// SynthesisesInput reports whether the action types, presses keys or clicks
// on the user's behalf (effect.Input): what the context lock must check
// before it runs, because such input lands in whatever app is frontmost.
func (v Verdict) SynthesisesInput() bool {
	for _, r := range v.Reasons {
		if r.Effect.Kind == effect.Input {
			return true
		}
	}
	return false
}

func (v Verdict) String() string {
	if len(v.Reasons) == 0 {
		return v.Level.String()
	}
	return v.Level.String() + ": " + strings.Join(v.Texts(), "; ")
}

// safeText makes a warning safe to show on one line in a popup or a
// terminal: valid UTF-8, no control or bidi characters from the input.
func safeText(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029 {
			return '·'
		}
		return r
	}, s)
}
