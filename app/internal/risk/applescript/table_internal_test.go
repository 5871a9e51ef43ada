package applescript

import (
	"context"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
)

// TestVerbTableHasNoDuplicates refuses two rows of one pattern: the second
// would silently add to (or undo) what the first says.
func TestVerbTableHasNoDuplicates(t *testing.T) {
	seen := map[string]int{}
	for k, r := range verbs {
		key := strings.Join(strings.Fields(strings.ToLower(r.Pattern)), " ")
		if j, ok := seen[key]; ok {
			t.Errorf("rows %d and %d both have the pattern %q", j, k, r.Pattern)
		}
		seen[key] = k
	}
}

// TestVerbTableRowsAreWhole checks every row says what it is: a flat row
// its id, effect and warning; a function row a function that exists, and
// every function a row; every row the effect it has (issue 24).
func TestVerbTableRowsAreWhole(t *testing.T) {
	used := map[verbFn]bool{}
	for k, r := range verbs {
		used[r.Fn] = true
		switch {
		case r.Fn >= fnCount:
			t.Errorf("row %d (%q) names function %d, past the last", k, r.Pattern, r.Fn)
		case r.Fn == fnFlat && (r.ID == "" || r.Text == ""):
			t.Errorf("row %d (%q) is flat but has no id or no warning", k, r.Pattern)
		case r.Fn != fnFlat && r.Text != "":
			t.Errorf("row %d (%q) has a warning its function does not use", k, r.Pattern)
		}
		if r.ID != "" && !strings.HasPrefix(r.ID, "as.") && !strings.HasPrefix(r.ID, "secret.as.") && !strings.HasPrefix(r.ID, "egress.as.") {
			t.Errorf("row %d (%q): rule id %q starts with none of as., secret.as., egress.as.", k, r.Pattern, r.ID)
		}
		if effect.WayOut(r.Effect.Kind) != strings.HasPrefix(r.ID, "egress.") && r.ID != "" {
			t.Errorf("row %d (%q): a way out is an egress. rule, and only a way out (id %q, effect %v)", k, r.Pattern, r.ID, r.Effect)
		}
		if (r.Effect.Kind == effect.ReadSecret || r.Effect.Kind == effect.ReadNamedSecret) != strings.HasPrefix(r.ID, "secret.") && r.ID != "" {
			t.Errorf("row %d (%q): a secret read is a secret. rule, and only a secret read (id %q, effect %v)", k, r.Pattern, r.ID, r.Effect)
		}
		if r.Effect.Kind == 0 {
			t.Errorf("row %d (%q) declares no effect", k, r.Pattern)
		}
		if r.Fn == fnFlat && !r.Always {
			t.Errorf("row %d (%q) is flat: every match adds its effect (Always)", k, r.Pattern)
		}
		if r.Example == "" {
			t.Errorf("row %d (%q) has no example", k, r.Pattern)
		}
		if r.App != "" && facts.AppInfo(r.App) == nil {
			t.Errorf("row %d (%q): its example's application %q is not one facts knows", k, r.Pattern, r.App)
		}
	}
	for fn := fnFlat + 1; fn < fnCount; fn++ {
		if !used[fn] {
			t.Errorf("function %d is named by no row: dead", fn)
		}
	}
}

// TestVerbTableExamples runs every row's example: the row's pattern must
// match it where a command starts (a pattern no input can produce is
// dead), and the verdict must hold the row's id at the level of the row's
// effect at least (a row that no longer rates what it says is wrong).
func TestVerbTableExamples(t *testing.T) {
	env, end := (&Env{}).Begin(context.Background(), fakeShell{})
	defer end(&Verdict{})
	for k, r := range verbs {
		src := r.Example
		if r.App != "" {
			src = "tell application \"" + r.App + "\"\n" + r.Example + "\nend tell"
		}
		lx := lexAppleScript(src)
		pat := pattern(vocab, r.Pattern)
		row := asRule{pat: pat, row: &verbs[k]}
		matched := false
		start := 0
		for i, tk := range lx.toks {
			if tk.kind != asEOL {
				continue
			}
			st := lx.toks[start:i]
			start = i + 1
			for j := range st {
				if row.match(st, j) > 0 && (!r.Head || isHead(st, j)) {
					matched = true
				}
			}
		}
		lx.release()
		if !matched {
			t.Errorf("row %d (%q) does not match its example %q", k, r.Pattern, r.Example)
			continue
		}
		v := Rate(src, env, 0)
		if r.ID == "" {
			continue
		}
		found := false
		for _, reason := range v.Reasons {
			if reason.Rule == r.ID && reason.Level >= r.Effect.Level() {
				found = true
			}
		}
		if !found {
			t.Errorf("row %d (%q): its example %q gives %v, without %s at %v or above", k, r.Pattern, r.Example, v, r.ID, r.Effect.Level())
		}
	}
}

// codeRows are the rows that start code and can still stay below
// Dangerous, with how: each analyses the code it runs, or rates by its
// target what it cannot see.
var codeRows = map[verbFn]string{
	fnDoScript:        "Terminal's text is analysed as shell; a script runner's as AppleScript; other applications are Dangerous",
	fnWriteText:       "iTerm's text is analysed as shell",
	fnTerminalCommand: "the command of iTerm's new window, tab or pane is analysed as shell; to another application it is Dangerous",
	fnRunScript:       "a literal is analysed; a file is Dangerous, computed text Destructive",
	fnRun:             "run of a known application starts it; a shortcut or an unknown application is Dangerous",
	fnOpen:            "a document opens; a runnable file or a terminal's open is Dangerous",
	fnExecute:         "only a statement's head executes (Dangerous); elsewhere it is a word",
	fnAttach:          "only a Folder Action attaches code (Destructive)",
	fnAdminBare:       "administrator privileges false asks for none",
}

// startsCode are the effects that start code or make it start later.
var startsCode = map[effect.Kind]bool{effect.Run: true, effect.Shell: true, effect.RunUnseen: true, effect.RunComputed: true,
	effect.LoadCode: true, effect.Launch: true, effect.Persist: true, effect.Admin: true}

// TestAutoRunContract walks the table: every row a match of which can stay
// below Dangerous has a closed option model, which the analyzer enforces
// (a labelled parameter it does not list makes the command Dangerous, one
// it lists does not); every such row that starts code says how it sees the
// code; and every row's example is rated at its effect's level at least
// where every match has the effect (Always).
func TestAutoRunContract(t *testing.T) {
	env, end := (&Env{}).Begin(context.Background(), fakeShell{})
	defer end(&Verdict{})
	rate := func(r verb, stmt string) Verdict {
		src := stmt
		if r.App != "" {
			src = "tell application \"" + r.App + "\"\n" + stmt + "\nend tell"
		}
		return Rate(src, env, 0)
	}
	has := func(v Verdict, rule string) bool {
		for _, x := range v.Reasons {
			if x.Rule == rule {
				return true
			}
		}
		return false
	}
	for k, r := range verbs {
		if v := rate(r, r.Example); r.Always && v.Level < r.Effect.Level() {
			t.Errorf("row %d (%q): its example is rated %v, below the row's effect %v (%v)", k, r.Pattern, v.Level, r.Effect, r.Effect.Level())
		}
		if !r.mayStayBelowDangerous() || r.Part {
			continue
		}
		if startsCode[r.Effect.Kind] && codeRows[r.Fn] == "" {
			t.Errorf("row %d (%q) starts code below Dangerous and does not say how it sees it (codeRows)", k, r.Pattern)
		}
		if v := rate(r, r.Example+" with frobnication"); v.Level < level.Dangerous || !has(v, "as.unmodelled-param") {
			t.Errorf("row %d (%q): an unmodelled parameter leaves it at %v: %v", k, r.Pattern, v.Level, v)
		}
		f := strings.Fields(r.Params)
		for j := 0; j+1 < len(f); j++ {
			if f[j] != "with" {
				continue
			}
			if v := rate(r, r.Example+" with "+f[j+1]); has(v, "as.unmodelled-param") {
				t.Errorf("row %d (%q): its own parameter with %s is called unmodelled: %v", k, r.Pattern, f[j+1], v)
			}
		}
	}
}

// TestAppVerbContract checks the contract for the commands of known
// applications' dictionaries (facts.Apps): a parameter they do not model
// makes them Dangerous, the everyday ones do not.
func TestAppVerbContract(t *testing.T) {
	env, end := (&Env{}).Begin(context.Background(), fakeShell{})
	defer end(&Verdict{})
	for _, c := range []struct {
		script string
		want   bool // unmodelled
	}{
		{"tell application \"Music\" to play track 1 with frobnication", true},
		{"tell application \"Photos\" to import {f} with skip check duplicates", true},
		{"tell application \"Finder\" to reveal file \"a\" of desktop with deleting", true},
		{"tell application \"Mail\" to reply m with opening window", false},
		{"tell application \"Music\" to play track 1", false},
		{"tell application \"Preview\" to print document 1 without print dialog", false},
	} {
		v := Rate(c.script, env, 0)
		got := false
		for _, r := range v.Reasons {
			got = got || r.Rule == "as.unmodelled-param"
		}
		if got != c.want || got && v.Level < level.Dangerous {
			t.Errorf("%q: %v, want unmodelled %v", c.script, v, c.want)
		}
	}
}

// TestWithLabel: a label counts only right after "with" in a row's
// Params, in any case, however the fields are spaced.
func TestWithLabel(t *testing.T) {
	cases := []struct {
		params, label string
		want          bool
	}{
		{"to with replacing positioned at", "replacing", true},
		{"to with replacing positioned at", "REPLACING", true},
		{"to with replacing positioned at", "positioned", false},
		{"to with replacing positioned at", "to", false},
		{"  with\tsecurity  ", "security", true},
		{"with", "with", false},
		{"saving", "saving", false},
		{"", "x", false},
	}
	for _, c := range cases {
		if got := withLabel(c.params, c.label); got != c.want {
			t.Errorf("withLabel(%q, %q) = %v, want %v", c.params, c.label, got, c.want)
		}
	}
}
