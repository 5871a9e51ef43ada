package history_test

import (
	"context"
	"testing"

	"github.com/airlockhq/airlock/app/internal/history"
)

// TestMarkInterrupted: an action with a decision and no outcome gets an
// "interrupted" outcome, once; finished actions are left as they are; the
// marks extend the chain, which still verifies, also after reopening.
func TestMarkInterrupted(t *testing.T) {
	s, path, ks := open(t)
	ctx := context.Background()
	action(t, s, "done")
	must(t, s.AddRequest(ctx, history.Request{ID: "cut", Time: t0, Client: "cli", Kind: "dsl", Text: "two actions"}))
	must(t, s.AddDecision(ctx, decision("cut", 0, "auto")))
	must(t, s.AddDecision(ctx, decision("cut", 1, "ask")))
	must(t, s.AddOutcome(ctx, history.Outcome{RequestID: "cut", Index: 0, Time: t0, Status: "ok"}))
	must(t, s.AddRequest(ctx, history.Request{ID: "waiting", Time: t0, Client: "mcp", Kind: "dsl", Text: "one"}))
	must(t, s.AddDecision(ctx, decision("waiting", 0, "ask")))

	n, err := s.MarkInterrupted(ctx)
	if err != nil || n != 2 {
		t.Fatalf("MarkInterrupted = %d, %v; want 2 marked", n, err)
	}
	if n, err := s.MarkInterrupted(ctx); err != nil || n != 0 {
		t.Fatalf("second MarkInterrupted = %d, %v; want 0", n, err)
	}
	want := map[string][]string{"done": {"ok"}, "cut": {"ok", history.StatusInterrupted}, "waiting": {history.StatusInterrupted}}
	for id, statuses := range want {
		_, es, err := s.Request(ctx, id)
		if err != nil || len(es) != len(statuses) {
			t.Fatalf("Request(%s) = %d entries, %v", id, len(es), err)
		}
		for i, e := range es {
			if e.Outcome == nil || e.Outcome.Status != statuses[i] {
				t.Fatalf("%s action %d: outcome %+v, want %s", id, i, e.Outcome, statuses[i])
			}
			if statuses[i] == history.StatusInterrupted && e.Outcome.Error != history.InterruptedError {
				t.Fatalf("%s action %d: error %q", id, i, e.Outcome.Error)
			}
		}
	}
	must(t, s.Verify(ctx))
	must(t, s.Close())
	must(t, history.VerifyFile(path, ks))
	s2, err := history.Open(path, ks)
	must(t, err)
	defer s2.Close()
	if n, err := s2.MarkInterrupted(ctx); err != nil || n != 0 {
		t.Fatalf("MarkInterrupted after reopening = %d, %v; want 0", n, err)
	}
}

// TestMarkInterruptedClosed: a closed store refuses.
func TestMarkInterruptedClosed(t *testing.T) {
	s, _, _ := open(t)
	must(t, s.Close())
	if _, err := s.MarkInterrupted(context.Background()); err == nil {
		t.Fatal("MarkInterrupted on a closed store succeeded")
	}
}
