package main

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/automation"
	"github.com/airlockhq/airlock/app/internal/dashboard"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/tray"
)

// dashBook is a Book on an in-memory settings file whose changes are
// confirmed by trust, as the app wires it.
func dashBook(t *testing.T, trust *tray.Trust, st automation.Settings) *automation.Book {
	t.Helper()
	assess := func(automation.Automation) automation.Assessment { return automation.Assessment{} }
	sched := automation.NewScheduler(automation.SchedulerConfig{Runner: okRunner{}, Assess: assess}, automation.Settings{})
	saved := st
	b := &automation.Book{Assess: assess, Scheduler: sched, Confirm: confirmAutomation(trust),
		Update: func(change func(*automation.Settings) error) error { return change(&saved) }}
	b.Start(st)
	return b
}

func sched(t *testing.T, text string) automation.Schedule {
	t.Helper()
	s, err := automation.ParseSchedule(text)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The dashboard's list is the Book's overview: each automation's name,
// on/off, schedule and next run, the global switch, and after a run its
// time and result.
func TestBookAutomationsList(t *testing.T) {
	a := bookAutomations{dashBook(t, &tray.Trust{}, automation.Settings{Enabled: true, Automations: []automation.Automation{
		{Name: "hello", Run: "NOTIFY \"a\" \"b\"\n", Schedule: sched(t, "daily 18:30"), Enabled: true},
		{Name: "quiet", Ask: "tidy up", Schedule: sched(t, "every 2h"), Enabled: false},
	}})}
	if !a.Enabled() {
		t.Error("the global switch reads off")
	}
	list := a.List()
	if len(list) != 2 || list[0].Name != "hello" || !list[0].Enabled || list[0].Schedule != "daily 18:30" || list[0].NextRun.IsZero() ||
		list[1].Name != "quiet" || list[1].Enabled || list[1].Schedule != "every 2h" || !list[1].NextRun.IsZero() {
		t.Fatalf("List = %+v", list)
	}
	if !list[0].LastRun.IsZero() || list[0].LastResult != "" {
		t.Errorf("a run before any: %+v", list[0])
	}
	done, err := a.book.RunNow("hello")
	if err != nil {
		t.Fatal(err)
	}
	res := <-done
	got := a.List()[0]
	if got.LastResult != "ok" || !got.LastRun.Equal(res.Start) || got.LastRun.IsZero() {
		t.Errorf("after a run: %+v (the run: %+v)", got, res)
	}

	start := time.Date(2026, 3, 14, 9, 30, 0, 0, time.UTC)
	for _, tc := range []struct {
		r    automation.Result
		when time.Time
		says string
	}{
		{automation.Result{Status: "failed", Error: "boom", Start: start, End: start.Add(time.Second)}, start, "failed: boom"},
		{automation.Result{Status: automation.StatusSkipped, Error: "the kill switch is on", Due: start, End: start.Add(time.Minute)}, start, "skipped: the kill switch is on"},
		{automation.Result{Status: automation.StatusSkipped, End: start}, start, "skipped"},
	} {
		if when, says := lastRun(tc.r); !when.Equal(tc.when) || says != tc.says {
			t.Errorf("lastRun(%+v) = %v %q, want %v %q", tc.r, when, says, tc.when, tc.says)
		}
	}
}

// The dashboard asks through the menu's Trust: a yes is a yes, a no is no
// error, a popup that failed is an error, one open elsewhere is
// dashboard.ErrConfirmationOpen; no popup at all is no Confirm.
func TestConfirmDashboard(t *testing.T) {
	if confirmDashboard(&tray.Trust{}) != nil || confirmDashboard(nil) != nil {
		t.Error("a Confirm with no popup to ask")
	}
	answer := func(ok bool, err error) func(context.Context, string, string, string) (bool, error) {
		return func(context.Context, string, string, string) (bool, error) { return ok, err }
	}
	ctx := context.Background()
	if ok, err := confirmDashboard(&tray.Trust{Confirm: answer(true, nil)})(ctx, "t", "x", "Yes"); !ok || err != nil {
		t.Errorf("a yes: %v %v", ok, err)
	}
	if ok, err := confirmDashboard(&tray.Trust{Confirm: answer(false, nil)})(ctx, "t", "x", "Yes"); ok || err != nil {
		t.Errorf("a no: %v %v", ok, err)
	}
	if ok, err := confirmDashboard(&tray.Trust{Confirm: answer(false, errors.New("zenity died"))})(ctx, "t", "x", "Yes"); ok || err == nil {
		t.Errorf("a popup that failed: %v %v", ok, err)
	}

	// One confirmation at a time with the menu and the socket: while the
	// Book asks (here about turning an automation on), the dashboard's
	// question is refused, and so is a second turn-on through the Book.
	asking, answered := make(chan struct{}), make(chan bool)
	var titles []string
	trust := &tray.Trust{Confirm: func(_ context.Context, title, _, _ string) (bool, error) {
		titles = append(titles, title)
		close(asking)
		return <-answered, nil
	}}
	a := bookAutomations{dashBook(t, trust, automation.Settings{Enabled: false, Automations: []automation.Automation{
		{Name: "hello", Run: "NOTIFY \"a\" \"b\"\n", Schedule: sched(t, "daily 18:30"), Enabled: false},
	}})}
	first := make(chan error, 1)
	go func() { first <- a.SetAutomation(ctx, "hello", true) }()
	<-asking
	if ok, err := confirmDashboard(trust)(ctx, "t", "x", "Yes"); ok || !errors.Is(err, dashboard.ErrConfirmationOpen) {
		t.Errorf("the dashboard's question while the Book asks: %v %v", ok, err)
	}
	err := a.SetEnabled(ctx, true)
	if !errors.Is(err, dashboard.ErrNotConfirmed) || !errors.Is(err, dashboard.ErrConfirmationOpen) {
		t.Errorf("turning all on while the Book asks: %v", err)
	}
	answered <- false
	if err := <-first; !errors.Is(err, dashboard.ErrNotConfirmed) || errors.Is(err, dashboard.ErrConfirmationOpen) {
		t.Errorf("a turn-on the person refused: %v", err)
	}
	if a.List()[0].Enabled || a.Enabled() {
		t.Error("something was turned on without a yes")
	}
	if len(titles) != 1 || titles[0] != `Airlock — turn on the automation "hello"?` {
		t.Errorf("asked %q", titles)
	}

	// Turning off goes through without the Book asking (the dashboard asks
	// about it itself); an unknown name is the Book's error, unwrapped.
	b := bookAutomations{dashBook(t, &tray.Trust{}, automation.Settings{Enabled: true, Automations: []automation.Automation{
		{Name: "hello", Run: "NOTIFY \"a\" \"b\"\n", Schedule: sched(t, "daily 18:30"), Enabled: true},
	}})}
	if err := b.SetAutomation(ctx, "hello", false); err != nil || b.List()[0].Enabled {
		t.Errorf("turning off: %v, %+v", err, b.List())
	}
	if err := b.SetEnabled(ctx, false); err != nil || b.Enabled() {
		t.Errorf("turning all off: %v", err)
	}
	if err := b.SetAutomation(ctx, "nope", true); !errors.Is(err, automation.ErrNotFound) || errors.Is(err, dashboard.ErrNotConfirmed) {
		t.Errorf("an unknown automation: %v", err)
	}
	if !policy.RaisesTrust(policy.Change{Kind: policy.ChangeAutomationOn}) {
		t.Error("the dashboard's change kind does not always ask")
	}
}
