package facts_test

import (
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
)

// TestRowsDeclareEffects checks every row of the tables the analyzers
// weigh declares what it does (issue 24): each Objective-C method, each
// command of a known application's dictionary and each URL scheme names
// an effect, and the level kept for the readers of the old columns is the
// calibration table's for that effect, never one of its own.
func TestRowsDeclareEffects(t *testing.T) {
	for name, m := range facts.ObjCMethods {
		if m.Does.Kind == 0 {
			t.Errorf("ObjCMethods[%s] declares no effect", name)
		}
		if m.Level != m.Does.Level() {
			t.Errorf("ObjCMethods[%s]: level %v, its effect %v calibrates to %v", name, m.Level, m.Does, m.Does.Level())
		}
		if m.Effect == 0 {
			t.Errorf("ObjCMethods[%s] says nothing of how it is looked at", name)
		}
	}
	for key, a := range facts.Apps {
		if a.Does == nil {
			t.Errorf("Apps[%s] has no table of commands", key)
		}
		for w, e := range a.Does {
			if e.Kind == 0 {
				t.Errorf("Apps[%s]: command %q declares no effect", key, w)
			}
			if a.Verbs[w] != e.Level() {
				t.Errorf("Apps[%s]: command %q at %v, its effect %v calibrates to %v", key, w, a.Verbs[w], e, e.Level())
			}
		}
		if len(a.Verbs) != len(a.Does) {
			t.Errorf("Apps[%s]: %d levels for %d commands", key, len(a.Verbs), len(a.Does))
		}
	}
	for name, s := range facts.Schemes {
		if s.Does.Kind == 0 || s.Why == "" {
			t.Errorf("Schemes[%s] declares no effect or no reason", name)
		}
		if l, _ := facts.SchemeRisk(name); l != s.Does.Level() || s.Level != l {
			t.Errorf("Schemes[%s]: level %v, its effect %v calibrates to %v", name, l, s.Does, s.Does.Level())
		}
	}
}

// TestMenuItemEffect checks what a menu item's label is taken to do, and
// that a label naming nothing risky names no effect.
func TestMenuItemEffect(t *testing.T) {
	for _, c := range []struct {
		label string
		ok    bool
		want  level.Level
	}{
		{"Empty Trash…", true, level.Destructive},
		{"Empty", true, level.Destructive}, // a prefix of Empty Trash
		{"Move to Trash", true, level.Dangerous},
		{"Restart…", true, level.Dangerous},
		{"Force Quit", true, level.Dangerous},
		{"Reset Safari", true, level.Dangerous},
		{"Delete", true, level.Dangerous},
		{"Copy", false, level.Safe},
		{"Save", false, level.Safe},
	} {
		e, why, ok := facts.MenuItemEffect(c.label)
		if ok != c.ok || ok && (e.Level() != c.want || why == "") {
			t.Errorf("MenuItemEffect(%q) = %v %q %v; want %v at %v with a reason", c.label, e, why, ok, c.ok, c.want)
		}
		if l, _ := facts.MenuItemRisk(c.label); l != c.want {
			t.Errorf("MenuItemRisk(%q) = %v, want %v", c.label, l, c.want)
		}
	}
}
