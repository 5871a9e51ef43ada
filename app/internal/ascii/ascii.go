// Package ascii holds the byte-level text helpers the judgement packages
// share. They fold ASCII letters only — never Unicode case folding, which
// would let ſ become S or K become K — and keep byte offsets unchanged.
package ascii

// Upper upper-cases ASCII letters; other bytes stay as they are.
func Upper(s string) string { return mapBytes(s, 'a', 'z', 'A'-'a') }

// Lower lower-cases ASCII letters; other bytes stay as they are.
func Lower(s string) string { return mapBytes(s, 'A', 'Z', 'a'-'A') }

// mapBytes shifts bytes in [lo, hi] by delta, copying only when one does.
func mapBytes(s string, lo, hi byte, delta int) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; lo <= c && c <= hi {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				if lo <= b[j] && b[j] <= hi {
					b[j] = byte(int(b[j]) + delta)
				}
			}
			return string(b)
		}
	}
	return s
}

// IsHex reports a hexadecimal digit.
func IsHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
