package redact

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestHeadsOf reads the heads of a few regexps by hand: the places they
// bound, and a text each admits or rules out.
func TestHeadsOf(t *testing.T) {
	cases := []struct {
		re      string
		n       int
		admit   []string
		ruleOut []string
	}{
		// sk and hex digits: twelve places bounded, sk then hex.
		{`sk[0-9a-fA-F]{32}`, maxHeads, []string{"sk0123456789abcdef0123456789abcdef"}, []string{"sktop", "sk012", "desktop"}},
		// A match may end after two bytes: two places.
		{`ab(cd)?`, 2, []string{"ab", "abzz"}, []string{"a", "ax"}},
		// Case folded: either case, but the Kelvin sign folds to k, so
		// the k's place admits the bytes that start a wide rune, and
		// nothing after it is bounded.
		{`(?i)ok.`, 2, []string{"Ok", "oK", "o\u212a", "o\xff"}, []string{"x", "o", "oj"}},
		// Any byte: that place, and nothing after it.
		{`a.b`, 2, []string{"a\u00e9b", "a\nb", "aa"}, []string{"b", "a"}},
		// Assertions pass; alternatives join.
		{`\b(?:ghp|gho)_x`, 5, []string{"ghp_x", "gho_x"}, []string{"ghq_x", "ghp-x"}},
		// Loops of empty steps end.
		{`(?:a*)*b`, 1, []string{"a", "b"}, []string{"c"}},
		// Outside ASCII: the bytes a wide rune starts with, and no ASCII.
		{`é`, 1, []string{"é", "\xc3"}, []string{"e", ""}},
	}
	for _, c := range cases {
		h := headsOf(regexp.MustCompile(c.re))
		if h.n != c.n {
			t.Errorf("headsOf(%q): %d places, want %d", c.re, h.n, c.n)
		}
		for _, s := range c.admit {
			if !h.admits(s) {
				t.Errorf("headsOf(%q) rules out %q", c.re, s)
			}
		}
		for _, s := range c.ruleOut {
			if h.admits(s) {
				t.Errorf("headsOf(%q) admits %q", c.re, s)
			}
		}
	}
}

// TestHeadsAdmitMatches: every match of every anchored rule in the
// corpora is admitted by its heads, and the heads bound something for
// most rules (else they would sift nothing).
func TestHeadsAdmitMatches(t *testing.T) {
	e := theEngine()
	texts := corpusTexts(t)
	bounded, anchored := 0, 0
	for tier := range e.tiers {
		for i := range e.tiers[tier] {
			r := &e.tiers[tier][i]
			if r.anchored == nil {
				continue
			}
			anchored++
			if r.heads.n > 0 {
				bounded++
			}
			for _, s := range texts {
				headsAdmitMatches(t, r, s)
			}
		}
	}
	if bounded < anchored*3/4 {
		t.Errorf("heads bound %d of %d anchored rules", bounded, anchored)
	}
}

// headsAdmitMatches fails t if r's heads rule out a match of r in s.
func headsAdmitMatches(t *testing.T, r *rule, s string) {
	t.Helper()
	for _, m := range r.re.FindAllStringIndex(s, -1) {
		if !r.heads.admits(s[m[0]:]) {
			t.Fatalf("rule %s: heads rule out its match %q in %q", r.kind, s[m[0]:m[1]], s)
		}
	}
}

// FuzzHeads: sifting the places an anchored rule is tried at by its
// heads changes nothing it finds, in any tier, on any text; and the heads
// admit every match of every anchored rule.
func FuzzHeads(f *testing.F) {
	e := theEngine()
	for _, s := range []string{"", "sk0123456789abcdef0123456789abcdef", "desktop tasks path --x",
		"ghp_" + strings.Repeat("a", 36), "xoxb-1234-5678-abcd", strings.Join(e.kw.list, " ")} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		x := e.kw.scan(s)
		for tier := range e.tiers {
			got, want := e.collectIn(x, tier, true, true), e.collectIn(x, tier, true, false)
			if !slices.Equal(got, want) {
				t.Fatalf("tier %d of %q: sifted %v, all places %v", tier, s, got, want)
			}
			for i := range e.tiers[tier] {
				if r := &e.tiers[tier][i]; r.anchored != nil && x.hits != nil && x.occurs(r) {
					headsAdmitMatches(t, r, s)
				}
			}
		}
	})
}
