package automation_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/automation"
)

var berlin = func() *time.Location {
	l, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		panic(err)
	}
	return l
}()

// day is a time in Berlin; 2025-03-07 is a Friday.
func day(y int, m time.Month, d, hh, mm int) time.Time {
	return time.Date(y, m, d, hh, mm, 0, 0, berlin)
}

func on(list ...automation.Automation) automation.Settings {
	return automation.Settings{Enabled: true, Automations: list}
}

func TestSchedulerRunsWhenDue(t *testing.T) {
	h := start(t, day(2025, 3, 7, 10, 0), on(plan(t, "morning", "weekdays 09:00", time.Hour)))
	if got := h.status("morning").Next; !got.Equal(day(2025, 3, 10, 9, 0)) {
		t.Fatalf("next run %v, want Monday 09:00", got)
	}
	// Nothing over the weekend, looked at every hour.
	for tm := day(2025, 3, 7, 11, 0); tm.Before(day(2025, 3, 10, 9, 0)); tm = tm.Add(time.Hour) {
		h.at(tm)
		h.noneStarted()
	}
	h.at(day(2025, 3, 10, 9, 0))
	r := h.started()
	if r.a.Name != "morning" || r.a.Client() != "automation: morning" {
		t.Fatalf("started %q as %q", r.a.Name, r.a.Client())
	}
	st := h.status("morning")
	if !st.Running || st.Last == nil || st.Last.Status != automation.StatusRunning || !st.Next.Equal(day(2025, 3, 11, 9, 0)) {
		t.Fatalf("while it runs: %+v, last %+v", st, st.Last)
	}
	h.finish(r, "ok")
	st = h.status("morning")
	if last := st.Last; !last.Due.Equal(day(2025, 3, 10, 9, 0)) || !last.Start.Equal(day(2025, 3, 10, 9, 0)) ||
		last.Request != "req-morning" || last.Manual {
		t.Errorf("last result %+v", last)
	}
	h.at(day(2025, 3, 10, 12, 0))
	h.noneStarted()
	h.at(day(2025, 3, 11, 9, 0))
	h.finish(h.started(), "denied")
}

// TestSchedulerDaylightSaving walks the two days the clocks change in
// quarter hours: "daily 02:30" runs once on each, when the wall clock
// shows 02:30 (or, where it skips it, once it has passed it).
func TestSchedulerDaylightSaving(t *testing.T) {
	for _, tt := range []struct {
		name     string
		from, to time.Time
		want     []time.Time
	}{
		{"spring", day(2025, 3, 29, 12, 0), day(2025, 3, 31, 6, 0),
			[]time.Time{day(2025, 3, 30, 3, 30), day(2025, 3, 31, 2, 30)}},
		{"autumn", day(2025, 10, 25, 12, 0), day(2025, 10, 27, 6, 0),
			[]time.Time{time.Date(2025, 10, 26, 1, 30, 0, 0, time.UTC), day(2025, 10, 27, 2, 30)}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			h := start(t, tt.from, on(plan(t, "night", "daily 02:30", time.Hour)))
			var ran []time.Time
			for tm := tt.from.Add(15 * time.Minute); !tm.After(tt.to); tm = tm.Add(15 * time.Minute) {
				h.at(tm)
				if h.status("night").Running {
					ran = append(ran, tm)
					h.finish(h.started(), "ok")
				}
			}
			if len(ran) != len(tt.want) {
				t.Fatalf("ran at %v, want %v", ran, tt.want)
			}
			for i := range ran {
				if !ran[i].Equal(tt.want[i]) {
					t.Errorf("run %d at %v, want %v", i, ran[i], tt.want[i].In(berlin))
				}
			}
		})
	}
}

func TestSchedulerCooldown(t *testing.T) {
	h := start(t, day(2025, 3, 10, 9, 5), on(plan(t, "tidy", "every 30m", 30*time.Minute)))
	h.at(day(2025, 3, 10, 9, 10))
	done, err := h.s.RunNow("tidy")
	if err != nil {
		t.Fatal(err)
	}
	r := h.started()
	r.end <- automation.Result{Status: "ok"}
	if res := <-done; res.Status != "ok" || !res.Manual || !res.Start.Equal(day(2025, 3, 10, 9, 10)) {
		t.Fatalf("run now ended %+v", res)
	}
	// Due at 09:30, twenty minutes after the last start: skipped, not
	// queued.
	h.at(day(2025, 3, 10, 9, 30))
	h.noneStarted()
	if last := h.status("tidy").Last; last.Status != automation.StatusSkipped || !strings.Contains(last.Error, "cooldown") {
		t.Fatalf("the run in the cooldown: %+v", last)
	}
	h.at(day(2025, 3, 10, 9, 35))
	h.noneStarted()
	_, err = h.s.RunNow("tidy")
	var ce *automation.CooldownError
	if !errors.As(err, &ce) || !errors.Is(err, automation.ErrCooldown) || !ce.Until.Equal(day(2025, 3, 10, 9, 40)) {
		t.Fatalf("run now in the cooldown: %v", err)
	}
	h.noneStarted()
	h.at(day(2025, 3, 10, 10, 0))
	h.finish(h.started(), "ok")
}

func TestSchedulerOneRunAtATime(t *testing.T) {
	h := start(t, day(2025, 3, 10, 9, 1), on(plan(t, "poll", "every 5m", 0)))
	h.at(day(2025, 3, 10, 9, 5))
	first := h.started()
	h.at(day(2025, 3, 10, 9, 10))
	if last := h.status("poll").Last; last.Status != automation.StatusSkipped || !strings.Contains(last.Error, "still under way") {
		t.Fatalf("the run due while one runs: %+v", last)
	}
	if _, err := h.s.RunNow("poll"); !errors.Is(err, automation.ErrRunning) {
		t.Fatalf("run now while one runs: %v", err)
	}
	// Removed and added again under the same name (in another case), the
	// run under way still counts.
	h.s.Set(on())
	h.s.Set(on(plan(t, "POLL", "every 5m", 0)))
	if _, err := h.s.RunNow("poll"); !errors.Is(err, automation.ErrRunning) {
		t.Fatalf("run now of the same name added again while one runs: %v", err)
	}
	select {
	case r := <-h.runner.started:
		t.Fatalf("a second run started: %+v", r.a)
	default:
	}
	first.end <- automation.Result{Status: "ok"}
	h.waitFor(func(o automation.Overview) bool { return !o.Automations[0].Running }, "the first run to end")
	h.at(day(2025, 3, 10, 9, 15))
	h.finish(h.started(), "ok")
}

func TestSchedulerMissedWhileAsleep(t *testing.T) {
	t.Run("within the cooldown it runs once at wake", func(t *testing.T) {
		h := start(t, day(2025, 3, 10, 8, 0), on(plan(t, "morning", "weekdays 09:00", time.Hour)))
		h.at(day(2025, 3, 10, 8, 30))
		// Asleep from 08:30; awake at 09:20.
		h.at(day(2025, 3, 10, 9, 20))
		r := h.started()
		h.finish(r, "ok")
		if last := h.status("morning").Last; !last.Due.Equal(day(2025, 3, 10, 9, 0)) || !last.Start.Equal(day(2025, 3, 10, 9, 20)) {
			t.Errorf("the late run: %+v", last)
		}
		// Asleep from Monday noon to Tuesday 11:00: two hours past its time.
		h.at(day(2025, 3, 10, 12, 0))
		h.at(day(2025, 3, 11, 11, 0))
		h.noneStarted()
		st := h.status("morning")
		if st.Last.Status != automation.StatusMissed || !st.Last.Due.Equal(day(2025, 3, 11, 9, 0)) || !strings.Contains(st.Last.Error, "slept") {
			t.Errorf("the missed run: %+v", st.Last)
		}
		if !st.Next.Equal(day(2025, 3, 12, 9, 0)) {
			t.Errorf("next after the miss: %v", st.Next)
		}
		h.at(day(2025, 3, 12, 9, 0))
		h.finish(h.started(), "ok")
	})
	t.Run("many missed times run once, judged by the latest", func(t *testing.T) {
		h := start(t, day(2025, 3, 10, 9, 0), on(plan(t, "tidy", "every 30m", 30*time.Minute)))
		// Asleep from 09:00 to 13:10: eight times missed, the last ten
		// minutes ago.
		h.at(day(2025, 3, 10, 13, 10))
		r := h.started()
		h.finish(r, "ok")
		if last := h.status("tidy").Last; !last.Due.Equal(day(2025, 3, 10, 13, 0)) {
			t.Errorf("the run made up for: %+v", last)
		}
		h.noneStarted()
		// 13:30 is within the cooldown of the 13:10 start.
		h.at(day(2025, 3, 10, 13, 30))
		h.noneStarted()
		h.at(day(2025, 3, 10, 14, 0))
		h.finish(h.started(), "ok")
	})
	t.Run("past the cooldown it is missed", func(t *testing.T) {
		h := start(t, day(2025, 3, 10, 9, 0), on(plan(t, "tidy", "every 30m", 5*time.Minute)))
		h.at(day(2025, 3, 12, 13, 20)) // two days asleep
		h.noneStarted()
		st := h.status("tidy")
		if st.Last == nil || st.Last.Status != automation.StatusMissed || !st.Last.Due.Equal(day(2025, 3, 12, 13, 0)) {
			t.Fatalf("after two days asleep: %+v", st.Last)
		}
		if !st.Next.Equal(day(2025, 3, 12, 13, 30)) {
			t.Errorf("next: %v", st.Next)
		}
	})
	t.Run("a clock put back runs nothing twice", func(t *testing.T) {
		st := on(plan(t, "morning", "daily 09:00", 0))
		h := start(t, day(2025, 3, 10, 8, 0), st)
		h.at(day(2025, 3, 10, 9, 0))
		h.finish(h.started(), "ok")
		h.at(day(2025, 3, 10, 9, 30))
		// The clock is put back to 08:50 (and the scheduler looks, woken
		// by a change of settings): 09:00 comes again, and runs nothing.
		h.clock.set(day(2025, 3, 10, 8, 50))
		h.s.Set(st)
		h.tickedAt(day(2025, 3, 10, 8, 50))
		h.at(day(2025, 3, 10, 9, 0))
		h.noneStarted()
		if got := h.status("morning").Next; !got.Equal(day(2025, 3, 11, 9, 0)) {
			t.Errorf("next: %v", got)
		}
	})
}

func TestSchedulerSwitches(t *testing.T) {
	morning := plan(t, "morning", "daily 09:00", time.Hour)
	evening := plan(t, "evening", "daily 18:00", time.Hour)
	evening.Enabled = false
	h := start(t, day(2025, 3, 10, 8, 0), automation.Settings{Enabled: false, Automations: []automation.Automation{morning, evening}})
	for _, st := range h.s.Overview().Automations {
		if !st.Next.IsZero() {
			t.Errorf("%q has a next run while automations are off: %v", st.Name, st.Next)
		}
	}
	h.at(day(2025, 3, 10, 9, 0))
	h.noneStarted()
	if _, err := h.s.RunNow("morning"); !errors.Is(err, automation.ErrAllOff) {
		t.Fatalf("run now while automations are off: %v", err)
	}
	// On again at 09:30: the 09:00 run is not made up.
	h.clock.set(day(2025, 3, 10, 9, 30))
	h.s.Set(automation.Settings{Enabled: true, Automations: []automation.Automation{morning, evening}})
	if got := h.status("morning").Next; !got.Equal(day(2025, 3, 11, 9, 0)) {
		t.Fatalf("next after turning on: %v", got)
	}
	if got := h.status("evening").Next; !got.IsZero() {
		t.Fatalf("an automation that is off has a next run: %v", got)
	}
	h.at(day(2025, 3, 10, 9, 31))
	h.noneStarted()
	if _, err := h.s.RunNow("evening"); !errors.Is(err, automation.ErrOff) {
		t.Fatalf("run now of an automation that is off: %v", err)
	}
	if _, err := h.s.RunNow("nobody"); !errors.Is(err, automation.ErrNotFound) {
		t.Fatalf("run now of an unknown name: %v", err)
	}
	h.at(day(2025, 3, 10, 18, 0))
	h.noneStarted()
	h.at(day(2025, 3, 11, 9, 0))
	h.finish(h.started(), "ok")
}

func TestSchedulerKillSwitch(t *testing.T) {
	h := start(t, day(2025, 3, 10, 8, 0), on(plan(t, "tidy", "every 1h", 0)))
	h.runner.killed.Store(true)
	h.at(day(2025, 3, 10, 9, 0))
	h.noneStarted()
	if last := h.status("tidy").Last; last.Status != automation.StatusSkipped || !strings.Contains(last.Error, "kill switch") {
		t.Fatalf("a run due while killed: %+v", last)
	}
	if _, err := h.s.RunNow("tidy"); !errors.Is(err, automation.ErrKilled) {
		t.Fatalf("run now while killed: %v", err)
	}
	// Resumed: the next time runs; the kill switch, tripped while it runs,
	// ends it as the gate ends any request.
	h.runner.killed.Store(false)
	h.at(day(2025, 3, 10, 10, 0))
	r := h.started()
	h.runner.killed.Store(true)
	h.finish(r, "killed")
	h.at(day(2025, 3, 10, 11, 0))
	h.noneStarted()
}

func TestSchedulerAtLogin(t *testing.T) {
	login := plan(t, "hello", "at login", time.Hour)
	off := plan(t, "quiet", "at login", time.Hour)
	off.Enabled = false
	h := start(t, day(2025, 3, 10, 8, 0), on(login, off))
	r := h.started()
	if r.a.Name != "hello" {
		t.Fatalf("started %q", r.a.Name)
	}
	if st := h.status("hello"); !st.Next.IsZero() {
		t.Errorf("at login has a next time: %v", st.Next)
	}
	h.finish(r, "ok")
	for tm := day(2025, 3, 10, 9, 0); tm.Before(day(2025, 3, 12, 9, 0)); tm = tm.Add(6 * time.Hour) {
		h.at(tm)
		h.noneStarted()
	}
	// Automations off: nothing runs at login.
	h2 := start(t, day(2025, 3, 10, 8, 0), automation.Settings{Enabled: false, Automations: []automation.Automation{login}})
	h2.at(day(2025, 3, 10, 8, 5))
	h2.noneStarted()
}

func TestSchedulerStopWithdrawsRuns(t *testing.T) {
	h := start(t, day(2025, 3, 10, 8, 0), on(plan(t, "tidy", "daily 09:00", time.Hour)))
	h.at(day(2025, 3, 10, 9, 0))
	r := h.started()
	h.stop()
	<-r.ctx.Done()
	<-h.done // Run returns once the run has ended
	if last := h.status("tidy").Last; last.Status != "withdrawn" {
		t.Errorf("the run under way at the stop: %+v", last)
	}
	if _, err := h.s.RunNow("tidy"); !errors.Is(err, automation.ErrStopped) {
		t.Errorf("run now after the stop: %v", err)
	}
}
