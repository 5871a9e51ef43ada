package gate_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
)

// Red team 7, attack 4. "Approve, and always allow here" keeps an allow
// rule for the exact command, its folder and the client: the popup says
// `from "mcp: claude"`. The rule held the client's name, and an allow rule
// naming a client needed only that the client be verified, any verified
// program: so another program of the person's — an agent's script run by
// /usr/bin/python3 — that calls itself "mcp: claude" ran the command
// unasked. A grant belongs to the client's verified program, never to the
// name it gives itself (DESIGN.md); a rule the popup keeps is held as
// tightly, so it must name the program too, and hold for it alone.
func TestRedKeptRuleBelongsToTheProgram(t *testing.T) {
	claude := policy.Identity{Key: "exe:/usr/bin/claude:dev1:ino2", Program: "/usr/bin/claude (pid 42)"}
	python := policy.Identity{Key: "exe:/usr/bin/python3:dev1:ino3", Program: "/usr/bin/python3 (pid 77)"}
	approveRule := func(_ context.Context, r approval.Request) (approval.Answer, error) {
		ans := approval.Answer{Outcome: approval.Approved, Items: make([]bool, len(r.Items)), Rule: r.OfferRule != ""}
		for i := range ans.Items {
			ans.Items[i] = true
		}
		return ans, nil
	}
	var kept []gate.RuleOffer
	var env *risk.Env
	first := newRig(t, policy.SmartDefault, approveRule, func(c *gate.Config) {
		env = c.Env
		c.KeepRule = func(_ context.Context, o gate.RuleOffer) error {
			kept = append(kept, o)
			return nil
		}
	})
	proj := filepath.Join(first.home, "Documents", "proj")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "build.sh"), []byte("echo built\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := func(id policy.Identity) gate.Submission {
		return gate.Submission{Client: "mcp: claude", Identity: id, Kind: gate.KindCommand,
			Argv: []string{"/bin/sh", "build.sh"}, Dir: proj, Path: "/usr/bin:/bin"}
	}
	if rep, err := first.g.Submit(context.Background(), cmd(claude), nil); err != nil || len(kept) != 1 {
		t.Fatalf("the person's yes with the rule: %v %+v, kept %d", err, rep.Actions, len(kept))
	}

	// The rule in force, as settings.json would hold it after a restart.
	b, err := policy.EncodeRules(policy.Rules{kept[0].Rule}, "")
	if err != nil {
		t.Fatal(err)
	}
	rules, err := policy.DecodeRules(b)
	if err != nil {
		t.Fatalf("the kept rule does not read back: %v\n%s", err, b)
	}
	sameHome := func(c *gate.Config) { c.Env = env }
	second := newRig(t, policy.SmartDefault, denyAll, withRules(rules...), sameHome)
	rep, _ := second.g.Submit(context.Background(), cmd(python), nil)
	if rep.Actions[0].Decision == "auto" || len(second.exec.names()) != 0 {
		t.Fatalf("HOLE: the rule kept for %s ran for %s, which only calls itself %q: %+v",
			claude.Program, python.Program, "mcp: claude", rep.Actions[0])
	}
	// Its own program still has it.
	third := newRig(t, policy.SmartDefault, denyAll, withRules(rules...), sameHome)
	if rep, err := third.g.Submit(context.Background(), cmd(claude), nil); err != nil || rep.Actions[0].Decision != "auto" {
		t.Fatalf("the rule no longer holds for the program it was kept for: %v %+v", err, rep.Actions[0])
	}
}
