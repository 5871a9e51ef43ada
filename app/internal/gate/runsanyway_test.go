package gate_test

import (
	"context"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// TestRequestSaysWhichActionsRunAnyway checks that the person is told
// which actions of a plan need the yes and which would run anyway at the
// level: at level 1 a notification runs unasked, a move to the Trash
// (dangerous) asks.
func TestRequestSaysWhichActionsRunAnyway(t *testing.T) {
	r := newRig(t, policy.Autonomy(1), approveAll)
	plan := "NOTIFY \"a\" \"b\"\nDELETE_FILE \"~/Documents/x.txt\""
	if _, err := r.g.Submit(context.Background(), gate.Submission{Client: "t", Plan: plan}, nil); err != nil {
		t.Fatal(err)
	}
	if r.ask.count() != 1 {
		t.Fatalf("asked %d times", r.ask.count())
	}
	items := r.ask.asked[0].Items
	if len(items) != 2 || !items[0].RunsAnyway || items[1].RunsAnyway {
		t.Errorf("items %+v: want the notification marked as running anyway, the move to the Trash not", items)
	}
}
