package automation_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/automation"
)

// fakeClock is a clock the test moves by hand. Its timers fire when the
// clock is moved to or past their time.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	c  chan time.Time
	at time.Time
	// done is set once the timer fired or was stopped; guarded by the
	// clock's mu.
	done bool
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }

func newClock(t time.Time) *fakeClock { return &fakeClock{now: t} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) NewTimer(at time.Time) automation.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: make(chan time.Time, 1), at: at}
	if !at.After(c.now) {
		t.done = true
		t.c <- c.now
		return stopper{t, c}
	}
	c.timers = append(c.timers, t)
	return stopper{t, c}
}

// set moves the clock to tm (forwards or backwards) and fires the timers
// whose time has come.
func (c *fakeClock) set(tm time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = tm
	kept := c.timers[:0]
	for _, t := range c.timers {
		switch {
		case t.done:
		case !t.at.After(tm):
			t.done = true
			t.c <- tm
		default:
			kept = append(kept, t)
		}
	}
	c.timers = kept
}

type stopper struct {
	t *fakeTimer
	c *fakeClock
}

func (s stopper) C() <-chan time.Time { return s.t.c }

func (s stopper) Stop() bool {
	s.c.mu.Lock()
	defer s.c.mu.Unlock()
	was := !s.t.done
	s.t.done = true
	return was
}

// fakeRunner stands in for the gate. Each Run announces itself on started
// and waits for the test to end it (or for its context to end, which it
// reports as the gate reports a withdrawn request).
type fakeRunner struct {
	killed  atomic.Bool
	started chan *fakeRun
}

type fakeRun struct {
	a   automation.Automation
	ctx context.Context
	end chan automation.Result
}

func newRunner() *fakeRunner { return &fakeRunner{started: make(chan *fakeRun, 100)} }

func (r *fakeRunner) Killed() bool { return r.killed.Load() }

func (r *fakeRunner) Run(ctx context.Context, a automation.Automation) automation.Result {
	run := &fakeRun{a: a, ctx: ctx, end: make(chan automation.Result, 1)}
	r.started <- run
	select {
	case res := <-run.end:
		return res
	case <-ctx.Done():
		return automation.Result{Status: "withdrawn", Error: "withdrawn by its client"}
	}
}

// harness is a scheduler on a fake clock and runner, with the times it
// looked at the clock.
type harness struct {
	t      *testing.T
	clock  *fakeClock
	runner *fakeRunner
	s      *automation.Scheduler
	ticks  chan time.Time
	stop   context.CancelFunc
	done   chan struct{}
	logs   chan string
}

// start runs a scheduler of st from now.
func start(t *testing.T, now time.Time, st automation.Settings) *harness {
	t.Helper()
	h := &harness{t: t, clock: newClock(now), runner: newRunner(), ticks: make(chan time.Time, 1000), done: make(chan struct{}),
		logs: make(chan string, 1000)}
	h.s = automation.NewScheduler(automation.SchedulerConfig{Runner: h.runner, Clock: h.clock,
		Logf: func(format string, args ...any) {
			select {
			case h.logs <- format:
			default:
			}
		}}, st)
	automation.SetTicked(h.s, func(now time.Time) { h.ticks <- now })
	ctx, cancel := context.WithCancel(context.Background())
	h.stop = cancel
	go func() {
		defer close(h.done)
		h.s.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-h.done
	})
	h.tickedAt(now)
	return h
}

// at moves the clock to tm and waits until the scheduler has looked at it
// then. tm must be at or past the time the scheduler's timer is set for
// (its next due time, or MaxNap on): the harness checks.
func (h *harness) at(tm time.Time) {
	h.t.Helper()
	h.clock.set(tm)
	h.tickedAt(tm)
}

// tickedAt waits for the scheduler to look at the clock at tm.
func (h *harness) tickedAt(tm time.Time) {
	h.t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case got := <-h.ticks:
			if got.Equal(tm) {
				return
			}
		case <-timeout:
			h.t.Fatalf("the scheduler never looked at the clock at %v", tm)
		}
	}
}

// started waits for a run to start and returns it.
func (h *harness) started() *fakeRun {
	h.t.Helper()
	select {
	case r := <-h.runner.started:
		return r
	case <-time.After(10 * time.Second):
		h.t.Fatal("no run started")
		return nil
	}
}

// noneStarted fails if a run is under way or has started. The scheduler
// marks a run as under way before it reports the look at the clock that
// started it, so after at() a run started then shows here.
func (h *harness) noneStarted() {
	h.t.Helper()
	for _, st := range h.s.Overview().Automations {
		if st.Running {
			h.t.Fatalf("%q is running at %v", st.Name, h.clock.Now())
		}
	}
	select {
	case r := <-h.runner.started:
		h.t.Fatalf("%q started at %v", r.a.Name, h.clock.Now())
	default:
	}
}

// finish ends run with status and waits until the scheduler has recorded
// it.
func (h *harness) finish(r *fakeRun, status string) {
	h.t.Helper()
	r.end <- automation.Result{Status: status, Request: "req-" + r.a.Name}
	h.waitFor(func(o automation.Overview) bool {
		st := find(o, r.a.Name)
		return st != nil && !st.Running && st.Last != nil && st.Last.Status == status
	}, "the run's end to be recorded")
}

// waitFor waits until the overview satisfies ok, on its change
// notifications.
func (h *harness) waitFor(ok func(automation.Overview) bool, what string) automation.Overview {
	h.t.Helper()
	ch, stop := h.s.Subscribe()
	defer stop()
	timeout := time.After(10 * time.Second)
	for {
		if o := h.s.Overview(); ok(o) {
			return o
		}
		select {
		case <-ch:
		case <-timeout:
			h.t.Fatalf("waiting for %s: the overview is %+v", what, h.s.Overview())
		}
	}
}

func (h *harness) status(name string) automation.Status {
	h.t.Helper()
	st := find(h.s.Overview(), name)
	if st == nil {
		h.t.Fatalf("no automation %q", name)
	}
	return *st
}

func find(o automation.Overview, name string) *automation.Status {
	for i := range o.Automations {
		if o.Automations[i].Name == name {
			return &o.Automations[i]
		}
	}
	return nil
}

func mustSchedule(t *testing.T, s string) automation.Schedule {
	t.Helper()
	sc, err := automation.ParseSchedule(s)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// plan is an automation of a fixed plan on schedule, with cooldown.
func plan(t *testing.T, name, schedule string, cooldown time.Duration) automation.Automation {
	return automation.Automation{Name: name, Run: `NOTIFY "Airlock" "` + name + `"`, Schedule: mustSchedule(t, schedule),
		Cooldown: cooldown, Enabled: true}
}
