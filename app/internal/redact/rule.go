package redact

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
)

// A rule finds one kind of secret. The secret is the whole match, or one
// of its submatches when the match also holds context to keep (a name, a
// separator, a scheme).
type rule struct {
	kind string // names the marker: lower-case letters, digits and hyphens
	tier int    // the pass it runs in
	re   *regexp.Regexp
	// The secret is submatch group when group > 0; else the first
	// submatch named s that took part, when there are such; else, with
	// first, the first non-empty submatch (gitleaks' convention); else the
	// whole match.
	group int
	first bool
	// words are lower-case literals of which at least one occurs in any
	// match of the rule, in any case; the rule reads only the lines near
	// them. Rules without words read all text.
	words []string
	// check, when set, must accept a find for it to be redacted.
	check func(f find) bool

	// Set by prepare.
	named  []string // submatch names, when some are "s"
	kw     []int    // the words' numbers
	breaks int      // most line breaks a match can hold; -1 unbounded
	maxLen int      // most bytes a match can hold; -1 unbounded
	// clip says every match holds one of the words, so a window around a
	// word need reach no further than the longest match.
	clip bool
	// anchored, when set, is re anchored after one byte of context: every
	// match of re begins with one of its words, so it is tried only there.
	anchored *regexp.Regexp
	// heads, for an anchored rule, rules out most places a try would fail
	// at (heads.go).
	heads heads
}

// find is what a check sees of a match.
type find struct {
	secret, match string
	line          func() string // the whole lines the match lies on
}

func (r *rule) prepare(k *keywords) {
	if !kindName.MatchString(r.kind) {
		panic(fmt.Sprintf("redact: rule kind %q is not lower-case letters, digits and hyphens", r.kind))
	}
	if slices.Contains(r.re.SubexpNames(), "s") {
		r.named = r.re.SubexpNames()
	}
	for _, w := range r.words {
		if w != strings.ToLower(w) || len(w) < 2 {
			panic("redact: keyword " + w + " of " + r.kind + " is not lower case or shorter than two bytes")
		}
		r.kw = append(r.kw, k.add(w))
	}
	r.breaks, r.maxLen = -1, -1
	if tree, err := syntax.Parse(r.re.String(), syntax.Perl); err == nil {
		r.breaks, r.maxLen = bounds(tree)
		r.clip = holds(tree, r.words)
	}
	r.anchored = anchor(r.re, r.words)
	if r.anchored != nil {
		r.heads = headsOf(r.re)
	}
}

var kindName = regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)

// secret returns where the secret of match m lies in s, and whether it is
// one to redact. A secret inside a marker is none; one that overlaps a
// marker takes the marker with it.
func (r *rule) secret(s string, m []int, marks [][]int) (lo, hi int, ok bool) {
	lo, hi = r.span(s, m)
	if lo < 0 || lo == hi || isMarker(s[lo:hi]) {
		return 0, 0, false
	}
	for _, mk := range marks {
		if mk[0] >= hi {
			break
		}
		if mk[1] <= lo {
			continue
		}
		if mk[0] <= lo && hi <= mk[1] {
			return 0, 0, false
		}
		lo, hi = min(lo, mk[0]), max(hi, mk[1])
	}
	if r.check != nil && !r.check(find{secret: s[lo:hi], match: s[m[0]:m[1]], line: func() string { return lineOf(s, m[0], m[1]) }}) {
		return 0, 0, false
	}
	return lo, hi, true
}

// span returns where the secret lies in match m, or lo < 0 if nowhere.
func (r *rule) span(s string, m []int) (lo, hi int) {
	switch {
	case r.group > 0:
		return m[2*r.group], m[2*r.group+1]
	case r.named != nil:
		for i, name := range r.named {
			if name == "s" && m[2*i] >= 0 {
				return m[2*i], m[2*i+1]
			}
		}
		return -1, -1
	case r.first:
		for i := 2; i+1 < len(m); i += 2 {
			if m[i] >= 0 && m[i] < m[i+1] {
				return m[i], m[i+1]
			}
		}
	}
	// The whole match, without line breaks at its ends (a terminator
	// such as \s may have taken one).
	lo, hi = m[0], m[1]
	for lo < hi && (s[lo] == '\n' || s[lo] == '\r') {
		lo++
	}
	for hi > lo && (s[hi-1] == '\n' || s[hi-1] == '\r') {
		hi--
	}
	return lo, hi
}

// lineOf returns the whole lines that s[lo:hi] lies on.
func lineOf(s string, lo, hi int) string {
	start := strings.LastIndexByte(s[:lo], '\n') + 1
	end := len(s)
	if i := strings.IndexByte(s[hi:], '\n'); i >= 0 {
		end = hi + i
	}
	return s[start:end]
}

// looksRandom accepts strings that look machine-made: a digit, or a capital
// right after a small letter. Words of prose and kebab-case names
// ("sk-learn-pipeline", "bearer responsibilities") have neither; random
// keys of twenty characters almost always have one.
func looksRandom(s string) bool {
	prevLower := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9':
			return true
		case 'A' <= c && c <= 'Z' && prevLower:
			return true
		}
		prevLower = 'a' <= c && c <= 'z'
	}
	return false
}

func randomSecret(f find) bool { return looksRandom(f.secret) }
