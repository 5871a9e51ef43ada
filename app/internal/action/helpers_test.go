package action_test

import (
	"reflect"
	"testing"

	"github.com/airlockhq/airlock/app/internal/action"
)

// withoutLines returns a plan's actions with their line numbers cleared, for
// comparing plans whose text differs in layout.
func withoutLines(p *action.Plan) []action.Action {
	if p == nil {
		return nil
	}
	out := make([]action.Action, len(p.Actions))
	for i, a := range p.Actions {
		a.Line = 0
		out[i] = a
	}
	return out
}

// samePlan reports whether two plans have the same actions, ignoring line
// numbers.
func samePlan(a, b *action.Plan) bool {
	return reflect.DeepEqual(withoutLines(a), withoutLines(b))
}

func mustParse(t testing.TB, src string) *action.Plan {
	t.Helper()
	p, err := action.Parse(src)
	if err != nil {
		if len(src) > 200 {
			src = src[:200] + "..."
		}
		t.Fatalf("Parse(%q): %v", src, err)
	}
	return p
}

// checkRoundTrip checks that p's canonical form parses back to p and is a
// fixed point.
func checkRoundTrip(t testing.TB, p *action.Plan) {
	t.Helper()
	text := p.String()
	q, err := action.Parse(text)
	if err != nil {
		t.Fatalf("canonical form does not parse: %v\n%s", err, text)
	}
	if !samePlan(p, q) {
		t.Fatalf("round trip changed the plan\nbefore: %#v\nafter:  %#v\ntext:\n%s", withoutLines(p), withoutLines(q), text)
	}
	if again := q.String(); again != text {
		t.Fatalf("String is not idempotent:\nfirst:  %q\nsecond: %q", text, again)
	}
}
