package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// appsUser points HOME and the data directory into a temporary folder with
// the sandbox folders, and writes settings there unless it is "".
func appsUser(t *testing.T, settings string) (home, data string) {
	t.Helper()
	home = t.TempDir()
	data = filepath.Join(home, "airlock-data")
	for _, d := range []string{"Documents", "Downloads", "Desktop", "airlock-data"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", home)
	t.Setenv("AIRLOCK_DATA_DIR", data)
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, ".local", "state"))
	if settings != "" {
		if err := os.WriteFile(filepath.Join(data, "settings.json"), []byte(settings), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home, data
}

// `airlock assess` rates apps against the gate's allowedApps, as the gate
// would: outside the list is blocked, naming the setting.
func TestAssessAllowedApps(t *testing.T) {
	appsUser(t, `{"allowedApps": ["Safari"]}`)
	for _, tc := range []struct {
		plan, want, says string
	}{
		{`OPEN_APP "Terminal"`, "blocked", `blocked: "Terminal" is not in allowedApps (settings.json); add it there to allow OPEN_APP (line 1)`},
		{`QUIT_APP "Terminal"`, "blocked", "to allow QUIT_APP"},
		{`ACTIVATE_APP "Terminal.app"`, "blocked", "to allow ACTIVATE_APP"},
		{`OPEN_APP "terminal"`, "blocked", `"terminal" is not in allowedApps`},
		{`OPEN_APP "Safari"`, "caution", ""},
		{`QUIT_APP "SAFARI.app"`, "caution", ""},
	} {
		code, out, errOut := runCLI(t, tc.plan, "assess", "--kind", "dsl", "-")
		if code != 0 || !strings.HasPrefix(out, tc.want+"\n") || !strings.Contains(out, tc.says) {
			t.Errorf("%s: exit %d, output:\n%s%s\nwant %s saying %q", tc.plan, code, out, errOut, tc.want, tc.says)
		}
	}
	code, out, _ := runCLI(t, `{"id":1,"kind":"dsl","input":"QUIT_APP \"Terminal\""}`+"\n", "assess", "--jsonl")
	if code != 0 || !strings.Contains(out, `"risk":"blocked"`) || !strings.Contains(out, "allowedApps") {
		t.Errorf("--jsonl: exit %d, %s", code, out)
	}
}

// With no settings file the default holds: every app is allowed and rated
// as before (the person narrows allowedApps): a terminal as a terminal.
func TestAssessDefaultAllowedApps(t *testing.T) {
	appsUser(t, "")
	for plan, want := range map[string]string{`OPEN_APP "Notes"`: "caution", `OPEN_APP "Terminal"`: "dangerous"} {
		if code, out, _ := runCLI(t, plan, "assess", "--kind", "dsl", "-"); code != 0 || !strings.HasPrefix(out, want+"\n") {
			t.Errorf("%s: exit %d, output:\n%s\nwant %s", plan, code, out, want)
		}
	}
}

// A settings file whose allowedApps the gate could not use stops assess
// too, saying where and why.
func TestAssessAllowedAppsSettingsErrors(t *testing.T) {
	for _, tc := range []struct {
		settings string
		says     []string
	}{
		{"{\n  \"allowedApps\": [\"Safari\",\n    \"/Applications/Utilities/Terminal.app\"]\n}", []string{"settings.json line 2", `"allowedApps[1]"`, "is a path"}},
		{`{"allowedApps": ["*", "Safari"]}`, []string{"line 1", `"allowedApps[0]"`, "only entry"}},
		{`{"allowedApps": "Safari"}`, []string{"line 1", `"allowedApps"`, "list of strings"}},
		{`{"allowedApps": ["Notes", "notes.app"]}`, []string{`"allowedApps[1]"`, "repeats allowedApps[0]"}},
	} {
		_, data := appsUser(t, tc.settings)
		code, out, errOut := runCLI(t, `OPEN_APP "Notes"`, "assess", "--kind", "dsl", "-")
		if code == 0 {
			t.Errorf("%s: assess ran:\n%s", tc.settings, out)
			continue
		}
		for _, s := range append(tc.says, filepath.Join(data, "settings.json")) {
			if !strings.Contains(errOut, s) {
				t.Errorf("%s: error does not say %q:\n%s", tc.settings, s, errOut)
			}
		}
	}
}
