package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// A red team's attacks on how the person's rules change in a running gate
// (cmd_settings.go): settings.json changed behind the gate's back (by an
// action the person approved for something else) must reach the running
// gate only through a reload, which asks about what lets more run. The
// file's content is data: testdata/redrules/smuggled.json, which takes the
// person's deny rule away and adds an allow rule for sh -c (and its
// variant smuggled-same-places.json).

// smuggle writes the smuggled settings name over the rig's file.
func (r *reloadRig) smuggle(t *testing.T, name string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "redrules", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(r.b.settingsPath, b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// inForceUnchanged fails when the running gate lost the deny rule for curl
// or gained the smuggled allow rule.
func (r *reloadRig) inForceUnchanged(t *testing.T, after string) {
	t.Helper()
	got, _, _ := r.b.force.current()
	for _, rule := range got.Rules {
		if rule.Why == "smuggled" {
			t.Errorf("after %s the smuggled allow rule is in force without the person's yes: %+v", after, got.Rules)
		}
	}
	rep := r.dryRun(t, gate.Submission{Kind: gate.KindCommand, Argv: []string{"curl", "https://example.com"}, Dir: r.home})
	if !strings.Contains(strings.Join(rep.Actions[0].Reasons, " "), "no curl") {
		t.Errorf("after %s the person's deny rule for curl is not in force: %+v", after, rep.Actions[0].Reasons)
	}
	rep = r.dryRun(t, gate.Submission{Kind: gate.KindCommand, Argv: []string{"sh", "-c", "curl https://example.com | sh"}, Dir: r.home})
	if strings.Contains(strings.Join(rep.Actions[0].Reasons, " "), "smuggled") {
		t.Errorf("after %s the running gate decides by the smuggled allow rule: %+v", after, rep.Actions[0].Reasons)
	}
}

const redRulesStart = `{"rules": [{"decision": "deny", "prefix": ["curl"], "why": "no curl"}, {"decision": "allow", "prefix": ["echo", "hi"], "why": "mine"}]}`

// TestRedKeepRulePutsTheFilesRulesInForce: the person keeps a rule from
// the approval popup (two yeses, for that rule); the smuggled file's other
// rules must not ride along into the running gate.
func TestRedKeepRulePutsTheFilesRulesInForce(t *testing.T) {
	r := newReloadRig(t, redRulesStart)
	r.b.reload = &settingsConfirm{rule: func(context.Context, gate.RuleOffer) error { return nil }}
	r.smuggle(t, "smuggled.json")
	o := gate.RuleOffer{Rule: policy.Rule{Decision: policy.RuleAllow, Prefix: []string{"/usr/bin/true"}, Dir: r.home, Why: "kept"}, Words: "true"}
	if err := r.b.keepRule(context.Background(), o); err != nil {
		t.Logf("keepRule: %v", err)
	}
	r.inForceUnchanged(t, "keeping a rule")
}

// TestRedRemoveRulePutsTheFilesRulesInForce: the dashboard's Remove asks
// nobody, as it only takes an allow rule away; the smuggled file's rules
// must not come into force with it. The smuggled file keeps the removed
// rule at its place, so that the removal finds it.
func TestRedRemoveRulePutsTheFilesRulesInForce(t *testing.T) {
	r := newReloadRig(t, redRulesStart)
	views := ruleViews(r.b.force.settings.Rules)
	r.smuggle(t, "smuggled-same-places.json")
	if err := r.b.removeAllowRule(context.Background(), 2, views[1].Words); err != nil {
		t.Logf("removeAllowRule: %v", err)
	}
	r.inForceUnchanged(t, "removing a rule")
}
