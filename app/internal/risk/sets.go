package risk

import "strings"

// set makes a set of the words of a space-separated list.
func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
