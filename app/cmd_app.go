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
	"syscall"
	"time"

	"fyne.io/systray"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/logs"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/tray"
	"github.com/airlockhq/airlock/app/internal/ui"
	"github.com/airlockhq/airlock/bridge"
)

// appUI is what the menu-bar app asks the person with: the native popups
// (NSAlert on macOS, zenity on Linux). Each hook fails closed: where popups
// cannot be shown (no display), every request that needs approval is
// refused as approval-required and Level 2 cannot be chosen. The prompter
// shows pending requests one at a time; a prompter that can also show one
// out of turn (Open) makes the menu's "Pending approvals" items open theirs.
var appUI = struct {
	prompter func() (approval.Prompter, error)
	confirm  func(ctx context.Context, title, text, yes string) (bool, error)
	askText  func(ctx context.Context, title, prompt string) (string, bool, error)
}{
	prompter: func() (approval.Prompter, error) {
		if err := bridge.PopupsAvailable(); err != nil {
			return nil, err
		}
		bridge.PrepareApprovalPopup()
		return ui.NewPopupPrompter(ui.PopupOptions{}), nil
	},
	confirm: bridge.Confirm,
	askText: bridge.AskText,
}

// cmdApp is `airlock` with no subcommand: the gate, its socket and the menu
// bar in one process, the only place a person approves, changes the level
// or resumes after a kill. It must run on the main goroutine (systray owns
// the main thread on macOS).
func cmdApp(ctx context.Context, _ []string, _ io.Reader, stdout, stderr io.Writer) error {
	// Everything logged, systray's own messages included, is redacted on
	// its way to the system log (and the terminal the app started from).
	lg := openLog(stderr)
	defer lg.Install()()

	var opts gateOptions
	opts.broker = true
	askText := appUI.askText
	var showApproval func(ctx context.Context, r approval.Request)
	if appUI.prompter != nil {
		p, err := appUI.prompter()
		if err != nil {
			// No popups: nothing that needs approval can run, and the
			// person is told why rather than the app refusing to start.
			log.Printf("approval popups unavailable: %v; actions that need approval will be refused", err)
			askText = noPopup(err)
		} else {
			opts.prompter = p
			showApproval = opener(p)
		}
	}
	b, err := buildGate(opts)
	if err != nil {
		return err
	}
	defer b.Close()
	b.srv.ErrorLog = func(method string, err error) { log.Printf("socket: %s: %v", method, err) }

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
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
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	go func() {
		select {
		case <-sigs:
			systray.Quit()
		case <-ctx.Done():
		}
	}()

	app := tray.New(tray.Config{
		Gate:         menuGate{b.gate},
		Events:       b.events.Subscribe,
		Approvals:    b.broker,
		Grants:       b.grants,
		History:      b.store,
		SaveAutonomy: b.saveAutonomy,
		Confirm:      appUI.confirm,
		AskText:      askText,
		ShowApproval: showApproval,
		Open:         openInBrowser,
		ReportDir:    b.dir,
		Quit:         systray.Quit,
		Logf:         logs.Printf("tray"),
	})
	onReady := func() {
		bridge.SetMainLoopRunning(true)
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
	if runtime.GOOS != "darwin" {
		tray.Prime(tray.Build(app.State(ctx)))
	}
	fmt.Fprintf(stdout, "airlock: starting the menu-bar app (log: %s)\n", logWhere(lg))
	systray.Run(onReady, cancel)
	cancel()
	log.Printf("airlock: stopped")
	return nil
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

// openInBrowser opens the history report with the desktop's opener (the
// bridge's: NSWorkspace on macOS; xdg-open, else `gio open`, on Linux), the
// path as an argument, never through a shell. When nothing can open it, the
// error says so, where the report is, and what shows the same records.
func openInBrowser(path string) error {
	d, err := bridge.NewDesktop(bridge.Options{})
	if err == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		err = d.OpenFile(ctx, path, "")
	}
	if err != nil {
		return fmt.Errorf("could not open the history report (%w); it is at %s, and `airlock history` shows the same records", err, path)
	}
	return nil
}
