package applescript

import (
	"fmt"
	"strings"
	"testing"
)

// TestNamesMatchTexts checks the names the lexer and the analyser give
// tokens: two tokens have the same name exactly when they have the same
// text, whatever their kind, wherever they stand (at the ends of the
// script, where the lexer cannot load eight bytes), however long.
func TestNamesMatchTexts(t *testing.T) {
	long := strings.Repeat("x", kwMaxLen+3)
	srcs := []string{
		"set x to 1\nset X to x & |x| & «class cfol» & folder & |folder| & \"x\"",
		"on run argv\nset " + long + " to argv\nreturn " + long + " & |" + long + "|\nend run",
		"copy \"a\" to ( \nset |(| to 2\nset |'s| to x's y\nset «event xxxxyyyy» to z",
		"a\nb\nab\nba\nabcdefghij\nabcdefghik\nabcdefghijklmnop\nabcdefghijklmnoq\naaaaaaaaaaaaaaaa\naaaaaaaaaaaaaaaaa\naaaaaaaa\naaaaaaaaa\nquit «event aevtquit»",
		"tell application \"Finder\"\n\tset target to (path to desktop folder)\nend tell\nscreenshotprefix screenshotPrefix",
		"x",
	}
	for _, src := range srcs {
		lx := lexAppleScript(src)
		an := newAsAn(lx, &Verdict{}, nil, 0)
		byText := map[string]asName{}
		byName := map[asName]string{}
		for _, tk := range lx.toks {
			if tk.kind == asEOL {
				continue
			}
			text, name := an.text(tk), an.name(tk)
			if tk.kind == asWord && tk.name != 0 && tk.name != an.lx.names.name(text) {
				t.Errorf("%q: the lexer named %q %d, the analyser %d", src, text, tk.name, an.lx.names.name(text))
			}
			if n, ok := byText[text]; ok && n != name {
				t.Errorf("%q: %q has names %d and %d", src, text, n, name)
			}
			if s, ok := byName[name]; ok && s != text {
				t.Errorf("%q: name %d stands for %q and %q", src, name, s, text)
			}
			if kw := lookupKW(text); kw != kwNone && name != asName(kw) {
				t.Errorf("%q: keyword %q named %d, want its id %d", src, text, name, kw)
			}
			byText[text], byName[name] = name, text
		}
		an.release()
		lx.release()
	}
}

// TestNameTableEmpties checks that an emptied table names afresh: a text
// named for one script is new to the next, past growth beyond the first
// room, and when the generation counter wraps around (the first and last
// rounds name the same texts, in other places: a slot kept from the first
// would give a text its old name).
func TestNameTableEmpties(t *testing.T) {
	nt := newNameTable()
	for round, prefix := range []string{"v", "w", "v"} {
		for k := range round + 1 {
			if n := nt.name(fmt.Sprintf("first%d", k)); n != maxKW+asName(k+1) {
				t.Fatalf("round %d: first%d is named %d, want %d", round, k, n, maxKW+asName(k+1))
			}
		}
		for i := range 400 { // past 256 slots: the table grows
			text, want := fmt.Sprintf("%s%d", prefix, i), maxKW+asName(round+2+i)
			if n := nt.name(text); n != want {
				t.Fatalf("round %d: %s is named %d, want %d: an earlier script's name was kept", round, text, n, want)
			}
			if n := nt.name(text); n != want {
				t.Fatalf("round %d: %s named again is %d, want %d", round, text, n, want)
			}
		}
		if round == 1 {
			nt.gen = 0xffff // the next empty wraps around
		}
		if !nt.empty() {
			t.Fatalf("round %d: a table of %d slots was not kept", round, len(nt.slots))
		}
	}
	if nt.gen != 2 {
		t.Fatalf("after a wrap and one more script, gen is %d, want 2", nt.gen)
	}
}
