package gate_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// TestReleaseLockIsShownAndRecorded checks RELEASE_LOCK as a plan meets
// it: rated caution, listed in the approval with what it does, carried out
// by the gate (the executor never sees it), and recorded like any action.
func TestReleaseLockIsShownAndRecorded(t *testing.T) {
	r := newRig(t, policy.AskAll, approveAll)
	plan := "RELEASE_LOCK \"Safari\"\nACTIVATE_APP \"Safari\"\n"
	rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "t", Plan: plan}, nil)
	if err != nil || rep.Status != gate.StatusOK {
		t.Fatalf("%v: %+v", err, rep)
	}
	if r.ask.count() != 1 {
		t.Fatalf("asked %d times", r.ask.count())
	}
	item := r.ask.asked[0].Items[0]
	if item.Risk != level.Caution || item.Preview != "Release the context lock to switch to Safari" || item.Text != `RELEASE_LOCK "Safari"` {
		t.Errorf("the person was shown %+v", item)
	}
	if ran := r.exec.names(); !slices.Equal(ran, []string{"ACTIVATE_APP"}) {
		t.Errorf("the executor ran %v; RELEASE_LOCK is the gate's own", ran)
	}
	if a := rep.Actions[0]; a.Status != gate.StatusOK || a.Risk != "caution" || !strings.Contains(a.Output, "context lock") {
		t.Errorf("RELEASE_LOCK: %+v", a)
	}
	r.hist.mu.Lock()
	defer r.hist.mu.Unlock()
	if len(r.hist.decisions) != 2 || r.hist.decisions[0].Action != `RELEASE_LOCK "Safari"` || len(r.hist.outcomes) != 2 || r.hist.outcomes[0].Status != gate.StatusOK {
		t.Errorf("recorded decisions %+v, outcomes %+v", r.hist.decisions, r.hist.outcomes)
	}
}
