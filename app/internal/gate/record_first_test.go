package gate_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
)

// slowRequests is memHistory whose AddRequest waits for the test: it says
// when a request reached it, then returns what the test sends.
type slowRequests struct {
	*memHistory
	reached chan struct{}
	answer  chan error
}

func (h slowRequests) AddRequest(ctx context.Context, r history.Request) error {
	h.reached <- struct{}{}
	if err := <-h.answer; err != nil {
		return err
	}
	return h.memHistory.AddRequest(ctx, r)
}

func (h *memHistory) counts() (requests, decisions, outcomes int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.requests), len(h.decisions), len(h.outcomes)
}

// The request is recorded while the plan is assessed, but nothing is
// decided, told to the client or run until the record has answered; a
// request whose record fails is refused with nothing decided, whatever its
// assessment found.
func TestNothingDecidedBeforeTheRequestIsRecorded(t *testing.T) {
	for _, tc := range []struct {
		name   string
		record error
	}{{"recorded", nil}, {"not recorded", errBoom}} {
		t.Run(tc.name, func(t *testing.T) {
			hist := slowRequests{&memHistory{}, make(chan struct{}), make(chan error)}
			r := newRig(t, 2, approveAll, func(c *gate.Config) { c.History = hist })
			var mu sync.Mutex
			var events []gate.Event
			notify := func(e gate.Event) {
				mu.Lock()
				defer mu.Unlock()
				events = append(events, e)
			}
			type result struct {
				rep gate.Report
				err error
			}
			done := make(chan result, 1)
			go func() {
				rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "test", Plan: safePlan + "\n" + cautionPlan}, notify)
				done <- result{rep, err}
			}()
			<-hist.reached
			// Assessing these two actions takes well under a millisecond:
			// by now it is done, and the submission waits for the record.
			time.Sleep(50 * time.Millisecond)
			mu.Lock()
			before := len(events)
			mu.Unlock()
			if _, d, o := hist.counts(); d != 0 || o != 0 || before != 0 || r.exec.names() != nil {
				t.Fatalf("before the request was recorded: %d decisions, %d outcomes, %d events, ran %v", d, o, before, r.exec.names())
			}
			hist.answer <- tc.record
			res := <-done
			req, d, o := hist.counts()
			if tc.record != nil {
				if !errors.Is(res.err, errBoom) || res.rep.Status != gate.StatusRefused {
					t.Fatalf("a request that was not recorded ended %s: %v", res.rep.Status, res.err)
				}
				mu.Lock()
				defer mu.Unlock()
				if req != 0 || d != 0 || o != 0 || r.exec.names() != nil || len(events) != 1 || events[0].Type != gate.EventDone {
					t.Fatalf("a request that was not recorded: %d requests, %d decisions, %d outcomes, events %+v, ran %v",
						req, d, o, events, r.exec.names())
				}
				return
			}
			if res.err != nil || res.rep.Status != gate.StatusOK || req != 1 || d != 2 || o != 2 || len(r.exec.names()) != 2 {
				t.Fatalf("ended %s (%v): %d requests, %d decisions, %d outcomes, ran %v", res.rep.Status, res.err, req, d, o, r.exec.names())
			}
		})
	}
}
