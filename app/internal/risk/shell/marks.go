package shell

import (
	"slices"
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
	type occ struct{ start, end int }
	var all []occ
	for _, n := range needles {
		for at := 0; ; {
			i := strings.Index(src[at:], n)
			if i < 0 {
				break
			}
			all = append(all, occ{at + i, at + i + len(n)})
			at += i + 1
		}
	}
	slices.SortFunc(all, func(a, b occ) int { return a.start - b.start })
	m := &marks{start: make([]int, len(all)), minEnd: make([]int, len(all))}
	for i := len(all) - 1; i >= 0; i-- {
		m.start[i], m.minEnd[i] = all[i].start, all[i].end
		if i+1 < len(all) && m.minEnd[i+1] < m.minEnd[i] {
			m.minEnd[i] = m.minEnd[i+1]
		}
	}
	return m
}

// within reports whether an occurrence lies wholly in [start, end).
func (m *marks) within(start, end int) bool {
	i, _ := slices.BinarySearch(m.start, start)
	return i < len(m.start) && m.minEnd[i] <= end
}
