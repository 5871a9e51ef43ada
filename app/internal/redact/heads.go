package redact

import (
	"regexp"
	"regexp/syntax"
	"slices"
)

// An anchored rule is tried with its regexp at each of its keywords
// (anchoredMatches), and most tries fail: the keyword "sk" of a key that
// is sk and 32 hex digits occurs in every "desktop" and "task", and each
// try costs a run of the regexp. heads lets a try that cannot match be
// skipped for a few byte tests: the bytes the first places of any match
// can hold, read off the regexp's program. It only ever says no where the
// regexp would (FuzzHeads holds the two to the same finds).

// maxHeads is how many places from a match's start heads bounds.
const maxHeads = 12

// heads is the bytes each of the first n places of every match of a
// regexp can hold; a match is at least n bytes long. n is 0 where nothing
// is known, and heads then admits every text.
type heads struct {
	n   int
	set [maxHeads][4]uint64
}

// admits reports whether a match of the regexp can begin at the start of
// s: false only if none can.
func (h *heads) admits(s string) bool {
	if len(s) < h.n {
		return false
	}
	for j := range h.n {
		if c := s[j]; h.set[j][c>>6]&(1<<(c&63)) == 0 {
			return false
		}
	}
	return true
}

// headsOf walks re's program place by place from its start, as an NFA
// over all texts at once, and notes the bytes each place's instructions
// consume. It stops before a place where a match can end (the match may
// be that short), and after one where an instruction can consume a rune
// outside ASCII or any rune (that place admits every byte such a rune
// starts with; the places after it are no longer one byte each), and at
// maxHeads. Assertions (\b, ^) are passed as if they held, which admits
// more, never less.
func headsOf(re *regexp.Regexp) heads {
	var h heads
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil {
		return h
	}
	prog, err := syntax.Compile(tree.Simplify())
	if err != nil {
		return h
	}
	cur := closure(prog, nil, uint32(prog.Start))
	for j := 0; j < maxHeads && len(cur) > 0; j++ {
		if slices.ContainsFunc(cur, func(pc uint32) bool { return prog.Inst[pc].Op == syntax.InstMatch }) {
			return h
		}
		var next []uint32
		last := false // a rune of more than one byte can start here
		for _, pc := range cur {
			in := &prog.Inst[pc]
			switch in.Op {
			case syntax.InstRune, syntax.InstRune1:
				for c := range 0x80 {
					if in.MatchRune(rune(c)) {
						h.set[j][c>>6] |= 1 << (c & 63)
					}
				}
				if mayBeWide(in) {
					last = true
				}
				next = closure(prog, next, in.Out)
			case syntax.InstRuneAny, syntax.InstRuneAnyNotNL:
				h.set[j][0], h.set[j][1] = ^uint64(0), ^uint64(0) // \n too: admitting more is safe
				last = true
			}
		}
		h.n, cur = j+1, next
		if last {
			h.set[j][2], h.set[j][3] = ^uint64(0), ^uint64(0)
			return h
		}
	}
	return h
}

// closure appends to set the instructions reachable from pc without
// consuming a rune, each once: those that consume one or end a match, and
// the empty steps passed on the way (which headsOf passes over).
func closure(prog *syntax.Prog, set []uint32, pc uint32) []uint32 {
	for _, have := range set {
		if have == pc {
			return set
		}
	}
	in := &prog.Inst[pc]
	switch in.Op {
	case syntax.InstAlt, syntax.InstAltMatch:
		set = append(set, pc) // visited: a loop of empty steps ends here
		set = closure(prog, set, in.Out)
		return closure(prog, set, in.Arg)
	case syntax.InstCapture, syntax.InstEmptyWidth, syntax.InstNop:
		set = append(set, pc)
		return closure(prog, set, in.Out)
	case syntax.InstFail:
		return set
	}
	return append(set, pc)
}

// mayBeWide reports whether the rune instruction in can consume a rune
// outside ASCII: one in its ranges, or, folding case, the Kelvin sign and
// the long s, which fold to k and s.
func mayBeWide(in *syntax.Inst) bool {
	for _, r := range in.Rune {
		if r >= 0x80 {
			return true
		}
	}
	return in.MatchRune('\u212A') || in.MatchRune('\u017F')
}
