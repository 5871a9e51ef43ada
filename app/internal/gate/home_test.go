package gate_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
)

// argvExec records the argv of every script and command it is given.
type argvExec struct {
	mu   sync.Mutex
	argv [][]string
	dirs []string
}

func (e *argvExec) RunAssessed(context.Context, action.Action, level.Level) (execute.Result, error) {
	return execute.Result{}, nil
}

func (e *argvExec) RunScript(_ context.Context, _, _ string, argv []string, dir string, _ ossandbox.Grant) (execute.Result, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.argv = append(e.argv, slices.Clone(argv))
	e.dirs = append(e.dirs, dir)
	return execute.Result{}, nil
}

// TestCommandHomeIsExpandedBeforeItIsJudged checks that a command's ~ is
// expanded once, before the analyzer, the person and the executor see it,
// so all three see the same path; and that only ~ and ~/… are expanded.
func TestCommandHomeIsExpandedBeforeItIsJudged(t *testing.T) {
	rec := &argvExec{}
	r := newRig(t, policy.AskAll, approveAll, func(c *gate.Config) { c.Exec = rec })
	home := r.home
	for _, tt := range []struct {
		argv    []string
		want    []string
		risk    level.Level // at least
		blocked bool        // refused before anyone is asked; want is what its preview shows
	}{
		{[]string{"ls", "-l", "~/Documents"}, []string{"ls", "-l", filepath.Join(home, "Documents")}, level.Safe, false},
		{[]string{"ls", "~"}, []string{"ls", home}, level.Safe, false},
		// What the analyzer rates is the expanded path: the credential
		// store is still found (and refused, seed 003).
		{[]string{"cat", "~/.ssh/id_rsa"}, []string{"cat", filepath.Join(home, ".ssh/id_rsa")}, level.Blocked, true},
		{[]string{"touch", "~/.bashrc"}, []string{"touch", filepath.Join(home, ".bashrc")}, level.Destructive, false},
		// Not expanded: another user's home, ~ inside a word, $HOME.
		{[]string{"ls", "~root/x", "a~/b", "--dir=~/x", "$HOME/x"}, []string{"ls", "~root/x", "a~/b", "--dir=~/x", "$HOME/x"}, level.Safe, false},
	} {
		before, ran := r.ask.count(), len(rec.argv)
		rep, _ := r.g.Submit(context.Background(), gate.Submission{Client: "t", Kind: gate.KindCommand, Argv: tt.argv}, nil)
		if tt.blocked {
			if r.ask.count() != before || len(rec.argv) != ran || rep.Risk != "blocked" || len(rep.Actions) != 1 ||
				!strings.Contains(rep.Actions[0].Preview, tt.want[1]) {
				t.Errorf("%q: want refused unasked with the expanded path shown: %+v", tt.argv, rep)
			}
			continue
		}
		if r.ask.count() != before+1 {
			t.Fatalf("%q: the person was not asked: %+v", tt.argv, rep)
		}
		shown := r.ask.asked[before].Items[0].Text
		for _, a := range tt.want[1:] {
			if !strings.Contains(shown, a) {
				t.Errorf("%q: the person was shown %q, which lacks %q", tt.argv, shown, a)
			}
		}
		if got, err := level.Parse(rep.Risk); err != nil || got < tt.risk {
			t.Errorf("%q: risk %q, want at least %v", tt.argv, rep.Risk, tt.risk)
		}
		if got := rec.argv[len(rec.argv)-1]; !slices.Equal(got, tt.want) {
			t.Errorf("%q: ran %q, want %q", tt.argv, got, tt.want)
		}
	}
}
