// Package glyph says which characters of a text a person cannot read as
// themselves: those that pass for other letters, and variation selectors
// that change nothing they can see. The popups (bridge) and the messages
// (app/internal/sanitize) escape what it finds, so that two different
// actions never look the same on screen.
//
// It uses the standard library only, imports nothing of Airlock's, and
// keeps no state: bridge, which imports nothing from app, and the pure
// packages of app, which import no platform code, may both use it.
package glyph

import (
	"unicode"
	"unicode/utf8"
)

// Disguised returns the byte offsets in s of the letters that pass for
// Latin ones in a word that mixes them with ASCII letters, or nil:
// "t\u043eols.py" (a Cyrillic о) reads as "tools.py" and is another file.
// Such a word has no use but to pass for another; a word all in Cyrillic,
// Greek or Armenian (text in those languages) has none. A word is a run of
// letters, digits and marks.
func Disguised(s string) map[int]bool {
	var out map[int]bool
	start, ascii, foreign := -1, false, false // the word being read begins at start
	end := func(at int) {
		if start >= 0 && ascii && foreign {
			for i, r := range s[start:at] {
				if LooksLatin(r) {
					if out == nil {
						out = map[int]bool{}
					}
					out[start+i] = true
				}
			}
		}
		start, ascii, foreign = -1, false, false
	}
	for i, r := range s {
		if r == utf8.RuneError || !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)) {
			end(i)
			continue
		}
		if start < 0 {
			start = i
		}
		ascii = ascii || r < 0x80 && unicode.IsLetter(r)
		foreign = foreign || LooksLatin(r)
	}
	end(len(s))
	return out
}

// LooksLatin reports the letters of the scripts whose letters most fonts
// draw like Latin ones: Cyrillic (а е о р с х), Greek (ο α ν), Armenian
// (ս օ) and Cherokee.
func LooksLatin(r rune) bool {
	return r >= 0x370 && unicode.IsLetter(r) && unicode.In(r, unicode.Cyrillic, unicode.Greek, unicode.Armenian, unicode.Cherokee)
}

// Varies reports a character a variation selector may follow and show as
// a change of its look: a symbol (emoji), an ideograph or a Mongolian
// letter, never ASCII or a variation selector. After anything else a
// variation selector changes nothing the person can see.
func Varies(r rune) bool {
	switch {
	case r < 0x80, r == utf8.RuneError, unicode.Is(unicode.Variation_Selector, r):
		return false
	case unicode.IsSymbol(r), unicode.Is(unicode.Han, r), unicode.Is(unicode.Mongolian, r) && unicode.IsLetter(r):
		return true
	}
	return false
}

// Blank reports a character drawn as nothing or as a space that is not
// U+0020: those Unicode says render as nothing (the Hangul fillers, the
// combining grapheme joiner …), braille's blank pattern, and every other
// space (no-break, en, em, ideographic …). "rm\u00a0-rf" reads as "rm -rf"
// and is one word.
func Blank(r rune) bool {
	return r != ' ' && unicode.Is(unicode.Zs, r) || r == 0x2800 || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r)
}
