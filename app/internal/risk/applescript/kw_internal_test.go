package applescript

import (
	"fmt"
	"strings"
	"testing"
)

// TestKeywordLookup checks that every vocabulary word is found by its
// text, wherever it stands in a script (at the start and the end, where
// the lexer's look-up cannot load eight bytes, and in between, in either
// case), and that
// texts one byte away from a word, or longer, or shorter, are not.
func TestKeywordLookup(t *testing.T) {
	if len(vocab.words) < int(kwNamed) {
		t.Fatalf("%d words, fewer than the %d named ones", len(vocab.words), kwNamed)
	}
	for id := kwID(1); int(id) < len(vocab.words); id++ {
		w := vocab.words[id]
		if got := lookupKW(w); got != id {
			t.Errorf("lookupKW(%q) = %d, want %d", w, got, id)
		}
		for _, pad := range []int{0, 3, 9} {
			for _, tail := range []int{0, 2, 11} {
				for _, form := range []string{w, strings.ToUpper(w)} {
					if strings.ContainsFunc(w, func(r rune) bool { return r >= 0x80 || !wordBytes[r] }) {
						break // set-volume: more than one token of a script
					}
					src := fmt.Sprintf("%*s%s%*s", pad, "", form, tail, "")
					lx := lexAppleScript(src)
					got := lx.toks[0].kw
					lx.release()
					if got != id {
						t.Errorf("the lexer's id of %q in %q = %d, want %d", w, src, got, id)
					}
				}
			}
		}
		for _, near := range []string{w + "s", w[:len(w)-1], "x" + w, w[:len(w)-1] + "~"} {
			if vocab.byWord[near] != kwNone {
				continue // a word itself
			}
			if got := lookupKW(near); got != kwNone {
				t.Errorf("lookupKW(%q) = %d (%q), want none", near, got, vocab.words[got])
			}
		}
	}
}

// TestVocabularyGrows interns many more words than the package has: full
// buckets make the table take new seeds and grow, and every word is still
// found.
func TestVocabularyGrows(t *testing.T) {
	v := newVocabulary()
	start := len(v.slots)
	for i := 0; len(v.words) < maxKW-1; i++ {
		v.intern(fmt.Sprintf("zz%dword", i))
	}
	for id := kwID(1); int(id) < len(v.words); id++ {
		lo, hi := packKW(v.words[id])
		if got := v.find(lo, hi, len(v.words[id])); got != id {
			t.Fatalf("%q: found %d, want %d", v.words[id], got, id)
		}
	}
	if len(v.slots) == start {
		t.Errorf("%d words in %d slots: the table never grew", len(v.words), start)
	}
}
