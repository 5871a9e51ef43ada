package effect_test

import (
	"encoding/json"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// TestEveryKindCalibrated: every kind has a base row (no mods) in the one
// calibration table, and no row is written twice.
func TestEveryKindCalibrated(t *testing.T) {
	base := map[effect.Kind]bool{}
	seen := map[[2]uint32]bool{}
	for _, r := range effect.Table() {
		key := [2]uint32{uint32(r.Kind), uint32(r.Mods)}
		if seen[key] {
			t.Errorf("calibration row %s (%s) written twice", r.Kind, r.Mods)
		}
		seen[key] = true
		if r.Mods == 0 {
			base[r.Kind] = true
		}
		if r.Why == "" {
			t.Errorf("calibration row %s (%s) has no reason", r.Kind, r.Mods)
		}
	}
	for _, k := range effect.Kinds() {
		if !base[k] {
			t.Errorf("kind %s has no base row in the calibration table", k)
		}
		if k.String() == "kind(?)" {
			t.Errorf("kind %d has no name", k)
		}
	}
}

// TestModsOnlyRaise: a row with mods never weighs less than its kind's base
// row, so adding a fact to an effect can never lower its level.
func TestModsOnlyRaise(t *testing.T) {
	for _, r := range effect.Table() {
		if base := effect.Calibrate(r.Kind, 0); r.Level < base {
			t.Errorf("%s (%s) is %s, below its base %s", r.Kind, r.Mods, r.Level, base)
		}
	}
}

func TestCalibrate(t *testing.T) {
	for _, c := range []struct {
		e    effect.Effect
		want level.Level
	}{
		{effect.Of(effect.Read), level.Safe},
		{effect.Of(effect.Trash), level.Dangerous},
		{effect.Of(effect.Trash, effect.Bulk), level.Destructive},
		{effect.Of(effect.Trash, effect.Bulk, effect.Computed), level.Destructive},
		{effect.Of(effect.Shell), level.Dangerous},
		{effect.Of(effect.Launch), level.Caution},
		{effect.Of(effect.Launch, effect.Terminal), level.Dangerous},
		{effect.Of(effect.Launch, effect.Computed, effect.Runnable), level.Destructive},
		{effect.Of(effect.SecurityOff), level.Destructive},
		{effect.Of(effect.Refused), level.Blocked},
		{effect.Of(effect.Signal, effect.Bulk), level.Caution}, // no row of Signal names bulk
	} {
		if got := c.e.Level(); got != c.want {
			t.Errorf("%s: %s, want %s", c.e, got, c.want)
		}
	}
}

func TestKindJSON(t *testing.T) {
	b, err := json.Marshal(effect.Of(effect.Remove).On("/tmp/x"))
	if err != nil || string(b) != `{"kind":"remove","target":"/tmp/x"}` {
		t.Fatalf("marshal: %s %v", b, err)
	}
	var e effect.Effect
	if err := json.Unmarshal(b, &e); err != nil || e.Kind != effect.Remove || e.Target != "/tmp/x" {
		t.Fatalf("unmarshal: %+v %v", e, err)
	}
	if err := json.Unmarshal([]byte(`{"kind":"nonsense"}`), &e); err == nil {
		t.Fatal("an unknown kind was read")
	}
}
