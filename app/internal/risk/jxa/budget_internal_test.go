package jxa

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// TestJXAFoldingBudget: self-referencing folds that would take exponential
// time are cut off by the work budget, and what is cut off fails closed.
func TestJXAFoldingBudget(t *testing.T) {
	for name, src := range map[string]string{
		"self":  "var a = 'rm -rf ~/Documents; ';\n" + strings.Repeat("a = a + a + a + a;\n", 200) + "app.doShellScript(a);",
		"pair":  "var a = 'x', b = 'y';\n" + strings.Repeat("a = a + b; b = b + a;\n", 16) + "app.doShellScript(a);",
		"plus=": "var c = 'rm -rf ~ ';\n" + strings.Repeat("c += c;\n", 64) + "app.doShellScript(c);",
	} {
		var v rate.Verdict
		lx := lexJS(src)
		an := &jsAn{src: src, lx: lx, v: &v, defs: map[string][]jsDef{}, alias: map[string]string{}}
		an.collect()
		an.findLoops()
		an.scan()
		if an.work > jsWorkBudget+jsMaxFold {
			t.Errorf("%s: %d work units, over the budget %d", name, an.work, jsWorkBudget+jsMaxFold)
		}
		if v.Level < level.Destructive {
			t.Errorf("%s: %v, want destructive (a command the analyzer gave up on)", name, v.Level)
		}
	}
}
