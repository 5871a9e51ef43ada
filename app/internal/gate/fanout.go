package gate

import (
	"sync"
	"sync/atomic"
)

// Fanout hands the gate's events to any number of subscribers: the menu, the
// log. Its Emit is what Config.Events is set to. It never waits for a
// subscriber: one whose buffer is full loses the event, and the loss is
// counted. A subscriber that rereads the gate's state on every event it gets
// (as the menu does) is therefore never left stale by a loss: the events it
// still had queued were sent after the lost one's change was made. It is safe
// for concurrent use; the zero value is ready.
type Fanout struct {
	mu      sync.RWMutex
	subs    map[*fanoutSub]struct{} // guarded by mu
	dropped atomic.Uint64
}

type fanoutSub struct {
	ch chan Event // closed on unsubscribe, under Fanout.mu
}

// Emit sends e to every subscriber that has room for it. It never blocks.
func (f *Fanout) Emit(e Event) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	for s := range f.subs {
		select {
		case s.ch <- e:
		default:
			f.dropped.Add(1)
		}
	}
}

// Subscribe returns a channel of events buffered for buf events, and a
// function that ends the subscription and closes the channel.
func (f *Fanout) Subscribe(buf int) (<-chan Event, func()) {
	s := &fanoutSub{ch: make(chan Event, max(buf, 0))}
	f.mu.Lock()
	if f.subs == nil {
		f.subs = map[*fanoutSub]struct{}{}
	}
	f.subs[s] = struct{}{}
	f.mu.Unlock()
	var once sync.Once
	return s.ch, func() {
		once.Do(func() {
			f.mu.Lock()
			delete(f.subs, s)
			close(s.ch)
			f.mu.Unlock()
		})
	}
}

// Dropped counts the events lost to full subscribers since the start.
func (f *Fanout) Dropped() uint64 { return f.dropped.Load() }
