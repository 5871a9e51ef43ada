package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/airlockhq/airlock/app/internal/automation"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/ipc"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/logs"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/tray"
)

// gateRunner runs automations through the gate exactly as the person's own
// requests: a plan as `airlock run` submits one, words as `airlock ask`
// asks, under the client name "automation: NAME". The gate rates, decides,
// asks, records and obeys the kill switch as for any request.
type gateRunner struct{ g *gate.Gate }

func (r gateRunner) Killed() bool { return r.g.Status().Killed }

func (r gateRunner) Run(ctx context.Context, a automation.Automation) automation.Result {
	id := automationIdentity(a)
	var rep gate.Report
	var err error
	if a.Run != "" {
		rep, err = r.g.Submit(ctx, gate.Submission{Client: a.Client(), Identity: id, Kind: gate.KindPlan, Plan: a.Run}, nil)
	} else {
		var ar gate.AskReport
		ar, err = r.g.Ask(ctx, gate.AskRequest{Client: a.Client(), Identity: id, Request: a.Ask}, nil)
		rep = ar.Report
	}
	res := automation.Result{Status: rep.Status, Request: rep.Request, Error: rep.Error}
	if res.Error == "" && err != nil && rep.Status != gate.StatusOK {
		res.Error = err.Error()
	}
	return res
}

// automationIdentity is the program an automation's runs are made as, for
// the grants: Airlock's scheduler, for this automation as it is now. A
// grant made for one of its runs covers neither a socket client nor the
// same name with another plan or request.
func automationIdentity(a automation.Automation) policy.Identity {
	return policy.Identity{Key: "airlock:automation:" + a.Fingerprint(),
		Program: "Airlock's scheduler (the automation " + strconv.Quote(a.Name) + ")"}
}

// startAutomations builds the scheduler and the Book of the automations of
// b's settings. Confirm is set by the caller before anything is served.
func (b *builtGate) startAutomations(env *risk.Env) {
	assess := func(a automation.Automation) automation.Assessment { return automation.Assess(a, env) }
	logf := logs.Printf("automation")
	b.scheduler = automation.NewScheduler(automation.SchedulerConfig{Runner: gateRunner{b.gate}, Assess: assess, Logf: logf},
		automation.Settings{})
	b.book = &automation.Book{Update: b.updateAutomations, Assess: assess, Scheduler: b.scheduler}
	b.book.Start(automation.Settings{Enabled: b.settings.AutomationEnabled, Automations: b.settings.Automations})
	for _, st := range b.scheduler.Overview().Automations {
		if st.Assessment.Rated && st.Assessment.Risk >= level.Blocked {
			logf("automation %q: its plan is blocked under the current settings; the gate will refuse each run: %s",
				st.Name, strings.Join(st.Assessment.Reasons, "; "))
		}
	}
}

// runScheduler runs the scheduler until ctx ends or Close.
func (b *builtGate) runScheduler(ctx context.Context) {
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	b.stopScheduler = func() {
		cancel()
		<-done
	}
	go func() {
		defer close(done)
		b.scheduler.Run(ctx)
	}()
}

// updateAutomations is the Book's Update: the settings file reread, its
// automations changed, and written back, under the lock every change of
// the file takes.
func (b *builtGate) updateAutomations(change func(*automation.Settings) error) error {
	b.settingsMu.Lock()
	defer b.settingsMu.Unlock()
	s, err := policy.LoadSettings(b.settingsPath)
	if err != nil {
		return err
	}
	st := automation.Settings{Enabled: s.AutomationEnabled, Automations: s.Automations}
	if err := change(&st); err != nil {
		return err
	}
	s.AutomationEnabled, s.Automations = st.Enabled, st.Automations
	if len(s.Automations) == 0 {
		s.Automations = nil
	}
	if err := policy.SaveSettings(b.settingsPath, s); err != nil {
		return err
	}
	b.force.mu.Lock()
	b.force.settings.AutomationEnabled, b.force.settings.Automations = s.AutomationEnabled, s.Automations
	b.force.mu.Unlock()
	return nil
}

// confirmAutomation is the Book's Confirm where changes that raise trust
// are confirmed by trust (the menu's, or serve's popups).
func confirmAutomation(trust *tray.Trust) func(ctx context.Context, c automation.Change) error {
	return func(ctx context.Context, c automation.Change) error {
		title, text, yes := c.Question()
		pc := policy.Change{Kind: policy.ChangeAutomationOn}
		if !c.RaisesTrust() {
			pc.Kind = policy.ChangeAutomationOff
		}
		err := trust.Raise(ctx, pc, tray.Question{Title: title, Text: text, Yes: yes, Reason: "change Airlock's automations"}, func() error { return nil })
		switch {
		case err == nil:
			return nil
		case errors.Is(err, tray.ErrConfirmationOpen):
			return fmt.Errorf("%w: %w; try again once it is answered", automation.ErrNotConfirmed, err)
		case errors.Is(err, tray.ErrNotConfirmed):
			// The same words; tray's may say why nobody could be asked.
			return fmt.Errorf("%w%s", automation.ErrNotConfirmed, strings.TrimPrefix(err.Error(), tray.ErrNotConfirmed.Error()))
		}
		return fmt.Errorf("%w: %v", automation.ErrNotConfirmed, err)
	}
}

// The JSON replies of the socket's automations method.
type (
	// automationReply answers add, remove, enable, disable, on and off:
	// the automation as it now is (none once removed) and the switch.
	automationReply struct {
		Op         string             `json:"op"`
		Name       string             `json:"name,omitempty"`
		Enabled    bool               `json:"enabled"` // the global switch
		Automation *automation.Status `json:"automation,omitempty"`
	}
)

// Automations answers the socket's automations method. Adding an
// automation or turning one (or all) on waits for the person's yes in
// Airlock's own popup and fails without it; the client's word changes
// nothing that raises trust.
func (h gateHandler) Automations(ctx context.Context, p ipc.AutomationsParams) (any, error) {
	if h.book == nil {
		return nil, automationError(errors.New("automations are not available in this gate"))
	}
	var err error
	switch p.Op {
	case "list":
		return h.book.List(), nil
	case "add":
		var a automation.Automation
		if a, err = automationOf(p); err == nil {
			_, err = h.book.Add(ctx, a)
		}
	case "remove":
		err = h.book.Remove(ctx, p.Name)
	case "enable", "disable":
		err = h.book.SetEnabled(ctx, p.Name, p.Op == "enable")
	case "on", "off":
		err = h.book.SetSwitch(ctx, p.Op == "on")
	case "run-now":
		done, err := h.book.RunNow(p.Name)
		if err != nil {
			return nil, automationError(err)
		}
		select {
		case res := <-done:
			return res, nil
		case <-ctx.Done(): // the client went away; the run goes on
			return nil, ctx.Err()
		}
	default:
		err = fmt.Errorf("unknown op %q", p.Op)
	}
	if err != nil {
		return nil, automationError(err)
	}
	o := h.book.List()
	rep := automationReply{Op: p.Op, Name: p.Name, Enabled: o.Enabled}
	for i := range o.Automations {
		if strings.EqualFold(o.Automations[i].Name, p.Name) {
			rep.Automation, rep.Name = &o.Automations[i], o.Automations[i].Name
		}
	}
	return rep, nil
}

// codeAutomation is the socket error code of an automation change that
// was refused or failed; its message says why.
const codeAutomation = -32010

// automationError is err as the client sees it: the Book's and the
// scheduler's errors name the automation and the reason, and carry no
// secret.
func automationError(err error) error {
	return &ipc.RPCError{Code: codeAutomation, Message: err.Error()}
}

// automationOf reads the automation an add asks for.
func automationOf(p ipc.AutomationsParams) (automation.Automation, error) {
	a := automation.Automation{Name: p.Name, Ask: p.Ask, Run: p.Run, Enabled: true}
	s, err := automation.ParseSchedule(p.Schedule)
	if err != nil {
		return a, fmt.Errorf("schedule %q: %v", p.Schedule, err)
	}
	a.Schedule = s
	a.Cooldown = automation.DefaultCooldownFor(s)
	if p.Cooldown != "" {
		d, err := time.ParseDuration(p.Cooldown)
		if err != nil {
			return a, fmt.Errorf("cooldown %q: not a duration (write it like 30m, 2h, or 0s for none)", p.Cooldown)
		}
		a.Cooldown = d
	}
	return a, nil
}
