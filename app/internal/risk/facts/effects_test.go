package facts_test

import (
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
)

// TestRowsDeclareEffects checks every row of the tables the analyzers
// weigh declares what it does (issue 24): each Objective-C method, each
// command of a known application's dictionary and each URL scheme names
// an effect (the level is the calibration table's for it, never one of
// the row's own: a row has none).
func TestRowsDeclareEffects(t *testing.T) {
	for name, m := range facts.ObjCMethods {
		if m.Does.Kind == 0 {
			t.Errorf("ObjCMethods[%s] declares no effect", name)
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
		}
	}
	for name, s := range facts.Schemes {
		if s.Does.Kind == 0 || s.Why == "" {
			t.Errorf("Schemes[%s] declares no effect or no reason", name)
		}
		if e, _ := facts.SchemeEffect(name); e != s.Does {
			t.Errorf("Schemes[%s]: SchemeEffect says %v, the row %v", name, e, s.Does)
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
	}
}
