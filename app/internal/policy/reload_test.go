package policy_test

import (
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/policy"
)

// TestDiffSettings: what a reload lets run further is a raise (confirmed
// by the person); what only narrows is a lower (in force at once); what a
// reload does not change says so.
func TestDiffSettings(t *testing.T) {
	allowGit := policy.Rule{Decision: policy.RuleAllow, Prefix: []string{"git", "status"}}
	denyPush := policy.Rule{Decision: policy.RuleDeny, Prefix: []string{"git", "push"}}
	base := policy.DefaultSettings()
	base.Rules = policy.Rules{denyPush}
	for _, tc := range []struct {
		name           string
		change         func(*policy.Settings)
		raises, lowers []string // substrings, one per line, in order
		restart        int
	}{
		{"nothing", func(*policy.Settings) {}, nil, nil, 0},
		{"a root added", func(s *policy.Settings) { s.Roots = append(s.Roots, "~/src") },
			[]string{"adds the sandbox root ~/src"}, nil, 0},
		{"a root taken away", func(s *policy.Settings) { s.Roots = s.Roots[1:] },
			nil, []string{"takes away the sandbox root ~/Documents"}, 0},
		{"a root spelled anew", func(s *policy.Settings) { s.Roots[0] = "~/Documents/" },
			[]string{"adds the sandbox root ~/Documents/"}, []string{"takes away the sandbox root ~/Documents"}, 0},
		{"an allow rule added", func(s *policy.Settings) { s.Rules = append(s.Rules, allowGit) },
			[]string{"adds allow rule 2: git status"}, nil, 0},
		{"an allow rule's pins changed", func(s *policy.Settings) {
			r := allowGit
			r.Pins = map[string]string{"/usr/bin/git": "00"}
			s.Rules = append(s.Rules, r)
		}, []string{"adds allow rule 2"}, nil, 0},
		{"a deny rule taken away", func(s *policy.Settings) { s.Rules = nil },
			[]string{"takes away the deny rule: git push"}, nil, 0},
		{"a deny rule added", func(s *policy.Settings) {
			s.Rules = append(s.Rules, policy.Rule{Decision: policy.RuleDeny, Prefix: []string{"rm"}})
		},
			nil, []string{"adds deny rule 2: rm"}, 0},
		{"a higher level", func(s *policy.Settings) { s.Autonomy = policy.FullAuto },
			[]string{"changes the autonomy level"}, nil, 0},
		{"a lower level", func(s *policy.Settings) { s.Autonomy = policy.AskAll },
			nil, []string{"changes the autonomy level"}, 0},
		{"every app, from one", func(s *policy.Settings) { s.AllowedApps = []string{"TextEdit"} },
			nil, []string{`no longer allows the app "*"`}, 0},
		{"the model server", func(s *policy.Settings) { s.LLMEndpoint, s.LLMKeyName = "https://evil.example", "openai" },
			[]string{`sends the model's requests to https://evil.example with the API key "openai"`}, nil, 0},
		{"timeout and automations", func(s *policy.Settings) { s.ApprovalTimeout = time.Minute; s.AutomationEnabled = false },
			nil, nil, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			next := base
			next.Roots = append([]string(nil), base.Roots...)
			next.Rules = append(policy.Rules(nil), base.Rules...)
			tc.change(&next)
			d := policy.DiffSettings(base, next)
			check := func(what string, got, want []string) {
				t.Helper()
				if len(got) != len(want) {
					t.Fatalf("%s %q, want %q", what, got, want)
				}
				for i := range want {
					if !strings.Contains(got[i], want[i]) {
						t.Fatalf("%s %q, want %q", what, got, want)
					}
				}
			}
			check("raises", d.Raises, tc.raises)
			check("lowers", d.Lowers, tc.lowers)
			if len(d.Restart) != tc.restart {
				t.Fatalf("restart %q, want %d lines", d.Restart, tc.restart)
			}
			if d.Changed() != (len(tc.raises)+len(tc.lowers)+tc.restart > 0) {
				t.Fatalf("Changed() = %v", d.Changed())
			}
		})
	}
}
