package ui_test

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/ui"
	"github.com/airlockhq/airlock/bridge"
)

var deadline = time.Date(2025, 3, 1, 14, 5, 0, 0, time.UTC)

func request(levels ...level.Level) approval.Request {
	r := approval.Request{ID: "c1", Client: "mcp: claude", Tool: "run_plan", Deadline: deadline}
	for i, l := range levels {
		r.Items = append(r.Items, approval.Item{
			Index:   i + 1,
			Preview: "action " + l.String(),
			Text:    "TEXT " + l.String(),
			Risk:    l,
			Reasons: []string{"because " + l.String()},
		})
	}
	return r
}

// shownAt is a ShownFunc for a prompt called without a broker.
func shownAt(d time.Time) approval.ShownFunc { return func() time.Time { return d } }

// recorder is a fake popup: it records what it was shown and answers with
// a fixed answer.
type recorder struct {
	mu    sync.Mutex
	shown []bridge.ApprovalPopup
	a     bridge.PopupAnswer
	err   error
}

func (f *recorder) show(_ context.Context, p bridge.ApprovalPopup) (bridge.PopupAnswer, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.shown = append(f.shown, p)
	return f.a, f.err
}

func TestPopupShowsTheRequest(t *testing.T) {
	tests := []struct {
		name         string
		req          approval.Request
		arm          time.Duration
		wantArm      time.Duration
		wantConfirm  []bool
		wantRemember bool
	}{
		{"one dangerous action", request(level.Dangerous), 0, bridge.DefaultArmDelay, []bool{false}, true},
		{"a plan with a destructive action", request(level.Safe, level.Caution, level.Dangerous, level.Destructive), 2 * time.Second, 2 * time.Second, []bool{false, false, false, true}, false},
		{"only destructive actions", request(level.Destructive, level.Destructive), time.Millisecond, time.Millisecond, []bool{true, true}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &recorder{}
			p := ui.NewPopupPrompter(ui.PopupOptions{Show: f.show, ArmDelay: tt.arm})
			if _, err := p.Prompt(context.Background(), tt.req, shownAt(tt.req.Deadline)); err != nil {
				t.Fatal(err)
			}
			if len(f.shown) != 1 {
				t.Fatalf("shown %d popups, want 1", len(f.shown))
			}
			got := f.shown[0]
			if got.Client != "mcp: claude" || got.Tool != "run_plan" || !got.Deadline.Equal(deadline) || got.ArmDelay != tt.wantArm || got.AllowRemember != tt.wantRemember {
				t.Errorf("popup = %+v", got)
			}
			if len(got.Items) != len(tt.req.Items) {
				t.Fatalf("popup shows %d items, want %d", len(got.Items), len(tt.req.Items))
			}
			for i, it := range tt.req.Items {
				want := bridge.PopupItem{
					Number: it.Index, Level: it.Risk.String(), Preview: it.Preview, Text: it.Text,
					Reasons: it.Reasons, Confirm: tt.wantConfirm[i],
				}
				g := got.Items[i]
				if g.Number != want.Number || g.Level != want.Level || g.Preview != want.Preview || g.Text != want.Text || !slices.Equal(g.Reasons, want.Reasons) || g.Confirm != want.Confirm {
					t.Errorf("item %d = %+v, want %+v", i, g, want)
				}
			}
		})
	}
}

func TestPopupAnswers(t *testing.T) {
	boom := errors.New("zenity failed")
	before := deadline.Add(-time.Second)
	tests := []struct {
		name    string
		req     approval.Request
		a       bridge.PopupAnswer
		err     error
		now     time.Time
		want    approval.Answer
		wantErr bool
	}{
		{
			name: "approved",
			req:  request(level.Dangerous, level.Caution),
			a:    bridge.PopupAnswer{Approve: true, Items: []bool{true, true}},
			now:  before,
			want: approval.Answer{Outcome: approval.Approved, Items: []bool{true, true}},
		},
		{
			name: "approved and remembered",
			req:  request(level.Dangerous),
			a:    bridge.PopupAnswer{Approve: true, Items: []bool{true}, Remember: true},
			now:  before,
			want: approval.Answer{Outcome: approval.Approved, Items: []bool{true}, Remember: true},
		},
		{
			name: "never remembered with a destructive item",
			req:  request(level.Dangerous, level.Destructive),
			a:    bridge.PopupAnswer{Approve: true, Items: []bool{true, true}, Remember: true},
			now:  before,
			want: approval.Answer{Outcome: approval.Approved, Items: []bool{true, true}},
		},
		{
			name: "the destructive item skipped",
			req:  request(level.Dangerous, level.Destructive),
			a:    bridge.PopupAnswer{Approve: true, Items: []bool{true, false}},
			now:  before,
			want: approval.Answer{Outcome: approval.Approved, Items: []bool{true, false}},
		},
		{
			name: "denied",
			req:  request(level.Dangerous),
			a:    bridge.PopupAnswer{Items: []bool{false}},
			now:  before,
			want: approval.Answer{Outcome: approval.Denied},
		},
		{
			name: "Approve leaving nothing to run is a denial",
			req:  request(level.Destructive),
			a:    bridge.PopupAnswer{Approve: true, Items: []bool{false}},
			now:  before,
			want: approval.Answer{Outcome: approval.Denied},
		},
		{
			name:    "an answer for the wrong number of items",
			req:     request(level.Dangerous, level.Dangerous),
			a:       bridge.PopupAnswer{Approve: true, Items: []bool{true}},
			now:     before,
			want:    approval.Answer{Outcome: approval.Denied},
			wantErr: true,
		},
		{
			name:    "an error denies, even with Approve",
			req:     request(level.Dangerous),
			a:       bridge.PopupAnswer{Approve: true, Items: []bool{true}},
			err:     boom,
			now:     before,
			want:    approval.Answer{Outcome: approval.Denied},
			wantErr: true,
		},
		{
			name: "closed at the deadline: a timeout",
			req:  request(level.Dangerous),
			a:    bridge.PopupAnswer{Items: []bool{false}},
			now:  deadline,
			want: approval.Answer{Outcome: approval.Timeout},
		},
		{
			name:    "an error at the deadline is still an error",
			req:     request(level.Dangerous),
			err:     boom,
			now:     deadline.Add(time.Second),
			want:    approval.Answer{Outcome: approval.Denied},
			wantErr: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := &recorder{a: tt.a, err: tt.err}
			p := ui.NewPopupPrompter(ui.PopupOptions{Show: f.show, Now: func() time.Time { return tt.now }})
			got, err := p.Prompt(context.Background(), tt.req, shownAt(tt.req.Deadline))
			if (err != nil) != tt.wantErr {
				t.Errorf("error %v, want an error: %v", err, tt.wantErr)
			}
			if got.Outcome != tt.want.Outcome || !slices.Equal(got.Items, tt.want.Items) || got.Remember != tt.want.Remember {
				t.Errorf("answer %+v, want %+v", got, tt.want)
			}
			if tt.err != nil && !errors.Is(err, tt.err) {
				t.Errorf("error %v does not wrap %v", err, tt.err)
			}
		})
	}
}

// TestPopupThroughTheBroker runs the prompter under the real broker: what
// the person picks in the popup is what the gate is told to run.
func TestPopupThroughTheBroker(t *testing.T) {
	f := &recorder{a: bridge.PopupAnswer{Approve: true, Items: []bool{true, false}, Remember: true}}
	b := approval.NewBroker(ui.NewPopupPrompter(ui.PopupOptions{Show: f.show}), approval.Options{Timeout: time.Minute})
	r := request(level.Dangerous, level.Destructive)
	r.Deadline = time.Time{}
	a, err := b.Ask(context.Background(), r)
	if err != nil || a.Outcome != approval.Approved || !slices.Equal(a.Items, []bool{true, false}) || a.Remember {
		t.Fatalf("Ask = %+v, %v; want item 1 only, not remembered", a, err)
	}
	if got := f.shown[0].Deadline; got.IsZero() {
		t.Error("the popup was not given the broker's deadline")
	}

	f.a, f.err = bridge.PopupAnswer{}, errors.New("no display")
	r = request(level.Dangerous)
	r.ID = "c2"
	if a, err := b.Ask(context.Background(), r); !errors.Is(err, approval.ErrDenied) || a.Outcome != approval.Denied {
		t.Fatalf("a failing popup: %+v, %v; want ErrDenied", a, err)
	}
}

// TestPopupsOneAtATime shows many requests at once and checks that no two
// popups were ever up together.
func TestPopupsOneAtATime(t *testing.T) {
	var mu sync.Mutex
	active, most, calls := 0, 0, 0
	show := func(ctx context.Context, p bridge.ApprovalPopup) (bridge.PopupAnswer, error) {
		mu.Lock()
		active++
		calls++
		most = max(most, active)
		mu.Unlock()
		for range 100 {
			runtime.Gosched()
		}
		mu.Lock()
		active--
		mu.Unlock()
		return bridge.PopupAnswer{Approve: true, Items: []bool{true}}, nil
	}
	p := ui.NewPopupPrompter(ui.PopupOptions{Show: show})
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if a, err := p.Prompt(context.Background(), request(level.Dangerous), shownAt(deadline)); err != nil || a.Outcome != approval.Approved {
				t.Errorf("Prompt = %+v, %v", a, err)
			}
		}()
	}
	wg.Wait()
	if calls != 16 || most != 1 {
		t.Fatalf("%d popups, at most %d at once; want 16, one at a time", calls, most)
	}
}

// TestWaitingPopupEndsWithItsContext: a request waiting behind another
// popup is withdrawn when its context ends, without being shown.
func TestWaitingPopupEndsWithItsContext(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	shown := 0
	show := func(ctx context.Context, p bridge.ApprovalPopup) (bridge.PopupAnswer, error) {
		mu.Lock()
		shown++
		mu.Unlock()
		close(entered)
		<-release
		return bridge.PopupAnswer{Items: []bool{false}}, nil
	}
	p := ui.NewPopupPrompter(ui.PopupOptions{Show: show})
	first := make(chan error, 1)
	go func() {
		_, err := p.Prompt(context.Background(), request(level.Dangerous), shownAt(deadline))
		first <- err
	}()
	<-entered
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	a, err := p.Prompt(ctx, request(level.Dangerous), shownAt(deadline))
	if !errors.Is(err, context.Canceled) || a.Outcome != approval.Denied {
		t.Fatalf("waiting request: %+v, %v; want a denial with context.Canceled", a, err)
	}
	close(release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if shown != 1 {
		t.Fatalf("%d popups shown, want 1", shown)
	}
}

// Where the platform can ask for the owner's authentication, every
// destructive item asks for it after its own yes, and nothing else does;
// where it cannot, no item asks (the bridge would refuse the item).
func TestPopupAsksTheOwnerForDestructiveActions(t *testing.T) {
	req := request(level.Safe, level.Caution, level.Dangerous, level.Destructive, level.Destructive)
	for _, can := range []bool{true, false} {
		f := &recorder{}
		p := ui.NewPopupPrompter(ui.PopupOptions{Show: f.show, OwnerAuth: func() bool { return can }})
		if _, err := p.Prompt(context.Background(), req, shownAt(req.Deadline)); err != nil {
			t.Fatal(err)
		}
		var got []bool
		for _, it := range f.shown[0].Items {
			got = append(got, it.Authenticate)
			if it.Authenticate && !it.Confirm {
				t.Errorf("item %d asks for authentication without its own yes", it.Number)
			}
		}
		want := []bool{false, false, false, can, can}
		if !slices.Equal(got, want) {
			t.Errorf("owner authentication available %v: items ask %v, want %v", can, got, want)
		}
	}
}

// TestPopupOffersARule: the popup offers "always allow this exact command
// here" with the rule's words when the request does, never beside a
// destructive item, and the person's choice of it reaches the gate.
func TestPopupOffersARule(t *testing.T) {
	f := &recorder{a: bridge.PopupAnswer{Approve: true, Items: []bool{true}, Rule: true}}
	b := approval.NewBroker(ui.NewPopupPrompter(ui.PopupOptions{Show: f.show}), approval.Options{Timeout: time.Minute})
	r := request(level.Dangerous)
	r.Deadline = time.Time{}
	r.OfferRule = `["echo","hi"] in ~/proj`
	a, err := b.Ask(context.Background(), r)
	if err != nil || !a.Rule || f.shown[0].AllowRule != r.OfferRule {
		t.Fatalf("Ask = %+v, %v; popup offered %q", a, err, f.shown[0].AllowRule)
	}
	f2 := &recorder{a: bridge.PopupAnswer{Approve: true, Items: []bool{true}, Rule: true}}
	b2 := approval.NewBroker(ui.NewPopupPrompter(ui.PopupOptions{Show: f2.show}), approval.Options{Timeout: time.Minute})
	d := request(level.Destructive)
	d.Deadline = time.Time{}
	d.OfferRule = "rm -r build"
	a, err = b2.Ask(context.Background(), d)
	if err != nil || a.Rule || f2.shown[0].AllowRule != "" {
		t.Fatalf("a destructive item: Ask = %+v, %v; popup offered %q", a, err, f2.shown[0].AllowRule)
	}
}
