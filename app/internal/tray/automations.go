package tray

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/airlockhq/airlock/app/internal/automation"
)

// Automations is the person's automations as the menu shows and changes
// them. *automation.Book implements it: a change that raises trust (turning
// one or all on) is made only after the person's yes in the confirmation
// popup, which the Book asks for; turning off needs no more than the click.
type Automations interface {
	List() automation.Overview
	Subscribe() (<-chan struct{}, func())
	SetSwitch(ctx context.Context, on bool) error
	SetEnabled(ctx context.Context, name string, on bool) error
	RunNow(name string) (<-chan automation.Result, error)
}

// MaxAutomations is how many automations the Automations submenu lists;
// MaxGroupItems how many items each one's submenu holds.
const (
	MaxAutomations = maxChildren - 2 // the switch, and a "more" line
	MaxGroupItems  = 5
)

// AutomationsTitle begins the title of the Automations submenu.
const AutomationsTitle = "Automations"

// automationsMenu is the Automations submenu: the global switch, then for
// each automation a submenu with its switch, next run, last result, risk
// and "Run now".
func automationsMenu(s State) Item {
	o := s.Automations
	it := Item{Title: AutomationsTitle, Enabled: true, Groups: true}
	if !s.HasAutomations {
		it.Title += " (not available here)"
		it.Children = []Item{{Title: "No scheduler runs in this app"}}
		return it
	}
	on := 0
	for _, a := range o.Automations {
		if a.Enabled {
			on++
		}
	}
	switch {
	case len(o.Automations) == 0:
		it.Title += " (none: add one with `airlock automations add`)"
	case !o.Enabled:
		it.Title += fmt.Sprintf(" (all paused; %d of %d on)", on, len(o.Automations))
	default:
		it.Title += fmt.Sprintf(" (%d of %d on)", on, len(o.Automations))
	}
	switchItem := Item{Title: "Automations are on — turn all off", Enabled: true, Action: Action{Kind: SetAutomations, On: false}}
	if !o.Enabled {
		switchItem = Item{Title: "Automations are off — turn on…", Enabled: true, Action: Action{Kind: SetAutomations, On: true}}
	}
	it.Children = []Item{switchItem}
	for i, a := range o.Automations {
		if i == MaxAutomations {
			it.Children = append(it.Children, Item{Title: fmt.Sprintf("… and %d more", len(o.Automations)-MaxAutomations), Enabled: true,
				Children: []Item{{Title: "See them all with `airlock automations list`"}}})
			break
		}
		it.Children = append(it.Children, automationGroup(s, a))
	}
	return it
}

// automationGroup is one automation's submenu.
func automationGroup(s State, a automation.Status) Item {
	title := oneLine(a.Name, 40) + " — " + a.Schedule
	switch {
	case a.Running:
		title += " (running…)"
	case !a.Enabled:
		title += " (off)"
	}
	toggle := Item{Title: "On — turn off", Enabled: true, Action: Action{Kind: SetAutomation, ID: a.Name, On: false}}
	if !a.Enabled {
		toggle = Item{Title: "Off — turn on…", Enabled: true, Action: Action{Kind: SetAutomation, ID: a.Name, On: true}}
	}
	run := Item{Title: "Run now", Enabled: true, Action: Action{Kind: RunAutomation, ID: a.Name}}
	switch {
	case s.Killed:
		run = Item{Title: "Run now (off while the kill switch is on)"}
	case a.Running:
		run = Item{Title: "Run now (it is running)"}
	case !a.Enabled || !s.Automations.Enabled:
		run = Item{Title: "Run now (turn it on first)"}
	}
	risk := "Plan rated " + a.Assessment.String() + " now"
	if !a.Assessment.Rated {
		risk = "Request in words: rated at each run"
	}
	return Item{Title: title, Enabled: true, Children: []Item{
		toggle,
		{Title: "Next: " + nextText(s, a)},
		{Title: "Last: " + lastText(a.Last, s.Now)},
		{Title: risk},
		run,
	}}
}

// nextText says when an automation runs next.
func nextText(s State, a automation.Status) string {
	switch {
	case !a.Enabled:
		return "— (it is off)"
	case !s.Automations.Enabled:
		return "— (automations are off)"
	case a.Next.IsZero() && strings.HasPrefix(a.Schedule, "at login"):
		return "when Airlock next starts"
	case a.Next.IsZero():
		return "—"
	}
	return clock(a.Next, s.Now)
}

// lastText says how an automation's latest due time or run went.
func lastText(r *automation.Result, now time.Time) string {
	if r == nil {
		return "none since Airlock started"
	}
	at := r.End
	if r.Status == automation.StatusRunning {
		at = r.Start
	}
	text := r.Status + " " + clock(at, now)
	if r.Error != "" && r.Status != "ok" {
		text += " — " + r.Error
	}
	return oneLine(text, titleRunes)
}

// clock is a time as the menu says it: 09:00 today, "tomorrow 09:00", a
// weekday within the week, a date after that.
func clock(t, now time.Time) string {
	t, now = t.Local(), now.Local()
	if now.IsZero() {
		return t.Format("Mon 15:04")
	}
	ty, tm, td := t.Date()
	ny, nm, nd := now.Date()
	days := int(time.Date(ty, tm, td, 12, 0, 0, 0, time.UTC).Sub(time.Date(ny, nm, nd, 12, 0, 0, 0, time.UTC)).Hours() / 24)
	switch {
	case days == 0:
		return "at " + t.Format("15:04")
	case days == 1:
		return "tomorrow " + t.Format("15:04")
	case days == -1:
		return "yesterday " + t.Format("15:04")
	case days > 1 && days < 7:
		return t.Format("Mon 15:04")
	}
	return t.Format("Jan 2 15:04")
}

// ErrNoAutomations is returned by Do for an automation item where the app
// has no automations.
var ErrNoAutomations = errors.New("this app has no automations")

// setAutomations turns the global switch on (after the person's yes, which
// the Book asks for) or off.
func (a *App) setAutomations(ctx context.Context, on bool) error {
	if a.cfg.Automations == nil {
		return ErrNoAutomations
	}
	err := a.cfg.Automations.SetSwitch(ctx, on)
	if err != nil {
		a.setNotice("Automations are still off: " + oneLine(err.Error(), 60))
		return fmt.Errorf("turning automations on: %w", err)
	}
	a.setNotice("")
	return nil
}

// setAutomation turns one automation on (after the person's yes) or off.
func (a *App) setAutomation(ctx context.Context, name string, on bool) error {
	if a.cfg.Automations == nil {
		return ErrNoAutomations
	}
	if err := a.cfg.Automations.SetEnabled(ctx, name, on); err != nil {
		verb := "off"
		if on {
			verb = "on"
		}
		a.setNotice(fmt.Sprintf("%q was not turned %s: %s", name, verb, oneLine(err.Error(), 60)))
		return fmt.Errorf("turning %q %s: %w", name, verb, err)
	}
	a.setNotice("")
	return nil
}

// runAutomation runs one automation now, through the gate like its
// scheduled runs; the menu's "Last" line shows how it ends.
func (a *App) runAutomation(name string) error {
	if a.cfg.Automations == nil {
		return ErrNoAutomations
	}
	if _, err := a.cfg.Automations.RunNow(name); err != nil {
		a.setNotice(fmt.Sprintf("%q did not run: %s", name, oneLine(err.Error(), 60)))
		return fmt.Errorf("running %q now: %w", name, err)
	}
	a.setNotice("")
	return nil
}
