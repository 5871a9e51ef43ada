package tray

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/airlockhq/airlock/app/internal/gate"
)

// AutomateClient is the client the menu's requests in words are made as.
const AutomateClient = "Automate… (menu)"

// The popup that asks for the request.
const (
	automateTitle  = "Automate…"
	automatePrompt = "What should Airlock do? The local model writes a plan for it; " +
		"anything the plan does that needs your approval is shown to you first."
)

// ErrBusy is returned by Do when "Automate…" is clicked while the menu's
// previous request is still under way: one runs at a time.
var ErrBusy = errors.New("automating: the previous request is still under way (one at a time)")

// automate asks the person for a request in words and has the gate's model
// plan it, waiting until the gate is done with the plan. Cancelling or an
// empty request does nothing. The menu shows the model's progress from its
// events meanwhile; the plan's approvals come through the usual popups.
func (a *App) automate(ctx context.Context) error {
	a.mu.Lock()
	if a.auto.Running {
		a.mu.Unlock()
		return ErrBusy
	}
	a.auto = Automation{Running: true, Typing: true}
	a.mu.Unlock()
	defer func() {
		a.mu.Lock()
		a.auto = Automation{}
		a.mu.Unlock()
	}()
	if a.cfg.Gate.Status().Killed {
		return fmt.Errorf("automating: %w", gate.ErrKilled)
	}
	if a.cfg.AskText == nil {
		return errors.New("automating: no popup can ask for the request, so nothing was asked")
	}
	a.refresh()
	text, ok, err := a.cfg.AskText(ctx, automateTitle, automatePrompt)
	if err != nil {
		return fmt.Errorf("automating: asking for the request: %w", err)
	}
	text = strings.TrimSpace(text)
	if !ok || text == "" {
		return nil
	}
	a.mu.Lock()
	a.auto.Typing = false
	a.notice = ""
	a.mu.Unlock()
	a.refresh()
	rep, err := a.cfg.Gate.Ask(ctx, gate.AskRequest{Client: AutomateClient, Request: text}, a.progress)
	a.cfg.Logf("tray: Automate… request %s ended %s", rep.Request, rep.Status)
	switch {
	case errors.Is(err, gate.ErrKilled), errors.Is(err, gate.ErrDenied):
		// The menu shows the kill switch; a denial was the person's own.
	case err != nil:
		a.setNotice("Automate… " + rep.Status + ": " + rep.Error)
	case rep.NoAction:
		a.setNotice("Automate…: the model found nothing to do")
	}
	return err
}

// progress keeps the model's latest progress for the menu and asks for a
// render: the gate calls it with each event of the menu's request.
func (a *App) progress(e gate.Event) {
	if e.Type != gate.EventModel {
		return
	}
	a.mu.Lock()
	a.auto.Model, a.auto.Tokens, a.auto.Attempt = e.Status, e.Tokens, e.Attempt
	a.mu.Unlock()
	a.refresh()
}
