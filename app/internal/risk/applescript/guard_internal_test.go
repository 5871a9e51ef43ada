package applescript

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pathUseByText is how stmtGuard.verbs read a word before it read the
// word's flags: the text folded, looked up in the three sets. It is the
// oracle pathUse must agree with.
func pathUseByText(w string) uint16 {
	w = strings.ToLower(w)
	var f uint16
	if asWrites[w] {
		f |= kfWrites
	}
	if asTree[w] {
		f |= kfTree
	}
	if asReads[w] {
		f |= kfReads
	}
	return f
}

// checkPathUse fails t unless pathUse gives every word token of src the
// flags its text gives it.
func checkPathUse(t *testing.T, src string) {
	t.Helper()
	lx := lexAppleScript(src)
	defer lx.release()
	for _, tok := range lx.toks {
		if tok.kind != asWord {
			continue
		}
		w := lx.text(tok)
		if got, want := pathUse(tok.kw, w), pathUseByText(w); got != want {
			t.Fatalf("word %q of %q: pathUse gives %#x, its text %#x", w, src, got, want)
		}
	}
}

// TestPathUse: each word of the three sets, in any case, a word outside
// them, and a Unicode letter that folds to ASCII (the Kelvin sign in
// "maKe"), are read as their texts are.
func TestPathUse(t *testing.T) {
	var words []string
	for _, set := range []map[string]bool{asWrites, asTree, asReads} {
		for w := range set {
			words = append(words, w, strings.ToUpper(w))
		}
	}
	src := strings.Join(words, " ") + "\nset x to \"a\" write \"b\"\nma\u212ae new file \u212aeep"
	checkPathUse(t, src)
	lx := lexAppleScript(src)
	defer lx.release()
	n := 0
	for _, tok := range lx.toks {
		if tok.kind == asWord && pathUse(tok.kw, lx.text(tok)) != 0 {
			n++
		}
	}
	if n < len(words)+1 {
		t.Fatalf("%d words with a path use in %q, want at least %d: the comparison compares nothing", n, src, len(words)+1)
	}
}

// FuzzPathUse: on any script, pathUse reads each word as its text does.
func FuzzPathUse(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "testdata", "bench", "tidy.applescript")); err == nil {
		f.Add(string(b))
	}
	f.Add("tell application \"Finder\" to DELETE file \"/tmp/x\"\nma\u212ae new folder")
	f.Fuzz(func(t *testing.T, src string) { checkPathUse(t, src) })
}

// TestCollectDefiners: collectDef changes nothing at a word that is not
// one of collectDefiners, which collect therefore passes by; at each
// definer it is called as before. Every word of every script of lexCases
// is tried, after the statements before it were collected.
func TestCollectDefiners(t *testing.T) {
	tried := 0
	for _, src := range lexCases(t) {
		lx := lexAppleScript(src)
		var v Verdict
		an := newAsAn(lx, &v, nil, 0)
		an.statements(func(st []asToken) {
			for i := range st {
				if st[i].kind != asWord && st[i].kind != asVar || st[i].kw.has(kfDefines) {
					continue
				}
				syms, defs := slices.Clone(an.symList), len(an.defList)
				hs, ps, subs, term := len(an.handlers), len(an.params), an.hasSubs, an.terminal
				an.collectDef(st, i)
				tried++
				if !slices.Equal(syms, an.symList) || defs != len(an.defList) || hs != len(an.handlers) ||
					ps != len(an.params) || subs != an.hasSubs || term != an.terminal {
					t.Fatalf("%q: collectDef at %q, no definer, changed what the script defines", src, an.text(st[i]))
				}
			}
			for i := range st {
				if st[i].kind == asWord || st[i].kind == asVar {
					an.collectDef(st, i) // as collect did, before the next statement
				}
			}
		})
		an.release()
		lx.release()
	}
	if tried < 10000 {
		t.Fatalf("collectDef tried at %d words: the comparison compares little", tried)
	}
}
