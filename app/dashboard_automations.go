package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/airlockhq/airlock/app/internal/automation"
	"github.com/airlockhq/airlock/app/internal/dashboard"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/tray"
)

// bookAutomations is the dashboard's view of the person's automations:
// automation.Book, which asks the person itself (in the popup that shows
// the plan and its rating) before turning anything on, so the dashboard
// leaves those questions to it.
type bookAutomations struct{ book *automation.Book }

var _ dashboard.SelfConfirming = bookAutomations{}

func (bookAutomations) ConfirmsTurningOn() {}

// List returns the automations in the settings' order.
func (a bookAutomations) List() []dashboard.AutomationView {
	o := a.book.List()
	out := make([]dashboard.AutomationView, 0, len(o.Automations))
	for _, s := range o.Automations {
		v := dashboard.AutomationView{Name: s.Name, Enabled: s.Enabled, Schedule: s.Schedule, NextRun: s.Next}
		if l := s.Last; l != nil {
			v.LastRun, v.LastResult = lastRun(*l)
		}
		out = append(out, v)
	}
	return out
}

// lastRun is when a run started (or, for a due time that did not start,
// when it was due, else when it was skipped) and how it ended in a few
// words.
func lastRun(r automation.Result) (time.Time, string) {
	when := r.Start
	if when.IsZero() {
		when = r.Due
	}
	if when.IsZero() {
		when = r.End
	}
	result := r.Status
	if r.Error != "" {
		result += ": " + r.Error
	}
	return when, result
}

// Enabled is the global switch.
func (a bookAutomations) Enabled() bool { return a.book.List().Enabled }

// SetEnabled turns the global switch on (after the person's yes in the
// Book's popup) or off.
func (a bookAutomations) SetEnabled(ctx context.Context, on bool) error {
	return dashboardError(a.book.SetSwitch(ctx, on))
}

// SetAutomation turns one automation on (after the person's yes in the
// Book's popup) or off.
func (a bookAutomations) SetAutomation(ctx context.Context, name string, on bool) error {
	return dashboardError(a.book.SetEnabled(ctx, name, on))
}

// dashboardError is a Book's error as the dashboard reads it: no yes is
// dashboard.ErrNotConfirmed, and another confirmation open is also
// dashboard.ErrConfirmationOpen.
func dashboardError(err error) error {
	switch {
	case err == nil || !errors.Is(err, automation.ErrNotConfirmed):
		return err
	case errors.Is(err, tray.ErrConfirmationOpen):
		return fmt.Errorf("%w: %w: %w", dashboard.ErrNotConfirmed, dashboard.ErrConfirmationOpen, err)
	}
	return fmt.Errorf("%w: %w", dashboard.ErrNotConfirmed, err)
}

// confirmDashboard is the dashboard's Confirm: the menu's Trust, which
// keeps one confirmation open at a time wherever it comes from (the menu,
// the socket, the dashboard). Every change made in the dashboard asks
// (ChangeAutomationOn always raises trust), turning off included: a
// program that got the dashboard's session cannot change anything without
// the person. Nil when no popup can ask.
func confirmDashboard(trust *tray.Trust) func(ctx context.Context, title, text, yes string) (bool, error) {
	if trust == nil || trust.Confirm == nil {
		return nil
	}
	return func(ctx context.Context, title, text, yes string) (bool, error) {
		err := trust.Raise(ctx, policy.Change{Kind: policy.ChangeAutomationOn},
			tray.Question{Title: title, Text: text, Yes: yes, Reason: "change Airlock's automations"}, func() error { return nil })
		switch {
		case err == nil:
			return true, nil
		case errors.Is(err, tray.ErrConfirmationOpen):
			return false, dashboard.ErrConfirmationOpen
		case err == tray.ErrNotConfirmed: // the person said no
			return false, nil
		}
		return false, err
	}
}
