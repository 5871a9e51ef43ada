package policy_test

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
)

func BenchmarkDecide(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		policy.Decide(policy.Autonomy(i%3), level.Level(i%5))
	}
}

// BenchmarkAllowed is the grant lookup the gate makes for every action that
// would be asked: one SHA-256 of a 4 KiB script and a map lookup.
func BenchmarkAllowed(b *testing.B) {
	g := policy.NewGrants(nil)
	text := strings.Repeat("tell application \"Finder\" to get name of every window\n", 75)
	for i := range 100 {
		if _, err := g.Allow(me, text+strings.Repeat(" ", i), textOnly, level.Dangerous, 0); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if !g.Allowed(me, text, textOnly, level.Dangerous) {
			b.Fatal("not allowed")
		}
	}
}
