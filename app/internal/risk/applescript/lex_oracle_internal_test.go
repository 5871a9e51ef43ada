package applescript

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// sameLex fails t unless lexAppleScript reads src as the lexer before it
// (oldLexAppleScript, lexold_internal_test.go) did: the same tokens, each
// with the same text wherever it is kept, the same statement ends, string
// literals and problems. The names agree too: both tables give them out
// in the order the words come.
func sameLex(t *testing.T, src string) {
	t.Helper()
	got, want := lexAppleScript(src), oldLexAppleScript(src)
	defer got.release()
	if len(got.toks) != len(want.toks) {
		t.Fatalf("%q: %d tokens, the old lexer %d", src, len(got.toks), len(want.toks))
	}
	for k, g := range got.toks {
		w := want.toks[k]
		gt, wt := got.text(g), want.text(w)
		g.toff, w.toff = 0, 0 // where a text is kept differs; the text must not
		if g != w || gt != wt {
			t.Fatalf("%q: token %d is %+v %q, the old lexer's %+v %q", src, k, g, gt, w, wt)
		}
		if g.kind == asString && got.str(got.toks[k]) != strings.TrimPrefix(wt, "\"") {
			t.Fatalf("%q: string %d holds %q, the old lexer's %q", src, k, got.str(got.toks[k]), wt)
		}
	}
	if !slices.Equal(got.ends, want.ends) || !slices.Equal(got.strs, want.strs) ||
		got.unterminated != want.unterminated || got.badUTF8 != want.badUTF8 {
		t.Fatalf("%q: ends %v strs %v %q %v, the old lexer's %v %v %q %v", src, got.ends, got.strs,
			got.unterminated, got.badUTF8, want.ends, want.strs, want.unterminated, want.badUTF8)
	}
}

// lexCases are scripts for the comparison: every kind of token, in every
// case, at the end of the script and not; words of every length around
// the eight bytes the keyword look-up loads at once; and the golden
// AppleScripts of the facade's testdata.
func lexCases(t testing.TB) []string {
	cases := []string{
		"", "a", "A", "_", "9", "set", "SET", "Set x TO 5", "1E3", "1e3.5E2", "1E3.5E2", "1.5E3 ", "3.", "0x1F",
		"tell application \"Finder\" TO DELETE every FILE of Desktop",
		"set |My Var| to |Set| & |(| & |'s| & |'S| & |x\ny| & |open",
		"Finder's name, finder'S window, it's", "x'S", "'s", "'S",
		"set s to \"A\\\"b\\n\" & “Curly \\” Quote” & \"open", "\"\\",
		"«event SYSOEXEC» «EVENT aevtquit» «class CFOL» «Class Xyzw» «data utf848656C6C6F» «data TEXT41» «script» «event",
		"<<event sysoexec>> <<class cfol>>",
		"Déjà vu ÉTÉ naïveWORD ZZé1A", "ma\u212ae KELVIN\u212aX", "\u2028set x\u2029", "x ¬\ny", "\xff\xfe SET",
		"-- comment\n# hash\n(* Block (* NESTED *) *) Tell",
		"AVeryLongIdentifierName TheLongestKeyword0123456789 administrator ADMINISTRATOR applescript APPLESCRIPT",
		"x\tY\fz\vW\r\nq",
	}
	for n := 1; n <= 18; n++ {
		w := strings.Repeat("aB_9c", 4)[:n]
		for _, next := range []string{"", " ", "\n", "\"x\"", "(", "é", "-", "'s", ".5"} {
			cases = append(cases, w+next, strings.ToUpper(w)+next, "1"+w+next, "set "+w+next+" to "+w)
		}
	}
	if b, err := os.ReadFile(filepath.Join("..", "testdata", "bench", "tidy.applescript")); err == nil {
		cases = append(cases, string(b), strings.ToUpper(string(b)))
	} else {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join("..", "testdata", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var c struct{ Kind, Input string }
			if json.Unmarshal(sc.Bytes(), &c) == nil && c.Kind == "applescript" {
				cases = append(cases, c.Input)
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	return cases
}

// TestLexAsBefore holds the lexer to the old one on lexCases.
func TestLexAsBefore(t *testing.T) {
	cases := lexCases(t)
	if len(cases) < 500 {
		t.Fatalf("%d scripts: the golden AppleScripts were not read", len(cases))
	}
	for _, src := range cases {
		sameLex(t, src)
	}
}

// FuzzLexAsBefore: on any script, the lexer reads what the old one read.
func FuzzLexAsBefore(f *testing.F) {
	for _, src := range lexCases(f)[:40] {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) { sameLex(t, src) })
}

// TestFoldUpper checks the eight-byte lower-casing against lowerTable,
// for every byte in every place, beside bytes of every kind.
func TestFoldUpper(t *testing.T) {
	for c := range 256 {
		for p := range 8 {
			for _, fill := range []byte{'A', 'z', 0x80, 0xff, 0} {
				var b [8]byte
				for k := range b {
					b[k] = fill
				}
				b[p] = byte(c)
				got := foldUpper(binary.LittleEndian.Uint64(b[:]))
				for k := range b {
					if want := lowerTable[b[k]]; byte(got>>(8*k)) != want {
						t.Fatalf("foldUpper of %x: byte %d is %#x, lowerTable's %#x", b, k, byte(got>>(8*k)), want)
					}
				}
			}
		}
	}
}
