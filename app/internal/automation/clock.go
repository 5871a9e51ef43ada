package automation

import "time"

// Clock is the scheduler's time. SystemClock is the real one; tests give
// a fake they move by hand.
type Clock interface {
	// Now is the wall-clock time, in the location schedules are kept in.
	Now() time.Time
	// NewTimer returns a timer that fires once the clock reads at or later
	// (at once if it does already).
	NewTimer(at time.Time) Timer
}

// Timer is a one-shot timer of a Clock.
type Timer interface {
	// C delivers the time once the timer fires.
	C() <-chan time.Time
	// Stop stops the timer; it reports whether it stopped it before it
	// fired.
	Stop() bool
}

// SystemClock is the computer's clock in its local time zone. Now carries
// no monotonic reading, so that times compare by the wall clock: after the
// computer slept, the monotonic clock (which stops during sleep on macOS
// and Linux) would say less time has passed than has.
type SystemClock struct{}

// Now returns the wall-clock time.
func (SystemClock) Now() time.Time { return time.Now().Round(0) }

// NewTimer returns a time.Timer for the time until at. It runs on the
// monotonic clock: the scheduler sets it no further than MaxNap ahead.
func (SystemClock) NewTimer(at time.Time) Timer { return systemTimer{time.NewTimer(time.Until(at))} }

type systemTimer struct{ t *time.Timer }

func (t systemTimer) C() <-chan time.Time { return t.t.C }
func (t systemTimer) Stop() bool          { return t.t.Stop() }
