package facts_test

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
)

// TestObjCTables checks the Objective-C tables can be read without case
// (AppleScript has none): no two names differ only in it; every class a
// method names is one the table knows; every acting class says what it
// does and no method says nothing.
func TestObjCTables(t *testing.T) {
	seen := map[string]string{}
	for name, c := range facts.ObjCClasses {
		if other, ok := seen[strings.ToLower(name)]; ok {
			t.Errorf("classes %s and %s differ only in case", name, other)
		}
		seen[strings.ToLower(name)] = name
		if !c.Value && c.What == "" {
			t.Errorf("class %s acts but does not say what it does", name)
		}
	}
	seen = map[string]string{}
	for name, m := range facts.ObjCMethods {
		if other, ok := seen[strings.ToLower(name)]; ok {
			t.Errorf("methods %s and %s differ only in case", name, other)
		}
		seen[strings.ToLower(name)] = name
		if m.Effect == 0 {
			t.Errorf("method %s has no effect", name)
		}
		if m.Effect != facts.ObjCInert && m.What == "" {
			t.Errorf("method %s does not say what it does", name)
		}
		if m.Effect == facts.ObjCInert && m.Does.Level() != level.Safe {
			t.Errorf("method %s is inert at %v", name, m.Does)
		}
		for _, c := range strings.Fields(m.On) {
			if _, ok := facts.ObjCClasses[c]; !ok {
				t.Errorf("method %s belongs to %s, which is no class the table knows", name, c)
			}
		}
	}
}

// TestLookupObjCMethod reads one selector in every bridge's spelling.
func TestLookupObjCMethod(t *testing.T) {
	for _, sel := range []string{"removeItemAtPath", "removeItemAtPath:error:", "removeItemAtPath_error_",
		"removeitematpath", "REMOVEITEMATPATH_ERROR_", "removeItemAtPathError"} {
		key, m, ok := facts.LookupObjCMethod(sel)
		if !ok || key != "removeItemAtPath" || m.Does.Level() != level.Destructive {
			t.Errorf("LookupObjCMethod(%q) = %q, %v, %v; want removeItemAtPath, destructive", sel, key, m.Does, ok)
		}
	}
	for _, sel := range []string{"removeItem", "stringWithString", "removeitematpatherror", ""} {
		if key, _, ok := facts.LookupObjCMethod(sel); ok {
			t.Errorf("LookupObjCMethod(%q) = %q, want none", sel, key)
		}
	}
	if name, c, ok := facts.LookupObjCClass("nsfilemanager"); !ok || name != "NSFileManager" || c.Value {
		t.Errorf("LookupObjCClass(nsfilemanager) = %q, %v, %v", name, c, ok)
	}
}

// TestObjCSecuritySetting checks the preference writes that weaken a
// security control.
func TestObjCSecuritySetting(t *testing.T) {
	for _, c := range [][2]string{{"com.apple.screensaver", "askForPassword"}, {"COM.APPLE.SCREENSAVER", "askforpassword"},
		{"com.apple.alf", "globalstate"}, {"com.apple.LaunchServices", "LSQuarantine"}} {
		if !facts.ObjCSecuritySetting(c[0], c[1]) {
			t.Errorf("%s %s is not a security setting", c[0], c[1])
		}
	}
	for _, c := range [][2]string{{"com.apple.screensaver", "idleTime"}, {"com.apple.finder", "ShowPathbar"}, {"", ""}} {
		if facts.ObjCSecuritySetting(c[0], c[1]) {
			t.Errorf("%s %s is a security setting", c[0], c[1])
		}
	}
}
