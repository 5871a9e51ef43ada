package applescript

import (
	"os"
	"path/filepath"
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
