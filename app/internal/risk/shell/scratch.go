package shell

import (
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// scratch is memory one analysis, and the analyses nested in it, reuse from
// one simple command to the next: the lists of a command's words and the
// call records its row reads. A command takes what it needs and gives it
// back when it is done with it, so a command analysed while another is
// under way (the $(…) inside one of its words, a function body run with
// its input) takes other buffers, never one in use; so does a script and
// the quick parser whose arena holds its statements' nodes. Nothing here
// outlives the command or script that took it: a verdict holds strings,
// never these slices or nodes.
type scratch struct {
	words [][]word         // word buffers given back, each of length 0
	calls []*call          // call records given back
	stmts [][]*syntax.Stmt // lists of a pipeline's stages given back, each of length 0
	quick []*quickParser   // quick parsers and their arenas given back (fastparse.go)
}

// scratches keeps scratch between assessments, as bashParsers keeps
// parsers: the buffers hold no verdict, only memory to write the next
// command's words into.
var scratches = sync.Pool{New: func() any { return new(scratch) }}

// scratch returns the analysis's scratch, taking one from scratches on
// first use.
func (s *shellShared) scratch() *scratch {
	if s.scr == nil {
		s.scr = scratches.Get().(*scratch)
	}
	return s.scr
}

// release gives the analysis's scratch back to scratches: the analysis is
// over. A later use (an adopted analyser read again) takes another.
func (s *shellShared) release() {
	if s.scr != nil {
		scratches.Put(s.scr)
		s.scr = nil
	}
}

// takeWords returns an empty word buffer with room for at least n words.
func (s *scratch) takeWords(n int) []word {
	if k := len(s.words); k > 0 {
		buf := s.words[k-1]
		s.words = s.words[:k-1]
		if cap(buf) >= n {
			return buf
		}
	}
	return make([]word, 0, max(n, 16))
}

// maxKeptWords bounds a buffer kept for reuse: one long command line must
// not pin its words' memory for every command after it.
const maxKeptWords = 1 << 12

// giveWords takes back a buffer from takeWords, used up to len(buf):
// what it held is cleared so that the text it pointed to can be freed.
func (s *scratch) giveWords(buf []word) {
	if cap(buf) > maxKeptWords {
		return
	}
	clear(buf)
	s.words = append(s.words, buf[:0])
}

// takeCall returns a call record set to c.
func (s *scratch) takeCall(c call) *call {
	if k := len(s.calls); k > 0 {
		p := s.calls[k-1]
		s.calls = s.calls[:k-1]
		*p = c
		return p
	}
	p := new(call)
	*p = c
	return p
}

// giveCall takes back a record from takeCall; nothing may use it after.
func (s *scratch) giveCall(c *call) {
	*c = call{}
	s.calls = append(s.calls, c)
}

// takeStmts returns an empty list for a pipeline's stages.
func (s *scratch) takeStmts() []*syntax.Stmt {
	if k := len(s.stmts); k > 0 {
		l := s.stmts[k-1]
		s.stmts = s.stmts[:k-1]
		return l
	}
	return make([]*syntax.Stmt, 0, 8)
}

// giveStmts takes back a list from takeStmts.
func (s *scratch) giveStmts(l []*syntax.Stmt) {
	if cap(l) > maxKeptWords {
		return
	}
	clear(l)
	s.stmts = append(s.stmts, l[:0])
}

// takeQuick returns a quick parser with an empty arena. A script analysed
// while another is under way (sh -c inside one of its commands) takes
// another: the first one's nodes are still read.
func (s *scratch) takeQuick() *quickParser {
	if k := len(s.quick); k > 0 {
		p := s.quick[k-1]
		s.quick = s.quick[:k-1]
		return p
	}
	return &quickParser{ar: new(quickArena)}
}

// giveQuick takes back a parser from takeQuick; its trees are not read
// after. What they held is cleared so that the text they point into can
// be freed.
func (s *scratch) giveQuick(p *quickParser) {
	if p.ar.big() {
		return
	}
	p.ar.wipe()
	p.start("")
	clear(p.words[:cap(p.words)])
	clear(p.parts[:cap(p.parts)])
	clear(p.stmts[:cap(p.stmts)])
	clear(p.redirs[:cap(p.redirs)])
	s.quick = append(s.quick, p)
}
