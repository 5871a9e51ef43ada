package policy_test

import (
	"reflect"
	"testing"

	"github.com/airlockhq/airlock/app/internal/policy"
)

// FuzzParseSettings checks that the settings decoder never panics and that
// whatever it accepts writes back to a file that reads as the same settings.
func FuzzParseSettings(f *testing.F) {
	f.Setenv("HOME", f.TempDir())
	for _, s := range []string{
		`{}`,
		`{"autonomy": 0, "approvalTimeout": "90s"}`,
		`{"roots": ["~/Documents", "/srv/x"], "allowedApps": ["Safari"]}`,
		"{\n\"autonomy\": 1,\n\"autonomy\": 2}",
		`{"roots": ["~/a/../b"]}`,
		`{"approvalTimeout": "1h0m0.5s"}`,
		`[]`, `{"x": {"y": [1, 2]}}`, `{"roots": []} {}`,
		`{"llmEndpoint": "https://m.example.com/v1", "llmApi": "openai", "llmModel": "a:b", "llmApiKey": "k"}`,
		`{"llmEndpoint": "http://[::1]:8080"}`,
		`{"automationEnabled": false, "automations": [{"name": "a", "ask": "tidy", "schedule": "weekdays 09:00"}, {"name": "b", "run": ["NOTIFY "x" "y""], "schedule": "every 2h", "cooldown": "30m", "enabled": false}]}`,
		`{"rules": [{"decision": "allow", "prefix": ["sh", "build.sh"], "dir": "~/p", "why": "w", "pins": {"/p/build.sh": "", "/p/a": "0000000000000000000000000000000000000000000000000000000000000000"}}, {"decision": "deny", "prefix": ["/usr/bin/git", "push"], "client": "c", "kind": "command", "pins": {}}]}`,
		`{"rules": [{"decision": "ask", "prefix": ["x"], "decision": "deny"}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := policy.ParseSettings(data)
		if err != nil {
			return
		}
		out, err := policy.MarshalSettings(s)
		if err != nil {
			t.Fatalf("accepted %q but cannot write %+v: %v", data, s, err)
		}
		back, err := policy.ParseSettings(out)
		if err != nil || !reflect.DeepEqual(back, s) {
			t.Fatalf("%q: wrote %q, read back %+v, %v; want %+v", data, out, back, err, s)
		}
	})
}
