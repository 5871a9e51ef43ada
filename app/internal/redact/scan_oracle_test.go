package redact

import (
	"slices"
	"strings"
	"testing"
)

// oldKeywords is the keyword scan keywords.scan replaced (a table of
// buckets by lower-case pair read at every byte), kept as the oracle the
// new scan must agree with hit for hit.
type oldKeywords struct {
	list    []string
	head    []uint32
	mask    []uint32
	buckets [][]int
	start   *[1 << 16]int32
}

func newOldKeywords(list []string) *oldKeywords {
	k := &oldKeywords{list: list, start: new([1 << 16]int32)}
	for i, w := range list {
		h, m := head4(w)
		k.head, k.mask = append(k.head, h), append(k.mask, m)
		key := uint16(w[0])<<8 | uint16(w[1])
		if k.start[key] == 0 {
			k.buckets = append(k.buckets, nil)
			k.start[key] = int32(len(k.buckets))
		}
		b := k.start[key] - 1
		k.buckets[b] = append(k.buckets[b], i)
	}
	return k
}

// scan is the old scan, as it was: the hits in the order it found them
// and the offsets of the lines.
func (k *oldKeywords) scan(s string) (hits []hit, lineStart []int) {
	lineStart = make([]int, 1, strings.Count(s, "\n")+2)
	if len(s) == 0 {
		return nil, lineStart
	}
	key := uint16(lowerTab[s[0]])
	for i := 0; i+1 < len(s); i++ {
		key = key<<8 | uint16(lowerTab[s[i+1]])
		if s[i] == '\n' {
			lineStart = append(lineStart, i+1)
			continue
		}
		b := k.start[key]
		if b == 0 {
			continue
		}
		var q uint32
		if i+4 <= len(s) {
			q = uint32(key>>8) | uint32(key&0xff)<<8 | uint32(lowerTab[s[i+2]])<<16 | uint32(lowerTab[s[i+3]])<<24
		} else {
			q, _ = head4(s[i:])
		}
		for _, w := range k.buckets[b-1] {
			if q&k.mask[w] != k.head[w] {
				continue
			}
			if p := k.list[w]; len(s)-i < len(p) || len(p) > 4 && !hasPrefixFold(s[i:], p) {
				continue
			}
			hits = append(hits, hit{int32(w), int32(i)})
		}
	}
	if n := len(s); s[n-1] == '\n' {
		lineStart = append(lineStart, n)
	}
	return hits, lineStart
}

// sameScan fails t unless the engine's scan of s finds what the old scan
// finds: the same keywords at the same places, and the same lines, read
// whole (lineStarts) or around each keyword (nearLines); and unless the
// rules it picks by keyword (rulesFor) are those whose keywords occur.
func sameScan(t *testing.T, e *engine, old *oldKeywords, s string) {
	t.Helper()
	hits, lineStart := old.scan(s)
	want := &index{k: e.kw, s: s}
	if len(hits) > 0 {
		want.group(hits)
	}
	got := e.kw.scan(s)
	if !slices.Equal(got.hits, want.hits) || !slices.Equal(got.pos, want.pos) || !slices.Equal(got.present, want.present) {
		t.Fatalf("scan(%q):\n got %v\nwant %v", s, got.hits, want.hits)
	}
	if ls := lineStarts(s); !slices.Equal(ls, lineStart) {
		t.Fatalf("lineStarts(%q) = %v, want %v", s, ls, lineStart)
	}
	want.lineStart = lineStart
	for _, p := range got.pos {
		for breaks := range 4 {
			r := &rule{breaks: breaks}
			near, _ := (&index{s: s}).nearLines(r, p)
			if whole := want.lines(r, p); near != whole {
				t.Fatalf("lines of %d±%d in %q: read near %v, from all lines %v", p, breaks, s, near, whole)
			}
		}
	}
	for tier := range e.tiers {
		if got.hits == nil {
			break // collect reads no rule
		}
		set := make([]uint64, (len(e.tiers[tier])+63)/64)
		e.rulesFor(got, tier, set)
		for i := range e.tiers[tier] {
			if picked := set[i/64]&(1<<(i%64)) != 0; picked != got.occurs(&e.tiers[tier][i]) {
				t.Fatalf("tier %d rule %s: picked %v, its keywords occur %v, in %q", tier, e.tiers[tier][i].kind, picked, !picked, s)
			}
		}
	}
}

// TestScanAsBefore compares the scan with the old one on the corpora,
// every keyword in every case form, and the edges of a text.
func TestScanAsBefore(t *testing.T) {
	e := theEngine()
	old := newOldKeywords(e.kw.list)
	texts := corpusTexts(t)
	for _, w := range e.kw.list {
		texts = append(texts, w, upper(w), "x"+w, w+"\n", "\n"+upper(w[:1])+w[1:]+"\n\n", w[:len(w)-1])
	}
	texts = append(texts, "", "a", "\n", "\n\n", strings.Join(e.kw.list, "\n"), strings.Join(e.kw.list, ""))
	n := 0
	for _, s := range texts {
		sameScan(t, e, old, s)
		hits, _ := old.scan(s)
		n += len(hits)
	}
	if n < len(e.kw.list) {
		t.Fatalf("%d hits in %d texts: the comparison compares nothing", n, len(texts))
	}
}

// FuzzKeywordScan: the scan finds what the old scan found, on any text.
func FuzzKeywordScan(f *testing.F) {
	e := theEngine()
	old := newOldKeywords(e.kw.list)
	for _, s := range []string{"", "sk", "SK-ant-", "password=\nkey", "x\nghp_abc\n", strings.Join(e.kw.list[:40], " ")} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { sameScan(t, e, old, s) })
}

// TestNearLinesBudget: reading around keywords stops once it has read
// twice the text, and lines then finds every line break once; the
// segments stay the same.
func TestNearLinesBudget(t *testing.T) {
	s := strings.Repeat("key ", 1000) + "\n" + strings.Repeat("token\n", 10)
	x := &index{s: s}
	r := &rule{breaks: 2}
	want := &index{s: s, lineStart: lineStarts(s)}
	for p := 0; p < 4000; p += 4 {
		if got, w := x.lines(r, p), want.lines(r, p); got != w {
			t.Fatalf("lines at %d: %v, want %v", p, got, w)
		}
	}
	if x.lineStart == nil {
		t.Fatalf("read %d bytes around keywords of a %d-byte text and never switched", x.read, len(s))
	}
}
