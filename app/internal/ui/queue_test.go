package ui_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/ui"
	"github.com/airlockhq/airlock/bridge"
)

// screen is a fake display: it records each popup put up and keeps it up
// until its context ends or the test answers it.
type screen struct {
	mu      sync.Mutex
	up      map[string]chan bridge.PopupAnswer // popups on screen now, by client name
	shown   []bridge.ApprovalPopup
	arrived chan bridge.ApprovalPopup
}

func newScreen() *screen {
	return &screen{up: map[string]chan bridge.PopupAnswer{}, arrived: make(chan bridge.ApprovalPopup, 16)}
}

func (s *screen) show(ctx context.Context, p bridge.ApprovalPopup) (bridge.PopupAnswer, error) {
	answer := make(chan bridge.PopupAnswer, 1)
	s.mu.Lock()
	s.up[p.Client] = answer
	s.shown = append(s.shown, p)
	s.mu.Unlock()
	s.arrived <- p
	defer func() {
		s.mu.Lock()
		delete(s.up, p.Client)
		s.mu.Unlock()
	}()
	select {
	case a := <-answer:
		return a, nil
	case <-ctx.Done():
		return bridge.PopupAnswer{Items: make([]bool, len(p.Items))}, nil // the deadline closes it: no error
	}
}

func (s *screen) answer(t *testing.T, client string, a bridge.PopupAnswer) {
	t.Helper()
	s.mu.Lock()
	ch := s.up[client]
	s.mu.Unlock()
	if ch == nil {
		t.Fatalf("no popup of %s on screen", client)
	}
	ch <- a
}

func (s *screen) onScreen() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.up)
}

func queued(id, client string) approval.Request {
	r := request(level.Dangerous)
	r.ID, r.Client, r.Deadline = id, client, time.Time{}
	return r
}

// TestQueuedRequestsAreAllShown: two requests at once, a short timeout and
// nobody answering. The popups come one at a time; the second's time starts
// only when it is put up, after the first timed out, so it is shown for a
// whole timeout too, and both end as timeouts.
func TestQueuedRequestsAreAllShown(t *testing.T) {
	const timeout = 100 * time.Millisecond
	s := newScreen()
	b := approval.NewBroker(ui.NewPopupPrompter(ui.PopupOptions{Show: s.show}), approval.Options{Timeout: timeout})
	errs := make(chan error, 2)
	for _, c := range []string{"first", "second"} {
		go func() {
			_, err := b.Ask(context.Background(), queued(c, c))
			errs <- err
		}()
	}
	for range 2 {
		if err := <-errs; !errors.Is(err, approval.ErrTimeout) {
			t.Fatalf("Ask = %v, want a timeout", err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.shown) != 2 || s.shown[0].Client == s.shown[1].Client {
		t.Fatalf("popups shown: %+v; want both requests", s.shown)
	}
	first, second := s.shown[0].Deadline, s.shown[1].Deadline
	if gap := second.Sub(first); gap < timeout {
		t.Fatalf("the second popup's deadline is %v after the first's; its time must start when it is shown, a whole %v later", gap, timeout)
	}
}

// TestOpenShowsAWaitingRequest: the menu's "Pending approvals" item puts a
// request waiting its turn on screen at once, beside the one already up;
// its time starts then. The queue goes on as before.
func TestOpenShowsAWaitingRequest(t *testing.T) {
	s := newScreen()
	p := ui.NewPopupPrompter(ui.PopupOptions{Show: s.show})
	b := approval.NewBroker(p, approval.Options{Timeout: time.Hour})
	events, stop := b.Subscribe(16)
	defer stop()
	type result struct {
		id  string
		a   approval.Answer
		err error
	}
	results := make(chan result, 3)
	ask := func(id string) {
		go func() {
			a, err := b.Ask(context.Background(), queued(id, id))
			results <- result{id, a, err}
		}()
	}
	ask("first")
	if got := <-s.arrived; got.Client != "first" {
		t.Fatalf("first popup is %s", got.Client)
	}
	ask("second")
	ask("third")
	for waiting := 0; waiting < 3; {
		if e := <-events; e.Type == approval.EventAwaiting {
			waiting++
		}
	}
	// Its prompt may not have reached the prompter yet: it is shown as
	// soon as it does.
	if !p.Open("third") {
		t.Fatal("Open(third) = false for a request waiting its turn")
	}
	if got := <-s.arrived; got.Client != "third" {
		t.Fatalf("opened third, but %s came up", got.Client)
	}
	if n := s.onScreen(); n != 2 {
		t.Fatalf("%d popups on screen, want the first and the opened one", n)
	}
	var third approval.Request
	for _, r := range b.Pending() {
		if r.ID == "third" {
			third = r
		}
		if r.ID == "second" && !r.Shown.IsZero() {
			t.Fatal("second was shown out of turn")
		}
	}
	if third.Shown.IsZero() || !third.Deadline.Equal(third.Shown.Add(time.Hour)) {
		t.Fatalf("opened request %+v: its time did not start when it was shown", third)
	}
	if p.Open("third") || p.Open("first") {
		t.Fatal("Open reported a request already on screen as waiting")
	}
	s.answer(t, "third", bridge.PopupAnswer{Approve: true, Items: []bool{true}})
	if r := <-results; r.id != "third" || r.a.Outcome != approval.Approved {
		t.Fatalf("%s: %+v, %v", r.id, r.a, r.err)
	}
	// The first still holds the turn; when it is answered the second comes.
	s.answer(t, "first", bridge.PopupAnswer{})
	if r := <-results; r.id != "first" || r.a.Outcome != approval.Denied {
		t.Fatalf("%s: %+v, %v", r.id, r.a, r.err)
	}
	if got := <-s.arrived; got.Client != "second" {
		t.Fatalf("next popup is %s, want second", got.Client)
	}
	s.answer(t, "second", bridge.PopupAnswer{})
	if r := <-results; r.id != "second" {
		t.Fatalf("%s: %+v, %v", r.id, r.a, r.err)
	}
}
