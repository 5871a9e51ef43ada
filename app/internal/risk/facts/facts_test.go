package facts_test

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
)

// The maps' keys are unique by construction (the compiler refuses a
// duplicate key in a literal); the lists' entries must be too, and every
// key is compared lower case, so none may hold a capital.
func TestListsHoldNoDuplicates(t *testing.T) {
	for name, list := range map[string][]string{
		"RunnableExts":    facts.RunnableExts,
		"CommandRunners":  facts.CommandRunners,
		"RiskyMenuLabels": facts.RiskyMenuLabels,
	} {
		seen := map[string]bool{}
		for _, s := range list {
			if seen[s] {
				t.Errorf("%s: %q twice", name, s)
			}
			seen[s] = true
			if s != strings.ToLower(s) || s == "" {
				t.Errorf("%s: %q is not a lower-case name", name, s)
			}
		}
	}
}

func TestKeysAreLowerCase(t *testing.T) {
	for name, m := range map[string]map[string]bool{
		"Terminals": facts.Terminals, "ScriptRunners": facts.ScriptRunners, "GenericVerbs": facts.GenericVerbs,
		"AppVerbs": facts.AppVerbs, "StandardAdditions": facts.StandardAdditions,
	} {
		for k := range m {
			if k != strings.ToLower(k) {
				t.Errorf("%s: key %q is not lower case", name, k)
			}
		}
	}
	for k := range facts.Schemes {
		if k != strings.ToLower(k) {
			t.Errorf("Schemes: key %q is not lower case", k)
		}
	}
}

func TestAppIDsNameKnownApps(t *testing.T) {
	for id, key := range facts.AppIDs {
		if id != strings.ToLower(id) {
			t.Errorf("AppIDs: %q is not lower case", id)
		}
		if facts.Apps[key] == nil {
			t.Errorf("AppIDs: %q maps to %q, which Apps does not list", id, key)
		}
	}
	for key, app := range facts.Apps {
		if key != strings.ToLower(key) || app.Title == "" || app.Does == nil {
			t.Errorf("Apps: %q: want a lower-case key, a title and a verb table, got %+v", key, app)
		}
	}
}

func TestSchemes(t *testing.T) {
	for _, tc := range []struct {
		url    string
		scheme string
		ok     bool
		want   level.Level
	}{
		{"https://example.com", "https", true, level.Caution},
		{"spotify:track:1", "spotify", true, level.Caution},
		{"file:///etc/passwd", "file", true, level.Dangerous},
		{"javascript:alert(1)", "javascript", true, level.Dangerous},
		{"x-unknown-app://do", "x-unknown-app", true, level.Dangerous},
		{"/Users/me/a.txt", "", false, 0},
		{":nothing", "", false, 0},
		{"Https://example.com", "", false, 0}, // callers lower-case first
	} {
		s, ok := facts.URLScheme(tc.url)
		if s != tc.scheme || ok != tc.ok {
			t.Errorf("URLScheme(%q) = %q, %v; want %q, %v", tc.url, s, ok, tc.scheme, tc.ok)
			continue
		}
		if !ok {
			continue
		}
		if e, why := facts.SchemeEffect(s); e.Level() != tc.want || why == "" {
			t.Errorf("SchemeEffect(%q) = %v %q; want %v and a reason", s, e, why, tc.want)
		}
	}
}
