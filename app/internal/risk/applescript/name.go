package applescript

import "sync"

// Names: the analyzer looks up the variables and handlers a script
// declares by the text of the tokens that name them, many times per
// statement. A name is a small number for that text, so those look-ups
// index a slice instead of hashing strings.

// asName is the name of a text within one script: a vocabulary word's kw,
// or a number of its own (from maxKW up) for any other text. Two tokens of
// a script have the same name exactly when they have the same text.
type asName uint32

// nameTable gives out the names of one script's texts that are not
// vocabulary words. Texts of at most kwMaxLen bytes are found by their
// packed form (packKW), like keywords; longer ones by a map.
type nameTable struct {
	slots []nameSlot // open addressing; a power of two, at most half full
	count int        // names given out
	// gen is the script the table serves: a slot written for another is
	// empty, so a pooled table is emptied by counting on, not by clearing
	// the room a large script once grew it to.
	gen  uint16
	long map[string]asName
}

type nameSlot struct {
	lo, hi uint64
	n      uint8
	gen    uint16 // the table's gen when the slot was written
	id     asName
}

// namePool reuses name tables between scripts.
var namePool = sync.Pool{New: func() any { return newNameTable() }}

func newNameTable() *nameTable { return &nameTable{slots: make([]nameSlot, 256), gen: 1} }

// maxPooledNames bounds the room a pooled table keeps.
const maxPooledNames = 1 << 14

// release empties the table and returns it to the pool; nt must not be
// used after.
func (nt *nameTable) release() {
	if nt.empty() {
		namePool.Put(nt)
	}
}

// empty empties the table for the next script, and reports whether it is
// worth keeping (false: too large).
func (nt *nameTable) empty() bool {
	if len(nt.slots) > maxPooledNames {
		return false
	}
	nt.gen++
	if nt.gen == 0 {
		// Slots of the generation that wrapped around would look
		// written: clear them, once every 65,535 scripts.
		clear(nt.slots)
		nt.gen = 1
	}
	clear(nt.long)
	nt.count = 0
	return true
}

// packed returns the name of the packed text (lo, hi, n), giving it one if
// it has none. Vocabulary words are not passed here.
func (nt *nameTable) packed(lo, hi uint64, n int) asName {
	mask := uint64(len(nt.slots) - 1)
	for h := nameHash(lo, hi, n) & mask; ; h = (h + 1) & mask {
		s := &nt.slots[h]
		if s.gen != nt.gen {
			nt.count++
			*s = nameSlot{lo: lo, hi: hi, n: uint8(n), gen: nt.gen, id: maxKW + asName(nt.count)}
			id := s.id
			if 2*nt.count > len(nt.slots) {
				nt.grow()
			}
			return id
		}
		if s.lo == lo && s.hi == hi && int(s.n) == n {
			return s.id
		}
	}
}

func nameHash(lo, hi uint64, n int) uint64 {
	h := (lo ^ hi*0xc2b2ae3d27d4eb4f ^ uint64(n)) * 0x9e3779b97f4a7c15
	return h ^ h>>29
}

// grow doubles the table, keeping this script's names (a new slot's gen,
// 0, is never the table's).
func (nt *nameTable) grow() {
	old := nt.slots
	nt.slots = make([]nameSlot, 2*len(old))
	mask := uint64(len(nt.slots) - 1)
	for _, s := range old {
		if s.gen != nt.gen {
			continue
		}
		h := nameHash(s.lo, s.hi, int(s.n)) & mask
		for nt.slots[h].gen == nt.gen {
			h = (h + 1) & mask
		}
		nt.slots[h] = s
	}
}

// word returns the keyword id and the name of the word w (the lexer's
// way, where w is too long, or too near the end of the script, for packed
// loads).
func (nt *nameTable) word(w string) (kwID, asName) {
	if len(w) > kwMaxLen {
		if id, ok := nt.long[w]; ok {
			return kwNone, id
		}
		return kwNone, nt.name(w)
	}
	lo, hi := packKW(w)
	if kw := vocab.find(lo, hi, len(w)); kw != kwNone {
		return kw, asName(kw)
	}
	return kwNone, nt.packed(lo, hi, len(w))
}

// name returns the name of text, giving it one if it has none.
func (nt *nameTable) name(text string) asName {
	if kw := lookupKW(text); kw != kwNone {
		return asName(kw)
	}
	if len(text) <= kwMaxLen {
		lo, hi := packKW(text)
		return nt.packed(lo, hi, len(text))
	}
	if id, ok := nt.long[text]; ok {
		return id
	}
	if nt.long == nil {
		nt.long = map[string]asName{}
	}
	nt.count++
	id := maxKW + asName(nt.count)
	nt.long[text] = id
	return id
}

// name returns the name of a token's text.
func (an *asAn) name(t asToken) asName {
	if t.name != 0 {
		return t.name
	}
	return an.lx.names.name(an.text(t))
}
