package policy_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
)

// appsEnv is the Env of settings whose allowed apps are apps, in a
// temporary home with Documents.
func appsEnv(t *testing.T, apps []string) *risk.Env {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("AIRLOCK_DATA_DIR", filepath.Join(home, "airlock-data"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	if err := os.MkdirAll(filepath.Join(home, "Documents"), 0o700); err != nil {
		t.Fatal(err)
	}
	s := policy.DefaultSettings()
	s.AllowedApps = apps
	env, err := s.Env(home, 0)
	if err != nil {
		t.Fatal(err)
	}
	env.Launch = textViewer{} // what opens a file is not this test's subject
	return env
}

// textViewer resolves every launch to a text viewer.
type textViewer struct{}

func (textViewer) FileHandler(string, string) (facts.Handler, error) {
	return facts.Handler{Platform: facts.Linux, ID: "org.gnome.gedit", Name: "gedit", Program: "/usr/bin/gedit"}, nil
}
func (v textViewer) URLHandler(string) (facts.Handler, error) { return v.FileHandler("", "") }

func TestAssessAllowedApps(t *testing.T) {
	for _, tc := range []struct {
		name string
		apps []string
		plan string
		want level.Level
		says string // in the reasons, when blocked
	}{
		{"listed app", []string{"Safari"}, `OPEN_APP "Safari"`, level.Caution, ""},
		{"listed app in another spelling", []string{"Safari"}, `ACTIVATE_APP "safari.app"`, level.Caution, ""},
		{"open an app outside the list", []string{"Safari"}, `OPEN_APP "Terminal"`,
			level.Blocked, `line 1: blocked: "Terminal" is not in allowedApps (settings.json); add it there to allow OPEN_APP`},
		{"quit an app outside the list", []string{"Safari"}, `QUIT_APP "Terminal"`, level.Blocked, "to allow QUIT_APP"},
		{"activate an app outside the list", []string{"Safari"}, `ACTIVATE_APP "Terminal.app"`, level.Blocked, "to allow ACTIVATE_APP"},
		{"lower case", []string{"Safari"}, `OPEN_APP "terminal"`, level.Blocked, `"terminal" is not in allowedApps`},
		{"look-alike of a listed app", []string{"Safari"}, "OPEN_APP \"S\u0430fari\"", level.Blocked, "allowedApps"},
		{"a listed app behind a space", []string{"Safari"}, `OPEN_APP " Safari"`, level.Blocked, "white space"},
		{"a path", []string{"Safari"}, `OPEN_APP "/System/Applications/Utilities/Terminal.app"`, level.Blocked, "is a path"},
		{"open a file with an app outside the list", []string{"Safari"}, `OPEN_FILE "~/Documents/a.txt" "Terminal"`, level.Blocked, "to allow OPEN_FILE"},
		{"open a file with its default app", []string{"Safari"}, `OPEN_FILE "~/Documents/a.txt"`, level.Caution, ""},
		{"the second line", []string{"Safari"}, "OPEN_APP \"Safari\"\nQUIT_APP \"Finder\"", level.Blocked, `line 2: blocked: "Finder"`},
		{"an empty list allows none", []string{}, `OPEN_APP "Safari"`, level.Blocked, "which is empty"},
		{"* allows any", []string{"*"}, `OPEN_APP "Notes"`, level.Caution, ""},
		{"* allows Terminal, dangerous as a terminal", []string{"*"}, `OPEN_APP "Terminal"`, level.Dangerous, "terminal or script runner"},
		{"the default allows every app", nil, `OPEN_APP "Notes"`, level.Caution, ""},
		{"the default does not block Terminal", nil, `OPEN_APP "Terminal"`, level.Dangerous, "terminal or script runner"},
		{"not an app command", []string{"Safari"}, `NOTIFY "Terminal" "Terminal"`, level.Safe, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			apps := tc.apps
			if apps == nil {
				apps = policy.DefaultSettings().AllowedApps
			}
			env := appsEnv(t, apps)
			v, err := risk.AssessContext(context.Background(), risk.KindDSL, tc.plan, env)
			if err != nil {
				t.Fatal(err)
			}
			if v.Level != tc.want {
				t.Fatalf("%q: %v, want %v", tc.plan, v, tc.want)
			}
			if tc.says != "" && !strings.Contains(strings.Join(v.Texts(), "\n"), tc.says) {
				t.Errorf("reasons %q do not say %q", v.Texts(), tc.says)
			}
			if v.Level == level.Blocked && v.Reasons[0].Level != level.Blocked {
				t.Errorf("the blocking reason is not first: %q", v.Texts())
			}
		})
	}
}

// An app outside the list blocks its action and the plan, with one reason
// that points at the action's line.
func TestPlanOutsideAllowedApps(t *testing.T) {
	env := appsEnv(t, []string{"Safari"})
	src := "NOTIFY \"a\" \"b\"\nOPEN_APP \"Terminal\"\n"
	p, err := action.Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	total, per := risk.Plan(p, src, env)
	if per[0].Level != level.Safe || per[1].Level != level.Blocked || total.Level != level.Blocked {
		t.Fatalf("levels: %v, %v; plan %v", per[0].Level, per[1].Level, total.Level)
	}
	n := 0
	for _, r := range total.Reasons {
		if r.Rule == ruleAppNotAllowed {
			n++
			if got := src[r.Span.Start:r.Span.End]; got != `OPEN_APP "Terminal"` {
				t.Errorf("the reason points at %q", got)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d reasons of the rule in %q; want 1", n, total.Texts())
	}
	if !strings.Contains(strings.Join(per[1].Texts(), "\n"), "not in allowedApps") {
		t.Errorf("the action's reasons %q do not name the setting", per[1].Texts())
	}
}

// ruleAppNotAllowed is risk's rule for an app outside the allowed apps.
const ruleAppNotAllowed = "dsl.app-not-allowed"

// AppleScript's tell targets are held to the allowed apps: an app outside
// them is at least dangerous and the reason names the setting; "*" frees them.
func TestAppleScriptTellAllowedApps(t *testing.T) {
	script := `tell application "Terminal" to activate`
	for _, tc := range []struct {
		apps []string
		want bool // the allowedApps reason
	}{
		{[]string{"Safari"}, true},
		{[]string{"Safari", "Terminal"}, false},
		{[]string{"*"}, false},
	} {
		env := appsEnv(t, tc.apps)
		v := risk.Assess(risk.KindAppleScript, script, env)
		says := strings.Contains(strings.Join(v.Texts(), "\n"), "allowedApps")
		if says != tc.want || (tc.want && v.Level < level.Dangerous) {
			t.Errorf("allowed %q: %v %q", tc.apps, v.Level, v.Texts())
		}
	}
}
