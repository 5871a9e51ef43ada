package rate

// The characters of words, as the AppleScript and JavaScript lexers read
// them.

// IsWordByte reports an ASCII byte of an identifier: a letter, a digit or _.
func IsWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// IsUnicodeSpace reports a non-ASCII character AppleScript reads as a
// blank (no-break, zero-width and the typographic spaces).
func IsUnicodeSpace(r rune) bool {
	switch r {
	case 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
		0x202f, 0x205f, 0x3000, 0xfeff, 0x200b, 0x2060, 0x85:
		return true
	}
	return false
}

// IsUnicodeLetter reports a non-ASCII character that can be part of a
// word: not a space, not one of AppleScript's operators (¬ « » “ ” ≠ ≤ ≥ ÷)
// and not a symbol of the general-punctuation-to-arrows blocks.
func IsUnicodeLetter(r rune) bool {
	return r >= 0xc0 && r != 0xd7 && r != 0xf7 && r != '¬' && r != '«' && r != '»' && !IsUnicodeSpace(r) &&
		(r < 0x2000 || r > 0x2bff) && r != '“' && r != '”' && r != '≠' && r != '≤' && r != '≥' && r != '÷'
}

// BulkCount is how many single deletes or sends make a bulk one (as the
// DSL's recipient limit), in every language.
const BulkCount = 10
