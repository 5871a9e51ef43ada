// Package redact owns one job: taking secrets out of text before Airlock
// stores or logs it. String replaces every API key, token, password and
// private key it recognises with a marker naming what was there, such as
// "[redacted:github-pat]", and leaves everything else byte for byte.
//
// Provider key formats come from gitleaks' maintained rule set (some 200
// providers, read through its config package at a pinned version), checked
// the way gitleaks checks them: keywords, the secret's submatch, a minimum
// entropy and gitleaks' allowlists. Airlock's own rules add what a log
// line needs beyond formats: PEM private key blocks (OpenSSH and PGP
// included), passwords in URLs, Authorization and bearer credentials, and
// name/value pairs whose name says they hold a secret (password=,
// "api_key": "…", --token …, <secret>…</secret>), plus a few formats of
// model providers.
//
// It must never grow a secret back: String is idempotent, a marker is never
// taken for a secret, and a value that is only partly a marker is replaced
// whole. It errs towards redacting: a value after "token:" or "password="
// is removed even when it looks harmless. What it cannot see it cannot
// remove: a bare password or a key with no recognisable format and no
// telling name beside it passes through, which is why the history seals
// the fields that can hold such text as well.
//
// Text printed encoded is decoded where it can be (base64, also of gzip,
// hex and reversed lines; encoded.go): an encoding whose plain text holds a
// secret goes whole. Find tells an analyzer where a text holds secrets
// (find.go): the same rules serve both.
//
// String takes time linear in its input: every rule reads only the lines
// near its keywords (see keywords.go), in three passes at most, and the
// encoded forms once more.
package redact

import (
	"regexp"
	"slices"
	"strings"
	"sync"
)

// String returns s with every secret it recognises replaced by a marker
// "[redacted:KIND]". Text that holds no secret is returned unchanged.
// String(String(s)) == String(s) for every s.
func String(s string) string {
	e := theEngine()
	var x *index
	for t := range e.tiers {
		if x == nil || x.s != s {
			x = e.kw.scan(s)
		}
		s = e.pass(x, t, true)
	}
	return encoded(s)
}

// Marker returns the marker that replaces a secret of the given kind.
func Marker(kind string) string { return "[redacted:" + kind + "]" }

// isMarker reports whether v is exactly one marker, so a rule seeing its
// own (or another rule's) output leaves it alone. A marker followed by
// more text is not a marker: "[redacted:x]hunter2" is redacted whole.
var isMarker = regexp.MustCompile(`^\[redacted:[a-z0-9-]+\]$`).MatchString

var markers = regexp.MustCompile(`\[redacted:[a-z0-9-]+\]`)

// The passes, in order. Each reads the text the one before left; within a
// pass every rule reads the same text and overlapping finds are merged.
// Structure comes first (a PEM block, a URL's password, an Authorization
// header are taken whole before a format rule sees a piece of them), then
// formats, then names, so the key in "api_key=sk-ant-…" is reported as an
// Anthropic key and the name/value rule then finds a marker and leaves it.
const (
	tierStructure = iota
	tierFormat
	tierName
	tiers
)

// engine is the compiled rule set.
type engine struct {
	tiers [tiers][]rule
	kw    *keywords
	users [tiers][][]int // per tier, each keyword's rules, ascending
	bare  [tiers][]int   // per tier, the rules without keywords (they read every text)
}

var (
	engineOnce sync.Once
	engineVal  *engine
)

// theEngine builds the rules on first use: compiling gitleaks' rule set
// takes tens of milliseconds, which commands that never redact need not pay.
func theEngine() *engine {
	engineOnce.Do(func() { engineVal = newEngine(slices.Concat(gitleaksRules(), ownRules())) })
	return engineVal
}

func newEngine(rules []rule) *engine {
	e := &engine{kw: newKeywords()}
	for _, r := range rules {
		r.prepare(e.kw)
		e.tiers[r.tier] = append(e.tiers[r.tier], r)
	}
	for t := range e.tiers {
		e.users[t] = make([][]int, len(e.kw.list))
		for i, r := range e.tiers[t] {
			if len(r.kw) == 0 {
				e.bare[t] = append(e.bare[t], i)
			}
			for _, w := range r.kw {
				if !slices.Contains(e.users[t][w], i) {
					e.users[t][w] = append(e.users[t][w], i)
				}
			}
		}
	}
	return e
}

// rulesFor sets in set, a bit set of the rules of tier t, those one of
// whose keywords occurs in x (index.occurs), or which have none. Going by
// the keywords found, not the rules, reads a few lists for a text with a
// few keywords instead of every rule of the tier.
func (e *engine) rulesFor(x *index, t int, set []uint64) {
	clear(set)
	for _, i := range e.bare[t] {
		set[i/64] |= 1 << (i % 64)
	}
	for j := 0; j < len(x.hits); j++ {
		w := x.hits[j].w
		if j > 0 && x.hits[j-1].w == w {
			continue // the hits come grouped by keyword
		}
		for _, i := range e.users[t][w] {
			set[i/64] |= 1 << (i % 64)
		}
	}
}

// found is one secret a rule found: s[lo:hi], by rule number prio in its
// pass (lower numbers name merged finds).
type found struct{ lo, hi, prio int }

// pass runs the rules of tier t over s. With fast false every rule reads
// all the lines around its keywords (lineSegments), without the
// shortcuts: the definition they must agree with.
func (e *engine) pass(x *index, t int, fast bool) string {
	finds := e.collect(x, t, fast)
	if len(finds) == 0 {
		return x.s
	}
	return e.replace(x.s, t, finds)
}

// maxAnchored is how many places a rule is tried at one by one
// (anchoredMatches); past it the rule reads its segments with one FindAll
// each. A try may read to the end of its line before it fails, so trying
// a rule at every dash of a line of ten thousand dashes took seconds
// (quadratic); one FindAll over the line is linear.
const maxAnchored = 64

// collect returns what the rules of tier t find in s (pass).
func (e *engine) collect(x *index, t int, fast bool) []found {
	return e.collectIn(x, t, fast, true)
}

// collectIn is collect, with the places an anchored rule is tried at
// first sifted by its heads (skip), or not (FuzzHeads compares the two).
func (e *engine) collectIn(x *index, t int, fast, skip bool) []found {
	s := x.s
	if x.hits == nil {
		return nil // no keyword, nothing to do
	}
	marks := x.markers()
	var finds []found
	add := func(prio int, r *rule, m []int) {
		if lo, hi, ok := r.secret(s, m, marks); ok {
			finds = append(finds, found{lo, hi, prio})
		}
	}
	var buf [8]uint64 // room for 512 rules: no allocation
	n := (len(e.tiers[t]) + 63) / 64
	set := buf[:min(n, len(buf))]
	if n > len(buf) {
		set = make([]uint64, n)
	}
	e.rulesFor(x, t, set)
	for i := range e.tiers[t] {
		r := &e.tiers[t][i]
		if set[i/64]&(1<<(i%64)) == 0 {
			continue // none of its keywords occurs (x.occurs)
		}
		if fast && r.anchored != nil && x.tries(r, skip) <= maxAnchored {
			x.anchoredMatches(r, skip, func(m []int) { add(i, r, m) })
			continue
		}
		segs := x.lineSegments(r)
		if fast {
			segs = x.segments(r)
		}
		for _, seg := range segs {
			for _, m := range r.re.FindAllStringSubmatchIndex(s[seg.lo:seg.hi], -1) {
				shift(m, seg.lo)
				add(i, r, m)
			}
		}
	}
	return finds
}

// shift moves the positions in m by d.
func shift(m []int, d int) {
	for j := range m {
		if m[j] >= 0 {
			m[j] += d
		}
	}
}

// replace puts a marker in place of each find, merging finds that overlap
// into one marker named by the first rule among them.
func (e *engine) replace(s string, t int, finds []found) string {
	slices.SortFunc(finds, func(a, b found) int {
		if a.lo != b.lo {
			return a.lo - b.lo
		}
		return a.prio - b.prio
	})
	var b strings.Builder
	b.Grow(len(s))
	last := 0
	for i := 0; i < len(finds); {
		cur := finds[i]
		for i++; i < len(finds) && finds[i].lo < cur.hi; i++ {
			cur.hi = max(cur.hi, finds[i].hi)
			cur.prio = min(cur.prio, finds[i].prio)
		}
		b.WriteString(s[last:cur.lo])
		b.WriteString(Marker(e.tiers[t][cur.prio].kind))
		last = cur.hi
	}
	b.WriteString(s[last:])
	return b.String()
}
