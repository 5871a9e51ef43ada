package gate_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
)

// withRules gives the rig's gate the person's rules.
func withRules(rs ...policy.Rule) func(*gate.Config) {
	return func(c *gate.Config) { c.Rules = rs }
}

// buildCmd is the command the rule tests submit: a script of the person's
// that the analyzer asks about at the default level.
var buildCmd = []string{"python3", "~/Documents/build.py"}

func submitCmd(t *testing.T, r *rig, client string, id policy.Identity, argv ...string) (gate.Report, error) {
	t.Helper()
	return r.g.Submit(context.Background(), gate.Submission{Client: client, Identity: id, Kind: gate.KindCommand, Argv: argv}, nil)
}

// withPinnedRule writes the person's script into the rig's home and gives
// the gate an allow rule for prefix, pinning what `python3 SCRIPT` runs
// as `airlock rules test` prints it.
func withPinnedRule(t *testing.T, prefix ...string) func(*gate.Config) {
	return func(c *gate.Config) {
		home := c.Env.Paths.Home
		script := filepath.Join(home, "Documents", "build.py")
		writeFile(t, script, "print('build')\n")
		pins, err := policy.RulePins(risk.RunFilesArgv(context.Background(), []string{"python3", script}, home, c.Env))
		if err != nil {
			t.Fatal(err)
		}
		c.Rules = policy.Rules{{Decision: policy.RuleAllow, Prefix: prefix, Why: "my build", Pins: pins}}
	}
}

// A deny rule refuses the command before anyone is asked, and says which
// rule and why; nothing runs, and the refusal is recorded.
func TestRuleDenies(t *testing.T) {
	r := newRig(t, policy.FullAuto, approveAll, withRules(
		policy.Rule{Decision: policy.RuleAllow, Prefix: []string{"python3"}},
		policy.Rule{Decision: policy.RuleDeny, Prefix: []string{"python3"}, Why: "no python here"}))
	writeFile(t, filepath.Join(r.home, "Documents", "build.py"), "print(1)\n")
	rep, err := submitCmd(t, r, "t", agent, buildCmd...)
	if !errors.Is(err, gate.ErrBlocked) || rep.Status != gate.StatusRefused {
		t.Fatalf("submit: %v %+v; want refused as blocked", err, rep)
	}
	ar := rep.Actions[0]
	if ar.Decision != "refused" || ar.Error != "denied by your rule 2: no python here" {
		t.Errorf("action: %+v", ar)
	}
	if r.ask.count() != 0 || len(r.exec.names()) != 0 {
		t.Errorf("asked %d times, ran %v; want neither", r.ask.count(), r.exec.names())
	}
	r.hist.mu.Lock()
	defer r.hist.mu.Unlock()
	if len(r.hist.decisions) != 1 || r.hist.decisions[0].Decision != "refused" ||
		!strings.Contains(strings.Join(r.hist.decisions[0].Reasons, "\n"), "denied by your rule 2") {
		t.Errorf("recorded: %+v", r.hist.decisions)
	}
}

// An ask rule asks about what would run unasked, every time: no
// remembered grant answers it, and none is offered.
func TestRuleAsks(t *testing.T) {
	r := newRig(t, policy.FullAuto, approveRemember, withRules(
		policy.Rule{Decision: policy.RuleAsk, Prefix: []string{"ls"}, Why: "show me"}))
	for n := 1; n <= 2; n++ {
		rep, err := submitCmd(t, r, "t", agent, "ls", "~/Documents")
		if err != nil || rep.Actions[0].Decision != "ask" || rep.Actions[0].Approval != "approved" || r.ask.count() != n {
			t.Fatalf("run %d: %v %+v, asked %d times", n, err, rep.Actions[0], r.ask.count())
		}
	}
	if q := r.ask.asked[0]; !q.NoRemember || !strings.Contains(q.NoRememberWhy, "rule") {
		t.Errorf("allow again offered for what a rule asks about every time: %+v", q)
	}
	if rs := r.ask.asked[0].Items[0].Reasons; !strings.Contains(strings.Join(rs, "\n"), "your rule 1 asks about it every time: show me") {
		t.Errorf("the person is not told why: %q", rs)
	}
	// Without the rule it would have run unasked.
	r2 := newRig(t, policy.FullAuto, approveAll)
	if rep, _ := submitCmd(t, r2, "t", agent, "ls", "~/Documents"); rep.Actions[0].Decision != "auto" {
		t.Fatalf("ls ran as %+v without the rule; the test needs a command that runs unasked", rep.Actions[0])
	}
}

// An allow rule lets a command that would be asked about run unasked while
// the files it runs hold what the rule pins; changed, it is asked about
// again and the person is told why.
func TestRuleAllowsWhilePinsHold(t *testing.T) {
	r := newRig(t, policy.SmartDefault, approveAll, withPinnedRule(t, "python3", "~/Documents/build.py"))
	script := filepath.Join(r.home, "Documents", "build.py")
	rep, err := submitCmd(t, r, "t", agent, buildCmd...)
	if err != nil || rep.Actions[0].Decision != "auto" || r.ask.count() != 0 {
		t.Fatalf("pinned script: %v %+v, asked %d times; want run unasked", err, rep.Actions[0], r.ask.count())
	}
	if rs := strings.Join(rep.Actions[0].Reasons, "\n"); !strings.Contains(rs, "allowed by your rule 1: my build") {
		t.Errorf("reasons %q do not name the rule", rs)
	}
	writeFile(t, script, "print('replaced by the agent')\n")
	rep, err = submitCmd(t, r, "t", agent, buildCmd...)
	if err != nil || rep.Actions[0].Decision != "ask" || r.ask.count() != 1 {
		t.Fatalf("changed script: %v %+v, asked %d times; want asked", err, rep.Actions[0], r.ask.count())
	}
	if rs := strings.Join(r.ask.asked[0].Items[0].Reasons, "\n"); !strings.Contains(rs, "not allowed by your rule 1") || !strings.Contains(rs, script+" changed since the rule pinned it") {
		t.Errorf("the person is not told why the rule did not hold: %q", rs)
	}
}

// A file changed after the decision and before the start: the allow rule's
// pins are read again right before it starts, and it does not start.
func TestRuleAllowRecheckedAtStart(t *testing.T) {
	var script string
	r := newRig(t, policy.SmartDefault, approveAll, withPinnedRule(t, "python3"), func(c *gate.Config) {
		script = filepath.Join(c.Env.Paths.Home, "Documents", "build.py")
		c.Events = func(e gate.Event) {
			if e.Type == gate.EventAssessed {
				writeFile(t, script, "print('swapped')\n")
			}
		}
	})
	rep, err := submitCmd(t, r, "t", agent, buildCmd...)
	if !errors.Is(err, policy.ErrLapsed) || rep.Actions[0].Status != gate.StatusRefused || len(r.exec.names()) != 0 {
		t.Fatalf("swapped after the decision: %v %+v, ran %v; want refused, nothing run", err, rep.Actions[0], r.exec.names())
	}
}

// An allow rule never covers a destructive command, nor, when it names a
// client, an unverified program's; a refused one stays refused.
func TestRuleAllowNeverCovers(t *testing.T) {
	r := newRig(t, policy.SmartDefault, approveAll, withRules(
		policy.Rule{Decision: policy.RuleAllow, Prefix: []string{"rm"}},
		policy.Rule{Decision: policy.RuleAllow, Prefix: []string{"python3"}, Client: "claude"}))
	writeFile(t, filepath.Join(r.home, "Documents", "x"), "x")
	writeFile(t, filepath.Join(r.home, "Documents", "build.py"), "print(1)\n")
	rep, err := submitCmd(t, r, "t", agent, "rm", "-rf", "~/Documents")
	if err != nil || rep.Actions[0].Decision != "ask" || r.ask.count() != 1 {
		t.Fatalf("rm -rf: %v %+v; want asked", err, rep.Actions[0])
	}
	if rs := strings.Join(r.ask.asked[0].Items[0].Reasons, "\n"); !strings.Contains(rs, "needs its own approval every time") {
		t.Errorf("reasons %q do not say why the rule did not hold", rs)
	}
	rep, err = submitCmd(t, r, "claude", policy.Identity{}, buildCmd...)
	if err != nil || rep.Actions[0].Decision != "ask" || r.ask.count() != 2 {
		t.Fatalf("unverified client: %v %+v; want asked", err, rep.Actions[0])
	}
	if rs := strings.Join(r.ask.asked[1].Items[0].Reasons, "\n"); !strings.Contains(rs, "not verified") {
		t.Errorf("reasons %q do not say why the rule did not hold", rs)
	}
}
