package approval

import (
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The event types, as seed 002 names them (without its "hitl:" prefix).
// Every request emits EventAwaiting once, then exactly one of the others.
const (
	EventAwaiting  = "awaiting_approval"
	EventApproved  = "approved"
	EventDenied    = "denied"
	EventTimeout   = "timeout"
	EventKilled    = "killed"
	EventWithdrawn = "withdrawn" // its client withdrew it; not the person's denial
	EventEdited    = "edited"    // the person edited the text instead of answering; it is judged again
)

// Event reports a change in a request's state.
type Event struct {
	Type      string    `json:"type"`
	CallID    string    `json:"callId"`
	Client    string    `json:"client,omitempty"`
	Program   string    `json:"program,omitempty"`
	Tool      string    `json:"tool"`
	Args      string    `json:"args"` // the items' exact texts, one after the other
	Timestamp time.Time `json:"timestamp"`
}

func newEvent(typ string, r Request, at time.Time) Event {
	texts := make([]string, len(r.Items))
	for i, it := range r.Items {
		texts[i] = it.Text
	}
	return Event{Type: typ, CallID: r.ID, Client: r.Client, Program: r.Program, Tool: r.Tool, Args: strings.Join(texts, "\n"), Timestamp: at}
}

// bus fans events out to subscribers without ever waiting for one: a
// subscriber whose buffer is full loses the event, and the loss is counted.
type bus struct {
	mu      sync.RWMutex
	subs    map[*subscriber]struct{} // guarded by mu
	dropped atomic.Uint64
}

type subscriber struct {
	ch chan Event // closed on unsubscribe, under bus.mu
}

func (b *bus) subscribe(buf int) (<-chan Event, func()) {
	s := &subscriber{ch: make(chan Event, max(buf, 0))}
	b.mu.Lock()
	if b.subs == nil {
		b.subs = map[*subscriber]struct{}{}
	}
	b.subs[s] = struct{}{}
	b.mu.Unlock()
	var once sync.Once
	return s.ch, func() {
		once.Do(func() {
			b.mu.Lock()
			delete(b.subs, s)
			close(s.ch)
			b.mu.Unlock()
		})
	}
}

func (b *bus) publish(e Event) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for s := range b.subs {
		select {
		case s.ch <- e:
		default:
			b.dropped.Add(1)
		}
	}
}
