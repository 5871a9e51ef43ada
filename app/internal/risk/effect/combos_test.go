package effect_test

import (
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// TestCombosWeighMore: what a combination makes weighs at least what each
// of its halves does alone, so finding one can never lower a verdict; every
// row says why; the secret row's ways out are effect.WayOut's.
func TestCombosWeighMore(t *testing.T) {
	for i, c := range effect.Combos() {
		if c.Why == "" || c.Makes.Kind == 0 || len(c.Has) == 0 || len(c.With) == 0 {
			t.Errorf("combo %d is incomplete: %+v", i, c)
		}
		for _, k := range append(append([]effect.Kind{}, c.Has...), c.With...) {
			if half := effect.Calibrate(k, c.WithMods); c.Makes.Level() < half {
				t.Errorf("combo %d makes %v (%v), below its half %v (%v)", i, c.Makes, c.Makes.Level(), k, half)
			}
		}
		if c.Makes.Kind == effect.SecretOut {
			for _, k := range effect.Kinds() {
				in := false
				for _, w := range c.With {
					in = in || w == k
				}
				if in != effect.WayOut(k) {
					t.Errorf("the secret combo's ways out and effect.WayOut disagree on %v", k)
				}
			}
		}
	}
}

func TestCombine(t *testing.T) {
	secret := effect.Of(effect.ReadSecret).On("~/.ssh/id_ed25519")
	fetch := effect.Of(effect.Fetch).On("/tmp/x.sh")
	for _, c := range []struct {
		name string
		es   []effect.Effect
		want []effect.Kind // the kinds made, in order
		lvl  level.Level   // the heaviest made, when any
	}{
		{"nothing", nil, nil, 0},
		{"secret alone", []effect.Effect{secret}, nil, 0},
		{"way out alone", []effect.Effect{effect.Of(effect.Send)}, nil, 0},
		{"secret and mail", []effect.Effect{secret, effect.Of(effect.Send)}, []effect.Kind{effect.SecretOut}, level.Destructive},
		{"mail then secret", []effect.Effect{effect.Of(effect.Egress), secret}, []effect.Kind{effect.SecretOut}, level.Destructive},
		{"literal secret and upload", []effect.Effect{effect.Of(effect.HoldSecret), effect.Of(effect.Upload)}, []effect.Kind{effect.SecretOut}, level.Destructive},
		{"secret and a launch", []effect.Effect{secret, effect.Of(effect.Launch)}, nil, 0},
		{"download then run it", []effect.Effect{fetch, effect.Of(effect.Shell).On("/tmp/x.sh")}, []effect.Kind{effect.RunComputed}, level.Destructive},
		{"download then run another", []effect.Effect{fetch, effect.Of(effect.Shell).On("/tmp/y.sh")}, nil, 0},
		{"download then run unknown", []effect.Effect{fetch, effect.Of(effect.Shell)}, nil, 0},
		{"download, target unknown, then run", []effect.Effect{effect.Of(effect.Fetch), effect.Of(effect.Shell)}, nil, 0},
		{"download then open it runnable", []effect.Effect{fetch, effect.Of(effect.Launch, effect.Runnable).On("/tmp/x.sh")}, []effect.Kind{effect.RunComputed}, level.Destructive},
		{"download then view it", []effect.Effect{fetch, effect.Of(effect.Launch).On("/tmp/x.sh")}, nil, 0},
		{"write then run it", []effect.Effect{effect.Of(effect.Create).On("a.command"), effect.Of(effect.Run).On("a.command")}, []effect.Kind{effect.RunUnseen}, level.Dangerous},
		{"no kind", []effect.Effect{{}, {Target: "x"}}, nil, 0},
	} {
		got := effect.Combine(c.es)
		var kinds []effect.Kind
		heaviest := level.Safe
		for _, m := range got {
			kinds = append(kinds, m.Effect.Kind)
			heaviest = max(heaviest, m.Effect.Level())
			if m.Has == m.With || m.Has >= len(c.es) || m.With >= len(c.es) {
				t.Errorf("%s: bad pair %d, %d", c.name, m.Has, m.With)
			}
			if m.Combo.Same && m.Effect.Target != c.es[m.Has].Target {
				t.Errorf("%s: made %v, not on the shared target %q", c.name, m.Effect, c.es[m.Has].Target)
			}
		}
		if len(kinds) != len(c.want) {
			t.Errorf("%s: made %v, want %v", c.name, kinds, c.want)
			continue
		}
		for i := range kinds {
			if kinds[i] != c.want[i] {
				t.Errorf("%s: made %v, want %v", c.name, kinds, c.want)
			}
		}
		if len(got) > 0 && heaviest != c.lvl {
			t.Errorf("%s: heaviest %v, want %v", c.name, heaviest, c.lvl)
		}
	}
}
