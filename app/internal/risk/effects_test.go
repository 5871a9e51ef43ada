package risk_test

import (
	"path/filepath"
	"testing"

	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// eachReason calls check on every reason of every case of the corpora
// (testdata/*.jsonl), assessed as TestCorpora assesses them.
func eachReason(t *testing.T, check func(file, id string, r risk.Reason)) {
	t.Helper()
	env := fixtureEnv(t)
	files, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpora in testdata: %v", err)
	}
	for _, path := range files {
		file := filepath.Base(path)
		for _, c := range loadCases(t, file) {
			kind, err := risk.ParseKind(c.Kind)
			if err != nil {
				t.Fatalf("%s: %v", c.ID, err)
			}
			for _, r := range risk.Assess(kind, c.Input, env).Reasons {
				check(file, c.ID, r)
			}
		}
	}
}

// calibrated reports what is wrong with r as a verdict made of effects:
// no effect, or a level other than the calibration table's for it.
func calibrated(r risk.Reason) string {
	switch {
	case r.Effect.Kind == 0:
		return "names no effect"
	case r.Level != effect.Calibrate(r.Effect.Kind, r.Effect.Mods):
		return "is " + r.Level.String() + ", its effect " + r.Effect.String() + " calibrates to " + r.Effect.Level().String()
	}
	return ""
}

// TestEveryReasonCalibrated: every reason of every corpus case names its
// effect, and its level is the calibration table's for that effect: the
// verdicts are made of effects (issue 24, item 1).
func TestEveryReasonCalibrated(t *testing.T) {
	eachReason(t, func(file, id string, r risk.Reason) {
		if why := calibrated(r); why != "" {
			t.Errorf("%s %s: %s (%q) %s", file, id, r.Rule, r.Text, why)
		}
	})
}
