package shell

import (
	"reflect"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// Hand-offs (rows_handoff.go): each case of testdata/handoff.jsonl is a
// command that has a server, daemon or other session run something, or a
// benign look-alike that must stay low. The cases are data: analysed,
// never run.

func TestHandoffCases(t *testing.T) {
	checkOptionCases(t, loadOptionCases(t, "handoff.jsonl"))
}

// TestHandOffSaysWhere: a command another process runs is rated as run
// outside the sandbox, and the reason says so.
func TestHandOffSaysWhere(t *testing.T) {
	for _, argv := range [][]string{
		{"tmux", "run-shell", "echo hi"}, {"tmux", "neww", "id"}, {"tmux", "display", "-p", "#(id)"},
		{"screen", "-S", "w", "-X", "exec", "id"}, {"psql", "-c", "COPY t TO PROGRAM 'id'"},
		{"kitten", "@", "launch", "id"}, {"wezterm", "cli", "spawn", "--", "id"}, {"zellij", "run", "--", "id"},
		{"systemd-run", "--user", "id"}, {"ssh", "host.example.com", "id"},
	} {
		var v Verdict
		Argv(&v, argv, nil)
		found := false
		for _, r := range v.Reasons {
			if r.Effect.Mods&effect.Unconfined != 0 {
				found = true
				if !strings.Contains(r.Text, "outside the sandbox") {
					t.Errorf("%q: reason %q does not say it runs outside the sandbox", argv, r.Text)
				}
			}
		}
		if !found || v.Level < level.Dangerous {
			t.Errorf("%q: %v, want a dangerous hand-off among %s", argv, v.Level, strings.Join(v.Texts(), " | "))
		}
	}
}

func TestTmuxResolve(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"run", "run-shell"}, {"run-s", "run-shell"}, {"run-shell", "run-shell"}, {"neww", "new-window"},
		{"new", "new-session"}, {"new-w", "new-window"}, {"splitw", "split-window"}, {"split", "split-window"},
		{"set", "set-option"}, {"set-h", "set-hook"}, {"source", "source-file"}, {"info", "server-info"},
		{"kill-server", "kill-server"}, {"kill-s", ""}, {"s", ""}, {"disp", ""}, {"RUN", ""}, {"nosuch", ""}, {"", ""},
	} {
		if got := tmuxResolve(c.in); got != c.want {
			t.Errorf("tmuxResolve(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for alias, full := range tmuxAliases {
		if _, ok := tmuxSpecs[full]; !ok {
			t.Errorf("alias %s names %s, which has no row", alias, full)
		}
		if _, ok := tmuxSpecs[alias]; ok {
			t.Errorf("alias %s is a command's name as well", alias)
		}
	}
}

func TestTmuxSplit(t *testing.T) {
	type w = []string
	for _, c := range []struct {
		in   string
		want [][]string
	}{
		{`run-shell id`, [][]string{{"run-shell", "id"}}},
		{`run 'a b' ; neww "c \"d\""`, [][]string{{"run", "a b"}, {"neww", `c "d"`}}},
		{"ls\nrun x", [][]string{{"ls"}, {"run", "x"}}},
		{`bind x run a \; run b`, [][]string{{"bind", "x", "run", "a", ";", "run", "b"}}},
		{`if true { run a; run b } { run c }`, [][]string{{"if", "true", " run a; run b ", " run c "}}},
		{`ls # run-shell id`, [][]string{{"ls"}}},
		{`display 'a#b'`, [][]string{{"display", "a#b"}}},
		{`run 'unclosed`, [][]string{{"run", "unclosed"}}},
		{`if x { run {`, [][]string{{"if", "x", " run {"}}},
		{`ls;run x`, [][]string{{"ls"}, {"run", "x"}}},
	} {
		var got [][]string
		for _, cmd := range tmuxSplit(c.in) {
			var ws w
			for _, x := range cmd {
				ws = append(ws, x.s)
			}
			got = append(got, ws)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("tmuxSplit(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if cmds := tmuxSplit(`run "$HOME/x"`); len(cmds) != 1 || !cmds[0][1].hole {
		t.Errorf(`tmuxSplit: "$HOME/x" is not computed: %+v`, cmds)
	}
}

func TestTmuxShellFormats(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"#(id)", []string{"id"}}, {"a #{x} #(date) b", []string{"date"}}, {"##(id)", nil},
		{"#(echo (x))", []string{"echo (x)"}}, {"#(unclosed", []string{"unclosed"}}, {"#{pane_id}", nil},
		{"#(a)#(b)", []string{"a", "b"}}, {"#", nil},
	} {
		if got := tmuxShellFormats(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("tmuxShellFormats(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// FuzzTmuxText fuzzes the text tmux, screen and psql commands hand to
// another process: tmux command text (hooks, bindings, if-shell), formats,
// screen -X eval, psql's backticks. The analysis ends, and every reason
// names an effect that weighs no more than the reason.
func FuzzTmuxText(f *testing.F) {
	for _, s := range []string{
		`run-shell "id"`, `if -F 1 { run 'x' } { neww y }`, "#(id)", `set -g status-right '#(date)'`,
		`bind x run a \; run b`, "%`id`", `exec !.. id`, "{{{{{{{{{{", `"$HOME" '#(x'`, "ls;;;run\nx",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = tmuxSplit(s)
		_ = tmuxShellFormats(s)
		for _, argv := range [][]string{
			{"tmux", "if", s, s}, {"tmux", "set-hook", "-g", "after-new-window", s}, {"tmux", "display", "-p", s},
			{"tmux", "bind", "x", s}, {"tmux", "set", "-g", "command-alias[0]", "x=" + s}, {"screen", "-X", "eval", s},
			{"psql", "-v", "PROMPT1=" + s}, {"psql", "-c", `\set x ` + s}, {"kitten", "@", "launch", s},
		} {
			var v Verdict
			Argv(&v, argv, nil)
			for _, r := range v.Reasons {
				if r.Effect.Kind == 0 || r.Effect.Level() > r.Level {
					t.Fatalf("%q: reason %s (%q) has effect %v weighing more than %v", argv, r.Rule, r.Text, r.Effect, r.Level)
				}
			}
		}
	})
}
