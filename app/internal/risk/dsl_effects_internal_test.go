package risk

import (
	"testing"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// TestDSLCommandEffects: every command of the registry says what it does
// (dslEffects), and its effect weighs what the registry's Class says (the
// class the tools' descriptions show); the table names no command the
// registry lacks.
func TestDSLCommandEffects(t *testing.T) {
	known := map[string]bool{}
	for _, c := range action.Commands() {
		known[c.Name] = true
		e, ok := dslEffects[c.Name]
		if !ok {
			t.Errorf("%s: no effect in dslEffects", c.Name)
			continue
		}
		if e.Level() != c.Class {
			t.Errorf("%s: effect %v weighs %v, the registry's class is %v", c.Name, e, e.Level(), c.Class)
		}
	}
	for name := range dslEffects {
		if !known[name] {
			t.Errorf("dslEffects names %s, which the registry lacks", name)
		}
	}
	if e := commandEffect("NO_SUCH_COMMAND"); e.Kind != effect.Unknown {
		t.Errorf("an unknown command is %v, want unknown", e)
	}
}

// TestDSLReasonsCarryEffects: an action's reasons, and the plan's, name
// their effects, and the plan's total keeps each action's effect and its
// target.
func TestDSLReasonsCarryEffects(t *testing.T) {
	for _, src := range []string{
		"NOTIFY \"hi\"",
		"DELETE_FILE \"~/Documents/a.txt\"\nSEND_EMAIL to=\"a@example.com\" subject=\"s\" body=\"b\"",
		"COPY_TO_CLIPBOARD \"xoxb-2048117734-5098245617-q9ZxK2mV8pL4nR7sT1wB6cY3\"",
		"NOT_A_COMMAND",
	} {
		v := DSL(src, nil)
		if len(v.Reasons) == 0 {
			t.Errorf("%q: no reasons", src)
		}
		for _, r := range v.Reasons {
			if r.Effect.Kind == 0 {
				t.Errorf("%q: reason %s (%q) names no effect", src, r.Rule, r.Text)
			} else if r.Level != r.Effect.Level() {
				t.Errorf("%q: reason %s is %v, its effect %v weighs %v", src, r.Rule, r.Level, r.Effect, r.Effect.Level())
			}
			if r.Rule == "dsl.delete_file" && r.Effect != effect.Of(effect.Trash).On("~/Documents/a.txt") {
				t.Errorf("%q: the delete's effect is %v, want trash on ~/Documents/a.txt", src, r.Effect)
			}
		}
	}
}
