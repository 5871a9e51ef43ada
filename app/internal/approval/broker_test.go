package approval_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
)

var t0 = time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)

func fixedNow() time.Time { return t0 }

func item(i int, risk level.Level, text string) approval.Item {
	return approval.Item{Index: i, Preview: "action " + fmt.Sprint(i), Text: text, Risk: risk, Reasons: []string{"because " + risk.String()}}
}

func request(items ...approval.Item) approval.Request {
	if len(items) == 0 {
		items = []approval.Item{item(1, level.Dangerous, `WRITE_FILE "~/Documents/a.txt" "hi"`)}
	}
	return approval.Request{Client: "test client", Tool: "run_plan", Items: items}
}

// awaiting reads events until an awaiting_approval one and returns its id.
func awaiting(t *testing.T, events <-chan approval.Event) string {
	t.Helper()
	for e := range events {
		if e.Type == approval.EventAwaiting {
			return e.CallID
		}
	}
	t.Fatal("event channel closed")
	return ""
}

func TestAskApprovedEmitsEvents(t *testing.T) {
	p := approval.Scripted(approval.Answer{Outcome: approval.Approved})
	b := approval.NewBroker(p, approval.Options{Now: fixedNow})
	events, stop := b.Subscribe(8)
	defer stop()
	r := request(item(1, level.Caution, "NOTIFY \"a\" \"b\""), item(2, level.Dangerous, "line one\nline two"))
	r.ID = "call-1"
	a, err := b.Ask(context.Background(), r)
	if err != nil || a.Outcome != approval.Approved || len(a.Items) != 2 || !a.Items[0] || !a.Items[1] {
		t.Fatalf("Ask = %+v, %v", a, err)
	}
	shown := p.Shown()
	if len(shown) != 1 || shown[0].ID != "call-1" || !shown[0].Created.Equal(t0) || !shown[0].Deadline.Equal(t0.Add(5*time.Minute)) {
		t.Fatalf("prompter was shown %+v", shown)
	}
	want := []approval.Event{
		{Type: "awaiting_approval", CallID: "call-1", Client: "test client", Tool: "run_plan", Args: "NOTIFY \"a\" \"b\"\nline one\nline two", Timestamp: t0},
		{Type: "approved", CallID: "call-1", Client: "test client", Tool: "run_plan", Args: "NOTIFY \"a\" \"b\"\nline one\nline two", Timestamp: t0},
	}
	for i, w := range want {
		if got := <-events; got != w {
			t.Errorf("event %d = %+v, want %+v", i, got, w)
		}
	}
	if len(b.Pending()) != 0 {
		t.Error("a resolved request is still pending")
	}
}

func TestEventJSON(t *testing.T) {
	e := approval.Event{Type: approval.EventAwaiting, CallID: "c1", Tool: "write_file", Args: `{"path":"/tmp/x"}`, Timestamp: t0}
	b, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]any{"type": "awaiting_approval", "callId": "c1", "tool": "write_file", "args": `{"path":"/tmp/x"}`, "timestamp": "2025-03-01T09:00:00Z"} {
		if m[k] != v {
			t.Errorf("%s = %v, want %v (JSON %s)", k, m[k], v, b)
		}
	}
}

// TestAskSettlesAnswers: whatever a prompter returns, only an explicit
// approval runs anything, and a destructive item only with its own true.
func TestAskSettlesAnswers(t *testing.T) {
	plan := []approval.Item{item(1, level.Caution, "a"), item(2, level.Destructive, "b"), item(3, level.Dangerous, "c")}
	tests := []struct {
		name    string
		answer  approval.Answer
		err     error
		want    approval.Outcome
		items   []bool
		wantErr error
		remem   bool
	}{
		{"approve, items left to the broker", approval.Answer{Outcome: approval.Approved}, nil, approval.Approved, []bool{true, false, true}, nil, false},
		{"approve with destructive confirmed", approval.Answer{Outcome: approval.Approved, Items: []bool{true, true, true}, Remember: true}, nil, approval.Approved, []bool{true, true, true}, nil, true},
		{"approve some", approval.Answer{Outcome: approval.Approved, Items: []bool{false, false, true}}, nil, approval.Approved, []bool{false, false, true}, nil, false},
		{"approve none", approval.Answer{Outcome: approval.Approved, Items: []bool{false, false, false}, Remember: true}, nil, approval.Denied, []bool{false, false, false}, approval.ErrDenied, false},
		{"malformed item list", approval.Answer{Outcome: approval.Approved, Items: []bool{true}}, nil, approval.Denied, []bool{false, false, false}, approval.ErrDenied, false},
		{"deny keeps nothing", approval.Answer{Outcome: approval.Denied, Items: []bool{true, true, true}, Remember: true}, nil, approval.Denied, []bool{false, false, false}, approval.ErrDenied, false},
		{"prompter error denies", approval.Answer{Outcome: approval.Approved}, errors.New("window closed"), approval.Denied, []bool{false, false, false}, approval.ErrDenied, false},
		{"prompter cannot kill", approval.Answer{Outcome: approval.Killed}, nil, approval.Denied, []bool{false, false, false}, approval.ErrDenied, false},
		{"prompter cannot withdraw", approval.Answer{Outcome: approval.Withdrawn}, nil, approval.Denied, []bool{false, false, false}, approval.ErrDenied, false},
		{"prompter's own timeout", approval.Answer{Outcome: approval.Timeout}, nil, approval.Timeout, []bool{false, false, false}, approval.ErrTimeout, false},
		{"unknown outcome", approval.Answer{Outcome: approval.Outcome(9)}, nil, approval.Denied, []bool{false, false, false}, approval.ErrDenied, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := approval.ScriptedFunc(func(context.Context, approval.Request) (approval.Answer, error) { return tt.answer, tt.err })
			a, err := approval.NewBroker(p, approval.Options{}).Ask(context.Background(), request(plan...))
			if a.Outcome != tt.want || fmt.Sprint(a.Items) != fmt.Sprint(tt.items) || a.Remember != tt.remem {
				t.Errorf("answer %+v, want %v %v remember=%v", a, tt.want, tt.items, tt.remem)
			}
			if !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Errorf("err = %v, want %v", err, tt.wantErr)
			}
			if tt.err != nil && !strings.Contains(fmt.Sprint(err), tt.err.Error()) {
				t.Errorf("err %v hides the prompter's %v", err, tt.err)
			}
		})
	}
}

func TestAskTimeoutIsNotDenied(t *testing.T) {
	cancelled := make(chan struct{})
	p := approval.ScriptedFunc(func(ctx context.Context, r approval.Request) (approval.Answer, error) {
		<-ctx.Done() // a person who never answers
		close(cancelled)
		return approval.Answer{Outcome: approval.Approved}, nil // too late: ignored
	})
	b := approval.NewBroker(p, approval.Options{Timeout: 10 * time.Millisecond})
	events, stop := b.Subscribe(4)
	defer stop()
	a, err := b.Ask(context.Background(), request())
	if a.Outcome != approval.Timeout || !errors.Is(err, approval.ErrTimeout) || errors.Is(err, approval.ErrDenied) {
		t.Fatalf("Ask = %+v, %v; want Timeout / ErrTimeout", a, err)
	}
	if a.Items[0] {
		t.Fatal("a timed-out item may run")
	}
	if e1, e2 := <-events, <-events; e1.Type != "awaiting_approval" || e2.Type != "timeout" {
		t.Fatalf("events %q, %q", e1.Type, e2.Type)
	}
	<-cancelled // the prompter's context ends with the request
}

// TestAskContextEnds: a request whose client withdraws it (its context ends)
// is withdrawn, not denied: nobody said no.
func TestAskContextEnds(t *testing.T) {
	p := approval.Scripted() // never answers
	b := approval.NewBroker(p, approval.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	events, stop := b.Subscribe(4)
	defer stop()
	done := make(chan error, 1)
	go func() {
		a, err := b.Ask(ctx, request())
		if a.Outcome != approval.Withdrawn || a.Items[0] {
			err = fmt.Errorf("answer %+v", a)
		}
		done <- err
	}()
	awaiting(t, events)
	cancel()
	if err := <-done; !errors.Is(err, approval.ErrWithdrawn) || !errors.Is(err, context.Canceled) || errors.Is(err, approval.ErrDenied) {
		t.Fatalf("Ask after cancel: %v; want ErrWithdrawn wrapping context.Canceled, not ErrDenied", err)
	}
	if e := <-events; e.Type != "withdrawn" {
		t.Fatalf("event %q, want withdrawn", e.Type)
	}
	// A context already done asks nobody and registers nothing. (A prompter
	// of its own: the first request's prompter may still be starting.)
	p2 := approval.Scripted()
	b2 := approval.NewBroker(p2, approval.Options{})
	events2, stop2 := b2.Subscribe(4)
	defer stop2()
	if a, err := b2.Ask(ctx, request()); !errors.Is(err, approval.ErrWithdrawn) || a.Outcome != approval.Withdrawn {
		t.Fatalf("Ask with a done context: %+v, %v", a, err)
	}
	if len(p2.Shown()) != 0 || len(b2.Pending()) != 0 {
		t.Fatal("a request with a done context was shown or registered")
	}
	select {
	case e := <-events2:
		t.Fatalf("a request with a done context emitted %q", e.Type)
	default:
	}
}

// TestNoApprover is seed 001's invariant: nobody to ask means it fails and
// says approval was required.
func TestNoApprover(t *testing.T) {
	a, err := approval.NewBroker(nil, approval.Options{}).Ask(context.Background(), request())
	if !errors.Is(err, policy.ErrApprovalRequired) || !strings.HasPrefix(err.Error(), "approval required") {
		t.Fatalf("Ask without a prompter: %v", err)
	}
	if a.Outcome == approval.Approved || a.Items[0] {
		t.Fatalf("answer %+v", a)
	}
}

func TestAskRefusesWhatIsNeverOffered(t *testing.T) {
	p := approval.Scripted(approval.Answer{Outcome: approval.Approved})
	b := approval.NewBroker(p, approval.Options{})
	for name, r := range map[string]approval.Request{
		"no items":     {Tool: "x"},
		"blocked item": request(item(1, level.Caution, "a"), item(2, level.Blocked, `READ_FILE "~/.ssh/id_rsa"`)),
		"out of scale": request(item(1, level.Level(-1), "a")),
	} {
		if a, err := b.Ask(context.Background(), r); err == nil || a.Outcome == approval.Approved {
			t.Errorf("%s: Ask = %+v, %v", name, a, err)
		}
	}
	if len(p.Shown()) != 0 {
		t.Fatal("the prompter was shown a request that may not be offered")
	}
}

func TestBrokerBounded(t *testing.T) {
	p := approval.Scripted() // never answers
	b := approval.NewBroker(p, approval.Options{Timeout: time.Hour})
	events, stop := b.Subscribe(100)
	defer stop()
	errs := make(chan error, approval.DefaultMax)
	for range approval.DefaultMax {
		go func() {
			_, err := b.Ask(context.Background(), request())
			errs <- err
		}()
	}
	for range approval.DefaultMax {
		awaiting(t, events)
	}
	a, err := b.Ask(context.Background(), request())
	if !errors.Is(err, approval.ErrFull) || a.Outcome == approval.Approved {
		t.Fatalf("33rd Ask = %+v, %v; want ErrFull", a, err)
	}
	if !strings.Contains(err.Error(), "32") {
		t.Errorf("%q does not say how many are waiting", err)
	}
	if n := len(b.Pending()); n != approval.DefaultMax {
		t.Fatalf("%d pending, want %d: the refused request was registered", n, approval.DefaultMax)
	}
	if n := b.KillAll(); n != approval.DefaultMax {
		t.Fatalf("KillAll = %d", n)
	}
	for range approval.DefaultMax {
		if err := <-errs; !errors.Is(err, approval.ErrKilled) {
			t.Fatalf("pending Ask ended with %v, want ErrKilled", err)
		}
	}
	for range approval.DefaultMax {
		if e := <-events; e.Type != "killed" {
			t.Fatalf("event %q, want killed", e.Type)
		}
	}
	// Room again.
	b2 := approval.NewBroker(approval.Scripted(approval.Answer{Outcome: approval.Approved}), approval.Options{Max: 1})
	if _, err := b2.Ask(context.Background(), request()); err != nil {
		t.Fatalf("Ask with room: %v", err)
	}
}

func TestResolve(t *testing.T) {
	prompterDone := make(chan struct{})
	p := approval.ScriptedFunc(func(ctx context.Context, r approval.Request) (approval.Answer, error) {
		<-ctx.Done()
		close(prompterDone)
		return approval.Answer{}, ctx.Err()
	})
	b := approval.NewBroker(p, approval.Options{})
	events, stop := b.Subscribe(8)
	defer stop()
	type result struct {
		a   approval.Answer
		err error
	}
	done := make(chan result, 1)
	go func() {
		a, err := b.Ask(context.Background(), request(item(1, level.Dangerous, "a"), item(2, level.Destructive, "b")))
		done <- result{a, err}
	}()
	id := awaiting(t, events)
	if got := b.Pending(); len(got) != 1 || got[0].ID != id || len(got[0].Items) != 2 {
		t.Fatalf("Pending = %+v", got)
	}
	if err := b.Resolve(id, approval.Answer{Outcome: approval.Timeout}); err == nil {
		t.Fatal("Resolve accepted a timeout from a UI")
	}
	if err := b.Resolve(id, approval.Answer{Outcome: approval.Approved, Items: []bool{true, true}}); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.err != nil || res.a.Outcome != approval.Approved || !res.a.Items[1] {
		t.Fatalf("Ask = %+v, %v", res.a, res.err)
	}
	if err := b.Resolve(id, approval.Answer{Outcome: approval.Denied}); !errors.Is(err, approval.ErrAlreadyResolved) {
		t.Fatalf("second answer: %v, want ErrAlreadyResolved", err)
	}
	if err := b.Resolve("no-such-id", approval.Answer{Outcome: approval.Denied}); !errors.Is(err, approval.ErrUnknownRequest) {
		t.Fatalf("unknown id: %v, want ErrUnknownRequest", err)
	}
	<-prompterDone // Resolve ended the prompter's context
	// The id stays used.
	r := request()
	r.ID = id
	if _, err := b.Ask(context.Background(), r); err == nil {
		t.Fatal("an id was reused")
	}
}

// TestExactlyOnce races every way a request can end — answers from many
// goroutines, the kill switch, the timeout and the prompter — and checks that
// exactly one wins and every other answer is told ErrAlreadyResolved.
func TestExactlyOnce(t *testing.T) {
	for round := range 40 {
		p := approval.ScriptedFunc(func(ctx context.Context, r approval.Request) (approval.Answer, error) {
			if round%4 == 0 {
				return approval.Answer{Outcome: approval.Denied}, nil
			}
			<-ctx.Done()
			return approval.Answer{}, ctx.Err()
		})
		b := approval.NewBroker(p, approval.Options{Timeout: time.Duration(round%3+1) * time.Millisecond})
		events, stop := b.Subscribe(16)
		type result struct {
			a   approval.Answer
			err error
		}
		asked := make(chan result, 1)
		go func() {
			a, err := b.Ask(context.Background(), request())
			asked <- result{a, err}
		}()
		id := awaiting(t, events)

		var wins, already, kills atomic.Int64
		var start, wg sync.WaitGroup
		start.Add(1)
		for g := range 12 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				start.Wait()
				if g%4 == 3 {
					kills.Add(int64(b.KillAll()))
					return
				}
				outcome := approval.Approved
				if g%2 == 0 {
					outcome = approval.Denied
				}
				switch err := b.Resolve(id, approval.Answer{Outcome: outcome}); {
				case err == nil:
					wins.Add(1)
				case errors.Is(err, approval.ErrAlreadyResolved):
					already.Add(1)
				default:
					t.Errorf("Resolve: %v", err)
				}
			}()
		}
		start.Done()
		wg.Wait()
		res := <-asked
		stop()

		other := int64(0) // the timeout or the prompter
		if wins.Load() == 0 && kills.Load() == 0 {
			other = 1
		}
		if n := wins.Load() + kills.Load() + other; n != 1 {
			t.Fatalf("round %d: %d winners (resolve %d, kill %d)", round, n, wins.Load(), kills.Load())
		}
		if wins.Load()+already.Load() != 9 {
			t.Fatalf("round %d: %d Resolve calls accounted for, want 9", round, wins.Load()+already.Load())
		}
		if kills.Load() == 1 && (res.a.Outcome != approval.Killed || !errors.Is(res.err, approval.ErrKilled)) {
			t.Fatalf("round %d: the kill switch won but Ask = %+v, %v", round, res.a, res.err)
		}
		if other == 1 && res.a.Outcome != approval.Timeout && res.a.Outcome != approval.Denied {
			t.Fatalf("round %d: neither answer nor kill won, yet Ask = %+v", round, res.a)
		}
		var ends []string
		for e := range events {
			ends = append(ends, e.Type)
		}
		if len(ends) != 1 || ends[0] != res.a.Outcome.String() {
			t.Fatalf("round %d: resolution events %v for outcome %v", round, ends, res.a.Outcome)
		}
	}
}

// TestSubscribersNeverBlock runs 1,000 requests past a subscriber that never
// reads and one that reads everything.
func TestSubscribersNeverBlock(t *testing.T) {
	const n = 1000
	b := approval.NewBroker(approval.ScriptedFunc(func(context.Context, approval.Request) (approval.Answer, error) {
		return approval.Answer{Outcome: approval.Approved}, nil
	}), approval.Options{})
	_, stopDeaf := b.Subscribe(0)
	defer stopDeaf()
	_, stopSmall := b.Subscribe(1)
	defer stopSmall()
	all, stopAll := b.Subscribe(2 * n)

	var wg sync.WaitGroup
	for w := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range n / 10 {
				r := request()
				r.ID = fmt.Sprintf("w%d-%d", w, i)
				if _, err := b.Ask(context.Background(), r); err != nil {
					t.Errorf("Ask: %v", err)
					return
				}
			}
		}()
	}
	wg.Wait()
	stopAll()
	stopAll() // a second stop is harmless

	seen := map[string]string{}
	count := 0
	for e := range all {
		count++
		switch prev := seen[e.CallID]; {
		case e.Type == "awaiting_approval" && prev == "":
		case e.Type == "approved" && prev == "awaiting_approval":
		default:
			t.Fatalf("%s: %q after %q", e.CallID, e.Type, prev)
		}
		seen[e.CallID] = e.Type
	}
	if count != 2*n || len(seen) != n {
		t.Fatalf("reader saw %d events for %d calls, want %d for %d", count, len(seen), 2*n, n)
	}
	// The unbuffered subscriber lost all 2n; the one-slot one all but one.
	if d := b.Dropped(); d != 4*n-1 {
		t.Fatalf("Dropped = %d, want %d", d, 4*n-1)
	}
}

// prompterFunc is a Prompter in one function, for prompters that break the
// contract or decide for themselves when a request is shown.
type prompterFunc func(ctx context.Context, r approval.Request, shown approval.ShownFunc) (approval.Answer, error)

func (f prompterFunc) Prompt(ctx context.Context, r approval.Request, shown approval.ShownFunc) (approval.Answer, error) {
	return f(ctx, r, shown)
}

// TestDeadlineStartsWhenShown: a request has no deadline while it waits for
// its turn; its time starts when the prompter shows it, by the broker's clock.
func TestDeadlineStartsWhenShown(t *testing.T) {
	var mu sync.Mutex
	now := t0
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	show := make(chan struct{})
	deadlines := make(chan [2]time.Time, 1)
	p := prompterFunc(func(ctx context.Context, r approval.Request, shown approval.ShownFunc) (approval.Answer, error) {
		<-show
		deadlines <- [2]time.Time{shown(), shown()}
		<-ctx.Done()
		return approval.Answer{}, ctx.Err()
	})
	b := approval.NewBroker(p, approval.Options{Timeout: time.Hour, Now: clock})
	events, stop := b.Subscribe(4)
	defer stop()
	done := make(chan error, 1)
	go func() { _, err := b.Ask(context.Background(), request()); done <- err }()
	awaiting(t, events)
	if got := b.Pending(); len(got) != 1 || !got[0].Created.Equal(t0) || !got[0].Shown.IsZero() || !got[0].Deadline.IsZero() {
		t.Fatalf("waiting its turn: Pending = %+v; want Created set, no Shown or Deadline", got)
	}
	mu.Lock()
	now = t0.Add(7 * time.Minute) // it waited seven minutes for its turn
	mu.Unlock()
	close(show)
	d := <-deadlines
	if want := t0.Add(7*time.Minute + time.Hour); !d[0].Equal(want) || !d[1].Equal(want) {
		t.Fatalf("shown returned %v then %v, want %v both times", d[0], d[1], want)
	}
	if got := b.Pending(); len(got) != 1 || !got[0].Shown.Equal(t0.Add(7*time.Minute)) || !got[0].Deadline.Equal(d[0]) {
		t.Fatalf("on screen: Pending = %+v", got)
	}
	b.KillAll()
	if err := <-done; !errors.Is(err, approval.ErrKilled) {
		t.Fatal(err)
	}
}

// TestQueueOnTerminal: two requests at once on the terminal, which shows one
// at a time, with a short timeout nobody answers within. The second waits
// its turn unseen, is shown when the first times out, and only then does
// its own time start: both are shown and both end as timeouts.
func TestQueueOnTerminal(t *testing.T) {
	s, term := newScreen(t)
	const timeout = 150 * time.Millisecond
	b := approval.NewBroker(term, approval.Options{Timeout: timeout})
	events, stop := b.Subscribe(16)
	defer stop()
	asked := make(chan error, 2)
	for _, id := range []string{"first", "second"} {
		r := request()
		r.ID = id
		go func() { _, err := b.Ask(context.Background(), r); asked <- err }()
	}
	ends := map[string]time.Time{}
	for len(ends) < 2 {
		e := <-events
		if e.Type == approval.EventTimeout {
			ends[e.CallID] = e.Timestamp
			continue
		}
		if e.Type != approval.EventAwaiting {
			t.Fatalf("event %+v", e)
		}
	}
	for range 2 {
		if err := <-asked; !errors.Is(err, approval.ErrTimeout) {
			t.Fatalf("Ask = %v, want a timeout", err)
		}
	}
	// Both were shown, one after the other.
	s.waitFor("→ time is up: denied.")
	s.waitFor("→ time is up: denied.")
	for _, id := range []string{"first", "second"} {
		if !strings.Contains(s.all(), "Call:     "+id+"\n") {
			t.Errorf("request %s was never shown:\n%s", id, s.all())
		}
	}
	// The later one ended at least a whole timeout after the earlier one:
	// its time started only when the first was off the screen.
	first, second := ends["first"], ends["second"]
	if second.Before(first) {
		first, second = second, first
	}
	if gap := second.Sub(first); gap < timeout {
		t.Fatalf("the two requests timed out %v apart; the later one's time must start when it is shown, at least %v later", gap, timeout)
	}
}

// TestApprovalNeverShownIsRefused: a prompter that approves without ever
// reporting the request on screen approves nothing.
func TestApprovalNeverShownIsRefused(t *testing.T) {
	p := prompterFunc(func(context.Context, approval.Request, approval.ShownFunc) (approval.Answer, error) {
		return approval.Answer{Outcome: approval.Approved, Items: []bool{true}}, nil
	})
	a, err := approval.NewBroker(p, approval.Options{}).Ask(context.Background(), request())
	if a.Outcome != approval.Denied || a.Items[0] || !errors.Is(err, approval.ErrDenied) || !strings.Contains(err.Error(), "never showed") {
		t.Fatalf("Ask = %+v, %v; want a denial saying it was never shown", a, err)
	}
}

// TestMaxWait: a request that never gets its turn on screen times out
// after MaxWait, and says so.
func TestMaxWait(t *testing.T) {
	p := prompterFunc(func(ctx context.Context, _ approval.Request, _ approval.ShownFunc) (approval.Answer, error) {
		<-ctx.Done() // never shows it
		return approval.Answer{}, ctx.Err()
	})
	b := approval.NewBroker(p, approval.Options{Timeout: time.Hour, MaxWait: 20 * time.Millisecond})
	a, err := b.Ask(context.Background(), request())
	if a.Outcome != approval.Timeout || !errors.Is(err, approval.ErrTimeout) || !strings.Contains(err.Error(), "never shown") {
		t.Fatalf("Ask = %+v, %v; want a timeout saying it was never shown", a, err)
	}
}

// TestAskNeverRemembersWhatWasNotOffered: a prompter that reports "allow
// again" for a request that did not offer it (Airlock cannot pin what it
// runs) is approved, but nothing is remembered.
func TestAskNeverRemembersWhatWasNotOffered(t *testing.T) {
	r := request(item(1, level.Dangerous, "python3 -c \"$(cat x)\""))
	r.NoRemember, r.NoRememberWhy = true, "a word is computed when the command runs"
	p := approval.ScriptedFunc(func(context.Context, approval.Request) (approval.Answer, error) {
		return approval.Answer{Outcome: approval.Approved, Remember: true}, nil
	})
	a, err := approval.NewBroker(p, approval.Options{}).Ask(context.Background(), r)
	if err != nil || a.Outcome != approval.Approved || a.Remember {
		t.Fatalf("Ask = %+v, %v; want approved, not remembered", a, err)
	}
}

// TestAskKeepsARuleOnlyWhereOffered: "always allow this exact command
// here" passes to the gate only for a request that offered it, only with
// an approval, and never with a destructive item approved.
func TestAskKeepsARuleOnlyWhereOffered(t *testing.T) {
	for _, tc := range []struct {
		name  string
		offer string
		risk  level.Level
		ans   approval.Answer
		want  bool
	}{
		{"offered and chosen", "echo hi in ~/proj", level.Dangerous, approval.Answer{Outcome: approval.Approved, Rule: true}, true},
		{"not offered", "", level.Dangerous, approval.Answer{Outcome: approval.Approved, Rule: true}, false},
		{"denied", "echo hi in ~/proj", level.Dangerous, approval.Answer{Outcome: approval.Denied, Rule: true}, false},
		{"a destructive item approved", "rm -r x", level.Destructive, approval.Answer{Outcome: approval.Approved, Items: []bool{true}, Rule: true}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := request(item(1, tc.risk, "echo hi"))
			r.OfferRule = tc.offer
			ans := tc.ans
			p := approval.ScriptedFunc(func(context.Context, approval.Request) (approval.Answer, error) { return ans, nil })
			a, _ := approval.NewBroker(p, approval.Options{}).Ask(context.Background(), r)
			if a.Rule != tc.want {
				t.Fatalf("Ask = %+v; want Rule %v", a, tc.want)
			}
		})
	}
}

// TestShownReasonsDoNotRepeatTheTitle: a reason that starts with the
// item's title is shown without it, one that is only the title is left
// out, and the others are shown as they are.
func TestShownReasonsDoNotRepeatTheTitle(t *testing.T) {
	it := approval.Item{Preview: "Move ~/a.txt to the Trash", Reasons: []string{
		"Move ~/a.txt to the Trash: Move a file or folder to the Trash.",
		"Move ~/a.txt to the Trash.",
		"OPEN URL: which program would open it is not known here",
		"Move ~/a.txt to the Trashcan: another title that only starts alike",
	}}
	got := it.ShownReasons()
	want := []string{"Move a file or folder to the Trash.", "OPEN URL: which program would open it is not known here",
		"Move ~/a.txt to the Trashcan: another title that only starts alike"}
	if !slices.Equal(got, want) {
		t.Fatalf("ShownReasons = %q, want %q", got, want)
	}
}
