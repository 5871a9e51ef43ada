package gate_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// TestAlwaysAllowHere: the popup offers "always allow this exact command
// here" for one command that is not destructive, from a verified client;
// the person's choice of it hands the gate's KeepRule the exact command as
// resolved, its folder, the client and the pins of the files it runs, and
// the report says whether it was kept. It is not offered for a destructive
// command, an unverified client, or a plan.
func TestAlwaysAllowHere(t *testing.T) {
	var offered []string
	choose := func(_ context.Context, r approval.Request) (approval.Answer, error) {
		offered = append(offered, r.OfferRule)
		return approval.Answer{Outcome: approval.Approved, Items: make([]bool, len(r.Items)), Rule: r.OfferRule != ""}, nil
	}
	approveEach := func(ctx context.Context, r approval.Request) (approval.Answer, error) {
		a, err := choose(ctx, r)
		for i := range a.Items {
			a.Items[i] = true
		}
		return a, err
	}
	var kept []gate.RuleOffer
	keepErr := error(nil)
	r := newRig(t, policy.AskAll, approveEach, func(c *gate.Config) {
		c.KeepRule = func(_ context.Context, o gate.RuleOffer) error {
			kept = append(kept, o)
			return keepErr
		}
	})
	proj := filepath.Join(r.home, "Documents", "proj")
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(proj, "build.sh")
	if err := os.WriteFile(script, []byte("echo built\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	submit := func(s gate.Submission) gate.Report {
		t.Helper()
		s.Client = "mcp: agent"
		rep, _ := r.g.Submit(context.Background(), s, nil)
		return rep
	}
	rep := submit(gate.Submission{Identity: agent, Kind: gate.KindCommand, Argv: []string{"/bin/sh", "build.sh"}, Dir: proj, Path: "/usr/bin:/bin"})
	if len(offered) != 1 || !strings.Contains(offered[0], `["/bin/sh","build.sh"] in `+proj) || !strings.Contains(offered[0], `"mcp: agent"`) {
		t.Fatalf("offered %q", offered)
	}
	if len(kept) != 1 {
		t.Fatalf("kept %d rules", len(kept))
	}
	k := kept[0].Rule
	if k.Decision != policy.RuleAllow || strings.Join(k.Prefix, " ") != "/bin/sh build.sh" || k.Dir != proj || k.Client != "mcp: agent" {
		t.Fatalf("the rule %+v", k)
	}
	if _, ok := k.Pins[script]; !ok {
		t.Fatalf("the rule does not pin the script it runs: %v", k.Pins)
	}
	if reasons := strings.Join(rep.Actions[0].Reasons, "\n"); !strings.Contains(reasons, "kept as your rule") {
		t.Fatalf("the report does not say the rule was kept: %q", reasons)
	}

	keepErr = errors.New("the person said no in the confirmation popup")
	rep = submit(gate.Submission{Identity: agent, Kind: gate.KindCommand, Argv: []string{"/bin/sh", "build.sh"}, Dir: proj, Path: "/usr/bin:/bin"})
	if reasons := strings.Join(rep.Actions[0].Reasons, "\n"); !strings.Contains(reasons, "was not kept: the person said no") || rep.Status != gate.StatusOK {
		t.Fatalf("a rule not kept: %s, %q", rep.Status, reasons)
	}

	offered = nil
	submit(gate.Submission{Identity: agent, Kind: gate.KindCommand, Argv: []string{"rm", "-r", proj}, Dir: r.home})
	submit(gate.Submission{Kind: gate.KindCommand, Argv: []string{"/bin/sh", "build.sh"}, Dir: proj})
	submit(gate.Submission{Identity: agent, Plan: "NOTIFY \"a\" \"b\"\n"})
	for i, o := range offered {
		if o != "" {
			t.Errorf("submission %d (destructive, unverified, a plan) was offered %q", i+1, o)
		}
	}
}
