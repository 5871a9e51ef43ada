package applescript

import (
	"context"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
)

// TestAppAllowed checks that an application the allowedApps setting does
// not list is at least Dangerous however the script names it, and that
// the listed ones, or no setting, change nothing.
func TestAppAllowed(t *testing.T) {
	allowed := func(name string) (bool, string) {
		if strings.EqualFold(name, "Finder") || strings.EqualFold(name, "com.apple.finder") {
			return true, ""
		}
		return false, "only Finder is listed"
	}
	env, end := (&Env{AppAllowed: allowed}).Begin(context.Background(), fakeShell{})
	defer end(&Verdict{})
	free, endFree := (&Env{}).Begin(context.Background(), fakeShell{})
	defer endFree(&Verdict{})
	for _, c := range []struct {
		script string
		denied bool
	}{
		{"tell application \"Finder\" to get name of front window", false},
		{"tell application id \"com.apple.finder\" to get name of front window", false},
		{"tell application \"Safari\" to get URL of document 1", true},
		{"tell application id \"com.apple.Safari\" to get URL of document 1", true},
		{"tell application (\"Saf\" & \"ari\") to get URL of document 1", true},
		{"tell application \"Finder\"\n\ttell application \"Mail\" to get name of account 1\nend tell", true},
		{"run script \"tell application \\\"Notes\\\" to get name of note 1\"", true},
		{"use application \"Music\"\nbeep", true},
	} {
		v := Rate(c.script, env, 0)
		got := false
		for _, r := range v.Reasons {
			if r.Rule == "as.app-not-allowed" {
				got = true
				if !strings.Contains(r.Text, "allowedApps") || !strings.Contains(r.Text, "only Finder is listed") {
					t.Errorf("%q: the reason %q does not name the setting and why", c.script, r.Text)
				}
			}
		}
		if got != c.denied || got && v.Level < level.Dangerous {
			t.Errorf("%q: %v; want denied %v", c.script, v, c.denied)
		}
		for _, r := range Rate(c.script, free, 0).Reasons {
			if r.Rule == "as.app-not-allowed" {
				t.Errorf("%q: denied with no setting: %v", c.script, r)
			}
		}
	}
}
