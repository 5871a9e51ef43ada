package glyph_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/airlockhq/airlock/glyph"
)

func TestDisguised(t *testing.T) {
	tests := []struct {
		name, in string
		want     []int // byte offsets
	}{
		{"ASCII", "tools.py", nil},
		{"a Cyrillic о in a Latin word", "t\u043eols.py", []int{1}},
		{"a Greek ο and a Cyrillic р", "\u03bfpen \u0440ip", []int{0, 6}},
		{"a word all in Cyrillic", "\u043f\u0440\u0438\u0432\u0435\u0442 world", nil},
		{"a word all in Greek", "\u03b1\u03b2\u03b3.txt", nil},
		{"digits do not make a word Latin", "\u043e1", nil},
		{"Armenian", "\u0585k", []int{0}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := slices.Sorted(maps.Keys(glyph.Disguised(tc.in)))
			if !slices.Equal(got, tc.want) {
				t.Errorf("Disguised(%q) = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

func TestVaries(t *testing.T) {
	for r, want := range map[rune]bool{
		'a': false, '.': false, '\ufe0f': false, '\ufffd': false,
		'\u2764': true, '\u6f22': true, '\u1820': true, '\u1810': false, // a Mongolian letter; a Mongolian digit
	} {
		if got := glyph.Varies(r); got != want {
			t.Errorf("Varies(%U) = %v, want %v", r, got, want)
		}
	}
}

func TestBlank(t *testing.T) {
	for r, want := range map[rune]bool{
		' ': false, 'a': false, '\t': false, '_': false,
		'\u00a0': true, '\u2002': true, '\u3000': true, '\u202f': true, '\u2800': true,
		'\u3164': true, '\uffa0': true, '\u034f': true, '\u115f': true,
	} {
		if got := glyph.Blank(r); got != want {
			t.Errorf("Blank(%U) = %v, want %v", r, got, want)
		}
	}
}
