package risk

import (
	"maps"
	"slices"
)

// NetworkRules lists the rules UsesNetwork reads, for the tests.
func NetworkRules() []string { return slices.Sorted(maps.Keys(networkRules)) }
