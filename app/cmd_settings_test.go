package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/secrets"
)

// reloadRig is a gate built from a settings file in a temporary home, as
// buildGate builds it, without the socket and the sandbox probe.
type reloadRig struct {
	b    *builtGate
	home string
	asks []policy.SettingsDiff
	yes  bool
}

func newReloadRig(t *testing.T, settings string) *reloadRig {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, d := range []string{"Documents", "Downloads", "Desktop", "src"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	data := filepath.Join(home, "data")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(data, settingsFile)
	if err := os.WriteFile(path, []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := policy.LoadSettings(path)
	if err != nil {
		t.Fatal(err)
	}
	env, err := s.Env(home, os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	store, err := history.Open(filepath.Join(data, historyFile), secrets.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	exec, err := gate.DefaultExecutor(env.Paths, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := gate.New(gate.Config{Env: env, Exec: exec, History: store, Autonomy: s.Autonomy, Rules: s.Rules})
	r := &reloadRig{home: home}
	r.b = &builtGate{dir: data, settingsPath: path, settings: s, store: store, gate: g, roots: env.Paths.Roots}
	r.b.force.settings, r.b.force.roots, r.b.force.env = s, env.Paths.Roots, env
	return r
}

// reload writes settings as the file and reloads it, the person answering
// r.yes when asked.
func (r *reloadRig) reload(t *testing.T, settings string) (reloadReport, error) {
	t.Helper()
	if err := os.WriteFile(r.b.settingsPath, []byte(settings), 0o600); err != nil {
		t.Fatal(err)
	}
	return r.b.reloadSettings(context.Background(), func(_ context.Context, d policy.SettingsDiff) error {
		r.asks = append(r.asks, d)
		if !r.yes {
			return errors.New("the person said no")
		}
		return nil
	})
}

// verdict is the gate's dry-run decision of a command in the home, and of
// a file written at path.
func (r *reloadRig) dryRun(t *testing.T, s gate.Submission) gate.Report {
	t.Helper()
	s.Client, s.DryRun = "t", true
	rep, _ := r.b.gate.Submit(context.Background(), s, nil)
	return rep
}

// blocked reports whether the dry run found the plan's action blocked.
func blocked(rep gate.Report) bool {
	return len(rep.Actions) > 0 && rep.Actions[0].Risk == "blocked"
}

// TestSettingsReload: a reload that only narrows (a deny rule added) is in
// force at once, without asking; a file that does not read is refused with
// its line and field, and the settings in force stay; one that lets more
// run (a root added, the deny rule taken away) is asked about, and on no
// nothing of it is in force, on yes all of it is — the gate decides by it.
func TestSettingsReload(t *testing.T) {
	r := newReloadRig(t, `{"roots": ["~/Documents"]}`)
	echo := gate.Submission{Kind: gate.KindCommand, Argv: []string{"echo", "hi"}, Dir: r.home}
	write := gate.Submission{Plan: `WRITE_FILE "~/src/a.txt" "x"` + "\n"}
	if rep := r.dryRun(t, write); !blocked(rep) {
		t.Fatalf("a write outside the roots before the reload: %s %s", rep.Status, rep.Error)
	}

	deny := `{"roots": ["~/Documents"], "rules": [{"decision": "deny", "prefix": ["echo"], "why": "no echo"}]}`
	rep, err := r.reload(t, deny)
	if err != nil || len(r.asks) != 0 || !rep.Changed || len(rep.Applied) != 1 {
		t.Fatalf("a deny rule added: %+v %v, asked %d times", rep, err, len(r.asks))
	}
	if rep := r.dryRun(t, echo); !strings.Contains(strings.Join(rep.Actions[0].Reasons, " "), "no echo") {
		t.Fatalf("the deny rule is not in force: %+v", rep)
	}

	_, err = r.reload(t, `{"roots": ["~/Documents"], "rules": [{"decision": "perhaps", "prefix": ["echo"]}]}`)
	if err == nil || !strings.Contains(err.Error(), "line 1") || !strings.Contains(err.Error(), "rules[0].decision") {
		t.Fatalf("a bad rule: %v; want its line and field", err)
	}
	if rep := r.dryRun(t, echo); !strings.Contains(strings.Join(rep.Actions[0].Reasons, " "), "no echo") {
		t.Fatalf("after a bad file, the deny rule is no longer in force: %+v", rep)
	}

	wider := `{"roots": ["~/Documents", "~/src"]}`
	if _, err := r.reload(t, wider); err == nil || len(r.asks) != 1 {
		t.Fatalf("a root added and a deny rule taken away, the person saying no: %v, asked %d times", err, len(r.asks))
	}
	raises := strings.Join(r.asks[0].Raises, "\n")
	if !strings.Contains(raises, "adds the sandbox root ~/src") || !strings.Contains(raises, "takes away the deny rule: echo") {
		t.Fatalf("the person was asked about %q", r.asks[0].Raises)
	}
	if rep := r.dryRun(t, write); !blocked(rep) {
		t.Fatalf("after a no, a write in the new root: %s", rep.Status)
	}
	if rep := r.dryRun(t, echo); !strings.Contains(strings.Join(rep.Actions[0].Reasons, " "), "no echo") {
		t.Fatalf("after a no, the deny rule is no longer in force: %+v", rep)
	}

	r.yes = true
	if rep, err := r.reload(t, wider); err != nil || !rep.Confirmed {
		t.Fatalf("the person saying yes: %+v %v", rep, err)
	}
	if rep := r.dryRun(t, write); blocked(rep) {
		t.Fatalf("after a yes, a write in the new root is still blocked: %s", rep.Error)
	}
	if rep := r.dryRun(t, echo); strings.Contains(strings.Join(rep.Actions[0].Reasons, " "), "no echo") {
		t.Fatalf("after a yes, the deny rule is still in force: %+v", rep)
	}
	if rep, err := r.reload(t, wider); err != nil || rep.Changed {
		t.Fatalf("the same file again: %+v %v; want nothing changed", rep, err)
	}
}

// TestSettingsReloadNobodyToAsk: with nobody to ask, a reload that lets
// more run is refused whole and says why.
func TestSettingsReloadNobodyToAsk(t *testing.T) {
	r := newReloadRig(t, `{"autonomy": 0}`)
	if err := os.WriteFile(r.b.settingsPath, []byte(`{"autonomy": 2}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := r.b.reloadSettings(context.Background(), nil)
	if err == nil || !strings.Contains(err.Error(), "nobody can be asked") {
		t.Fatalf("got %v", err)
	}
	if st := r.b.gate.Status(); st.Autonomy != 0 {
		t.Fatalf("the level is %d after a refused reload", st.Autonomy)
	}
}

// TestRemoveAllowRuleFromTheDashboard: the dashboard's Remove takes an
// allow rule out of the file and out of the running gate at once; a rule
// that changed since the page was shown, or a deny rule, is not removed.
func TestRemoveAllowRuleFromTheDashboard(t *testing.T) {
	r := newReloadRig(t, `{"rules": [{"decision": "deny", "prefix": ["rm"]}, {"decision": "allow", "prefix": ["echo", "hi"], "why": "mine"}]}`)
	views := ruleViews(r.b.force.settings.Rules)
	if len(views) != 2 || views[1].Decision != "allow" || !strings.Contains(views[1].Words, `["echo","hi"]`) {
		t.Fatalf("views %+v", views)
	}
	ctx := context.Background()
	if err := r.b.removeAllowRule(ctx, 1, views[0].Words); err == nil {
		t.Fatal("removed a deny rule")
	}
	if err := r.b.removeAllowRule(ctx, 2, views[0].Words); err == nil {
		t.Fatal("removed rule 2 by another rule's words")
	}
	if err := r.b.removeAllowRule(ctx, 2, views[1].Words); err != nil {
		t.Fatal(err)
	}
	s, err := policy.LoadSettings(r.b.settingsPath)
	if err != nil || len(s.Rules) != 1 || s.Rules[0].Decision != policy.RuleDeny {
		t.Fatalf("the file's rules after the removal: %+v %v", s.Rules, err)
	}
	if got, _, _ := r.b.force.current(); len(got.Rules) != 1 {
		t.Fatalf("the rules in force: %+v", got.Rules)
	}
	// The gate decides by the file's rules now: the deny rule still holds.
	rep := r.dryRun(t, gate.Submission{Kind: gate.KindCommand, Argv: []string{"rm", "x"}, Dir: r.home})
	if !strings.Contains(strings.Join(rep.Actions[0].Reasons, " "), "rule 1") {
		t.Fatalf("the deny rule is not in force: %+v", rep.Actions[0])
	}
}

// TestKeepRuleFromThePopup: a rule chosen in the approval popup is kept
// only after the second yes: then it is in the file and in force in the
// running gate at once; on a no, nowhere.
func TestKeepRuleFromThePopup(t *testing.T) {
	r := newReloadRig(t, `{}`)
	yes := false
	r.b.reload = &settingsConfirm{rule: func(context.Context, gate.RuleOffer) error {
		if !yes {
			return errors.New("the person said no")
		}
		return nil
	}}
	o := gate.RuleOffer{Rule: policy.Rule{Decision: policy.RuleDeny, Prefix: []string{"echo"}, Why: "kept"}, Words: "echo"}
	if err := r.b.keepRule(context.Background(), o); err == nil {
		t.Fatal("kept without the second yes")
	}
	if s, _ := policy.LoadSettings(r.b.settingsPath); len(s.Rules) != 0 {
		t.Fatalf("the file has %d rules after a no", len(s.Rules))
	}
	yes = true
	if err := r.b.keepRule(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if s, _ := policy.LoadSettings(r.b.settingsPath); len(s.Rules) != 1 {
		t.Fatalf("the file has %d rules after a yes", len(s.Rules))
	}
	rep := r.dryRun(t, gate.Submission{Kind: gate.KindCommand, Argv: []string{"echo", "hi"}, Dir: r.home})
	if !strings.Contains(strings.Join(rep.Actions[0].Reasons, " "), "kept") {
		t.Fatalf("the kept rule is not in force: %+v", rep.Actions[0])
	}
}

// TestSettingsReloadChangedWhileAsked: a yes is to what the popup showed:
// a file changed while the person was asked is not put in force.
func TestSettingsReloadChangedWhileAsked(t *testing.T) {
	r := newReloadRig(t, `{"roots": ["~/Documents"]}`)
	if err := os.WriteFile(r.b.settingsPath, []byte(`{"roots": ["~/Documents", "~/src"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := r.b.reloadSettings(context.Background(), func(context.Context, policy.SettingsDiff) error {
		// Meanwhile, something else widens the roots further.
		return os.WriteFile(r.b.settingsPath, []byte(`{"roots": ["~/Documents", "~/src", "~/Desktop"]}`), 0o600)
	})
	if err == nil || !strings.Contains(err.Error(), "changed while you were asked") {
		t.Fatalf("got %v", err)
	}
	if _, roots, _ := r.b.force.current(); len(roots) != 1 {
		t.Fatalf("roots in force %q", roots)
	}
}
