package policy_test

import (
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/policy"
)

const automationsFile = `{
  "autonomy": 1,
  "automationEnabled": false,
  "automations": [
    {"name": "morning notes", "ask": "open today's notes in Notes", "schedule": "weekdays 09:00"},
    {
      "name": "inbox",
      "run": [
        "CREATE_FOLDER \"~/Documents/Inbox\"",
        "NOTIFY \"Airlock\" \"Inbox ready\""
      ],
      "schedule": "every 2h",
      "cooldown": "30m",
      "enabled": false
    }
  ]
}
`

func TestSettingsAutomations(t *testing.T) {
	_, file := settingsDir(t)
	if err := os.WriteFile(file, []byte(automationsFile), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := policy.LoadSettings(file)
	if err != nil {
		t.Fatal(err)
	}
	if s.AutomationEnabled || len(s.Automations) != 2 {
		t.Fatalf("switch %v, %d automations", s.AutomationEnabled, len(s.Automations))
	}
	a, b := s.Automations[0], s.Automations[1]
	if a.Name != "morning notes" || a.Ask != "open today's notes in Notes" || a.Schedule.String() != "weekdays 09:00" ||
		a.Cooldown != time.Hour || !a.Enabled {
		t.Errorf("the first: %+v", a)
	}
	if b.Run != "CREATE_FOLDER \"~/Documents/Inbox\"\nNOTIFY \"Airlock\" \"Inbox ready\"" || b.Cooldown != 30*time.Minute || b.Enabled {
		t.Errorf("the second: %+v", b)
	}
	// Saved and read again: the same, the plan still one line per line.
	if err := policy.SaveSettings(file, s); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(file)
	if !strings.Contains(string(data), "\"CREATE_FOLDER \\\"~/Documents/Inbox\\\"\",\n") {
		t.Errorf("the plan is not written as its lines:\n%s", data)
	}
	back, err := policy.LoadSettings(file)
	if err != nil || !reflect.DeepEqual(back, s) {
		t.Fatalf("read back %+v, %v; want %+v\n%s", back, err, s, data)
	}
	if d := policy.DefaultSettings(); !d.AutomationEnabled || d.Automations != nil {
		t.Errorf("defaults: switch %v, automations %v; want on and none", d.AutomationEnabled, d.Automations)
	}
}

func TestSettingsAutomationsInvalid(t *testing.T) {
	tests := []struct {
		name    string
		content string
		line    int
		field   string
		mention []string
	}{
		{"switch not a bool", "{\n\"automationEnabled\": \"yes\"}", 2, "automationEnabled", []string{"true", "false"}},
		{"switch null", `{"automationEnabled": null}`, 1, "automationEnabled", []string{"true"}},
		{"not a list", "{\n\"automations\": {}}", 2, "automations", []string{"list of automations"}},
		{"bad schedule on its own line", "{\"automations\": [\n  {\"name\": \"a\",\n   \"ask\": \"b\",\n   \"schedule\": \"weekdays 9\"}\n]}", 4,
			"automations[0].schedule", []string{`"weekdays 9"`, `"9" is not a time of day`}},
		{"the second automation", "{\"automations\": [\n{\"name\": \"a\", \"ask\": \"b\", \"schedule\": \"daily 09:00\"},\n{\"name\": \"c\", \"ask\": \"d\", \"schedule\": \"daily 09:00\", \"cooldown\": \"forever\"}]}", 3,
			"automations[1].cooldown", []string{"not a duration"}},
		{"a plan that does not parse", "{\"automations\": [{\"name\": \"a\", \"schedule\": \"daily 09:00\",\n\"run\": [\"NOTIFY \\\"x\\\" \\\"y\\\"\", \"FORMAT_DISK\"]}]}", 2,
			"automations[0].run", []string{"plan line 2", "FORMAT_DISK"}},
		{"a name twice", "{\"automations\": [\n{\"name\": \"a\", \"ask\": \"b\", \"schedule\": \"daily 09:00\"},\n{\"name\": \"A\", \"ask\": \"b\", \"schedule\": \"daily 09:00\"}]}", 3,
			"automations[1].name", []string{"repeats the name of automation [0]"}},
		{"no schedule", "{\"automations\": [\n{\"name\": \"a\", \"ask\": \"b\"}]}", 2, "automations[0]", []string{"schedule"}},
		{"a name with a control character", `{"automations": [{"name": "a\u0007", "ask": "b", "schedule": "daily 09:00"}]}`, 1,
			"automations[0].name", []string{`\u0007`}},
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
				t.Errorf("%v: file %q line %d field %q; want line %d field %q", err, se.File, se.Line, se.Field, tt.line, tt.field)
			}
			msg := err.Error()
			for _, m := range tt.mention {
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
