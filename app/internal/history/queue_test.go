package history_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/airlockhq/airlock/app/internal/history"
)

// A request and its decisions queued without waiting are written in the
// order queued, from many callers at once: every decision finds its
// request (the writer would refuse one that came first), the chain
// verifies, and the store holds each in order.
func TestQueuedRecordsKeepTheirOrder(t *testing.T) {
	s, _, _ := open(t)
	ctx := context.Background()
	const callers, each = 8, 40
	var wg sync.WaitGroup
	for c := range callers {
		wg.Go(func() {
			for n := range each {
				id := fmt.Sprintf("c%d-%d", c, n)
				req := s.QueueRequest(ctx, history.Request{ID: id, Client: "test", Kind: "plan", Text: "MOVE_FILE …"})
				dec := []history.Pending{s.QueueDecision(ctx, autoDecision(id, 0)), s.QueueDecision(ctx, autoDecision(id, 1))}
				if err := req.Wait(ctx); err != nil {
					t.Error(err)
					return
				}
				for i, p := range dec {
					if err := p.Wait(ctx); err != nil {
						t.Errorf("decision %d of %s: %v", i, id, err)
						return
					}
				}
				if err := s.AddOutcome(ctx, okOutcome(id, 0)); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := s.Verify(ctx); err != nil {
		t.Fatal(err)
	}
	es, err := s.Recent(ctx, 2*callers*each)
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 2*callers*each {
		t.Fatalf("%d actions recorded, want %d", len(es), 2*callers*each)
	}
}

// A decision queued after a request that did not commit fails: the
// history never holds a decision without its request. A record the store
// refuses outright fails at Wait, as Add would.
func TestQueuedDecisionFailsWithItsRequest(t *testing.T) {
	s, _, _ := open(t)
	ctx := context.Background()
	bad := s.QueueRequest(ctx, history.Request{ID: "r1", EditOf: "r0"}) // an edit without its editor
	dec := s.QueueDecision(ctx, autoDecision("r1", 0))
	if err := bad.Wait(ctx); !errors.Is(err, history.ErrInvalid) {
		t.Fatalf("the invalid request: %v", err)
	}
	if err := dec.Wait(ctx); err == nil {
		t.Fatal("a decision was recorded without its request")
	}
	if _, _, err := s.Request(ctx, "r1"); !errors.Is(err, history.ErrNotFound) {
		t.Fatalf("the request that failed: %v", err)
	}
	if err := s.Verify(ctx); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := s.QueueRequest(ctx, history.Request{ID: "r2", Client: "test", Kind: "plan"}).Wait(ctx); !errors.Is(err, history.ErrClosed) {
		t.Fatalf("queued after Close: %v", err)
	}
}
