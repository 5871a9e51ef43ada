package shell

import (
	"mvdan.cc/sh/v3/syntax"
)

// slab hands out values of one type from chunks it keeps: reset makes them
// all free again without giving the memory back. What was handed out must
// not be used after a reset.
type slab[T any] struct {
	chunks [][]T
	c, n   int // the chunk in use, and how much of it is handed out
	total  int // the values the chunks hold
}

// slabChunk is the size of a slab's first chunk; each next one is twice the
// one before, up to slabChunkMax.
const (
	slabChunk    = 16
	slabChunkMax = 1 << 12
)

// take returns k zeroed values, side by side.
func (s *slab[T]) take(k int) []T {
	for s.c < len(s.chunks) {
		if ch := s.chunks[s.c]; s.n+k <= len(ch) {
			out := ch[s.n : s.n+k : s.n+k]
			s.n += k
			clear(out)
			return out
		}
		s.c++
		s.n = 0
	}
	size := max(k, min(slabChunk<<len(s.chunks), slabChunkMax))
	s.chunks = append(s.chunks, make([]T, size))
	s.total += size
	s.c, s.n = len(s.chunks)-1, k
	return s.chunks[s.c][:k:k]
}

// new returns one zeroed value.
func (s *slab[T]) new() *T { return &s.take(1)[0] }

func (s *slab[T]) reset() { s.c, s.n = 0, 0 }

// wipe zeroes every chunk, so that nothing they held is kept alive.
func (s *slab[T]) wipe() {
	for _, ch := range s.chunks {
		clear(ch)
	}
	s.reset()
}

// quickArena holds the nodes of the quick parser's trees (fastparse.go):
// the statements of a script read one at a time take their nodes from it,
// and once a statement is analysed the arena is reset for the next, so the
// memory an analysis allocates for its trees does not grow with the script.
type quickArena struct {
	stmts      slab[syntax.Stmt]
	calls      slab[syntax.CallExpr]
	bins       slab[syntax.BinaryCmd]
	ifs        slab[syntax.IfClause]
	redirects  slab[syntax.Redirect]
	words      slab[syntax.Word]
	lits       slab[syntax.Lit]
	sgls       slab[syntax.SglQuoted]
	dbls       slab[syntax.DblQuoted]
	params     slab[syntax.ParamExp]
	substs     slab[syntax.CmdSubst]
	stmtLists  slab[*syntax.Stmt]
	wordLists  slab[*syntax.Word]
	redirLists slab[*syntax.Redirect]
	partLists  slab[syntax.WordPart]
}

// slabs lists every slab of the arena once, for reset and wipe.
func (a *quickArena) slabs() [15]interface {
	reset()
	wipe()
} {
	return [...]interface {
		reset()
		wipe()
	}{
		&a.stmts, &a.calls, &a.bins, &a.ifs, &a.redirects,
		&a.words, &a.lits, &a.sgls, &a.dbls, &a.params,
		&a.substs, &a.stmtLists, &a.wordLists, &a.redirLists, &a.partLists,
	}
}

// reset hands every slab's values out again from the start.
func (a *quickArena) reset() {
	for _, s := range a.slabs() {
		s.reset()
	}
}

// wipe zeroes every slab, so that the arena keeps no tree alive.
func (a *quickArena) wipe() {
	for _, s := range a.slabs() {
		s.wipe()
	}
}

// big reports an arena grown past what is worth keeping for the next
// analysis: one long statement must not pin its nodes' memory for every
// analysis after it.
func (a *quickArena) big() bool {
	return a.lits.total+a.words.total+a.partLists.total > 3*maxKeptWords
}
