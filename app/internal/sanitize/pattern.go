package sanitize

import (
	"path"
	"strings"
	"sync"
)

// Hole stands, in a pattern given to Pattern, for text computed at run time:
// any characters at all, "/" included.
const Hole = "\x00"

// Reach is how a path pattern meets a protected place.
type Reach int

// The reaches.
const (
	ReachNone   Reach = iota
	ReachHolds        // it may name a folder that holds the place
	ReachInside       // it may name the place itself, or something inside it
)

// PatternHit is a protected place a pattern may name, and how.
type PatternHit struct {
	Zone  Zone
	Reach Reach
}

// Pattern tells which protected places a shell path pattern may name:
// Airlock's own places, the credential stores of the user's own home and
// the system folders, at most one hit for each of those kinds (in that
// order), ReachInside preferred. The pattern is absolute or starts with ~
// or a Hole. Its elements may hold *, ? and [...] as a shell's globs do (a
// leading dot is matched only by a leading dot, as without dotglob), and
// "**" or any element holding a Hole stands for any number of elements.
// Like Classify it does no I/O and folds case and Unicode normalisation.
//
// A pattern with a Hole says little by itself ("$dir/x" could be anywhere),
// so it only hits a place when one of its own elements, not a Hole, lines
// up with an element of the place beyond the home folder: "$X/airlock/…"
// and "$X/.ssh" hit, "$X/report.txt" does not.
func (c *Config) Pattern(pat string) []PatternHit {
	m := c.model()
	elemsP, ok := m.patternElems(pat)
	if !ok {
		return nil
	}
	holes := strings.Contains(pat, Hole)
	if holes {
		// Only an element of its own can line up with a place: a pattern
		// of holes alone ("$dir", "$a/$b") hits nothing.
		literal := false
		for _, e := range elemsP {
			literal = literal || !e.any && !e.wild
		}
		if !literal {
			return nil
		}
	}
	var out []PatternHit
	var seen []bool // matchPlace's table, shared by the places
	add := func(kind ZoneKind, places []place) {
		best, bestPlace := ReachNone, place{}
		for _, pl := range places {
			if holes && !sharesElem(elemsP, pl) {
				continue // nothing of it can line up with this place
			}
			if r := matchPlace(elemsP, pl.keys, pl.fixed, holes, &seen); r > best {
				best, bestPlace = r, pl
				if r == ReachInside {
					break
				}
			}
		}
		if best != ReachNone {
			out = append(out, PatternHit{Zone{Kind: kind, Detail: bestPlace.what, Root: bestPlace.show}, best})
		}
	}
	pl := m.places()
	add(ZoneOwn, pl.own)
	add(ZoneCredential, pl.cred)
	add(ZoneSystem, pl.sys)
	return out
}

// placeSet is what Pattern matches against, worked out once per model.
type placeSet struct {
	once           sync.Once
	own, cred, sys []place
}

// place is a protected place as a list of deny keys. fixed is how many of
// its leading elements are the home folder's (a Hole lining up with them
// says nothing).
type place struct {
	keys  []string
	fixed int
	what  string
	show  string
}

// places lists the own places, the credential stores of the user's own
// home (under each of its spellings) and the system folders (with their
// /private twins), once.
func (m *model) places() *placeSet {
	ps := m.placeSet
	if ps == nil { // a model compiled for one call (Config.model)
		ps = &placeSet{}
	}
	ps.once.Do(func() { ps.own, ps.cred, ps.sys = m.listPlaces() })
	return ps
}

func (m *model) listPlaces() (own, cred, sys []place) {
	for _, o := range m.own {
		keys := make([]string, len(o.pat))
		for i, e := range o.pat {
			keys[i] = e.key
		}
		fixed := 0
		for _, b := range m.bases {
			if b.own && b.pat.prefixOf(keys) {
				fixed = len(b.pat)
			}
		}
		own = append(own, place{keys: keys, fixed: fixed, what: o.what, show: o.show})
	}
	t := compiledTables()
	for _, b := range m.bases {
		if !b.own {
			continue
		}
		for _, e := range t.credHome {
			keys := make([]string, 0, len(b.pat)+len(e.rel))
			for _, x := range b.pat {
				keys = append(keys, x.key)
			}
			literal := true
			for _, x := range e.rel {
				if x.any || x.suffix || x.prefix {
					literal = false
				}
				keys = append(keys, x.key)
			}
			if literal {
				cred = append(cred, place{keys: keys, fixed: len(b.pat), what: e.what, show: e.path})
			}
		}
	}
	for _, e := range t.system {
		keys := make([]string, len(e.rel))
		for i, x := range e.rel {
			keys[i] = x.key
		}
		sys = append(sys, place{keys: keys, what: e.what, show: e.path})
	}
	return own, cred, sys
}

// maxPatternElems bounds the elements Pattern matches one by one; past
// them a pattern is taken to go on with anything (which can only widen
// what it hits).
const maxPatternElems = 64

// patElem is one element of a pattern.
type patElem struct {
	text string // deny key (globs kept)
	glob bool
	wild bool // any one element
	any  bool // ** or a Hole: any number of elements
}

// patternElems splits a pattern into elements, expanding a leading ~.
func (m *model) patternElems(pat string) ([]patElem, bool) {
	switch {
	case pat == "~" || strings.HasPrefix(pat, "~/"):
		if m.home == "" {
			return nil, false
		}
		pat = m.home + pat[1:]
	case strings.HasPrefix(pat, "/"), strings.HasPrefix(pat, Hole):
	default:
		return nil, false
	}
	var out []patElem
	for _, e := range strings.Split(pat, "/") {
		switch {
		case e == "" || e == ".":
			continue
		case e == "**" || strings.Contains(e, Hole):
			if len(out) > 0 && out[len(out)-1].any {
				continue
			}
			out = append(out, patElem{any: true})
		case e == "..":
			// A pattern that climbs may be anywhere.
			out = append(out, patElem{any: true})
		case len(e) > maxNameBytes*4:
			// No name is this long: only a glob could match, and one this
			// long is taken to match any name (which can only widen what
			// it hits) rather than folded and matched at length.
			out = append(out, patElem{wild: true})
		default:
			out = append(out, patElem{text: denyKey(e), glob: strings.ContainsAny(e, "*?[")})
		}
		if len(out) == maxPatternElems {
			out = append(out, patElem{any: true})
			break
		}
	}
	return out, true
}

// matchPlace says how a pattern meets one place: whether some path it
// matches is the place, lies inside it, or holds it. With holes set, only
// matches where an element of the pattern lines up with an element of the
// place past fixed count.
func matchPlace(p []patElem, q []string, fixed int, holes bool, buf *[]bool) Reach {
	// seen[i][j][d]: state visited (pattern element i, place element j,
	// distinctive so far d); j == len(q) means inside the place.
	n, m := len(p), len(q)
	size := (n + 1) * (m + 1) * 2
	if cap(*buf) < size {
		*buf = make([]bool, size)
	}
	seen := (*buf)[:size]
	clear(seen)
	best := ReachNone
	var walk func(i, j int, d bool)
	walk = func(i, j int, d bool) {
		idx := (i*(m+1)+j)*2 + btoi(d)
		if seen[idx] || best == ReachInside {
			return
		}
		seen[idx] = true
		if i == n {
			if holes && !d {
				return
			}
			r := ReachHolds
			if j == m {
				r = ReachInside
			}
			if r > best {
				best = r
			}
			return
		}
		e := p[i]
		if e.any {
			walk(i+1, j, d) // it stands for nothing more
			if j < m {
				walk(i, j+1, d) // it swallows one more element of the place
			} else {
				walk(i+1, j, d) // inside: anything goes
			}
			return
		}
		if j == m {
			walk(i+1, j, d) // inside the place: any name
			return
		}
		if elemMatch(e, q[j]) {
			walk(i+1, j+1, d || j >= fixed)
		}
	}
	walk(0, 0, false)
	return best
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// elemMatch matches one element: a glob as a shell does (a leading dot
// only by a leading dot), anything else by its key.
func elemMatch(e patElem, name string) bool {
	if e.wild {
		return true
	}
	if !e.glob {
		return e.text == name
	}
	if strings.HasPrefix(name, ".") && !strings.HasPrefix(e.text, ".") {
		return false
	}
	ok, err := path.Match(e.text, name)
	return ok && err == nil
}

// sharesElem reports whether an element of the pattern (not a Hole) could
// match an element of the place past its home: a quick test before
// matchPlace for patterns with holes, which hit only through one.
func sharesElem(p []patElem, pl place) bool {
	for _, e := range p {
		if e.any || e.wild {
			continue
		}
		for _, k := range pl.keys[pl.fixed:] {
			if elemMatch(e, k) {
				return true
			}
		}
	}
	return false
}
