package gate_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// An app outside the allowed apps is blocked: the whole plan is refused,
// nothing is offered for approval, nothing runs, and the history says why,
// naming the setting. Apps on the list still run.
func TestAllowedApps(t *testing.T) {
	withApps := func(apps ...string) func(*gate.Config) {
		return func(c *gate.Config) {
			paths, err := c.Env.Paths.WithApps(apps)
			if err != nil {
				t.Fatal(err)
			}
			env := *c.Env
			env.Paths = paths
			c.Env = &env
		}
	}
	for _, autonomy := range []policy.Autonomy{policy.AskAll, policy.SmartDefault, policy.FullAuto} {
		r := newRig(t, autonomy, approveAll, withApps("Safari"))
		plan := "OPEN_APP \"Safari\"\nQUIT_APP \"Terminal\"\n"
		rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "cli", Plan: plan}, nil)
		if !errors.Is(err, gate.ErrBlocked) || rep.Status != gate.StatusRefused {
			t.Fatalf("level %v: %v, %+v; want the plan blocked", autonomy, err, rep)
		}
		if !strings.Contains(err.Error(), `"Terminal" is not in allowedApps (settings.json); add it there to allow QUIT_APP`) {
			t.Errorf("error %q does not name the setting", err)
		}
		if rep.Risk != "blocked" || rep.Actions[1].Risk != "blocked" || rep.Actions[0].Risk != "caution" {
			t.Errorf("risks: plan %s, actions %s, %s", rep.Risk, rep.Actions[0].Risk, rep.Actions[1].Risk)
		}
		if n := r.ask.count(); n != 0 {
			t.Errorf("a blocked plan was offered for approval %d times", n)
		}
		if ran := r.exec.names(); len(ran) != 0 {
			t.Errorf("ran %q", ran)
		}
		r.hist.mu.Lock()
		d := r.hist.decisions
		r.hist.mu.Unlock()
		if len(d) != 2 || d[1].Decision != "refused" || !strings.Contains(strings.Join(d[1].Reasons, " "), "allowedApps") {
			t.Errorf("recorded %+v", d)
		}
	}

	r := newRig(t, policy.SmartDefault, nil, withApps("Safari"))
	if _, err := r.g.Submit(context.Background(), gate.Submission{Client: "cli", Plan: `ACTIVATE_APP "safari"`}, nil); err != nil {
		t.Fatalf("a listed app: %v", err)
	}
	if ran := r.exec.names(); len(ran) != 1 || ran[0] != "ACTIVATE_APP" {
		t.Errorf("ran %q", ran)
	}
}
