package redact

import (
	"math/bits"
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// A rule reads only the lines that hold one of its keywords (found in any
// ASCII case), and as many lines around them as a match of it can span;
// each such run of lines on its own. gitleaks asks only that a keyword
// occur somewhere in the text; keeping it to the lines keeps a git SHA in
// a long output from being taken for a Sourcegraph token because the word
// occurs a thousand lines away. lineSegments is that rule, as written.
//
// Two shortcuts read less and find the same (TestWindowsOnlySkip compares
// them with lineSegments on the corpora):
//   - a rule every match of which holds one of its keywords (read off its
//     regexp) reads only as far either side of each occurrence as its
//     longest match, widened so that no window starts or ends inside a
//     word;
//   - a rule every match of which begins with one of its keywords is
//     tried, anchored, at each occurrence and nowhere else.
//
// This is what keeps String fast on large text (command output runs to a
// MiB): most rules try a few bytes at each of their keywords instead of
// reading every line that holds one.

// keywords is the set of every rule's keywords, numbered.
type keywords struct {
	list    []string                    // lower case, at least two bytes
	pairs   *[1 << 10]uint64            // bit a<<8|b: bytes a, b, in any ASCII case, begin a keyword
	below   *[1 << 10]uint16            // how many bits of pairs precede each of its words
	ranked  []uint16                    // the bucket of each bit of pairs, in order
	tri     *[1 << (triBits - 6)]uint64 // bit triHash(a, b, c): a keyword may begin with a, b, c (folded: triFold)
	start   map[uint16]int              // first two bytes, lower case → their bucket
	buckets [][]cand                    // the keywords sharing their first two bytes (lower case)
	third   [][4]uint64                 // per bucket, the third bytes, in any case, of its keywords; all if one has two bytes
}

// cand is a keyword w in its bucket, with its first four bytes (fewer:
// zeros) as a little-endian word and the mask of the bytes it has, side by
// side so that a bucket is read in one sweep.
type cand struct {
	head, mask uint32
	w          int32
}

func newKeywords() *keywords {
	return &keywords{pairs: new([1 << 10]uint64), below: new([1 << 10]uint16), tri: new([1 << (triBits - 6)]uint64), start: map[uint16]int{}}
}

// add returns the number of keyword w, adding it if new. w must be lower
// case and at least two bytes long.
func (k *keywords) add(w string) int {
	if i := slices.Index(k.list, w); i >= 0 {
		return i
	}
	k.list = append(k.list, w)
	h, m := head4(w)
	i := len(k.list) - 1
	key := uint16(w[0])<<8 | uint16(w[1])
	b, ok := k.start[key]
	if !ok {
		b = len(k.buckets)
		k.start[key] = b
		k.buckets, k.third = append(k.buckets, nil), append(k.third, [4]uint64{})
		for _, a := range caseForms(w[0]) {
			for _, c := range caseForms(w[1]) {
				k.addPair(uint16(a)<<8|uint16(c), b)
			}
		}
	}
	k.buckets[b] = append(k.buckets[b], cand{h, m, int32(i)})
	k.addPrefix(w, b)
	return i
}

// addPrefix notes, in the filters scan reads before bucket b, how keyword
// w of b begins: its third byte in every case form (third), and its first
// three folded (tri); a keyword of two bytes lets any third byte through.
func (k *keywords) addPrefix(w string, b int) {
	var thirds []byte
	if len(w) == 2 {
		k.third[b] = [4]uint64{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
		for c := range 256 {
			thirds = append(thirds, byte(c))
		}
	} else {
		thirds = caseForms(w[2])
		for _, c := range thirds {
			k.third[b][c>>6] |= 1 << (c & 63)
		}
	}
	for _, c := range thirds {
		h := triHash(uint32(w[0])<<16 | uint32(w[1])<<8 | uint32(c))
		k.tri[h>>6] |= 1 << (h & 63)
	}
}

// addPair sets bit raw of pairs, its bucket b.
func (k *keywords) addPair(raw uint16, b int) {
	k.ranked = slices.Insert(k.ranked, k.rank(raw), uint16(b))
	k.pairs[raw>>6] |= 1 << (raw & 63)
	for j := int(raw>>6) + 1; j < len(k.below); j++ {
		k.below[j]++
	}
}

// rank is how many bits of pairs precede bit raw: where its bucket is in
// ranked, if it is set. A table of buckets by pair would take 128 KiB,
// which the scan would read from far caches.
func (k *keywords) rank(raw uint16) int {
	return int(k.below[raw>>6]) + bits.OnesCount64(k.pairs[raw>>6]&(1<<(raw&63)-1))
}

// caseForms returns the bytes that are c in any ASCII case.
func caseForms(c byte) []byte {
	if 'a' <= c && c <= 'z' {
		return []byte{c, c - 'a' + 'A'}
	}
	return []byte{c}
}

// index is where the keywords occur in one text.
type index struct {
	k         *keywords
	s         string
	lineStart []int    // offset of each line's first byte; nil until lines needs them all
	read      int      // how much nearLines has read
	hits      []hit    // the keywords found, by keyword then position; nil: none
	pos       []int    // hits' positions, in the same order
	present   []uint64 // bit set of the keywords that occur
	// marks are the markers already in s (markers), once looked for
	// (marked): every pass over s reads them.
	marks  [][]int
	marked bool
	// Room for the tables of a short text, which most texts are: the
	// index is then its only allocation.
	hitRoom     [16]hit
	posRoom     [16]int
	presentRoom [5]uint64
}

// markers returns where the markers String leaves ("[redacted:…]") are in
// the text, looked for once however many passes ask.
func (x *index) markers() [][]int {
	if !x.marked {
		x.marked = true
		if strings.Contains(x.s, "[redacted:") {
			x.marks = markers.FindAllStringIndex(x.s, -1)
		}
	}
	return x.marks
}

// hit is one keyword w found at p, as the scan finds them.
type hit struct{ w, p int32 }

// at returns where keyword w starts, ascending. The slice is the index's:
// callers do not change it.
func (x *index) at(w int) []int {
	lo := sort.Search(len(x.hits), func(i int) bool { return x.hits[i].w >= int32(w) })
	hi := lo
	for hi < len(x.hits) && x.hits[hi].w == int32(w) {
		hi++
	}
	return x.pos[lo:hi]
}

// scan finds every keyword in s, ignoring ASCII case. The hits are
// gathered in one slice and then grouped by keyword: a few allocations
// however many keywords occur.
//
// Most bytes begin no keyword: the loop carries the three bytes at each
// place as they stand in s (nothing is lowered) and tests them against
// tri, a hashed bit set of how keywords begin, case folded, which
// lets few places of ordinary text through; only those go on
// to the exact tests (candidate). Lines are found only if a rule asks
// (index.lines). oldKeywords, in the tests, is the scan this replaced,
// which read a 256 KiB table at every byte; TestScanAsBefore and
// FuzzKeywordScan hold the two to the same hits.
func (k *keywords) scan(s string) *index {
	x := &index{k: k, s: s}
	hits := x.hitRoom[:0]
	if len(s) >= 2 {
		// The loop runs over the third byte of each place (j), so that
		// reading it needs no bounds check; tri is checked for nil once,
		// here, not at every byte; each byte is folded (triFold) as it
		// comes in, so that the hash is one multiply (triSlot).
		tri := k.tri
		_ = tri[0]
		// Six places at a time: their eight bytes in one load, first
		// byte highest, folded at once (triFold in every byte); triSlot
		// reads only the low three bytes of what it is given, so each
		// place is a shift of the eight. The places go to candidate in
		// order, as one by one.
		j := 2
		for ; j+6 <= len(s); j += 6 {
			w := be64(s, j-2) | triFold8
			if h := triSlot(uint32(w >> 40)); tri[h>>6]&(1<<(h&63)) != 0 {
				hits = k.candidate(s, j-2, hits)
			}
			if h := triSlot(uint32(w >> 32)); tri[h>>6]&(1<<(h&63)) != 0 {
				hits = k.candidate(s, j-1, hits)
			}
			if h := triSlot(uint32(w >> 24)); tri[h>>6]&(1<<(h&63)) != 0 {
				hits = k.candidate(s, j, hits)
			}
			if h := triSlot(uint32(w >> 16)); tri[h>>6]&(1<<(h&63)) != 0 {
				hits = k.candidate(s, j+1, hits)
			}
			if h := triSlot(uint32(w >> 8)); tri[h>>6]&(1<<(h&63)) != 0 {
				hits = k.candidate(s, j+2, hits)
			}
			if h := triSlot(uint32(w)); tri[h>>6]&(1<<(h&63)) != 0 {
				hits = k.candidate(s, j+3, hits)
			}
		}
		t := uint32(s[j-2])<<8 | uint32(s[j-1]) | triFold&0xffff // the three bytes at j-2, folded, carried; above them, the byte before
		for ; j < len(s); j++ {
			t = t<<8 | uint32(s[j]) | triFold&0xff
			if h := triSlot(t); tri[h>>6]&(1<<(h&63)) != 0 {
				hits = k.candidate(s, j-2, hits)
			}
		}
		hits = k.candidate(s, len(s)-2, hits) // the last pair: no third byte
	}
	if len(hits) > 0 {
		x.group(hits)
	}
	return x
}

// triBits is the size of tri in bits, a power of two: 2^15 bits, 4 KiB,
// which stays in the nearest cache beside whatever the caller reads
// between scans. Folded, the keywords' beginnings set some 830 of its
// bits; in every case form they set 4,700, and a table in every case
// form that let as few places through took 16 KiB.
const triBits = 15

// triHash maps three bytes a<<16|b<<8|c to a bit of tri, folded
// (triFold); what t holds above them is shifted out.
func triHash(t uint32) uint32 { return triSlot(t | triFold) }

// triSlot is triHash of three bytes already folded: (t<<8) * 0x9E3779B1
// is t times the multiplier shifted left 8 (mod 2^32), one multiply.
func triSlot(t uint32) uint32 { return t * (0x9E3779B1 << 8 & 0xffffffff) >> (32 - triBits) }

// triFold sets bit 5 of each of three bytes: a letter's two cases become
// one (its lower case), and a few other bytes share a bit with another
// ('_' with DEL, '@' with '`'), which lets more places through to the
// exact tests, never fewer.
const triFold = 0x202020

// triFold8 is triFold in each of eight bytes.
const triFold8 = 0x2020202020202020

// be64 returns the eight bytes of s from i as a big-endian integer (one
// load and a byte swap): the first byte highest, as the scan carries them.
func be64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[7]) | uint64(s[6])<<8 | uint64(s[5])<<16 | uint64(s[4])<<24 |
		uint64(s[3])<<32 | uint64(s[2])<<40 | uint64(s[1])<<48 | uint64(s[0])<<56
}

// candidate appends to hits each keyword that begins at s[i], where the
// pair s[i:i+2] begins one; most do not get past the third byte.
func (k *keywords) candidate(s string, i int, hits []hit) []hit {
	raw := uint16(s[i])<<8 | uint16(s[i+1])
	if k.pairs[raw>>6]&(1<<(raw&63)) == 0 {
		return hits
	}
	b := int(k.ranked[k.rank(raw)])
	var c byte // the third byte; none (0) passes only where a keyword has two
	if i+2 < len(s) {
		c = s[i+2]
	}
	if k.third[b][c>>6]&(1<<(c&63)) == 0 {
		return hits
	}
	return k.match(s, i, k.buckets[b], hits)
}

// match appends to hits each keyword of bucket that begins at s[i].
func (k *keywords) match(s string, i int, bucket []cand, hits []hit) []hit {
	key := uint16(lowerTab[s[i]])<<8 | uint16(lowerTab[s[i+1]])
	var q uint32 // head4(s[i:]) without its loop, where four bytes remain
	if i+4 <= len(s) {
		q = uint32(key>>8) | uint32(key&0xff)<<8 | uint32(lowerTab[s[i+2]])<<16 | uint32(lowerTab[s[i+3]])<<24
	} else {
		q, _ = head4(s[i:])
	}
	for _, c := range bucket {
		// the first four bytes rule out most keywords of a bucket
		// without a loop; longer keywords are then compared whole
		if q&c.mask != c.head {
			continue
		}
		if p := k.list[c.w]; len(s)-i < len(p) || len(p) > 4 && !hasPrefixFold(s[i:], p) {
			continue
		}
		if hits == nil {
			hits = make([]hit, 0, 16)
		}
		hits = append(hits, hit{c.w, int32(i)})
	}
	return hits
}

// lineStarts returns the offset of each line's first byte: 0, and one past
// each line break (len(s) after a final one).
func lineStarts(s string) []int {
	starts := make([]int, 1, strings.Count(s, "\n")+2)
	for i := 0; ; {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return starts
		}
		i += j + 1
		starts = append(starts, i)
	}
}

// group keeps the hits, which come in the order of their positions,
// sorted by keyword (stable: each keyword's positions stay ascending),
// and fills pos and present. A few hits are sorted in place; many (a long
// text) by counting, in time linear in their number.
func (x *index) group(hits []hit) {
	if len(hits) <= 64 {
		slices.SortStableFunc(hits, func(a, b hit) int { return int(a.w - b.w) })
	} else {
		next := make([]int32, len(x.k.list)+1) // where each keyword's next hit goes
		for _, h := range hits {
			next[h.w+1]++
		}
		for w := 1; w < len(next); w++ {
			next[w] += next[w-1]
		}
		sorted := make([]hit, len(hits))
		for _, h := range hits {
			sorted[next[h.w]] = h
			next[h.w]++
		}
		hits = sorted
	}
	x.hits = hits
	if len(hits) <= len(x.posRoom) {
		x.pos = x.posRoom[:len(hits)]
	} else {
		x.pos = make([]int, len(hits))
	}
	if n := (len(x.k.list) + 63) / 64; n <= len(x.presentRoom) {
		x.present = x.presentRoom[:n]
	} else {
		x.present = make([]uint64, n)
	}
	for i, h := range hits {
		x.pos[i] = int(h.p)
		x.present[h.w/64] |= 1 << (h.w % 64)
	}
}

// occurs reports whether one of rule r's keywords occurs.
func (x *index) occurs(r *rule) bool {
	for _, w := range r.kw {
		if x.present[w/64]&(1<<(w%64)) != 0 {
			return true
		}
	}
	return len(r.kw) == 0
}

// count returns how many times rule r's keywords occur.
func (x *index) count(r *rule) int {
	n := 0
	for _, w := range r.kw {
		n += len(x.at(w))
	}
	return n
}

// tries returns how many places anchoredMatches would try rule r at
// (with skip, those its heads admit), or maxAnchored+1 if more.
func (x *index) tries(r *rule, skip bool) int {
	if !skip {
		return x.count(r)
	}
	n := 0
	for _, w := range r.kw {
		for _, p := range x.at(w) {
			if r.heads.admits(x.s[p:]) {
				if n++; n > maxAnchored {
					return n
				}
			}
		}
	}
	return n
}

// anchoredMatches calls found with each match of rule r, which must have
// an anchored form: every match begins at one of r's keywords, so r is
// tried there and nowhere else, in order, as FindAll would find them. One
// byte before the keyword goes along so that \b sees what precedes it.
// With skip, a place r's heads rule out is not tried.
func (x *index) anchoredMatches(r *rule, skip bool, found func(m []int)) {
	var at []int
	if len(r.kw) == 1 {
		at = x.at(r.kw[0]) // its positions, shared: read only
	} else {
		for _, w := range r.kw {
			at = append(at, x.at(w)...)
		}
		slices.Sort(at)
		at = slices.Compact(at)
	}
	end := -1 // where the last match ended
	for _, p := range at {
		if p < end || skip && !r.heads.admits(x.s[p:]) {
			continue
		}
		w := x.window(r, p, 0)
		var m []int
		if p == 0 {
			m = r.anchored.FindStringSubmatchIndex("\n" + x.s[:w.hi])
			shift(m, -1)
		} else {
			m = r.anchored.FindStringSubmatchIndex(x.s[p-1 : w.hi])
			shift(m, p-1)
		}
		if m == nil {
			continue
		}
		m[0] = p // not the byte of context
		end = m[1]
		found(m)
	}
}

// segment is the part s[lo:hi] of a text a rule reads.
type segment struct{ lo, hi int }

// segments returns the windows rule r reads, in order, merged where they
// overlap. A rule without keywords reads the whole text.
func (x *index) segments(r *rule) []segment {
	if len(r.kw) == 0 {
		return []segment{{0, len(x.s)}}
	}
	var segs []segment
	for _, w := range r.kw {
		for _, p := range x.at(w) {
			segs = append(segs, x.window(r, p, len(x.k.list[w])))
		}
	}
	return merge(segs)
}

// lineSegments returns the runs of lines rule r reads: those within
// r.breaks lines of a line that holds one of r's keywords, merged where
// they overlap. It is the definition the shortcuts must agree with.
func (x *index) lineSegments(r *rule) []segment {
	if len(r.kw) == 0 {
		return []segment{{0, len(x.s)}}
	}
	var segs []segment
	for _, w := range r.kw {
		for _, p := range x.at(w) {
			segs = append(segs, x.lines(r, p))
		}
	}
	return merge(segs)
}

// lines returns the lines within r.breaks of the one holding p, the last
// with its line break; the whole text if r.breaks < 0.
func (x *index) lines(r *rule, p int) segment {
	if r.breaks < 0 {
		return segment{0, len(x.s)}
	}
	if x.lineStart == nil {
		if seg, ok := x.nearLines(r, p); ok {
			return seg
		}
		x.lineStart = lineStarts(x.s)
	}
	line := sort.Search(len(x.lineStart), func(i int) bool { return x.lineStart[i] > p }) - 1
	lo := x.lineStart[max(line-r.breaks, 0)]
	hi := len(x.s)
	if next := line + r.breaks + 1; next < len(x.lineStart) {
		hi = x.lineStart[next]
	}
	return segment{lo, hi}
}

// nearLines is lines found by reading out from p to the line breaks
// around it, which for a few keywords in a text costs less than finding
// every line break of the text. What it reads counts against a budget of
// twice the text's length; past it, it reports false and lines finds
// every line break once (many keywords on long lines would otherwise
// read the same lines again and again).
func (x *index) nearLines(r *rule, p int) (segment, bool) {
	s := x.s
	lo := strings.LastIndexByte(s[:p], '\n') + 1
	for range r.breaks {
		if lo == 0 {
			break
		}
		lo = strings.LastIndexByte(s[:lo-1], '\n') + 1
	}
	hi := p
	for range r.breaks + 1 {
		j := strings.IndexByte(s[hi:], '\n')
		if j < 0 {
			hi = len(s)
			break
		}
		hi += j + 1
	}
	x.read += hi - lo
	return segment{lo, hi}, x.read <= 2*len(s)
}

// merge sorts segs and joins those that overlap.
func merge(segs []segment) []segment {
	if len(segs) == 0 {
		return nil
	}
	slices.SortFunc(segs, func(a, b segment) int { return a.lo - b.lo })
	out := segs[:1]
	for _, g := range segs[1:] {
		if last := &out[len(out)-1]; g.lo < last.hi {
			last.hi = max(last.hi, g.hi)
			continue
		}
		out = append(out, g)
	}
	return out
}

// window returns what rule r reads around a keyword of n bytes at p: its
// lines, or, when every match of r holds a keyword, no more of them than a
// match could reach from p.
func (x *index) window(r *rule, p, n int) segment {
	seg := x.lines(r, p)
	lo, hi := seg.lo, seg.hi
	if !r.clip || r.maxLen < 0 {
		return seg
	}
	a, b := max(lo, p+n-r.maxLen), min(hi, p+r.maxLen)
	// Out to the word's ends, so that \b sees them; a word longer than
	// maxWordReach takes the whole lines instead, which merge into one
	// segment: extending every window of a line of one endless word to
	// its ends took time quadratic in the line.
	for a > lo && isWord(x.s[a-1]) && isWord(x.s[a]) {
		if a--; max(lo, p+n-r.maxLen)-a > maxWordReach {
			return seg
		}
	}
	for b < hi && isWord(x.s[b-1]) && isWord(x.s[b]) {
		if b++; b-min(hi, p+r.maxLen) > maxWordReach {
			return seg
		}
	}
	return segment{a, b}
}

// maxWordReach is how far window extends a window to the ends of a word.
const maxWordReach = 256

func isWord(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= utf8.RuneSelf
}

// lowerTab is lowerByte as a table, for the scan's inner loop.
var lowerTab = func() (t [256]byte) {
	for c := range t {
		t[c] = lowerByte(byte(c))
	}
	return t
}()

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// head4 is s's first four bytes (fewer: zeros) in lower case as a
// little-endian word, and the mask of the bytes s has.
func head4(s string) (word, mask uint32) {
	for j := 0; j < 4 && j < len(s); j++ {
		word |= uint32(lowerByte(s[j])) << (8 * j)
		mask |= 0xff << (8 * j)
	}
	return word, mask
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

// Bounds past which a rule is taken to have none: it then reads whole
// lines (maxLen) or the whole text (maxBreaks).
const (
	maxBreaks = 16
	maxLength = 4096
)

// bounds returns the most line breaks and the most bytes a match of re can
// hold, each -1 if unbounded (or past maxBreaks, maxLength).
func bounds(re *syntax.Regexp) (breaks, length int) {
	breaks, length = measure(re, breaksOf), measure(re, lengthOf)
	if breaks > maxBreaks {
		breaks = -1
	}
	if length > maxLength {
		length = -1
	}
	return breaks, length
}

// measure adds up f over a match of re, taking the most of alternatives
// and repeats; -1 means without bound.
func measure(re *syntax.Regexp, f func(*syntax.Regexp) int) int {
	switch re.Op {
	case syntax.OpCapture, syntax.OpQuest:
		return measure(re.Sub[0], f)
	case syntax.OpStar, syntax.OpPlus:
		if measure(re.Sub[0], f) != 0 {
			return -1
		}
		return 0
	case syntax.OpRepeat:
		n := measure(re.Sub[0], f)
		switch {
		case n == 0:
			return 0
		case n < 0 || re.Max < 0:
			return -1
		}
		return n * re.Max
	case syntax.OpConcat, syntax.OpAlternate:
		total := 0
		for _, sub := range re.Sub {
			n := measure(sub, f)
			if n < 0 {
				return -1
			}
			if re.Op == syntax.OpConcat {
				total += n
			} else {
				total = max(total, n)
			}
		}
		return total
	}
	return f(re)
}

// breaksOf is the most line breaks a leaf of a regexp matches, where the
// pattern asks for them outright: a literal \n, (?s:.), [\s\S], [\r\n].
// White space that happens to take in a line break (\s, [\s'"]) is read
// within the line: a name and its value, a key and what ends it, sit on
// one line, and reading lines one at a time keeps each regexp run short.
func breaksOf(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			if r == '\n' {
				n++
			}
		}
		return n
	case syntax.OpCharClass:
		if inClass(re.Rune, '\n') && (!inClass(re.Rune, ' ') || inClass(re.Rune, 'a') || inClass(re.Rune, '0')) {
			return 1
		}
	case syntax.OpAnyChar:
		return 1
	}
	return 0
}

func inClass(ranges []rune, c rune) bool {
	for i := 0; i+1 < len(ranges); i += 2 {
		if ranges[i] <= c && c <= ranges[i+1] {
			return true
		}
	}
	return false
}

// lengthOf is the most bytes a leaf of a regexp matches.
func lengthOf(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		n := 0
		for _, r := range re.Rune {
			n += foldLen(r, re.Flags&syntax.FoldCase != 0)
		}
		return n
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return 0
		}
		return utf8.RuneLen(min(re.Rune[len(re.Rune)-1], utf8.MaxRune))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return utf8.UTFMax
	}
	return 0
}

// foldLen is the most bytes c matches: under (?i) k also matches the
// Kelvin sign (3 bytes) and s the long s (2 bytes); other ASCII letters
// fold only to ASCII.
func foldLen(c rune, fold bool) int {
	switch {
	case !fold:
		return utf8.RuneLen(c)
	case c == 'k' || c == 'K':
		return 3
	case c == 's' || c == 'S':
		return 2
	case c < utf8.RuneSelf:
		return 1
	}
	return utf8.UTFMax
}

// withoutLazyPrefix drops a leading lazy, optional run ([\w.-]{0,50}? in
// gitleaks' semi-generic rules) from re, and from each alternative of a
// top-level alternation. What the rest matches, its submatches included,
// is the same: the run only moves where a match starts, never which
// keyword it takes (the lazy run stops at the first that leads to a match,
// the one the rest finds first); TestLazyPrefixKeepsSecrets checks it on
// the corpora. Without it a regexp need not try fifty starts before each
// keyword, and the rule can be anchored at its keywords.
func withoutLazyPrefix(re *regexp.Regexp) *regexp.Regexp {
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil || re.NumSubexp() == 0 {
		return re // the secret is the whole match, run and all
	}
	changed := false
	if tree.Op == syntax.OpAlternate {
		for _, sub := range tree.Sub {
			changed = dropLazyRuns(sub) || changed
		}
	} else {
		changed = dropLazyRuns(tree)
	}
	if !changed {
		return re
	}
	short, err := regexp.Compile(tree.String())
	if err != nil || short.NumSubexp() != re.NumSubexp() {
		return re
	}
	return short
}

// dropLazyRuns removes the lazy runs that begin concatenation re (gitleaks'
// rules may have two, one inside a (?i:…) group) and reports whether it
// removed any.
func dropLazyRuns(re *syntax.Regexp) bool {
	if re.Op != syntax.OpConcat {
		return false
	}
	n := 0
	for n < len(re.Sub)-1 && lazyRun(re.Sub[n]) {
		n++
	}
	re.Sub = re.Sub[n:]
	return n > 0
}

func lazyRun(re *syntax.Regexp) bool {
	return re.Flags&syntax.NonGreedy != 0 && !hasCapture(re) &&
		(re.Op == syntax.OpStar || re.Op == syntax.OpRepeat && re.Min == 0 || re.Op == syntax.OpQuest)
}

func hasCapture(re *syntax.Regexp) bool {
	if re.Op == syntax.OpCapture {
		return true
	}
	for _, sub := range re.Sub {
		if hasCapture(sub) {
			return true
		}
	}
	return false
}

// leading returns literal strings, lower-cased, one of which begins every
// match of re, or nil if it cannot tell. whole says they are the whole
// matches, so that what follows re in a concatenation may extend them.
// Word-boundary assertions at the start are passed over: the anchored
// form reads the byte before the match.
func leading(re *syntax.Regexp) (lits []string, whole bool) {
	switch re.Op {
	case syntax.OpLiteral:
		b := make([]byte, 0, len(re.Rune))
		for _, c := range re.Rune {
			if c >= utf8.RuneSelf {
				return nil, false
			}
			b = append(b, lowerByte(byte(c)))
		}
		return []string{string(b)}, true
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1]-re.Rune[i] > 8 || re.Rune[i+1] >= utf8.RuneSelf {
				return nil, false
			}
			for c := re.Rune[i]; c <= re.Rune[i+1]; c++ {
				if l := string(lowerByte(byte(c))); !slices.Contains(out, l) {
					out = append(out, l)
				}
			}
		}
		if len(out) == 0 || len(out) > 8 {
			return nil, false
		}
		return out, true
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpCapture:
		return leading(re.Sub[0])
	case syntax.OpQuest:
		l, w := leading(re.Sub[0])
		if l == nil {
			return nil, false
		}
		return append(l, ""), w
	case syntax.OpPlus:
		l, _ := leading(re.Sub[0])
		return l, false
	case syntax.OpRepeat:
		if re.Min == 0 {
			return nil, false
		}
		l, _ := leading(re.Sub[0])
		return l, false
	case syntax.OpAlternate:
		var out []string
		whole := true
		for _, sub := range re.Sub {
			l, w := leading(sub)
			if l == nil {
				return nil, false
			}
			out, whole = append(out, l...), whole && w
		}
		return out, whole
	case syntax.OpConcat:
		acc := []string{""}
		for i, sub := range re.Sub {
			if i == 0 && (sub.Op == syntax.OpWordBoundary || sub.Op == syntax.OpNoWordBoundary) {
				continue
			}
			l, w := leading(sub)
			if l == nil || len(acc)*len(l) > 256 {
				return nonEmpty(acc), false
			}
			var next []string
			for _, a := range acc {
				for _, b := range l {
					next = append(next, a+b)
				}
			}
			acc = next
			if !w {
				return acc, false
			}
		}
		return acc, true
	}
	return nil, false
}

// nonEmpty returns lits, or nil if one of them is empty: a match could
// then begin with anything.
func nonEmpty(lits []string) []string {
	if slices.Contains(lits, "") {
		return nil
	}
	return lits
}

// anchor returns the anchored form of re, or nil if some match of re need
// not begin with one of words, or a match may span any number of lines: a
// regexp that matches re at the second
// byte of its input, the first being the byte before the match.
func anchor(re *regexp.Regexp, words []string) *regexp.Regexp {
	tree, err := syntax.Parse(re.String(), syntax.Perl)
	if err != nil || len(words) == 0 || measure(tree, breaksOf) < 0 {
		// Unbounded across lines, an anchored try at each keyword
		// could read to the end of the text each time.
		return nil
	}
	lits, _ := leading(tree)
	if nonEmpty(lits) == nil {
		return nil
	}
	for _, l := range lits {
		if !slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(l, w) }) {
			return nil
		}
	}
	a, err := regexp.Compile(`^(?s:.)(?:` + re.String() + `)`)
	if err != nil || a.NumSubexp() != re.NumSubexp() {
		return nil
	}
	return a
}

// holds reports whether every match of re holds one of words (lower case,
// matched in any ASCII case): some part every match must pass through
// matches only literals that contain one.
func holds(re *syntax.Regexp, words []string) bool {
	if literalsHold(re, words) {
		return true
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return holds(re.Sub[0], words)
	case syntax.OpRepeat:
		return re.Min > 0 && holds(re.Sub[0], words)
	case syntax.OpAlternate:
		return !slices.ContainsFunc(re.Sub, func(sub *syntax.Regexp) bool { return !holds(sub, words) })
	case syntax.OpConcat:
		if slices.ContainsFunc(re.Sub, func(sub *syntax.Regexp) bool { return holds(sub, words) }) {
			return true
		}
		// A keyword may span parts: ".atlasv1." in \.(?-i:atlasv1)\.
		for i := range re.Sub {
			for j := i + 2; j <= len(re.Sub) && j-i < len(re.Sub); j++ {
				if literalsHold(&syntax.Regexp{Op: syntax.OpConcat, Sub: re.Sub[i:j]}, words) {
					return true
				}
			}
		}
	}
	return false
}

// literalsHold reports whether re matches only literals each of which
// contains one of words.
func literalsHold(re *syntax.Regexp, words []string) bool {
	lits, whole := leading(re)
	if !whole || lits == nil {
		return false
	}
	return !slices.ContainsFunc(lits, func(l string) bool {
		return !slices.ContainsFunc(words, func(w string) bool { return strings.Contains(l, w) })
	})
}
