package applescript

import (
	"os"
	"path/filepath"
	"testing"
)

// checkLexIndex checks the lists the lexer keeps beside its tokens, which
// the passes walk instead of the tokens: ends holds the index of every
// asEOL, in order, and the stream ends with one; strs holds the index of
// every string literal, in order. A literal missing from strs would be
// one the path guard never sees.
func checkLexIndex(t *testing.T, src string) {
	t.Helper()
	lx := lexAppleScript(src)
	defer lx.release()
	var ends, strs []int32
	for i, tok := range lx.toks {
		switch tok.kind {
		case asEOL:
			ends = append(ends, int32(i))
		case asString:
			strs = append(strs, int32(i))
		}
	}
	if len(lx.toks) == 0 || lx.toks[len(lx.toks)-1].kind != asEOL {
		t.Fatalf("the token stream of %q does not end with an end of statement", src)
	}
	if !equalInt32(ends, lx.ends) {
		t.Fatalf("ends of %q: got %v, the asEOL tokens are at %v", src, lx.ends, ends)
	}
	if !equalInt32(strs, lx.strs) {
		t.Fatalf("strs of %q: got %v, the string literals are at %v", src, lx.strs, strs)
	}
}

func equalInt32(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestLexIndex checks the lexer's lists on every kind of literal: plain,
// with escapes, curly-quoted, unterminated, «data …», and none.
func TestLexIndex(t *testing.T) {
	for _, src := range []string{
		"",
		"display dialog \"hi\"",
		"set a to \"one\" & \"t\\\"wo\"\nset b to “curly”\n\n",
		"do shell script \"ls",
		"set x to «data utf868656C6C6F» & \"x\"",
		"set x to «data utf8zz»\nlog \"y\"",
		"tell application \"Finder\" to delete file \"a\" ¬\n of folder \"b\"",
		"-- \"a comment\"\n(* \"nested\" (* \"x\" *) *)\nlog \"z\"",
		"set |\"v\"| to \"w\"",
		"\"\\",
	} {
		checkLexIndex(t, src)
	}
}

// FuzzLexIndex checks the lexer's lists on any input, seeded with the
// golden scripts.
func FuzzLexIndex(f *testing.F) {
	if b, err := os.ReadFile(filepath.Join("..", "testdata", "bench", "tidy.applescript")); err == nil {
		f.Add(string(b))
	}
	f.Add("set a to \"x\" & «data utf86869» & “y”\ndo shell script \"rm")
	f.Fuzz(func(t *testing.T, src string) {
		checkLexIndex(t, src)
	})
}
