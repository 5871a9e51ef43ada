package policy_test

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/policy"
)

// settingsDir gives the test its own home (roots are checked against it) and
// a data folder for the file.
func settingsDir(t *testing.T) (home, file string) {
	t.Helper()
	home = t.TempDir()
	t.Setenv("HOME", home)
	return home, filepath.Join(t.TempDir(), policy.SettingsFile)
}

func TestSettingsRoundTrip(t *testing.T) {
	_, file := settingsDir(t)
	want := policy.Settings{
		Roots:           []string{"~/Projects", "/srv/shared"},
		AllowedApps:     []string{"Safari", "Xcode"},
		ApprovalTimeout: 90 * time.Second,
		Autonomy:        policy.AskAll,
		LLMEndpoint:     "https://models.example.com/v1",
		LLMAPI:          "openai",
		LLMModel:        "llama3.2:3b",
		LLMKeyName:      "work-gateway",
	}
	if err := policy.SaveSettings(file, want); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want 0600", fi.Mode().Perm())
	}
	got, err := policy.LoadSettings(file)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("loaded %+v, want %+v", got, want)
	}
	// Saving again replaces the file and leaves no temporary file behind.
	want.Autonomy = policy.FullAuto
	want.Roots = []string{}
	if err := policy.SaveSettings(file, want); err != nil {
		t.Fatal(err)
	}
	if got, err := policy.LoadSettings(file); err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("after resave: %+v, %v", got, err)
	}
	entries, _ := os.ReadDir(filepath.Dir(file))
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries, want only the settings file", len(entries))
	}
}

func TestSettingsMissingAndPartial(t *testing.T) {
	_, file := settingsDir(t)
	got, err := policy.LoadSettings(file)
	if err != nil || !reflect.DeepEqual(got, policy.DefaultSettings()) {
		t.Fatalf("missing file: %+v, %v; want the defaults", got, err)
	}
	if err := os.WriteFile(file, []byte(`{"autonomy": 0}`), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err = policy.LoadSettings(file)
	want := policy.DefaultSettings()
	want.Autonomy = policy.AskAll
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("partial file: %+v, %v; want defaults with autonomy 0", got, err)
	}
	d := policy.DefaultSettings()
	if d.LLMEndpoint != "http://127.0.0.1:11434" || d.LLMModel != "" || d.LLMKeyName != "" {
		t.Errorf("defaults %+v: want Ollama on this machine, no model chosen, no key", d)
	}
	if d.Autonomy != policy.SmartDefault || d.ApprovalTimeout != 5*time.Minute {
		t.Errorf("defaults %+v: want Level 1 and five minutes", d)
	}
}

func TestSettingsInvalid(t *testing.T) {
	tests := []struct {
		name    string
		content string
		line    int
		field   string
		mention []string
	}{
		{"bad JSON", "{\n  \"autonomy\": 1,\n  \"roots\": [\"~/a\",]\n}", 3, "", []string{"not valid JSON"}},
		{"not an object", `["autonomy"]`, 1, "", []string{"one JSON object"}},
		{"empty", ``, 1, "", []string{"empty"}},
		{"trailing data", "{}\n{}", 2, "", []string{"more after"}},
		{"unknown field", "{\n\"autonomy\": 1,\n\"safetyMode\": \"off\"\n}", 3, "safetyMode", []string{`"off"`, "not a setting"}},
		{"field in the wrong case", `{"Autonomy": 2}`, 1, "Autonomy", []string{"not a setting"}},
		{"repeated field", "{\"autonomy\": 0,\n\"autonomy\": 2}", 2, "autonomy", []string{"repeats", "line 1"}},
		{"autonomy out of range", "{\n\n\"autonomy\": 3}", 3, "autonomy", []string{"3", "0 (ask all)"}},
		{"autonomy as text", `{"autonomy": "2"}`, 1, "autonomy", []string{`"2"`}},
		{"autonomy fractional", `{"autonomy": 1.5}`, 1, "autonomy", []string{"1.5"}},
		{"timeout not a duration", "{\n \"approvalTimeout\": \"5x\"\n}", 2, "approvalTimeout", []string{`"5x"`, "not a duration"}},
		{"timeout as number", `{"approvalTimeout": 300}`, 1, "approvalTimeout", []string{"300", "in quotes"}},
		{"timeout too short", `{"approvalTimeout": "1s"}`, 1, "approvalTimeout", []string{"1s", "between"}},
		{"timeout too long", `{"approvalTimeout": "2h"}`, 1, "approvalTimeout", []string{`is "2h":`, "between"}},
		{"timeout negative", `{"approvalTimeout": "-5m"}`, 1, "approvalTimeout", []string{`"-5m"`}},
		{"roots not a list", `{"roots": "~/Documents"}`, 1, "roots", []string{"list of strings"}},
		{"roots null", `{"roots": null}`, 1, "roots", []string{"list of strings"}},
		{"root relative", "{\"roots\": [\n\"~/Documents\", \"Documents\"]}", 1, "roots[1]", []string{`"Documents"`}},
		{"root empty", `{"roots": [""]}`, 1, "roots[0]", []string{"empty"}},
		{"root system folder", `{"roots": ["/etc"]}`, 1, "roots[0]", []string{`"/etc"`}},
		{"root credential store", `{"roots": ["~/.ssh"]}`, 1, "roots[0]", []string{`"~/.ssh"`}},
		{"root is /", `{"roots": ["/"]}`, 1, "roots[0]", []string{`"/"`}},
		{"root traversal", `{"roots": ["~/Documents/../.ssh"]}`, 1, "roots[0]", []string{"../.ssh"}},
		{"root control character", `{"roots": ["~/Docu\u0007ments"]}`, 1, "roots[0]", []string{`\u0007`, "control character"}},
		{"root another user", `{"roots": ["~root/x"]}`, 1, "roots[0]", []string{"~root"}},
		{"app empty", `{"allowedApps": ["Safari", " "]}`, 1, "allowedApps[1]", []string{"empty"}},
		{"app with newline", `{"allowedApps": ["Safari\nTerminal"]}`, 1, "allowedApps[0]", []string{`\n`}},
		{"app repeated", `{"allowedApps": ["Safari", "safari"]}`, 1, "allowedApps[1]", []string{"repeats allowedApps[0]"}},
		{"apps not strings", `{"allowedApps": [1, 2]}`, 1, "allowedApps", []string{"list of strings"}},
		{"apps null", "{\n\"allowedApps\": null}", 2, "allowedApps", []string{"list of strings"}},
		{"app repeated as its bundle", "{\"allowedApps\": [\n\"Safari\",\n\"Safari.app\"]}", 1, "allowedApps[1]", []string{`"Safari.app"`, "repeats allowedApps[0] (Safari)"}},
		{"app as a path", `{"allowedApps": ["/Applications/Safari.app"]}`, 1, "allowedApps[0]", []string{`"/Applications/Safari.app"`, "is a path"}},
		{"app with a leading space", `{"allowedApps": [" Terminal"]}`, 1, "allowedApps[0]", []string{`" Terminal"`, "white space"}},
		{"app like an option", `{"allowedApps": ["-a"]}`, 1, "allowedApps[0]", []string{`"-a"`}},
		{"app with an invisible character", `{"allowedApps": ["Saf\u200bari"]}`, 1, "allowedApps[0]", []string{`\u200b`, "invisible"}},
		{"any app beside others", `{"allowedApps": ["Safari", "*"]}`, 1, "allowedApps[1]", []string{`"*"`, "only entry"}},
		{"too many apps", `{"allowedApps": [` + strings.Repeat(`"a",`, 100) + `"a"]}`, 1, "allowedApps", []string{"more than 100"}},
		{"endpoint over http off this machine", "{\n\"llmEndpoint\": \"http://10.0.0.5:11434\"}", 2, "llmEndpoint", []string{`"http://10.0.0.5:11434"`, "must use https"}},
		{"endpoint spoofing loopback", `{"llmEndpoint": "http://127.0.0.1.evil.com"}`, 1, "llmEndpoint", []string{"must use https"}},
		{"endpoint with a password", `{"llmEndpoint": "https://u:p@models.example.com"}`, 1, "llmEndpoint", []string{"without a user"}},
		{"endpoint not a string", `{"llmEndpoint": 11434}`, 1, "llmEndpoint", []string{"11434", "string in quotes"}},
		{"endpoint null", `{"llmEndpoint": null}`, 1, "llmEndpoint", []string{"string in quotes"}},
		{"unknown api", `{"llmApi": "anthropic"}`, 1, "llmApi", []string{`"anthropic"`, "ollama"}},
		{"model with a space", `{"llmModel": "llama 3"}`, 1, "llmModel", []string{`"llama 3"`}},
		{"model with a bidi override", `{"llmModel": "llama\u202e3"}`, 1, "llmModel", []string{`\u202e`}},
		{"key name with a slash", `{"llmApiKey": "../history-key"}`, 1, "llmApiKey", []string{"must name a key"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, file := settingsDir(t)
			if err := os.WriteFile(file, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := policy.LoadSettings(file)
			var se *policy.SettingsError
			if !errors.As(err, &se) {
				t.Fatalf("LoadSettings = %+v, %v; want a *SettingsError", s, err)
			}
			if se.File != file || se.Line != tt.line || se.Field != tt.field {
				t.Errorf("file %q line %d field %q; want %q line %d field %q", se.File, se.Line, se.Field, file, tt.line, tt.field)
			}
			msg := err.Error()
			for _, m := range append([]string{file, tt.field}, tt.mention...) {
				if !strings.Contains(msg, m) {
					t.Errorf("%q does not mention %q", msg, m)
				}
			}
			if strings.ContainsAny(msg, "\n\a") {
				t.Errorf("message is not one safe line: %q", msg)
			}
		})
	}
}

func TestSettingsFileRefused(t *testing.T) {
	_, file := settingsDir(t)
	if err := os.WriteFile(file, []byte(`{"autonomy": 2}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(file, 0o622); err != nil {
		t.Fatal(err)
	}
	if _, err := policy.LoadSettings(file); err == nil || !strings.Contains(err.Error(), "other users") {
		t.Fatalf("a file others may write was loaded: %v", err)
	}
	dir := filepath.Join(filepath.Dir(file), "adir")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := policy.LoadSettings(dir); err == nil {
		t.Fatal("a folder was loaded as settings")
	}
	big := append([]byte(`{"roots": ["`), make([]byte, 70<<10)...)
	if err := os.WriteFile(file, big, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(file, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := policy.LoadSettings(file); err == nil || !strings.Contains(err.Error(), "larger") {
		t.Fatalf("an oversized file: %v", err)
	}
}

func TestSaveSettingsRefusesInvalid(t *testing.T) {
	_, file := settingsDir(t)
	for _, s := range []policy.Settings{
		{ApprovalTimeout: time.Minute, Autonomy: 3},
		{ApprovalTimeout: 0, Autonomy: policy.SmartDefault},
		{Roots: []string{"/System/Library"}, ApprovalTimeout: time.Minute},
	} {
		var se *policy.SettingsError
		if err := policy.SaveSettings(file, s); !errors.As(err, &se) || se.File != file {
			t.Errorf("SaveSettings(%+v) = %v, want a *SettingsError naming the file", s, err)
		}
		if _, err := os.Stat(file); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("an invalid save wrote the file: %v", err)
		}
	}
	entries, _ := os.ReadDir(filepath.Dir(file))
	if len(entries) != 0 {
		t.Errorf("refused saves left %d files", len(entries))
	}
	if err := policy.SaveSettings(filepath.Join(file, "missing", "x.json"), policy.DefaultSettings()); err == nil {
		t.Error("saving into a missing folder succeeded")
	}
}
