package risk_test

import (
	"path/filepath"
	"testing"

	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

func TestFxNet(t *testing.T) {
	env := fixtureEnv(t)
	files, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	for _, path := range files {
		for _, c := range loadCases(t, filepath.Base(path)) {
			if c.Kind != "shell" {
				continue
			}
			kind, _ := risk.ParseKind(c.Kind)
			v := risk.Assess(kind, c.Input, env)
			byRule := risk.UsesNetwork(v)
			byFx := false
			rules := ""
			for _, r := range v.Reasons {
				if effect.Network(r.Effect.Kind) {
					byFx = true
				}
				rules += " " + r.Rule + "=" + r.Effect.String()
			}
			if byRule != byFx {
				t.Logf("%s rule=%v fx=%v %v:%s", c.ID, byRule, byFx, v.Level, rules)
			}
		}
	}
}
