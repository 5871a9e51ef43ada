package tray

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"sync"
	"time"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// Gate is the part of the gate the menu drives. *gate.Gate implements it;
// see its methods for their contracts. Ask approves nothing: the plan it
// gets from the model waits for the person like any other.
type Gate interface {
	Status() gate.Status
	Kill() gate.KillReport
	Resume()
	SetAutonomy(a policy.Autonomy)
	Ask(ctx context.Context, r gate.AskRequest, notify func(gate.Event)) (gate.AskReport, error)
}

// Approvals is the broker's view the menu needs. *approval.Broker
// implements it.
type Approvals interface {
	Pending() []approval.Request
	Subscribe(buf int) (<-chan approval.Event, func())
}

// Grants lists and revokes remembered grants. *policy.Grants implements it.
type Grants interface {
	List() []policy.Grant
	Revoke(id string) bool
}

// History reads the newest actions. *history.Store implements it.
type History interface {
	Recent(ctx context.Context, n int) ([]history.Entry, error)
}

// Renderer shows a Menu. Systray is the real one. Render is called from one
// goroutine at a time and must not block for long; clicks come back through
// the function the renderer was made with.
type Renderer interface {
	Render(m Menu)
}

// Config is what an App is built from. Gate, Events, Approvals, Grants,
// History, SaveAutonomy and ReportDir are required.
type Config struct {
	Gate Gate
	// Events subscribes to the gate's events (gate.Fanout.Subscribe).
	Events    func(buf int) (<-chan gate.Event, func())
	Approvals Approvals
	Grants    Grants
	History   History
	// SaveAutonomy persists a new level (the settings file). The level
	// changes only once it has succeeded.
	SaveAutonomy func(a policy.Autonomy) error
	// Confirm asks the person a yes/no question in a popup and reports
	// whether they chose yes; the label of the yes button is yes. Nil means
	// no popup can ask, so Level 2 cannot be chosen.
	Confirm func(ctx context.Context, title, text, yes string) (bool, error)
	// ShowApproval shows a pending request's popup. Nil: the pending items
	// are shown but cannot be clicked.
	ShowApproval func(ctx context.Context, r approval.Request)
	// AskText asks the person for a line of text in a popup (bridge.AskText)
	// and reports ok false when they cancel. Nil means no popup can ask:
	// "Automate…" then does nothing but log why.
	AskText func(ctx context.Context, title, prompt string) (text string, ok bool, err error)
	// Open opens a file in the person's browser (xdg-open, open). Nil: the
	// report is written but not opened.
	Open func(path string) error
	// ReportDir is where the history report is written (the data
	// directory, owner-only).
	ReportDir string
	// Hotkey is the kill switch's combination as the menu shows it, if
	// known at the start; SetHotkey changes it.
	Hotkey string
	// Quit ends the app. Nil: the Quit item does nothing.
	Quit func()
	// Logf logs a message; nil: none.
	Logf func(format string, args ...any)
	// Now is the clock; nil: time.Now.
	Now func() time.Time
}

// App keeps the menu in step with the gate and carries out clicks. It is safe
// for concurrent use.
type App struct {
	cfg Config

	dirty chan struct{} // capacity 1: a refresh is due

	actions sync.Mutex // serialises level changes, one confirmation at a time

	mu     sync.Mutex
	notice string     // guarded by mu
	auto   Automation // guarded by mu
	hotkey string     // guarded by mu; starts as Config.Hotkey
	last   *Menu      // guarded by mu; what the renderer shows
}

// New returns an App for cfg.
func New(cfg Config) *App {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Logf == nil {
		cfg.Logf = func(string, ...any) {}
	}
	return &App{cfg: cfg, dirty: make(chan struct{}, 1), hotkey: cfg.Hotkey}
}

// SetHotkey changes the kill switch's combination the menu shows, once it
// is known to be registered ("" for none).
func (a *App) SetHotkey(symbols string) {
	a.mu.Lock()
	a.hotkey = symbols
	a.mu.Unlock()
	a.refresh()
}

// Run renders the menu, calls ready (if not nil), and then re-renders each
// time the gate or the broker reports an event or a click has changed
// something, until ctx is done. It never polls: between events it sleeps.
func (a *App) Run(ctx context.Context, r Renderer, ready func()) {
	gateEvents, stopGate := a.cfg.Events(64)
	defer stopGate()
	brokerEvents, stopBroker := a.cfg.Approvals.Subscribe(64)
	defer stopBroker()
	a.render(ctx, r)
	if ready != nil {
		ready()
	}
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-gateEvents:
			if !ok {
				gateEvents = nil
				continue
			}
		case _, ok := <-brokerEvents:
			if !ok {
				brokerEvents = nil
				continue
			}
		case <-a.dirty:
		}
		a.render(ctx, r)
	}
}

// refresh asks Run to render again.
func (a *App) refresh() {
	select {
	case a.dirty <- struct{}{}:
	default: // one is due already
	}
}

// State reads the gate, the broker, the grants and the history now.
func (a *App) State(ctx context.Context) State {
	st := a.cfg.Gate.Status()
	s := State{
		Autonomy:         policy.Autonomy(st.Autonomy),
		Killed:           st.Killed,
		Pending:          a.cfg.Approvals.Pending(),
		Grants:           a.cfg.Grants.List(),
		CanShowApprovals: a.cfg.ShowApproval != nil,
		Now:              a.cfg.Now(),
	}
	recent, err := a.cfg.History.Recent(ctx, MaxRecent)
	if err != nil && ctx.Err() == nil {
		s.RecentErr = "the record could not be read"
		a.cfg.Logf("tray: reading recent activity: %v", err)
	}
	s.Recent = recent
	a.mu.Lock()
	s.Notice, s.Hotkey, s.Automation = a.notice, a.hotkey, a.auto
	a.mu.Unlock()
	return s
}

func (a *App) render(ctx context.Context, r Renderer) {
	m := Build(a.State(ctx))
	a.mu.Lock()
	same := a.last != nil && reflect.DeepEqual(*a.last, m)
	a.last = &m
	a.mu.Unlock()
	if !same {
		r.Render(m)
	}
}

// Menu returns the menu as last rendered.
func (a *App) Menu() (Menu, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.last == nil {
		return Menu{}, false
	}
	return *a.last, true
}

// Click carries out an item's action in its own goroutine, so that a popup
// it opens never holds up the menu, and re-renders when it is done. The kill
// switch is tripped before Click returns.
func (a *App) Click(ctx context.Context, act Action) {
	if act.Kind == Kill {
		// No delay, no confirmation, no queue (DESIGN: kill switch).
		go func() {
			a.cfg.Gate.Kill()
			a.refresh()
		}()
		return
	}
	go func() {
		if err := a.Do(ctx, act); err != nil {
			a.cfg.Logf("tray: %v", err)
		}
	}()
}

// ErrNotConfirmed is returned by Do when the person did not confirm a switch
// to Level 2, or when no popup could ask them.
var ErrNotConfirmed = errors.New("not switched to Level 2: it needs the person's confirmation")

// Do carries out an action and waits for it, confirmation popups included
// (for Automate: until the gate is done with the plan, approvals included).
// The menu is rendered again afterwards.
func (a *App) Do(ctx context.Context, act Action) error {
	defer a.refresh()
	switch act.Kind {
	case SetLevel:
		return a.setLevel(ctx, act.Level)
	case Kill:
		a.cfg.Gate.Kill()
	case Resume:
		a.cfg.Gate.Resume()
		a.setNotice("")
	case RevokeGrant:
		if !a.cfg.Grants.Revoke(act.ID) {
			return errors.New("revoking a grant: it had already gone")
		}
	case ShowApproval:
		if a.cfg.ShowApproval == nil {
			return nil
		}
		for _, r := range a.cfg.Approvals.Pending() {
			if r.ID == act.ID {
				a.cfg.ShowApproval(ctx, r)
				return nil
			}
		}
		return nil // answered meanwhile
	case OpenHistory:
		return a.openHistory(ctx)
	case Quit:
		if a.cfg.Quit != nil {
			a.cfg.Quit()
		}
	case Automate:
		return a.automate(ctx)
	}
	return nil
}

func (a *App) setLevel(ctx context.Context, lvl policy.Autonomy) error {
	if !lvl.Valid() {
		return errors.New("changing the level: not a level")
	}
	a.actions.Lock()
	defer a.actions.Unlock()
	if policy.Autonomy(a.cfg.Gate.Status().Autonomy) == lvl {
		return nil // the check mark is put back by the refresh
	}
	if lvl == policy.FullAuto {
		ok := false
		var err error
		if a.cfg.Confirm != nil {
			ok, err = a.cfg.Confirm(ctx, "Switch to Level 2 — Full auto?",
				"Airlock will then run caution and dangerous actions without asking you. "+
					"Destructive actions are still asked about, and blocked ones never run.", "Switch to Level 2")
		}
		if err != nil || !ok {
			if err != nil {
				a.cfg.Logf("tray: the Level 2 confirmation failed: %v", err)
			}
			a.setNotice("Still at " + levelName(policy.Autonomy(a.cfg.Gate.Status().Autonomy)) + ": Level 2 was not confirmed")
			return ErrNotConfirmed
		}
	}
	if err := a.cfg.SaveAutonomy(lvl); err != nil {
		a.setNotice("The level was not changed: the settings could not be saved")
		return err
	}
	a.cfg.Gate.SetAutonomy(lvl)
	a.setNotice("")
	a.cfg.Logf("tray: autonomy set to %s from the menu", lvl)
	return nil
}

func (a *App) setNotice(s string) {
	a.mu.Lock()
	a.notice = s
	a.mu.Unlock()
}

// openHistory writes the report of the newest ReportLimit actions to
// ReportDir/ReportFile (0600) and opens it.
func (a *App) openHistory(ctx context.Context) error {
	entries, err := a.cfg.History.Recent(ctx, ReportLimit)
	if err != nil {
		return err
	}
	path := filepath.Join(a.cfg.ReportDir, ReportFile)
	if err := writeReportFile(path, entries, a.cfg.Now()); err != nil {
		return err
	}
	if a.cfg.Open != nil {
		return a.cfg.Open(path)
	}
	return nil
}
