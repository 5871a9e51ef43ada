package approval

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/airlockhq/airlock/app/internal/policy"
)

// Defaults for Options.
const (
	DefaultMax     = 32
	DefaultTimeout = 5 * time.Minute // seed 002
)

// recentIDs is how many resolved request ids the broker remembers, so that a
// late second answer is told ErrAlreadyResolved rather than ErrUnknownRequest.
const recentIDs = 4096

// Options configure a Broker. Zero values take the defaults.
type Options struct {
	Max     int              // pending requests at most; DefaultMax when ≤ 0
	Timeout time.Duration    // how long a request waits; DefaultTimeout when ≤ 0
	Now     func() time.Time // the clock for Created, Deadline and event times; time.Now when nil
	// The timeout itself always runs on the real clock.
}

// Broker holds the pending approval requests (seed 002's interceptor, without
// the execution). Each request resolves exactly once, by the first of: the
// Prompter's answer, Resolve, KillAll, its timeout, or its context ending.
// Events go to subscribers without ever blocking a request. It is safe for
// concurrent use.
type Broker struct {
	prompter Prompter
	max      int
	timeout  time.Duration
	now      func() time.Time
	bus      bus

	mu      sync.Mutex
	pending map[string]*pending // guarded by mu
	recent  map[string]struct{} // resolved ids; guarded by mu
	order   []string            // recent, oldest first; guarded by mu
}

type pending struct {
	req    Request
	cancel context.CancelFunc // ends the prompter's context
	done   chan struct{}      // closed when resolved
	answer Answer             // set before done closes
	err    error              // set before done closes
}

// NewBroker returns a broker that asks p. With a nil p nobody can be asked:
// Ask fails with an error wrapping policy.ErrApprovalRequired (seed 001).
func NewBroker(p Prompter, opts Options) *Broker {
	b := &Broker{
		prompter: p,
		max:      opts.Max,
		timeout:  opts.Timeout,
		now:      opts.Now,
		pending:  map[string]*pending{},
		recent:   map[string]struct{}{},
	}
	if b.max <= 0 {
		b.max = DefaultMax
	}
	if b.timeout <= 0 {
		b.timeout = DefaultTimeout
	}
	if b.now == nil {
		b.now = time.Now
	}
	return b
}

// Ask registers r, emits EventAwaiting, asks the Prompter and waits for the
// request to resolve. It returns the settled answer and, unless the outcome
// is Approved, an error wrapping ErrDenied (also when ctx ends or the
// Prompter fails), ErrTimeout or ErrKilled. An Approved answer may still
// leave items out: run only those whose Items entry is true.
//
// The broker sets r's Created and Deadline, and its ID when empty; the
// Prompter is shown that copy. Ask refuses, without registering, a request with no items or with a
// blocked item, a request whose ID is already in use, and a request beyond
// the pending limit (ErrFull).
func (b *Broker) Ask(ctx context.Context, r Request) (Answer, error) {
	none := Answer{Outcome: Denied, Items: make([]bool, len(r.Items))}
	if err := checkRequest(r); err != nil {
		return none, err
	}
	if b.prompter == nil {
		return none, policy.NoApprover(maxRisk(r.Items))
	}
	if err := ctx.Err(); err != nil {
		return none, fmt.Errorf("%w: %w", ErrDenied, err)
	}
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p, err := b.register(r, cancel)
	if err != nil {
		return none, err
	}

	type reply struct {
		a   Answer
		err error
	}
	replies := make(chan reply, 1)
	go func() {
		a, err := b.prompter.Prompt(pctx, p.req)
		replies <- reply{a, err}
	}()
	timer := time.NewTimer(b.timeout)
	defer timer.Stop()
	select {
	case <-p.done:
	case rep := <-replies:
		switch {
		case rep.err != nil:
			b.finish(p, Answer{Outcome: Denied}, fmt.Errorf("prompter: %w", rep.err))
		case rep.a.Outcome == Killed: // only the kill switch kills
			b.finish(p, Answer{Outcome: Denied}, nil)
		default:
			b.finish(p, rep.a, nil)
		}
	case <-timer.C:
		b.finish(p, Answer{Outcome: Timeout}, nil)
	case <-ctx.Done():
		b.finish(p, Answer{Outcome: Denied}, context.Cause(ctx))
	}
	<-p.done
	return p.answer, p.err
}

// register adds r to the pending requests and emits EventAwaiting.
func (b *Broker) register(r Request, cancel context.CancelFunc) (*pending, error) {
	if r.ID == "" {
		id, err := newID()
		if err != nil {
			return nil, err
		}
		r.ID = id
	}
	r.Items = append([]Item(nil), r.Items...)
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.pending) >= b.max {
		return nil, fmt.Errorf("%w: %d requests are already waiting for an answer, so this one is denied", ErrFull, len(b.pending))
	}
	if _, ok := b.pending[r.ID]; ok {
		return nil, fmt.Errorf("approval request id %q is already pending", r.ID)
	}
	if _, ok := b.recent[r.ID]; ok {
		return nil, fmt.Errorf("approval request id %q was already used", r.ID)
	}
	r.Created = b.now()
	r.Deadline = r.Created.Add(b.timeout)
	p := &pending{req: r, cancel: cancel, done: make(chan struct{})}
	b.pending[r.ID] = p
	b.bus.publish(newEvent(EventAwaiting, r, r.Created))
	return p, nil
}

// finish resolves p with a unless it is resolved already; it reports whether
// this call resolved it. cause explains a denial.
func (b *Broker) finish(p *pending, a Answer, cause error) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.finishLocked(p, a, cause)
}

func (b *Broker) finishLocked(p *pending, a Answer, cause error) bool {
	if b.pending[p.req.ID] != p {
		return false
	}
	delete(b.pending, p.req.ID)
	b.recent[p.req.ID] = struct{}{}
	b.order = append(b.order, p.req.ID)
	if len(b.order) > recentIDs {
		delete(b.recent, b.order[0])
		b.order = b.order[1:]
	}
	p.answer = settle(p.req.Items, a)
	switch p.answer.Outcome {
	case Approved:
	case Timeout:
		p.err = fmt.Errorf("%w: no answer within %v", ErrTimeout, b.timeout)
	case Killed:
		p.err = ErrKilled
	default:
		p.err = ErrDenied
		if cause != nil {
			p.err = fmt.Errorf("%w: %w", ErrDenied, cause)
		}
	}
	b.bus.publish(newEvent(p.answer.Outcome.String(), p.req, b.now()))
	close(p.done)
	p.cancel()
	return true
}

// Resolve answers a pending request on behalf of a UI that answers
// asynchronously (a native popup, the menu). Only Approved and Denied are
// accepted; the answer is settled as a Prompter's is. It returns
// ErrAlreadyResolved when the request was resolved before and
// ErrUnknownRequest when there is no such request.
//
// Resolve is the person's voice: it must be reachable only from the native
// UI, never from a client of the gate.
func (b *Broker) Resolve(id string, a Answer) error {
	if a.Outcome != Approved && a.Outcome != Denied {
		return fmt.Errorf("resolving approval request %q: an answer is approved or denied, not %v", id, a.Outcome)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.pending[id]
	if !ok {
		if _, done := b.recent[id]; done {
			return fmt.Errorf("%w: %q", ErrAlreadyResolved, id)
		}
		return fmt.Errorf("%w: %q", ErrUnknownRequest, id)
	}
	b.finishLocked(p, a, errors.New("denied by the person"))
	return nil
}

// KillAll resolves every pending request as Killed at once and returns how
// many there were. It never waits for a prompter.
func (b *Broker) KillAll() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	ps := make([]*pending, 0, len(b.pending))
	for _, p := range b.pending {
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].req.ID < ps[j].req.ID })
	for _, p := range ps {
		b.finishLocked(p, Answer{Outcome: Killed}, nil)
	}
	return len(ps)
}

// Pending returns copies of the pending requests, oldest first.
func (b *Broker) Pending() []Request {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]Request, 0, len(b.pending))
	for _, p := range b.pending {
		r := p.req
		r.Items = append([]Item(nil), r.Items...)
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Created.Equal(out[j].Created) {
			return out[i].Created.Before(out[j].Created)
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// Subscribe returns a channel of events buffered for buf events, and a
// function that ends the subscription and closes the channel. The broker
// never waits for a subscriber: when the buffer is full the event is lost
// for that subscriber and counted in Dropped.
func (b *Broker) Subscribe(buf int) (<-chan Event, func()) { return b.bus.subscribe(buf) }

// Dropped counts the events lost to full subscribers since the start.
func (b *Broker) Dropped() uint64 { return b.bus.dropped.Load() }

func newID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("making a request id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}
