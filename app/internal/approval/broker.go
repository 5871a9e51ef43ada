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
	Max int // pending requests at most; DefaultMax when ≤ 0
	// Timeout is how long a request waits for its answer once it is on
	// screen (see Prompter); DefaultTimeout when ≤ 0.
	Timeout time.Duration
	// MaxWait bounds how long a request may wait for its turn on screen
	// before it times out unseen. It is a safety net against a prompter
	// that never shows a request: the default, (Max+1) × Timeout, is more
	// than a prompter showing one request at a time can take to reach the
	// last of Max requests.
	MaxWait time.Duration
	Now     func() time.Time // the clock for Created, Shown, Deadline and event times; time.Now when nil
	// The timeout itself always runs on the real clock.
}

// Broker holds the pending approval requests (seed 002's interceptor, without
// the execution). Each request resolves exactly once, by the first of: the
// Prompter's answer, Resolve, KillAll, its timeout, or its client withdrawing
// it (its context ending). Its timeout starts when the Prompter shows it.
// Events go to subscribers without ever blocking a request. It is safe for
// concurrent use.
type Broker struct {
	prompter Prompter
	max      int
	timeout  time.Duration
	maxWait  time.Duration
	now      func() time.Time
	bus      bus

	mu      sync.Mutex
	pending map[string]*pending // guarded by mu
	recent  map[string]struct{} // resolved ids; guarded by mu
	order   []string            // recent, oldest first; guarded by mu
}

type pending struct {
	req    Request            // Shown and Deadline guarded by Broker.mu
	cancel context.CancelFunc // ends the prompter's context
	timer  *time.Timer        // the wait for its turn, then its deadline; guarded by Broker.mu
	done   chan struct{}      // closed when resolved
	answer Answer             // set before done closes
	err    error              // set before done closes
}

// errNeverShown is why a request that waited MaxWait for its turn timed out.
type errNeverShown time.Duration

func (e errNeverShown) Error() string {
	return fmt.Sprintf("it was never shown: still waiting for its turn on screen after %v", time.Duration(e))
}

// NewBroker returns a broker that asks p. With a nil p nobody can be asked:
// Ask fails with an error wrapping policy.ErrApprovalRequired (seed 001).
func NewBroker(p Prompter, opts Options) *Broker {
	b := &Broker{
		prompter: p,
		max:      opts.Max,
		timeout:  opts.Timeout,
		maxWait:  opts.MaxWait,
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
	if b.maxWait <= 0 {
		b.maxWait = time.Duration(b.max+1) * b.timeout
	}
	if b.now == nil {
		b.now = time.Now
	}
	return b
}

// Ask registers r, emits EventAwaiting, asks the Prompter and waits for the
// request to resolve. It returns the settled answer and, unless the outcome
// is Approved, an error wrapping ErrDenied (also when the Prompter fails),
// ErrTimeout, ErrKilled, or ErrWithdrawn when ctx ends first: ctx is the
// client's, and its ending means the client withdrew the request, which is
// not the person's denial. An Approved answer may still leave items out: run
// only those whose Items entry is true. An Edited answer (only for a request
// that offered Edit, from a Prompter that showed it) comes with a nil error
// and the person's text: nothing of the request runs.
//
// The broker sets r's Created, and its ID when empty; the Prompter is shown
// that copy and sets its Shown and Deadline through its ShownFunc: the
// timeout runs from then. Ask refuses, without registering, a request with
// no items or with a blocked item, a request whose ID is already in use, and
// a request beyond the pending limit (ErrFull).
func (b *Broker) Ask(ctx context.Context, r Request) (Answer, error) {
	none := Answer{Outcome: Denied, Items: make([]bool, len(r.Items))}
	if err := checkRequest(r); err != nil {
		return none, err
	}
	if b.prompter == nil {
		return none, policy.NoApprover(maxRisk(r.Items))
	}
	if err := ctx.Err(); err != nil {
		none.Outcome = Withdrawn
		return none, fmt.Errorf("%w: %w", ErrWithdrawn, context.Cause(ctx))
	}
	pctx, cancel := context.WithCancel(ctx)
	defer cancel()
	p, req, err := b.register(r, cancel)
	if err != nil {
		return none, err
	}

	type reply struct {
		a   Answer
		err error
	}
	replies := make(chan reply, 1)
	go func() {
		a, err := b.prompter.Prompt(pctx, req, func() time.Time { return b.shown(p) })
		replies <- reply{a, err}
	}()
	select {
	case <-p.done:
	case rep := <-replies:
		if ctx.Err() != nil {
			// The prompter saw its context end with the client's: the
			// client withdrew the request; whatever it answered is moot.
			b.finish(p, Answer{Outcome: Withdrawn}, context.Cause(ctx))
			break
		}
		b.answered(p, rep.a, rep.err)
	case <-ctx.Done():
		b.finish(p, Answer{Outcome: Withdrawn}, context.Cause(ctx))
	}
	<-p.done
	return p.answer, p.err
}

// register adds r to the pending requests, starts the wait for its turn and
// emits EventAwaiting. It returns the request as registered.
func (b *Broker) register(r Request, cancel context.CancelFunc) (*pending, Request, error) {
	if r.ID == "" {
		id, err := newID()
		if err != nil {
			return nil, Request{}, err
		}
		r.ID = id
	}
	r.Items = append([]Item(nil), r.Items...)
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.pending) >= b.max {
		return nil, Request{}, fmt.Errorf("%w: %d requests are already waiting for an answer, so this one is denied", ErrFull, len(b.pending))
	}
	if _, ok := b.pending[r.ID]; ok {
		return nil, Request{}, fmt.Errorf("approval request id %q is already pending", r.ID)
	}
	if _, ok := b.recent[r.ID]; ok {
		return nil, Request{}, fmt.Errorf("approval request id %q was already used", r.ID)
	}
	r.Created = b.now()
	r.Shown, r.Deadline = time.Time{}, time.Time{}
	p := &pending{req: r, cancel: cancel, done: make(chan struct{})}
	p.timer = time.AfterFunc(b.maxWait, func() { b.finish(p, Answer{Outcome: Timeout}, errNeverShown(b.maxWait)) })
	b.pending[r.ID] = p
	b.bus.publish(newEvent(EventAwaiting, r, r.Created))
	return p, r, nil
}

// shown records that p is on screen, once, and starts its timeout; it
// returns p's deadline. For a request already resolved the deadline is now:
// there is nothing left to answer.
func (b *Broker) shown(p *pending) time.Time {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !p.req.Shown.IsZero() {
		return p.req.Deadline
	}
	if b.pending[p.req.ID] != p {
		return b.now()
	}
	p.req.Shown = b.now()
	p.req.Deadline = p.req.Shown.Add(b.timeout)
	p.timer.Stop()
	p.timer = time.AfterFunc(b.timeout, func() { b.finish(p, Answer{Outcome: Timeout}, nil) })
	return p.req.Deadline
}

// answered resolves p with the Prompter's answer: an error denies, only the
// kill switch kills and only the client withdraws, and an approval of a
// request the Prompter never showed is refused.
func (b *Broker) answered(p *pending, a Answer, err error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case err != nil:
		b.finishLocked(p, Answer{Outcome: Denied}, fmt.Errorf("prompter: %w", err))
	case a.Outcome == Killed || a.Outcome == Withdrawn:
		b.finishLocked(p, Answer{Outcome: Denied}, nil)
	case a.Outcome == Approved && p.req.Shown.IsZero():
		b.finishLocked(p, Answer{Outcome: Denied}, errors.New("prompter: it approved a request it never showed"))
	case a.Outcome == Edited && p.req.Shown.IsZero():
		b.finishLocked(p, Answer{Outcome: Denied}, errors.New("prompter: it edited a request it never showed"))
	case a.Outcome == Edited && p.req.Edit == nil:
		b.finishLocked(p, Answer{Outcome: Denied}, errors.New("prompter: it edited a request that offered no edit"))
	default:
		b.finishLocked(p, a, nil)
	}
}

// finish resolves p with a unless it is resolved already; it reports whether
// this call resolved it. cause explains a denial, a withdrawal or a timeout.
func (b *Broker) finish(p *pending, a Answer, cause error) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.finishLocked(p, a, cause)
}

func (b *Broker) finishLocked(p *pending, a Answer, cause error) bool {
	if b.pending[p.req.ID] != p {
		return false
	}
	p.timer.Stop()
	delete(b.pending, p.req.ID)
	b.recent[p.req.ID] = struct{}{}
	b.order = append(b.order, p.req.ID)
	if len(b.order) > recentIDs {
		delete(b.recent, b.order[0])
		b.order = b.order[1:]
	}
	p.answer = settle(p.req, a)
	switch p.answer.Outcome {
	case Approved, Edited:
	case Timeout:
		p.err = fmt.Errorf("%w: no answer within %v of its being shown", ErrTimeout, b.timeout)
		if cause != nil {
			p.err = fmt.Errorf("%w: %w", ErrTimeout, cause)
		}
	case Killed:
		p.err = ErrKilled
	case Withdrawn:
		p.err = ErrWithdrawn
		if cause != nil {
			p.err = fmt.Errorf("%w: %w", ErrWithdrawn, cause)
		}
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

// Pending returns copies of the pending requests, oldest first. A request
// with a zero Shown is waiting for its turn on screen.
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
