package tray

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
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
// History and SaveAutonomy are required.
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
	// whether they chose yes; the label of the yes button is yes. Every
	// change that raises trust (policy.RaisesTrust: a higher level, Resume)
	// is made only after its yes, so that a click on the menu, which on
	// Linux any process of the session can send over D-Bus, never makes
	// one by itself. Nil means no popup can ask: nothing that raises trust
	// can be done from the menu.
	Confirm func(ctx context.Context, title, text, yes string) (bool, error)
	// Authenticate asks for the device owner's authentication (Touch ID or
	// the login password) with reason shown, after the confirmation, for
	// the changes policy.NeedsOwner names (Level 2, Resume after a kill); a
	// non-nil error refuses the change. Nil: this platform has none to ask
	// for (Linux), and the confirmation alone stands.
	Authenticate func(ctx context.Context, reason string) error
	// Trust, if set, asks about the changes that raise trust in place of
	// Confirm and Authenticate, so that the menu shares it (and its one
	// confirmation at a time) with the other ways of changing the
	// automations (the socket, the dashboard).
	Trust *Trust
	// ShowApproval shows a pending request's popup. Nil: the pending items
	// are shown but cannot be clicked.
	ShowApproval func(ctx context.Context, r approval.Request)
	// AskText asks the person for a line of text in a popup (bridge.AskText)
	// and reports ok false when they cancel. Nil means no popup can ask:
	// "Automate…" then does nothing but log why.
	AskText func(ctx context.Context, title, prompt string) (text string, ok bool, err error)
	// ShowText shows a long text read-only in a window of Airlock's own
	// (bridge.ShowText) until the person closes it or ctx ends: the history
	// report, which never goes to a file. Nil: "Open history…" logs that
	// it cannot be shown.
	ShowText func(ctx context.Context, title, text string) error
	// OpenDashboard opens the dashboard in the person's browser with a
	// link that opens a full session (one whose changes still wait for the
	// person's yes in a popup). Nil: "Dashboard…" cannot be clicked.
	OpenDashboard func(ctx context.Context) error
	// Hotkey is the kill switch's combination as the menu shows it, if
	// known at the start; SetHotkey changes it.
	Hotkey string
	// Automations are the person's automations, for the Automations
	// submenu. Nil: the submenu says none can be shown here.
	Automations Automations
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

	actions sync.Mutex  // serialises saving and setting a level
	trust   *Trust      // Config.Trust, or one of Confirm and Authenticate
	viewing atomic.Bool // the history window is open

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
	trust := cfg.Trust
	if trust == nil {
		trust = &Trust{Confirm: cfg.Confirm, Authenticate: cfg.Authenticate}
	}
	return &App{cfg: cfg, dirty: make(chan struct{}, 1), hotkey: cfg.Hotkey, trust: trust}
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
// time the gate, the broker or the automations report an event or a click
// has changed something, until ctx is done. It never polls: between events it sleeps.
func (a *App) Run(ctx context.Context, r Renderer, ready func()) {
	gateEvents, stopGate := a.cfg.Events(64)
	defer stopGate()
	brokerEvents, stopBroker := a.cfg.Approvals.Subscribe(64)
	defer stopBroker()
	var autoEvents <-chan struct{}
	if a.cfg.Automations != nil {
		var stop func()
		autoEvents, stop = a.cfg.Automations.Subscribe()
		defer stop()
	}
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
		case <-autoEvents:
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
		CanOpenDashboard: a.cfg.OpenDashboard != nil,
		Now:              a.cfg.Now(),
	}
	recent, err := a.cfg.History.Recent(ctx, MaxRecent)
	if err != nil && ctx.Err() == nil {
		s.RecentErr = "the record could not be read"
		a.cfg.Logf("tray: reading recent activity: %v", err)
	}
	s.Recent = recent
	if a.cfg.Automations != nil {
		s.Automations, s.HasAutomations = a.cfg.Automations.List(), true
	}
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

// Errors Do returns for a change that raises trust and was not made.
var (
	// ErrNotConfirmed: the person did not say yes in the confirmation
	// popup, or no popup could ask them.
	ErrNotConfirmed = errors.New("it needs the person's yes in Airlock's confirmation popup")
	// ErrNotAuthenticated: the device owner's authentication was refused,
	// cancelled or could not be asked for.
	ErrNotAuthenticated = errors.New("it needs the device owner's authentication")
	// ErrConfirmationOpen: another change is being asked about; one
	// confirmation is open at a time, and clicks meanwhile are dropped (a
	// process that clicks the menu over D-Bus cannot queue popups).
	ErrConfirmationOpen = errors.New("another confirmation is open")
	// ErrKilledAgain: the kill switch was tripped again while Resume was
	// being asked about; that yes was for the earlier stop.
	ErrKilledAgain = errors.New("the kill switch was tripped again meanwhile; choose Resume again")
)

// The titles of the menu's own popups. They are fixed, so that people and
// tests can find the windows.
const (
	ResumeTitle  = "Airlock — resume after the kill switch?"
	HistoryTitle = "Airlock — history"
)

// LevelTitle is the title of the popup that confirms a switch to lvl.
func LevelTitle(lvl policy.Autonomy) string {
	return fmt.Sprintf("Airlock — switch to Level %d?", int(lvl))
}

// Do carries out an action and waits for it, confirmation popups included
// (for Automate: until the gate is done with the plan, approvals included).
// The menu is rendered again afterwards. A change that raises trust is made
// only after the person's yes in a confirmation popup, and, where
// policy.NeedsOwner says so and the platform has it, their authentication.
func (a *App) Do(ctx context.Context, act Action) error {
	defer a.refresh()
	switch act.Kind {
	case SetLevel:
		return a.setLevel(ctx, act.Level)
	case Kill:
		a.cfg.Gate.Kill()
	case Resume:
		return a.resume(ctx)
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
	case SetAutomations:
		return a.setAutomations(ctx, act.On)
	case SetAutomation:
		return a.setAutomation(ctx, act.ID, act.On)
	case RunAutomation:
		return a.runAutomation(act.ID)
	case OpenDashboard:
		if a.cfg.OpenDashboard == nil {
			return errors.New("opening the dashboard: there is none here")
		}
		if err := a.cfg.OpenDashboard(ctx); err != nil {
			return fmt.Errorf("opening the dashboard: %w", err)
		}
	}
	return nil
}

// question is a confirmation popup and the reason its authentication, if
// it needs one, gives.
type question struct {
	title, text, yes string
	reason           string // for Authenticate: "switch Airlock to Level 2"
}

// raise makes change c by calling apply, after the person's yes to q where
// c raises trust (Trust.Raise).
func (a *App) raise(ctx context.Context, c policy.Change, q question, apply func() error) error {
	return a.trust.Raise(ctx, c, Question{Title: q.title, Text: q.text, Yes: q.yes, Reason: q.reason}, apply)
}

func (a *App) setLevel(ctx context.Context, lvl policy.Autonomy) error {
	if !lvl.Valid() {
		return errors.New("changing the level: not a level")
	}
	from := policy.Autonomy(a.cfg.Gate.Status().Autonomy)
	if from == lvl {
		return nil // the check mark is put back by the refresh
	}
	c := policy.Change{Kind: policy.ChangeLevel, From: from, To: lvl}
	err := a.raise(ctx, c, levelQuestion(lvl), func() error {
		a.actions.Lock()
		defer a.actions.Unlock()
		if err := a.cfg.SaveAutonomy(lvl); err != nil {
			a.setNotice("The level was not changed: the settings could not be saved")
			return err
		}
		a.cfg.Gate.SetAutonomy(lvl)
		a.setNotice("")
		a.cfg.Logf("tray: autonomy set to %s from the menu", lvl)
		return nil
	})
	if err != nil && !errors.Is(err, ErrConfirmationOpen) && policy.RaisesTrust(c) {
		a.setNotice("Still at " + levelName(policy.Autonomy(a.cfg.Gate.Status().Autonomy)) + ": " + refusal(err, levelName(lvl)))
	}
	if err != nil {
		return fmt.Errorf("switching to %s: %w", levelName(lvl), err)
	}
	return nil
}

// levelQuestion asks whether to switch to lvl, saying what it lets run.
func levelQuestion(lvl policy.Autonomy) question {
	q := question{title: LevelTitle(lvl), yes: "Switch to Level " + fmt.Sprint(int(lvl)),
		reason: "switch Airlock to " + levelName(lvl)}
	switch lvl {
	case policy.FullAuto:
		q.text = "Airlock will then run caution and dangerous actions without asking you. " +
			"Destructive actions are still asked about, and blocked ones never run."
	case policy.SmartDefault:
		q.text = "Airlock will then run safe and caution actions without asking you. " +
			"Dangerous and destructive actions are still asked about, and blocked ones never run."
	default:
		q.text = "Airlock will then ask you about every action."
	}
	q.text += "\n\nSay yes only if you chose this in Airlock's menu yourself: any program can click the menu."
	return q
}

// resume turns the kill switch off once the person confirmed it.
func (a *App) resume(ctx context.Context) error {
	st := a.cfg.Gate.Status()
	if !st.Killed {
		return nil
	}
	c := policy.Change{Kind: policy.ChangeResume, Killed: true}
	q := question{
		title: ResumeTitle,
		text: "The kill switch stopped everything Airlock was doing and refuses new work. " +
			"Resuming lets the gate take requests again: they run or are asked about as usual.\n\n" +
			"Say yes only if you chose Resume in Airlock's menu yourself: any program can click the menu.",
		yes:    "Resume",
		reason: "resume Airlock after the kill switch",
	}
	err := a.raise(ctx, c, q, func() error {
		if a.cfg.Gate.Status().Kills != st.Kills {
			return ErrKilledAgain
		}
		a.cfg.Gate.Resume()
		a.setNotice("")
		a.cfg.Logf("tray: resumed from the menu")
		return nil
	})
	if err != nil && !errors.Is(err, ErrConfirmationOpen) {
		a.setNotice("Still stopped: " + refusal(err, "Resume"))
	}
	if err != nil {
		return fmt.Errorf("resuming: %w", err)
	}
	return nil
}

// refusal says in the menu's notice why a change was not made.
func refusal(err error, what string) string {
	switch {
	case errors.Is(err, ErrNotAuthenticated):
		return what + " was not authenticated"
	case errors.Is(err, ErrKilledAgain):
		return "the kill switch was tripped again"
	case errors.Is(err, ErrNotConfirmed):
		return what + " was not confirmed"
	}
	return what + " failed"
}

func (a *App) setNotice(s string) {
	a.mu.Lock()
	a.notice = s
	a.mu.Unlock()
}

// ErrHistoryOpen is returned by Do for "Open history…" while the history
// window is already open.
var ErrHistoryOpen = errors.New("the history window is already open")

// openHistory shows the report of the newest ReportLimit actions in a
// window of Airlock's own. It is never written to a file: a report on disk
// would be the decrypted history, readable by any process of the person's
// for as long as it stayed there, and a menu click (which any process of
// the session can send on Linux) would put it there.
func (a *App) openHistory(ctx context.Context) error {
	if a.cfg.ShowText == nil {
		return errors.New("opening the history: no window can show it here")
	}
	if !a.viewing.CompareAndSwap(false, true) {
		return ErrHistoryOpen
	}
	defer a.viewing.Store(false)
	entries, err := a.cfg.History.Recent(ctx, ReportLimit)
	if err != nil {
		return fmt.Errorf("opening the history: %w", err)
	}
	var b strings.Builder
	if err := WriteReport(&b, entries, a.cfg.Now()); err != nil {
		return err
	}
	if err := a.cfg.ShowText(ctx, HistoryTitle, b.String()); err != nil {
		return fmt.Errorf("opening the history: %w", err)
	}
	return nil
}
