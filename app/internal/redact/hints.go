package redact

// Rules are skipped unless one of their hints occurs in the text. The
// hints are found in one pass: a table indexed by each position's first
// two bytes (lower-cased) says which hints could start there.

const maxHints = 128

type hintSet [maxHints / 64]uint64

func (h *hintSet) add(i int)             { h[i/64] |= 1 << (i % 64) }
func (h *hintSet) meets(o *hintSet) bool { return h[0]&o[0] != 0 || h[1]&o[1] != 0 }
func (h *hintSet) empty() bool           { return h[0] == 0 && h[1] == 0 }

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

var (
	hintList    []string              // every distinct hint
	hintBuckets [][]int               // hints sharing their first two bytes
	hintStart   = new([1 << 16]uint8) // first two bytes → 1 + bucket, or 0
)

// hintIndex returns the number of hint h, adding it if new.
func hintIndex(h string) int {
	for i, x := range hintList {
		if x == h {
			return i
		}
	}
	if len(h) < 2 {
		panic("redact: hint " + h + " is shorter than two bytes")
	}
	hintList = append(hintList, h)
	if len(hintList) > maxHints {
		panic("redact: too many hints")
	}
	i := len(hintList) - 1
	k := uint16(h[0])<<8 | uint16(h[1])
	if hintStart[k] == 0 {
		hintBuckets = append(hintBuckets, nil)
		hintStart[k] = uint8(len(hintBuckets))
	}
	b := hintStart[k] - 1
	hintBuckets[b] = append(hintBuckets[b], i)
	return i
}

// hintsIn returns the set of hints that occur in s, ignoring ASCII case.
func hintsIn(s string) hintSet {
	var found hintSet
	for i := 0; i+1 < len(s); i++ {
		b := hintStart[uint16(lowerByte(s[i]))<<8|uint16(lowerByte(s[i+1]))]
		if b == 0 {
			continue
		}
		for _, h := range hintBuckets[b-1] {
			if hasPrefixFold(s[i:], hintList[h]) {
				found.add(h)
			}
		}
	}
	return found
}

// hasPrefixFold reports whether s starts with the lower-case prefix p,
// ignoring ASCII case in s.
func hasPrefixFold(s, p string) bool {
	if len(s) < len(p) {
		return false
	}
	for i := 0; i < len(p); i++ {
		if lowerByte(s[i]) != p[i] {
			return false
		}
	}
	return true
}
