package automation

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// MaxNap is the longest the scheduler sleeps between two looks at the wall
// clock. Timers run on the monotonic clock, which stops while the computer
// sleeps; looking at least once a minute is what notices that it woke
// (and that a schedule was missed meanwhile) without waiting out a timer
// set before it slept.
const MaxNap = time.Minute

// MissedGrace is how late a due time may be found and still run, whatever
// the cooldown: a look at the clock can come that much after the time.
const MissedGrace = time.Minute

// The statuses of a Result besides the gate's own (gate.StatusOK,
// StatusFailed, StatusDenied, StatusKilled …, which a run ends with).
const (
	StatusRunning = "running" // started, not ended
	StatusSkipped = "skipped" // due, not started: see Result.Error
	StatusMissed  = "missed"  // due while the computer slept, found too late to run
)

// Errors of RunNow, which also say why a due time was skipped.
var (
	ErrNotFound = errors.New("no automation has that name")
	ErrOff      = errors.New("the automation is off")
	ErrAllOff   = errors.New("automations are switched off")
	ErrRunning  = errors.New("its previous run is still under way (one at a time)")
	ErrKilled   = errors.New("the kill switch is on")
	ErrCooldown = errors.New("it is in its cooldown")
	ErrStopped  = errors.New("the scheduler has stopped")
)

// CooldownError is ErrCooldown with when the automation may run again.
type CooldownError struct {
	Start, Until time.Time
}

func (e *CooldownError) Error() string {
	return fmt.Sprintf("it is in its cooldown: the previous run started at %s, the next may start at %s",
		e.Start.Format("15:04:05"), e.Until.Format("15:04:05"))
}

func (e *CooldownError) Unwrap() error { return ErrCooldown }

// Runner runs automations through the gate. The app's runner submits a
// plan as `airlock run` would and a request in words as `airlock ask`
// would, under the client name a.Client().
type Runner interface {
	// Killed reports whether the gate's kill switch is on.
	Killed() bool
	// Run runs a and returns how it ended: the gate's status, its request
	// id and error. It must return once ctx is done (the gate withdraws
	// what was waiting for the person) or the kill switch stops the run.
	Run(ctx context.Context, a Automation) Result
}

// Result is how one due time or "Run now" of an automation ended.
type Result struct {
	// Status is the gate's status for a run that started (ok, failed,
	// denied, timeout, refused, killed, rejected …), StatusRunning while it
	// runs, or StatusSkipped or StatusMissed for one that did not start.
	Status  string `json:"status"`
	Request string `json:"request,omitempty"` // the history's request id
	// Error says why a run failed or a due time was skipped.
	Error string    `json:"error,omitempty"`
	Due   time.Time `json:"due,omitzero"`   // the scheduled time; zero for Run now
	Start time.Time `json:"start,omitzero"` // zero for one that did not start
	End   time.Time `json:"end,omitzero"`   // when it ended or was skipped
	// Manual is set for "Run now".
	Manual bool `json:"manual,omitempty"`
}

// Settings are the automations and the global switch, as settings.json
// holds them ("automationEnabled", "automations").
type Settings struct {
	Enabled     bool
	Automations []Automation
}

// Overview is the scheduler's state: what the menu, `airlock automations
// list` and the dashboard show.
type Overview struct {
	// Enabled is the global switch: off, no automation runs.
	Enabled     bool     `json:"enabled"`
	Automations []Status `json:"automations"`
}

// Status is one automation's state.
type Status struct {
	Name     string `json:"name"`
	Kind     string `json:"kind"` // KindAsk or KindRun
	Text     string `json:"text"` // the request in words, or the plan
	Schedule string `json:"schedule"`
	Cooldown string `json:"cooldown"`
	Enabled  bool   `json:"enabled"`
	Running  bool   `json:"running"`
	// Next is when it runs next; zero when it is off, when automations are
	// switched off, and for "at login".
	Next time.Time `json:"next,omitzero"`
	// Assessment is its plan's risk, as rated under the settings now.
	Assessment Assessment `json:"assessment"`
	// Last is its latest run or skipped due time since Airlock started;
	// nil for none.
	Last *Result `json:"last,omitempty"`
}

// SchedulerConfig is what a Scheduler is built from. Runner is required.
type SchedulerConfig struct {
	Runner Runner
	// Clock is the time; nil: SystemClock.
	Clock Clock
	// Assess rates an automation for the overview; nil: none rated.
	Assess func(Automation) Assessment
	// Logf logs a message; nil: none.
	Logf func(format string, args ...any)
}

// Scheduler runs automations when they are due. It is safe for concurrent
// use.
//
// Its contract: each run goes to the Runner (the gate) and nowhere else;
// nothing starts while the kill switch is on, while the global switch or
// the automation is off, while the automation's previous run is still
// under way, or sooner than its cooldown after the previous start (a due
// time that comes then is skipped, not queued). A schedule whose time
// passed while the computer slept runs once when the scheduler next looks
// (at most MaxNap after the wake) if that is within max(cooldown,
// MissedGrace) of the time, and is recorded as missed otherwise; it never
// runs once per time it missed. Times missed while Airlock was not running
// are not made up.
type Scheduler struct {
	cfg    SchedulerConfig
	ctx    context.Context // the runs'; cancelled when Run returns
	cancel context.CancelFunc
	wake   chan struct{} // capacity 1: look at the clock again
	runs   sync.WaitGroup

	mu      sync.Mutex
	enabled bool                 // guarded by mu; the global switch
	entries []*entry             // guarded by mu; in settings order
	state   map[string]*runState // guarded by mu; by lower-case name, kept after removal
	started bool                 // guarded by mu; Run was called
	stopped bool                 // guarded by mu; Run returned
	subs    map[chan struct{}]struct{}

	ticked func(now time.Time) // tests: called after each look at the clock, once its timer is set
}

// entry is one automation as the settings give it.
type entry struct {
	a    Automation
	as   Assessment
	next time.Time // zero: none due
}

// runState is what happened to the automation of a name.
type runState struct {
	running   bool
	lastStart time.Time
	last      *Result
}

// NewScheduler returns a scheduler of st. Nothing runs before Run.
func NewScheduler(cfg SchedulerConfig, st Settings) *Scheduler {
	if cfg.Clock == nil {
		cfg.Clock = SystemClock{}
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Scheduler{cfg: cfg, ctx: ctx, cancel: cancel, wake: make(chan struct{}, 1),
		state: map[string]*runState{}, subs: map[chan struct{}]struct{}{}}
	s.Set(st)
	return s
}

// Set replaces the automations and the global switch. An automation that
// keeps its name keeps its state (its run under way, its last result, its
// cooldown); one whose schedule changed or that was turned on counts its
// next time from now.
func (s *Scheduler) Set(st Settings) {
	entries := make([]*entry, len(st.Automations))
	for i, a := range st.Automations {
		e := &entry{a: a}
		if s.cfg.Assess != nil {
			e.as = s.cfg.Assess(a)
		}
		entries[i] = e
	}
	now := s.cfg.Clock.Now()
	s.mu.Lock()
	for _, e := range entries {
		for _, old := range s.entries {
			if strings.EqualFold(old.a.Name, e.a.Name) && old.a.Schedule == e.a.Schedule && old.a.Enabled == e.a.Enabled {
				e.next = old.next
			}
		}
	}
	s.enabled, s.entries = st.Enabled, entries
	s.refreshLocked(now)
	s.mu.Unlock()
	s.signal()
}

// Subscribe returns a channel that receives a value (at most one waiting)
// whenever the overview changes, and a function that ends the
// subscription.
func (s *Scheduler) Subscribe() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	s.mu.Lock()
	s.subs[ch] = struct{}{}
	s.mu.Unlock()
	return ch, func() {
		s.mu.Lock()
		delete(s.subs, ch)
		s.mu.Unlock()
	}
}

// signal wakes the loop and tells the subscribers.
func (s *Scheduler) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for ch := range s.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Overview returns the global switch and every automation's state.
func (s *Scheduler) Overview() Overview {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := Overview{Enabled: s.enabled, Automations: make([]Status, len(s.entries))}
	for i, e := range s.entries {
		st := Status{Name: e.a.Name, Kind: e.a.Kind(), Text: e.a.Text(), Schedule: e.a.Schedule.String(),
			Cooldown: formatDuration(e.a.Cooldown), Enabled: e.a.Enabled, Next: e.next, Assessment: e.as}
		if rs := s.state[strings.ToLower(e.a.Name)]; rs != nil {
			st.Running = rs.running
			if rs.last != nil {
				last := *rs.last
				st.Last = &last
			}
		}
		o.Automations[i] = st
	}
	return o
}

// Run starts the "at login" automations, then runs each automation when
// it is due until ctx is done. Then it withdraws the runs under way and
// waits for them to end. It may be called once.
func (s *Scheduler) Run(ctx context.Context) {
	now := s.cfg.Clock.Now()
	s.mu.Lock()
	if s.started {
		s.mu.Unlock()
		return
	}
	defer func() {
		s.mu.Lock()
		s.stopped = true
		s.mu.Unlock()
		s.cancel()
		s.runs.Wait()
	}()
	s.started = true
	for _, e := range s.entries {
		if s.enabled && e.a.Enabled && e.a.Schedule.AtLogin() {
			s.startDueLocked(e, now, now)
		}
	}
	s.mu.Unlock()
	for {
		now := s.cfg.Clock.Now()
		wait := s.tick(now)
		t := s.cfg.Clock.NewTimer(now.Add(wait))
		if s.ticked != nil {
			s.ticked(now)
		}
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-t.C():
		case <-s.wake:
			t.Stop()
		}
	}
}

// tick starts or skips what is due at now and returns how long to sleep.
func (s *Scheduler) tick(now time.Time) time.Duration {
	s.mu.Lock()
	changed := false
	s.refreshLocked(now)
	wait := MaxNap
	for _, e := range s.entries {
		if !e.next.IsZero() && !now.Before(e.next) {
			due := latestDue(e.a.Schedule, e.next, now)
			e.next = e.a.Schedule.Next(now) // every time up to now is dealt with here, once
			s.startDueLocked(e, due, now)
			changed = true
		}
		if !e.next.IsZero() {
			wait = min(wait, max(e.next.Sub(now), 0))
		}
	}
	s.mu.Unlock()
	if changed {
		s.signal()
	}
	return wait
}

// maxCatchUp bounds the due times latestDue walks through: more than a
// week of "every 5m".
const maxCatchUp = 3000

// latestDue is the last time s is due from first up to now (first is due
// and not after now). After a sleep it is the time the run made up for is
// judged by: "every 30m" found at 13:10 after a night asleep is late by
// ten minutes, not by the night.
func latestDue(s Schedule, first, now time.Time) time.Time {
	due := first
	for range maxCatchUp {
		next := s.Next(due)
		if next.IsZero() || next.After(now) {
			return due
		}
		due = next
	}
	return due
}

// refreshLocked gives each automation that may run a next time if it has
// none, and takes it from those that may not.
func (s *Scheduler) refreshLocked(now time.Time) {
	for _, e := range s.entries {
		switch {
		case !s.enabled || !e.a.Enabled || e.a.Schedule.AtLogin():
			e.next = time.Time{}
		case e.next.IsZero():
			e.next = e.a.Schedule.Next(now)
		}
	}
}

// startDueLocked starts e for its time due, found at now, or records why
// not.
func (s *Scheduler) startDueLocked(e *entry, due, now time.Time) {
	rs := s.stateLocked(e.a.Name)
	if late := now.Sub(due); late > max(e.a.Cooldown, MissedGrace) {
		rs.last = &Result{Status: StatusMissed, Due: due, End: now,
			Error: fmt.Sprintf("its time passed while the computer slept, and it was %s late", late.Round(time.Minute))}
		s.cfg.Logf("automation %q: missed its run of %s (found %s late, after sleep)", e.a.Name, due.Format(time.DateTime), late.Round(time.Second))
		return
	}
	if _, err := s.startLocked(e, due, now, false); err != nil {
		rs.last = &Result{Status: StatusSkipped, Due: due, End: now, Error: err.Error()}
		s.cfg.Logf("automation %q: skipped its run of %s: %v", e.a.Name, due.Format(time.DateTime), err)
	}
}

func (s *Scheduler) stateLocked(name string) *runState {
	key := strings.ToLower(name)
	rs := s.state[key]
	if rs == nil {
		rs = &runState{}
		s.state[key] = rs
	}
	return rs
}

// RunNow starts the automation called name now, as if it were due, and
// returns a channel that receives its result when it ends. It is refused
// (and nothing starts) when the automation is unknown or off, automations
// are switched off, the kill switch is on, the previous run is still under
// way or it is in its cooldown (a *CooldownError).
func (s *Scheduler) RunNow(name string) (<-chan Result, error) {
	now := s.cfg.Clock.Now()
	s.mu.Lock()
	defer func() {
		s.mu.Unlock()
		s.signal()
	}()
	if s.stopped {
		return nil, ErrStopped
	}
	for _, e := range s.entries {
		if !strings.EqualFold(e.a.Name, name) {
			continue
		}
		switch {
		case !e.a.Enabled:
			return nil, ErrOff
		case !s.enabled:
			return nil, ErrAllOff
		}
		return s.startLocked(e, time.Time{}, now, true)
	}
	return nil, ErrNotFound
}

// startLocked starts a run of e unless the kill switch, a run under way or
// the cooldown forbids it.
func (s *Scheduler) startLocked(e *entry, due, now time.Time, manual bool) (<-chan Result, error) {
	rs := s.stateLocked(e.a.Name)
	switch {
	case rs.running:
		return nil, ErrRunning
	case s.cfg.Runner.Killed():
		return nil, ErrKilled
	case !rs.lastStart.IsZero() && now.Before(rs.lastStart.Add(e.a.Cooldown)):
		return nil, &CooldownError{Start: rs.lastStart, Until: rs.lastStart.Add(e.a.Cooldown)}
	}
	rs.running, rs.lastStart = true, now
	rs.last = &Result{Status: StatusRunning, Due: due, Start: now, Manual: manual}
	done := make(chan Result, 1)
	a := e.a
	s.cfg.Logf("automation %q: starting (%s)", a.Name, a.Schedule)
	s.runs.Add(1)
	go func() {
		defer s.runs.Done()
		res := s.cfg.Runner.Run(s.ctx, a)
		res.Due, res.Start, res.Manual, res.End = due, now, manual, s.cfg.Clock.Now()
		s.mu.Lock()
		rs.running = false
		rs.last = &res
		s.mu.Unlock()
		s.cfg.Logf("automation %q: ended %s", a.Name, res.Status)
		done <- res
		s.signal()
	}()
	return done, nil
}
