package shell

import (
	"slices"
	"sort"
	"strings"
)

// marks answers, in logarithmic time, whether a span of a text holds one of
// a few fixed strings. Asking strings.Contains of every command
// substitution instead would cost substitutions nested n deep n² steps.
type marks struct {
	start  []int // where each occurrence starts, ascending
	minEnd []int // minEnd[i]: the smallest end among occurrences i and after
}

func newMarks(src string, needles ...string) *marks {
	// Count first, to make the two arrays at their size in one piece.
	count := 0
	for _, n := range needles {
		count += strings.Count(src, n)
	}
	both := make([]int, 2*count)
	m := &marks{start: both[:0:count], minEnd: both[count:count]}
	sorted := true
	for _, n := range needles {
		for at := 0; ; {
			i := strings.Index(src[at:], n)
			if i < 0 {
				break
			}
			if k := len(m.start); k > 0 && m.start[k-1] > at+i {
				sorted = false
			}
			m.start = append(m.start, at+i)
			m.minEnd = append(m.minEnd, at+i+len(n))
			at += i + 1
		}
	}
	if !sorted {
		sort.Sort(byStart{m})
	}
	for i := len(m.start) - 2; i >= 0; i-- {
		m.minEnd[i] = min(m.minEnd[i], m.minEnd[i+1])
	}
	return m
}

// byStart sorts a marks' occurrences by where they start, before minEnd
// holds anything but each one's end.
type byStart struct{ m *marks }

func (b byStart) Len() int           { return len(b.m.start) }
func (b byStart) Less(i, j int) bool { return b.m.start[i] < b.m.start[j] }
func (b byStart) Swap(i, j int) {
	b.m.start[i], b.m.start[j] = b.m.start[j], b.m.start[i]
	b.m.minEnd[i], b.m.minEnd[j] = b.m.minEnd[j], b.m.minEnd[i]
}

// within reports whether an occurrence lies wholly in [start, end).
func (m *marks) within(start, end int) bool {
	i, _ := slices.BinarySearch(m.start, start)
	return i < len(m.start) && m.minEnd[i] <= end
}
