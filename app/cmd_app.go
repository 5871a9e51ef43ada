package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"syscall"

	"fyne.io/systray"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/dashboard"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/logs"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/tray"
	"github.com/airlockhq/airlock/app/internal/ui"
	"github.com/airlockhq/airlock/bridge"
	"github.com/spf13/pflag"
)

// appUI is what the menu-bar app asks the person with: the native popups
// (NSAlert on macOS, zenity on Linux). Each hook fails closed: where popups
// cannot be shown (no display), every request that needs approval is
// refused as approval-required, nothing that raises trust can be confirmed,
// and the history cannot be shown. The prompter shows pending requests one
// at a time; a prompter that can also show one out of turn (Open) makes the
// menu's "Pending approvals" items open theirs.
var appUI = uiHooks{
	prompter: func() (approval.Prompter, error) {
		if err := bridge.PopupsAvailable(); err != nil {
			return nil, err
		}
		bridge.PrepareApprovalPopup()
		return ui.NewPopupPrompter(ui.PopupOptions{}), nil
	},
	confirm:      bridge.Confirm,
	askText:      bridge.AskText,
	showText:     bridge.ShowText,
	authenticate: ownerAuthentication(),
	openURL:      openInBrowser,
}

// uiHooks are the popups the menu-bar app asks with.
type uiHooks struct {
	prompter     func() (approval.Prompter, error)
	confirm      func(ctx context.Context, title, text, yes string) (bool, error)
	showApproval func(ctx context.Context, r approval.Request)
	askText      func(ctx context.Context, title, prompt string) (string, bool, error)
	showText     func(ctx context.Context, title, text string) error
	// authenticate asks for the device owner's authentication (Touch ID or
	// the login password on macOS); nil where the platform has none.
	authenticate func(ctx context.Context, reason string) error
	// openURL opens a URL in the person's browser: the dashboard's link.
	openURL func(ctx context.Context, url string) error
}

// openInBrowser opens u with the bridge's opener (NSWorkspace on macOS,
// xdg-open or gio on Linux).
func openInBrowser(ctx context.Context, u string) error {
	d, err := bridge.NewDesktop(bridge.Options{})
	if err != nil {
		return err
	}
	return d.OpenURL(ctx, u)
}

// ownerAuthentication is bridge.Authenticate where the platform has owner
// authentication (macOS), nil elsewhere.
func ownerAuthentication() func(ctx context.Context, reason string) error {
	if !bridge.OwnerAuthAvailable() {
		return nil
	}
	return bridge.Authenticate
}

// cmdApp is `airlock` with no subcommand: the gate, its socket and the menu
// bar in one process, the only place a person approves, changes the level
// or resumes after a kill. It must run on the main goroutine (systray owns
// the main thread on macOS).
//
// The gate is built on a goroutine of its own, never on the main thread:
// opening the history reads its key from the Keychain, and with a new
// signature macOS asks the person whether Airlock may; on the main thread
// that question would freeze the app before its menu exists. On macOS the
// menu bar starts at once and shows that Airlock is starting; on Linux,
// where the tray's first properties must be set before systray.Run (see
// tray.Prime), systray starts once the gate is built.
func cmdApp(ctx context.Context, fs *pflag.FlagSet, _ io.Reader, stdout, stderr io.Writer) error {
	if fs.NArg() > 0 {
		return usagef("takes no arguments")
	}
	// Everything logged, systray's own messages included, is redacted on
	// its way to the system log (and the terminal the app started from).
	lg := openLog(stderr)
	defer lg.Install()()
	takeLoginPath(ctx) // before the gate and its sandbox read PATH

	var opts gateOptions
	opts.broker = true
	hooks := appUI
	if hooks.prompter != nil {
		p, err := hooks.prompter()
		if err != nil {
			// No popups: nothing that needs approval can run, and the
			// person is told why rather than the app refusing to start.
			log.Printf("approval popups unavailable: %v; actions that need approval will be refused", err)
			hooks.askText = noPopup(err)
			hooks.confirm, hooks.showText = nil, nil
		} else {
			opts.prompter = p
			hooks.showApproval = opener(p)
		}
	}
	// Signals end the app once its loop runs: until onReady starts the
	// goroutine that reads them, they wait here.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)

	built := make(chan builtResult, 1)
	go func() {
		b, err := buildGate(opts)
		built <- builtResult{b, err}
	}()
	// take returns what buildGate returned, to onReady and to the end of
	// cmdApp alike, whichever asks first.
	var once sync.Once
	var result builtResult
	take := func() builtResult {
		once.Do(func() { result = <-built })
		return result
	}
	if runtime.GOOS != "darwin" {
		if r := take(); r.err != nil {
			return r.err
		}
		tray.Prime(tray.Build(menuState(ctx, take().b)))
	}

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	onReady := func() {
		bridge.SetMainLoopRunning(true)
		// Quit takes effect only once systray's loop runs, so everything
		// that may call it starts here.
		go func() {
			select {
			case <-sigs:
				systray.Quit()
			case <-ctx.Done():
			}
		}()
		if runtime.GOOS == "darwin" {
			tray.Prime(tray.Starting())
		}
		r := take()
		if r.err != nil || ctx.Err() != nil {
			systray.Quit()
			return
		}
		serveMenu(ctx, r.b, hooks)
	}
	fmt.Fprintf(stdout, "airlock: starting the menu-bar app (log: %s)\n", logWhere(lg))
	systray.Run(onReady, cancel)
	cancel()
	// A quit before the gate was built waits for it here, so that it is
	// closed; its goroutines see ctx end.
	r := take()
	if r.err != nil {
		return r.err
	}
	r.b.Close()
	log.Printf("airlock: stopped")
	return nil
}

// builtResult is what buildGate returned.
type builtResult struct {
	b   *builtGate
	err error
}

// menuState is the state the menu starts from.
func menuState(ctx context.Context, b *builtGate) tray.State {
	return tray.New(tray.Config{Gate: b.gate, Approvals: b.broker, Grants: b.grants, History: b.store, Automations: b.book}).State(ctx)
}

// serveMenu serves the gate's socket and keeps the menu in step with the
// gate until ctx ends; the socket failing for good quits the app. It runs
// in systray's onReady, once the gate is built.
func serveMenu(ctx context.Context, b *builtGate, hooks uiHooks) {
	// One confirmation at a time for every change that raises trust: the
	// menu's, the automations' from the socket, and the dashboard's.
	trust := &tray.Trust{Confirm: hooks.confirm, Authenticate: hooks.authenticate}
	b.book.Confirm = confirmAutomation(trust)
	b.undo.confirm = confirmUndo(trust)
	b.reload.confirm = confirmSettings(trust)
	b.reload.rule = confirmRule(trust)
	b.runScheduler(ctx)
	b.srv.ErrorLog = func(method string, err error) { log.Printf("socket: %s: %v", method, err) }
	go logGateEvents(ctx, b.events)
	served := make(chan error, 1)
	go func() { served <- b.srv.Serve(ctx) }()
	go func() {
		// The socket failing for good ends the app: nothing could reach
		// the gate.
		if err := <-served; err != nil && ctx.Err() == nil {
			log.Printf("socket: %v", err)
		}
		systray.Quit()
	}()

	var openDashboard func(context.Context) error
	if d := startDashboard(ctx, b, trust, hooks.openURL); d != nil && hooks.openURL != nil {
		// Only the person can click the menu: its links are kept apart
		// from those socket clients ask for.
		openDashboard = func(ctx context.Context) error { return d.openBrowser(ctx, dashboard.Menu) }
	}
	cfg := tray.Config{
		Gate:         menuGate{b.gate},
		Events:       b.events.Subscribe,
		Approvals:    b.broker,
		Grants:       b.grants,
		History:      b.store,
		SaveAutonomy: b.saveAutonomy,
		Trust:        trust,
		Automations:  b.book,
		AskText:      hooks.askText,
		ShowApproval: hooks.showApproval,
		ShowText:     hooks.showText,
		Quit:         systray.Quit,
		Logf:         logs.Printf("tray"),
	}
	cfg.OpenDashboard = openDashboard
	app := tray.New(cfg)
	if hk := b.settings.KillHotkey; hk.Key != "" {
		stop, err := bridge.RegisterHotkey(bridge.Hotkey(hk), func() {
			log.Printf("kill hotkey pressed")
			b.gate.Kill()
		})
		switch {
		case err == nil:
			context.AfterFunc(ctx, stop)
			app.SetHotkey(hk.Symbols())
		case errors.Is(err, bridge.ErrNoHotkey):
			log.Printf("kill hotkey: %v", err)
		default:
			log.Printf("kill hotkey %s: %v (the menu and `airlock kill` still work)", hk, err)
		}
	}
	r := tray.NewSystray(func(a tray.Action) { app.Click(ctx, a) })
	ready := make(chan struct{})
	go app.Run(ctx, r, func() { close(ready) })
	<-ready
	log.Printf("airlock: menu ready; gate serving on %s (autonomy %s)", b.srv.Path(), b.settings.Autonomy)
	log.Printf("airlock: the OS sandbox of commands and scripts: %s", b.box)
}

// opener is the menu's "Pending approvals" click for prompter p: it shows
// the request's popup now if it is waiting its turn. Nil when p cannot show
// a request out of turn (the items then cannot be clicked).
func opener(p approval.Prompter) func(ctx context.Context, r approval.Request) {
	o, ok := p.(interface{ Open(id string) bool })
	if !ok {
		return nil
	}
	return func(_ context.Context, r approval.Request) {
		if !o.Open(r.ID) {
			log.Printf("pending approval %s is already on screen", r.ID)
		}
	}
}

// menuIdentity is the program of what the menu asks for ("Automate…"):
// Airlock's own menu, where the person typed the request. Grants made for
// it never cover a socket client.
var menuIdentity = policy.Identity{Key: "airlock:menu", Program: "Airlock's own menu (typed by the person)"}

// menuGate is the gate as the menu drives it: its requests in words are
// made as Airlock's own menu.
type menuGate struct{ *gate.Gate }

func (g menuGate) Ask(ctx context.Context, r gate.AskRequest, notify func(gate.Event)) (gate.AskReport, error) {
	r.Identity = menuIdentity
	return g.Gate.Ask(ctx, r, notify)
}

// noPopup stands in for a text-entry popup that cannot be shown: it fails
// closed, so "Automate…" asks nothing and logs why.
func noPopup(why error) func(context.Context, string, string) (string, bool, error) {
	return func(context.Context, string, string) (string, bool, error) {
		return "", false, fmt.Errorf("popups are unavailable: %w", why)
	}
}

// logGateEvents writes the gate's changes of state to the system log, in
// category "gate" (see gateEventLog for the levels).
func logGateEvents(ctx context.Context, f *gate.Fanout) {
	ch, stop := f.Subscribe(64)
	defer stop()
	lg := logs.For("gate")
	for {
		select {
		case <-ctx.Done():
			return
		case e := <-ch:
			if level, msg, ok := gateEventLog(e); ok {
				lg.Log(ctx, level, msg)
			}
		}
	}
}
