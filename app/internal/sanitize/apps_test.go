package sanitize_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

func appsConfig(t testing.TB, apps []string) *sanitize.Config {
	t.Helper()
	c, err := sanitize.NewConfig("/Users/alice", []string{})
	if err != nil {
		t.Fatal(err)
	}
	c, err = c.WithApps(apps)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestAppAllowed tries to get apps past a short list in every spelling an
// attacker might: case, the bundle's name, white space, paths, look-alike
// letters, invisible characters, bundle ids.
func TestAppAllowed(t *testing.T) {
	c := appsConfig(t, []string{"Safari", "TextEdit", "Café"})
	for _, tc := range []struct {
		name string
		app  string
		ok   bool
		rule sanitize.Rule
	}{
		{"listed", "Safari", true, ""},
		{"other case", "safari", true, ""},
		{"bundle name", "Safari.app", true, ""},
		{"bundle name, other case", "SAFARI.APP", true, ""},
		{"decomposed é", "Cafe\u0301", true, ""},
		{"not listed", "Terminal", false, sanitize.RuleAppNotAllowed},
		{"not listed, lower case", "terminal", false, sanitize.RuleAppNotAllowed},
		{"not listed, bundle name", "Terminal.app", false, sanitize.RuleAppNotAllowed},
		{"leading space", " Terminal", false, sanitize.RuleNotAppName},
		{"leading space before a listed app", " Safari", false, sanitize.RuleNotAppName},
		{"trailing no-break space", "Safari\u00a0", false, sanitize.RuleNotAppName},
		{"path to the app", "/System/Applications/Utilities/Terminal.app", false, sanitize.RuleNotAppName},
		{"path that ends in a listed name", "/tmp/evil/Safari.app", false, sanitize.RuleNotAppName},
		{"relative path", "../Safari", false, sanitize.RuleNotAppName},
		{"Cyrillic а", "S\u0430fari", false, sanitize.RuleAppNotAllowed},
		{"full-width letters", "\uff33\uff41\uff46\uff41\uff52\uff49", false, sanitize.RuleAppNotAllowed},
		{"zero-width space inside", "Saf\u200bari", false, sanitize.RuleInvisible},
		{"bidi override", "\u202eirafaS", false, sanitize.RuleInvisible},
		{"a bundle id is not its name", "com.apple.Safari", false, sanitize.RuleAppNotAllowed},
		{"bundle name twice", "Safari.app.app", false, sanitize.RuleAppNotAllowed},
		{"a longer name", "Safari Technology Preview", false, sanitize.RuleAppNotAllowed},
		{"option-like", "-Safari", false, sanitize.RuleNotAppName},
		{"hidden", ".Safari", false, sanitize.RuleNotAppName},
		{"empty", "", false, sanitize.RuleEmpty},
		{"bare .app", ".app", false, sanitize.RuleNotAppName},
		{"newline", "Safari\nTerminal", false, sanitize.RuleControl},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ok, why := c.AppAllowed(tc.app)
			err := c.App(tc.app)
			if ok != tc.ok || (err == nil) != tc.ok {
				t.Fatalf("AppAllowed(%q) = %v, %q; App = %v; want ok %v", tc.app, ok, why, err, tc.ok)
			}
			if tc.ok {
				if why != "" {
					t.Errorf("allowed with a reason: %q", why)
				}
				return
			}
			var r *sanitize.Refusal
			if !errors.As(err, &r) || r.Rule != tc.rule || !errors.Is(err, sanitize.ErrBlocked) {
				t.Fatalf("App(%q) = %v; want a refusal under %s", tc.app, err, tc.rule)
			}
			if why == "" || strings.HasPrefix(why, "blocked") {
				t.Errorf("reason %q: want the refusal without its \"blocked: \"", why)
			}
		})
	}
}

func TestAppRefusalNamesTheSetting(t *testing.T) {
	c := appsConfig(t, []string{"Safari"})
	if got, want := c.App("Terminal").Error(), `blocked: "Terminal" is not in allowedApps (settings.json)`; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
	_, why := c.AppAllowed("Saf\u200bari")
	if !strings.Contains(why, `\u200b`) {
		t.Errorf("an invisible character is not shown: %q", why)
	}
	_, why = appsConfig(t, []string{}).AppAllowed("Safari")
	if want := `"Safari" is not in allowedApps (settings.json), which is empty: no app may be opened, quit or brought to the front`; why != want {
		t.Errorf("empty list: got %q\nwant %q", why, want)
	}
}

func TestAppListsOfEveryKind(t *testing.T) {
	any := appsConfig(t, []string{sanitize.AnyApp})
	if err := any.App("Terminal"); err != nil {
		t.Errorf("* refuses Terminal: %v", err)
	}
	if err := any.App("/bin/sh"); err == nil {
		t.Error("* allows a path")
	}
	none := appsConfig(t, []string{})
	if err := none.App("Finder"); err == nil {
		t.Error("an empty list allows Finder")
	}
	plain, err := sanitize.NewConfig("/Users/alice", []string{})
	if err != nil {
		t.Fatal(err)
	}
	if err := plain.App("Terminal"); err != nil {
		t.Errorf("a Config without a list refuses Terminal: %v", err)
	}
	var nilConfig *sanitize.Config
	if ok, _ := nilConfig.AppAllowed("Terminal"); !ok {
		t.Error("a nil Config refuses Terminal")
	}
	// WithOwn keeps the list, and WithApps keeps the own places.
	own, err := appsConfig(t, []string{"Safari"}).WithOwn([]sanitize.OwnPlace{{Path: "/Users/alice/airlock", What: "Airlock's data"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := own.App("Terminal"); err == nil {
		t.Error("WithOwn dropped the allowed apps")
	}
	again, err := own.WithApps([]string{"Terminal"})
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Own()) != 1 || again.App("Terminal") != nil || again.App("Safari") == nil {
		t.Errorf("WithApps on a Config with own places: own %v, Terminal %v, Safari %v", again.Own(), again.App("Terminal"), again.App("Safari"))
	}
	if own.App("Terminal") == nil {
		t.Error("WithApps changed the Config it was called on")
	}
}

func TestWithAppsRefuses(t *testing.T) {
	c, err := sanitize.NewConfig("/Users/alice", []string{})
	if err != nil {
		t.Fatal(err)
	}
	for _, apps := range [][]string{
		{"*", "Safari"},
		{"Safari", "*"},
		{"/Applications/Safari.app"},
		{" Safari"},
		{""},
		{"Saf\u200bari"},
		make([]string, 101),
	} {
		if _, err := c.WithApps(apps); err == nil {
			t.Errorf("WithApps(%q) accepted", apps)
		}
	}
}

func TestSameApp(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"Safari", "safari.app", true},
		{"Safari", "S\u0430fari", false},
		{"Safari", "com.apple.Safari", false},
		{"Notes", "Notes ", false},
	} {
		if got := sanitize.SameApp(tc.a, tc.b); got != tc.same {
			t.Errorf("SameApp(%q, %q) = %v", tc.a, tc.b, got)
		}
	}
}

// FuzzApp: App never panics, and whatever it lets past a one-app list is
// that app in one of its spellings, and an app name.
func FuzzApp(f *testing.F) {
	for _, s := range []string{"Safari", "safari.APP", " Safari", "S\u0430fari", "/Safari", "Safari\u200b", "\xff", ".app"} {
		f.Add(s)
	}
	c := appsConfig(f, []string{"Safari"})
	f.Fuzz(func(t *testing.T, name string) {
		if c.App(name) != nil {
			return
		}
		if sanitize.AppName(name) != nil || !sanitize.SameApp(name, "Safari") {
			t.Fatalf("App(%q) passed", name)
		}
	})
}
