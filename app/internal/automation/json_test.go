package automation_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/automation"
)

func TestDecodeList(t *testing.T) {
	list, err := automation.DecodeList([]byte(`[
  {"name": "morning notes", "ask": "open today's notes", "schedule": "Weekdays 9:00"},
  {"name": "tidy", "run": ["CREATE_FOLDER \"~/Documents/Inbox\"", "NOTIFY \"Airlock\" \"tidied\""],
   "schedule": "every 2h", "cooldown": "30m", "enabled": false},
  {"name": "hello", "run": "NOTIFY \"hi\" \"there\"", "schedule": "at login", "cooldown": "0s"},
  {"name": "poll", "ask": "check the inbox", "schedule": "every 30m"}
]`))
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name, kind, text, schedule string
		cooldown                   time.Duration
		enabled                    bool
	}{
		{"morning notes", "ask", "open today's notes", "weekdays 09:00", time.Hour, true},
		{"tidy", "run", "CREATE_FOLDER \"~/Documents/Inbox\"\nNOTIFY \"Airlock\" \"tidied\"", "every 2h", 30 * time.Minute, false},
		{"hello", "run", `NOTIFY "hi" "there"`, "at login", 0, true},
		{"poll", "ask", "check the inbox", "every 30m", 30 * time.Minute, true}, // the default, cut to the interval
	}
	if len(list) != len(want) {
		t.Fatalf("%d automations, want %d", len(list), len(want))
	}
	for i, w := range want {
		a := list[i]
		if a.Name != w.name || a.Kind() != w.kind || a.Text() != w.text || a.Schedule.String() != w.schedule ||
			a.Cooldown != w.cooldown || a.Enabled != w.enabled {
			t.Errorf("[%d] = %+v (%s, cooldown %v), want %+v", i, a, a.Schedule, a.Cooldown, w)
		}
	}
	out, err := automation.EncodeList(list, "  ")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(out), "\"run\": [\n") || !strings.Contains(string(out), "\"CREATE_FOLDER \\\"~/Documents/Inbox\\\"\",\n") {
		t.Errorf("a plan is not written as its lines:\n%s", out)
	}
}

func TestDecodeListErrors(t *testing.T) {
	tests := []struct {
		name, input string
		field       string // the FieldError's Field
		reason      string // a part of its Reason
		at          string // the error's offset is at this text's first occurrence (or past it)
	}{
		{"not a list", `{"name": "x"}`, "", "must be a list", ""},
		{"not an object", `[1]`, "[0]", "must be an object", ""},
		{"bad JSON", `[{"name": "x",}]`, "[0]", "not valid JSON", ""},
		{"unknown member", `[{"name": "x", "ask": "y", "schedule": "daily 09:00", "when": 1}]`, "[0].when", "is not a member", `"when"`},
		{"repeated member", `[{"name": "x", "ask": "y", "schedule": "daily 09:00", "ask": "z"}]`, "[0].ask", "written twice", `"ask": "z"`},
		{"no schedule", `[{"name": "x", "ask": "y"}]`, "[0]", `has no "schedule"`, ""},
		{"bad schedule", "[\n{\"name\": \"x\",\n\"ask\": \"y\",\n\"schedule\": \"daily 25:00\"}]", "[0].schedule", `"25:00" is not a time of day`, `"schedule"`},
		{"schedule not a string", `[{"name": "x", "ask": "y", "schedule": 9}]`, "[0].schedule", "must be a string", ""},
		{"no name", `[{"ask": "y", "schedule": "daily 09:00"}]`, "[0].name", "is empty", ""},
		{"bad name", `[{"name": "x/y", "ask": "y", "schedule": "daily 09:00"}]`, "[0].name", `character '/'`, `"name"`},
		{"name with a bidi control", "[{\"name\": \"a\u202eb\", \"ask\": \"y\", \"schedule\": \"daily 09:00\"}]", "[0].name", "character", ""},
		{"name too long", `[{"name": "` + strings.Repeat("a", 41) + `", "ask": "y", "schedule": "daily 09:00"}]`, "[0].name", "longer than 40", ""},
		{"neither ask nor run", `[{"name": "x", "schedule": "daily 09:00"}]`, "[0]", `needs "ask"`, ""},
		{"both ask and run", `[{"name": "x", "ask": "y", "run": "NOTIFY \"a\" \"b\"", "schedule": "daily 09:00"}]`, "[0]", "both", ""},
		{"blank ask", `[{"name": "x", "ask": "   ", "schedule": "daily 09:00"}]`, "[0].ask", "blank", ""},
		{"ask with a control character", `[{"name": "x", "ask": "a\u0007b", "schedule": "daily 09:00"}]`, "[0].ask", "control character", ""},
		{"plan that does not parse", "[{\"name\": \"x\", \"schedule\": \"daily 09:00\",\n \"run\": [\"NOTIFY \\\"a\\\" \\\"b\\\"\", \"EXPLODE now\"]}]", "[0].run", "plan line 2", `"run"`},
		{"plan of comments only", `[{"name": "x", "run": "# nothing", "schedule": "daily 09:00"}]`, "[0].run", "no actions", ""},
		{"plan line with a line break", `[{"name": "x", "run": ["NOTIFY \"a\"\n\"b\""], "schedule": "daily 09:00"}]`, "[0].run", "line break", ""},
		{"plan of numbers", `[{"name": "x", "run": [1], "schedule": "daily 09:00"}]`, "[0].run", "must be the plan", ""},
		{"bad cooldown", `[{"name": "x", "ask": "y", "schedule": "daily 09:00", "cooldown": "soon"}]`, "[0].cooldown", "not a duration", ""},
		{"negative cooldown", `[{"name": "x", "ask": "y", "schedule": "daily 09:00", "cooldown": "-1m"}]`, "[0].cooldown", "negative", `"cooldown"`},
		{"cooldown too long", `[{"name": "x", "ask": "y", "schedule": "daily 09:00", "cooldown": "25h"}]`, "[0].cooldown", "longer than 24h", ""},
		{"cooldown over the interval", `[{"name": "x", "ask": "y", "schedule": "every 30m", "cooldown": "1h"}]`, "[0].cooldown", "skip runs", ""},
		{"enabled not a bool", `[{"name": "x", "ask": "y", "schedule": "daily 09:00", "enabled": "yes"}]`, "[0].enabled", "true or false", ""},
		{"enabled null", `[{"name": "x", "ask": "y", "schedule": "daily 09:00", "enabled": null}]`, "[0].enabled", "true or false", ""},
		{"repeated name", "[{\"name\": \"Tidy\", \"ask\": \"y\", \"schedule\": \"daily 09:00\"},\n {\"name\": \"tidy\", \"ask\": \"z\", \"schedule\": \"daily 10:00\"}]",
			"[1].name", "repeats the name of automation [0]", `"name": "tidy"`},
		{"too many", many(51), "", "more than 50", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := automation.DecodeList([]byte(tt.input))
			var fe *automation.FieldError
			if !errors.As(err, &fe) {
				t.Fatalf("error %v, want a *FieldError", err)
			}
			if fe.Field != tt.field || !strings.Contains(fe.Reason, tt.reason) {
				t.Errorf("error field %q reason %q, want field %q reason with %q", fe.Field, fe.Reason, tt.field, tt.reason)
			}
			if fe.Offset < 0 || fe.Offset > len(tt.input) {
				t.Errorf("offset %d outside the input", fe.Offset)
			}
			if tt.at != "" {
				if i := strings.Index(tt.input, tt.at); fe.Offset < i || fe.Offset > i+len(tt.at) {
					t.Errorf("offset %d (%q…), want at %q (offset %d)", fe.Offset, tt.input[fe.Offset:min(len(tt.input), fe.Offset+12)], tt.at, i)
				}
			}
		})
	}
}

func TestValidateList(t *testing.T) {
	a := plan(t, "tidy", "daily 09:00", time.Hour)
	if err := automation.ValidateList([]automation.Automation{a}); err != nil {
		t.Fatal(err)
	}
	b := a
	b.Name = "TIDY"
	var fe *automation.FieldError
	if err := automation.ValidateList([]automation.Automation{a, b}); !errors.As(err, &fe) || fe.Field != "[1].name" {
		t.Errorf("a repeated name: %v", err)
	}
	c := a
	c.Schedule = automation.Schedule{}
	if err := automation.ValidateList([]automation.Automation{c}); !errors.As(err, &fe) || fe.Field != "[0].schedule" {
		t.Errorf("no schedule: %v", err)
	}
	if got := a.Client(); got != "automation: tidy" {
		t.Errorf("client %q", got)
	}
	d := a
	d.Run += "\nSPEAK \"x\""
	if a.Fingerprint() == d.Fingerprint() || a.Fingerprint() != b.Fingerprint() {
		t.Errorf("fingerprints: a plan changed keeps it, or a name's case changes it")
	}
}

// many is a list of n automations with different names.
func many(n int) string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf(`{"name": "a%d", "ask": "y", "schedule": "daily 09:00"}`, i)
	}
	return "[" + strings.Join(items, ",\n") + "]"
}
