package policy_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// TestDecideMatrix is seed 003's table, all 3×5 cells, written out rather
// than derived so that a change to Decide cannot change the expectation.
func TestDecideMatrix(t *testing.T) {
	const (
		auto   = policy.Auto
		ask    = policy.Ask
		refuse = policy.Refuse
	)
	want := map[level.Level][3]policy.Decision{
		//                    Level 0  Level 1  Level 2
		level.Safe:        {ask, auto, auto},
		level.Caution:     {ask, auto, auto},
		level.Dangerous:   {ask, ask, auto},
		level.Destructive: {ask, ask, ask},
		level.Blocked:     {refuse, refuse, refuse},
	}
	for risk, row := range want {
		for a, d := range row {
			if got := policy.Decide(policy.Autonomy(a), risk); got != d {
				t.Errorf("Decide(%v, %v) = %v, want %v", policy.Autonomy(a), risk, got, d)
			}
		}
	}
}

// TestDecideFailsClosed: values outside the scales never run unasked.
func TestDecideFailsClosed(t *testing.T) {
	tests := []struct {
		name string
		a    policy.Autonomy
		risk level.Level
		want policy.Decision
	}{
		{"unknown autonomy asks for safe", policy.Autonomy(7), level.Safe, policy.Ask},
		{"negative autonomy asks", policy.Autonomy(-1), level.Caution, policy.Ask},
		{"risk above blocked is refused", policy.FullAuto, level.Blocked + 1, policy.Refuse},
		{"negative risk is refused", policy.FullAuto, level.Safe - 1, policy.Refuse},
	}
	for _, tt := range tests {
		if got := policy.Decide(tt.a, tt.risk); got != tt.want {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestAutonomyStringsAndParse(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want policy.Autonomy
	}{
		{"0", policy.AskAll}, {"1", policy.SmartDefault}, {"2", policy.FullAuto},
		{"0 (ask all)", policy.AskAll}, {"1 (Smart Default)", policy.SmartDefault},
		{"full-auto", policy.FullAuto}, {" ask all ", policy.AskAll}, {"default", policy.SmartDefault},
	} {
		got, err := policy.ParseAutonomy(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("ParseAutonomy(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
		}
	}
	for _, bad := range []string{"", "3", "-1", "auto", "01x"} {
		if _, err := policy.ParseAutonomy(bad); err == nil {
			t.Errorf("ParseAutonomy(%q) accepted", bad)
		}
	}
	for a, s := range map[policy.Autonomy]string{
		policy.AskAll: "0 (ask all)", policy.SmartDefault: "1 (smart default)", policy.FullAuto: "2 (full auto)",
		policy.Autonomy(5): "autonomy(5)",
	} {
		if a.String() != s {
			t.Errorf("%d.String() = %q, want %q", int(a), a.String(), s)
		}
		if a.Valid() {
			if back, err := policy.ParseAutonomy(a.String()); err != nil || back != a {
				t.Errorf("ParseAutonomy(%q) = %v, %v", a.String(), back, err)
			}
		}
	}
	for d, s := range map[policy.Decision]string{policy.Auto: "auto", policy.Ask: "ask", policy.Refuse: "refused"} {
		if d.String() != s {
			t.Errorf("Decision %d = %q, want %q", int(d), d.String(), s)
		}
	}
}

// TestNoApprover is seed 001's invariant as the gate reports it.
func TestNoApprover(t *testing.T) {
	err := policy.NoApprover(level.Dangerous)
	if !errors.Is(err, policy.ErrApprovalRequired) {
		t.Fatalf("%v does not wrap ErrApprovalRequired", err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "approval required: ") || !strings.Contains(msg, "dangerous") {
		t.Errorf("message %q does not say approval was required for a dangerous action", msg)
	}
}
