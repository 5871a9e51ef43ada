package sandbox_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
)

// TestLimitsFor: an action that runs unasked gets the table's bounds, or
// the settings' where they say others; an approved one gets none; and
// Derive puts them in the profile the launcher applies.
func TestLimitsFor(t *testing.T) {
	s := settings()
	if got := sandbox.LimitsFor(s, sandbox.Grant{Approved: true}); got != nil {
		t.Errorf("approved: %v, want none", got)
	}
	if got := sandbox.LimitsFor(s, sandbox.Grant{}); !reflect.DeepEqual(got, sandbox.UnaskedLimits()) || len(got) != 5 {
		t.Errorf("unasked: %v, want %v", got, sandbox.UnaskedLimits())
	}
	small := []launcher.Limit{{Resource: launcher.LimitData, Max: 1 << 20}}
	s.Limits = small
	got := sandbox.LimitsFor(s, sandbox.Grant{})
	if !reflect.DeepEqual(got, small) {
		t.Errorf("unasked with the settings' limits: %v, want %v", got, small)
	}
	got[0].Max = 1
	if s.Limits[0].Max != 1<<20 {
		t.Error("changing what LimitsFor returned changed the settings")
	}
	p, err := sandbox.Derive(s, sandbox.KindCommand, sandbox.Grant{}, "/tmp/airlock-action-1")
	if err != nil || !reflect.DeepEqual(p.Limits, small) {
		t.Errorf("Derive unasked: %v, %v", p.Limits, err)
	}
	p, err = sandbox.Derive(s, sandbox.KindCommand, sandbox.Grant{Approved: true}, "/tmp/airlock-action-1")
	if err != nil || p.Limits != nil {
		t.Errorf("Derive approved: %v, %v", p.Limits, err)
	}
}

// TestBadLimits: settings whose limits name an unknown resource, or one
// twice, are refused when the box is made, saying which.
func TestBadLimits(t *testing.T) {
	for _, tt := range []struct {
		limits []launcher.Limit
		want   string
	}{
		{[]launcher.Limit{{Resource: "stack", Max: 1}}, `limit 0: unknown resource "stack"`},
		{[]launcher.Limit{{Resource: launcher.LimitCore}, {Resource: launcher.LimitCore, Max: 1}}, "limit 1: core is bounded twice"},
	} {
		s := settings()
		s.Limits = tt.limits
		_, err := sandbox.New(s, "/nonexistent/launcher")
		if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "resource limits") {
			t.Errorf("New with %v: %v, want an error saying %q", tt.limits, err, tt.want)
		}
	}
}
