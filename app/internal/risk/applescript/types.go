package applescript

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// The shared core's names, as the rest of this package reads them.
type (
	Verdict = rate.Verdict
	Reason  = rate.Reason
	Span    = rate.Span
	Env     = rate.Env
)

// set makes a set of the words of a space-separated list.
func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
