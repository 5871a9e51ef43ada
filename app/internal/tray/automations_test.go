package tray_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/automation"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/tray"
)

func schedule(t *testing.T, s string) automation.Schedule {
	t.Helper()
	sc, err := automation.ParseSchedule(s)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// group finds the submenu of the automation called name in m.
func group(m tray.Menu, name string) (tray.Item, bool) {
	for _, it := range m.Items {
		if !strings.HasPrefix(it.Title, tray.AutomationsTitle) {
			continue
		}
		for _, g := range it.Children[1:] {
			if strings.HasPrefix(g.Title, name+" — ") {
				return g, true
			}
		}
	}
	return tray.Item{}, false
}

func automationsItem(m tray.Menu) tray.Item {
	for _, it := range m.Items {
		if strings.HasPrefix(it.Title, tray.AutomationsTitle) {
			return it
		}
	}
	return tray.Item{}
}

func TestBuildAutomations(t *testing.T) {
	now := time.Date(2025, 3, 10, 8, 0, 0, 0, time.Local)
	tidy := automation.Status{Name: "tidy", Kind: "run", Schedule: "weekdays 09:00", Enabled: true,
		Next: time.Date(2025, 3, 10, 9, 0, 0, 0, time.Local), Assessment: automation.Assessment{Rated: true, Risk: level.Caution},
		Last: &automation.Result{Status: "skipped", Error: "the kill switch is on", End: time.Date(2025, 3, 7, 9, 0, 0, 0, time.Local)}}
	notes := automation.Status{Name: "notes", Kind: "ask", Schedule: "every 2h"}
	busy := automation.Status{Name: "busy", Kind: "run", Schedule: "at login", Enabled: true, Running: true,
		Assessment: automation.Assessment{Rated: true, Risk: level.Safe},
		Last:       &automation.Result{Status: automation.StatusRunning, Start: now.Add(-time.Minute)}}
	overview := automation.Overview{Enabled: true, Automations: []automation.Status{tidy, notes, busy}}
	st := tray.State{Now: now, HasAutomations: true, Automations: overview}

	m := tray.Build(st)
	it := automationsItem(m)
	if it.Title != "Automations (2 of 3 on)" || !it.Groups || len(it.Children) != 4 {
		t.Fatalf("the submenu: %q groups %v, %d children", it.Title, it.Groups, len(it.Children))
	}
	if sw := it.Children[0]; sw.Title != "Automations are on — turn all off" || sw.Action != (tray.Action{Kind: tray.SetAutomations, On: false}) || sw.Children != nil {
		t.Errorf("the switch: %+v", sw)
	}
	titles := func(g tray.Item) []string {
		var out []string
		for _, c := range g.Children {
			out = append(out, c.Title)
		}
		return out
	}
	g, _ := group(m, "tidy")
	want := []string{"On — turn off", "Next: at 09:00", "Last: skipped Mar 7 09:00 — the kill switch is on", "Plan rated caution now", "Run now"}
	if fmt.Sprint(titles(g)) != fmt.Sprint(want) || g.Title != "tidy — weekdays 09:00" {
		t.Errorf("tidy: %q %q, want %q", g.Title, titles(g), want)
	}
	if g.Children[0].Action != (tray.Action{Kind: tray.SetAutomation, ID: "tidy", On: false}) ||
		g.Children[4].Action != (tray.Action{Kind: tray.RunAutomation, ID: "tidy"}) || !g.Children[4].Enabled {
		t.Errorf("tidy's actions: %+v", g.Children)
	}
	g, _ = group(m, "notes")
	want = []string{"Off — turn on…", "Next: — (it is off)", "Last: none since Airlock started", "Request in words: rated at each run", "Run now (turn it on first)"}
	if fmt.Sprint(titles(g)) != fmt.Sprint(want) || g.Title != "notes — every 2h (off)" || g.Children[4].Enabled {
		t.Errorf("notes: %q %q, want %q", g.Title, titles(g), want)
	}
	if g.Children[0].Action != (tray.Action{Kind: tray.SetAutomation, ID: "notes", On: true}) {
		t.Errorf("notes' switch: %+v", g.Children[0].Action)
	}
	g, _ = group(m, "busy")
	if g.Title != "busy — at login (running…)" || g.Children[4].Enabled || g.Children[1].Title != "Next: when Airlock next starts" ||
		g.Children[2].Title != "Last: running at 07:59" {
		t.Errorf("busy: %q %q", g.Title, titles(g))
	}

	// The kill switch, and all paused.
	st.Killed = true
	g, _ = group(tray.Build(st), "tidy")
	if r := g.Children[4]; r.Enabled || r.Title != "Run now (off while the kill switch is on)" {
		t.Errorf("run now while killed: %+v", r)
	}
	st.Killed = false
	st.Automations.Enabled = false
	m = tray.Build(st)
	if it := automationsItem(m); it.Title != "Automations (all paused; 2 of 3 on)" ||
		it.Children[0].Action != (tray.Action{Kind: tray.SetAutomations, On: true}) || it.Children[0].Title != "Automations are off — turn on…" {
		t.Errorf("all paused: %q %+v", it.Title, it.Children[0])
	}
	if g, _ := group(m, "tidy"); g.Children[1].Title != "Next: — (automations are off)" || g.Children[4].Enabled {
		t.Errorf("tidy while all are paused: %q", titles(g))
	}
	// None, and none here.
	if it := automationsItem(tray.Build(tray.State{HasAutomations: true})); !strings.Contains(it.Title, "none") || len(it.Children) != 1 {
		t.Errorf("no automations: %q %d", it.Title, len(it.Children))
	}
	if it := automationsItem(tray.Build(tray.State{})); !strings.Contains(it.Title, "not available") || len(it.Children) != 1 {
		t.Errorf("no scheduler: %q", it.Title)
	}
}

// The Automations submenu keeps to its slots however many automations
// there are: the switch, at most MaxAutomations groups and a "more" group,
// each group of MaxGroupItems items; and the menu's top level keeps its
// shape.
func TestBuildAutomationsShape(t *testing.T) {
	var many []automation.Status
	for i := range 30 {
		many = append(many, automation.Status{Name: fmt.Sprintf("a%d", i), Schedule: "daily 09:00", Enabled: i%2 == 0})
	}
	base := tray.Build(tray.State{})
	for _, n := range []int{0, 1, tray.MaxAutomations, tray.MaxAutomations + 1, 30} {
		m := tray.Build(tray.State{HasAutomations: true, Automations: automation.Overview{Enabled: true, Automations: many[:n]}})
		if len(m.Items) != len(base.Items) {
			t.Fatalf("%d automations: %d top-level items, want %d", n, len(m.Items), len(base.Items))
		}
		it := automationsItem(m)
		if len(it.Children) > tray.MaxAutomations+2 {
			t.Errorf("%d automations: %d children", n, len(it.Children))
		}
		if it.Children[0].Children != nil {
			t.Errorf("the switch is a submenu")
		}
		for _, g := range it.Children[1:] {
			if len(g.Children) < 1 || len(g.Children) > tray.MaxGroupItems {
				t.Errorf("%d automations: group %q has %d items", n, g.Title, len(g.Children))
			}
		}
		if n > tray.MaxAutomations && !strings.Contains(it.Children[len(it.Children)-1].Title, fmt.Sprintf("and %d more", n-tray.MaxAutomations)) {
			t.Errorf("%d automations: no \"more\" line: %q", n, it.Children[len(it.Children)-1].Title)
		}
	}
}

// gateRun runs automations through a real gate, as the app's runner does.
type gateRun struct{ g *gate.Gate }

func (r *gateRun) Killed() bool { return r.g.Status().Killed }

func (r *gateRun) Run(ctx context.Context, a automation.Automation) automation.Result {
	rep, _ := r.g.Submit(ctx, gate.Submission{Client: a.Client(), Plan: a.Run}, nil)
	return automation.Result{Status: rep.Status, Request: rep.Request, Error: rep.Error}
}

// asker is the person at the confirmation popup: it records the titles it
// is shown and answers with say.
type asker struct {
	mu     sync.Mutex
	titles []string
	say    bool
}

func (a *asker) confirm(_ context.Context, title, text, yes string) (bool, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.titles = append(a.titles, title)
	return a.say, nil
}

func (a *asker) answer(say bool) {
	a.mu.Lock()
	a.say = say
	a.mu.Unlock()
}

// asked returns and forgets the titles of the popups shown.
func (a *asker) asked() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	t := a.titles
	a.titles = nil
	return t
}

// TestAutomationsMenu drives the submenu's items as clicks: turning off
// needs no confirmation, turning on needs the person's yes, and "Run now"
// runs the plan through the gate under the automation's client name.
func TestAutomationsMenu(t *testing.T) {
	person := &asker{}
	trust := &tray.Trust{Confirm: person.confirm}
	runner := &gateRun{}
	sched := automation.NewScheduler(automation.SchedulerConfig{Runner: runner}, automation.Settings{})
	var mu sync.Mutex
	var file automation.Settings
	book := &automation.Book{
		Update: func(change func(*automation.Settings) error) error {
			mu.Lock()
			defer mu.Unlock()
			return change(&file)
		},
		Confirm: func(ctx context.Context, c automation.Change) error {
			title, text, yes := c.Question()
			return trust.Raise(ctx, policy.Change{Kind: policy.ChangeAutomationOn}, tray.Question{Title: title, Text: text, Yes: yes}, func() error { return nil })
		},
		Assess: func(automation.Automation) automation.Assessment {
			return automation.Assessment{Rated: true, Risk: level.Caution}
		},
		Scheduler: sched,
	}
	tidy := automation.Automation{Name: "tidy", Run: `CREATE_FOLDER "~/Documents/Inbox"`, Schedule: schedule(t, "daily 09:00"), Cooldown: 0, Enabled: true}
	notes := automation.Automation{Name: "notes", Ask: "open my notes", Schedule: schedule(t, "every 2h"), Cooldown: time.Hour}
	file = automation.Settings{Enabled: true, Automations: []automation.Automation{tidy, notes}}
	book.Start(file)
	rg := newRig(t, rigOptions{autonomy: policy.SmartDefault, trust: trust, automations: book})
	runner.g = rg.g
	ctx := context.Background()
	title := func(want string) func(tray.Menu) bool {
		return func(m tray.Menu) bool { return automationsItem(m).Title == want }
	}
	rg.r.await(t, "the automations", title("Automations (1 of 2 on)"))

	// On needs the yes: a no leaves it off and says so.
	if err := rg.app.Do(ctx, tray.Action{Kind: tray.SetAutomation, ID: "notes", On: true}); !errors.Is(err, tray.ErrNotConfirmed) {
		t.Fatalf("turning on without a yes: %v", err)
	}
	if got := person.asked(); len(got) != 1 || !strings.Contains(got[0], `"notes"`) {
		t.Fatalf("asked %q", got)
	}
	rg.r.await(t, "the refusal", func(m tray.Menu) bool {
		return strings.Contains(m.Items[0].Title, `"notes" was not turned on`) && automationsItem(m).Title == "Automations (1 of 2 on)"
	})
	// Off needs nothing.
	if err := rg.app.Do(ctx, tray.Action{Kind: tray.SetAutomation, ID: "tidy", On: false}); err != nil {
		t.Fatal(err)
	}
	if err := rg.app.Do(ctx, tray.Action{Kind: tray.SetAutomations, On: false}); err != nil {
		t.Fatal(err)
	}
	if got := person.asked(); len(got) != 0 {
		t.Fatalf("asked about turning off: %q", got)
	}
	rg.r.await(t, "all off", title("Automations (all paused; 0 of 2 on)"))
	if err := rg.app.Do(ctx, tray.Action{Kind: tray.RunAutomation, ID: "tidy"}); err == nil {
		t.Fatal("ran an automation that is off")
	}
	// The person says yes: on again.
	person.answer(true)
	for _, act := range []tray.Action{{Kind: tray.SetAutomations, On: true}, {Kind: tray.SetAutomation, ID: "tidy", On: true}} {
		if err := rg.app.Do(ctx, act); err != nil {
			t.Fatal(err)
		}
	}
	if got := person.asked(); len(got) != 2 {
		t.Fatalf("asked %q", got)
	}
	rg.r.await(t, "tidy on", title("Automations (1 of 2 on)"))
	mu.Lock()
	if !file.Enabled || !file.Automations[0].Enabled || file.Automations[1].Enabled {
		t.Errorf("the file: %+v", file)
	}
	mu.Unlock()

	// Run now: through the gate, as "automation: tidy".
	if err := rg.app.Do(ctx, tray.Action{Kind: tray.RunAutomation, ID: "tidy"}); err != nil {
		t.Fatal(err)
	}
	rg.r.await(t, "the run's result", func(m tray.Menu) bool {
		g, ok := group(m, "tidy")
		return ok && strings.HasPrefix(g.Children[2].Title, "Last: ok ")
	})
	if _, err := os.Stat(filepath.Join(rg.home, "Documents", "Inbox")); err != nil {
		t.Errorf("the plan did not run: %v", err)
	}
	entries, err := rg.store.Recent(ctx, 5)
	if err != nil || len(entries) == 0 || entries[0].Request.Client != "automation: tidy" {
		t.Fatalf("history %+v, %v; want the run as automation: tidy", entries, err)
	}

	// Killed: Run now is off, and refused.
	rg.g.Kill()
	rg.r.await(t, "run now off", func(m tray.Menu) bool {
		g, ok := group(m, "tidy")
		return ok && !g.Children[4].Enabled
	})
	if err := rg.app.Do(ctx, tray.Action{Kind: tray.RunAutomation, ID: "tidy"}); !errors.Is(err, automation.ErrKilled) {
		t.Errorf("run now while killed: %v", err)
	}
}

// One confirmation at a time, wherever it comes from: while the popup of
// one change is open, another that raises trust is refused at once, and
// one that lowers it goes through.
func TestTrustOneAtATime(t *testing.T) {
	open := make(chan struct{})
	release := make(chan bool)
	trust := &tray.Trust{Confirm: func(context.Context, string, string, string) (bool, error) {
		close(open)
		return <-release, nil
	}}
	on := policy.Change{Kind: policy.ChangeAutomationOn}
	done := make(chan error, 1)
	applied := make(chan string, 3)
	go func() {
		done <- trust.Raise(context.Background(), on, tray.Question{Title: "first"}, func() error { applied <- "first"; return nil })
	}()
	<-open
	if err := trust.Raise(context.Background(), policy.Change{Kind: policy.ChangeLevel, From: 1, To: 2}, tray.Question{}, func() error {
		applied <- "second"
		return nil
	}); !errors.Is(err, tray.ErrConfirmationOpen) {
		t.Fatalf("a second change while one is asked about: %v", err)
	}
	if err := trust.Raise(context.Background(), policy.Change{Kind: policy.ChangeAutomationOff}, tray.Question{}, func() error {
		applied <- "off"
		return nil
	}); err != nil {
		t.Fatalf("a change that lowers trust while one is asked about: %v", err)
	}
	release <- true
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	close(applied)
	var got []string
	for a := range applied {
		got = append(got, a)
	}
	if fmt.Sprint(got) != "[off first]" {
		t.Errorf("applied %q, want off then first", got)
	}
}
