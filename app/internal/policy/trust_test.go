package policy_test

import (
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// TestTrust is the whole table of what raises trust and what needs the
// owner, written out: every level change, resume with and without the kill
// switch on, approvals at every risk, grants, revokes, kills, and what is
// not a valid change.
func TestTrust(t *testing.T) {
	const (
		L0 = policy.AskAll
		L1 = policy.SmartDefault
		L2 = policy.FullAuto
	)
	move := func(from, to policy.Autonomy) policy.Change {
		return policy.Change{Kind: policy.ChangeLevel, From: from, To: to}
	}
	approve := func(l level.Level) policy.Change { return policy.Change{Kind: policy.ChangeApprove, Risk: l} }
	tests := []struct {
		name   string
		c      policy.Change
		raises bool
		owner  bool
	}{
		{"level 0 to 1", move(L0, L1), true, false},
		{"level 0 to 2", move(L0, L2), true, true},
		{"level 1 to 2", move(L1, L2), true, true},
		{"level 2 to 1", move(L2, L1), false, false},
		{"level 2 to 0", move(L2, L0), false, false},
		{"level 1 to 0", move(L1, L0), false, false},
		{"level 1 to 1", move(L1, L1), false, false},
		{"level 2 to 2", move(L2, L2), false, false},
		{"to an invalid level", move(L1, 3), true, true},
		{"from an invalid level to 0", move(-1, L0), true, false},
		{"from an invalid level to 2", move(7, L2), true, true},
		{"resume after a kill", policy.Change{Kind: policy.ChangeResume, Killed: true}, true, true},
		{"resume while not killed", policy.Change{Kind: policy.ChangeResume}, false, false},
		{"approve safe", approve(level.Safe), true, false},
		{"approve caution", approve(level.Caution), true, false},
		{"approve dangerous", approve(level.Dangerous), true, false},
		{"approve destructive", approve(level.Destructive), true, true},
		{"approve blocked", approve(level.Blocked), true, true},
		{"remember", policy.Change{Kind: policy.ChangeRemember, Risk: level.Dangerous}, true, false},
		{"revoke", policy.Change{Kind: policy.ChangeRevoke}, false, false},
		{"kill", policy.Change{Kind: policy.ChangeKill}, false, false},
		{"an automation on", policy.Change{Kind: policy.ChangeAutomationOn}, true, false},
		{"an automation off", policy.Change{Kind: policy.ChangeAutomationOff}, false, false},
		{"no kind", policy.Change{}, true, true},
		{"an unknown kind", policy.Change{Kind: 99}, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := policy.RaisesTrust(tt.c); got != tt.raises {
				t.Errorf("RaisesTrust(%+v) = %v, want %v", tt.c, got, tt.raises)
			}
			if got := policy.NeedsOwner(tt.c); got != tt.owner {
				t.Errorf("NeedsOwner(%+v) = %v, want %v", tt.c, got, tt.owner)
			}
			// Needing the owner is never less than raising trust.
			if policy.NeedsOwner(tt.c) && !policy.RaisesTrust(tt.c) {
				t.Errorf("%+v needs the owner but does not raise trust", tt.c)
			}
		})
	}
}
