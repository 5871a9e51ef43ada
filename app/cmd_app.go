package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"

	"fyne.io/systray"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/datadir"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/logs"
	"github.com/airlockhq/airlock/app/internal/tray"
	"github.com/airlockhq/airlock/app/internal/ui"
	"github.com/airlockhq/airlock/bridge"
)

// logFile is the app's log in the log directory.
const logFile = "airlock.log"

// appUI is what the menu-bar app asks the person with: the native popups
// (NSAlert on macOS, zenity on Linux). Each hook fails closed: where popups
// cannot be shown (no display), every request that needs approval is
// refused as approval-required and Level 2 cannot be chosen. Pending
// requests need no hook of their own: the prompter shows each in its popup,
// one at a time.
var appUI = struct {
	prompter     func() (approval.Prompter, error)
	confirm      func(ctx context.Context, title, text, yes string) (bool, error)
	showApproval func(ctx context.Context, r approval.Request)
	askText      func(ctx context.Context, title, prompt string) (string, bool, error)
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
	logDir, err := datadir.Logs()
	if err != nil {
		return err
	}
	lf, err := logs.Open(logDir, logFile, logs.Options{})
	if err != nil {
		return err
	}
	defer lf.Close()
	// Everything logged, systray's own messages included, is redacted on
	// its way to the file and the terminal.
	log.SetOutput(io.MultiWriter(lf, logs.Redacting(stderr)))
	log.SetFlags(log.LstdFlags)
	defer log.SetOutput(os.Stderr)

	var opts gateOptions
	opts.broker = true
	askText := appUI.askText
	if appUI.prompter != nil {
		p, err := appUI.prompter()
		if err != nil {
			// No popups: nothing that needs approval can run, and the
			// person is told why rather than the app refusing to start.
			log.Printf("approval popups unavailable: %v; actions that need approval will be refused", err)
			askText = noPopup(err)
		} else {
			opts.prompter = p
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
		Gate:         b.gate,
		Events:       b.events.Subscribe,
		Approvals:    b.broker,
		Grants:       b.grants,
		History:      b.store,
		SaveAutonomy: b.saveAutonomy,
		Confirm:      appUI.confirm,
		AskText:      askText,
		ShowApproval: appUI.showApproval,
		Open:         openInBrowser,
		ReportDir:    b.dir,
		Quit:         systray.Quit,
		Logf:         log.Printf,
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
	fmt.Fprintf(stdout, "airlock: starting the menu-bar app (log: %s)\n", lf.Path())
	systray.Run(onReady, cancel)
	cancel()
	log.Printf("airlock: stopped")
	return nil
}

// noPopup stands in for a text-entry popup that cannot be shown: it fails
// closed, so "Automate…" asks nothing and logs why.
func noPopup(why error) func(context.Context, string, string) (string, bool, error) {
	return func(context.Context, string, string) (string, bool, error) {
		return "", false, fmt.Errorf("popups are unavailable: %w", why)
	}
}

// logGateEvents writes the gate's changes of state to the log.
func logGateEvents(ctx context.Context, f *gate.Fanout) {
	ch, stop := f.Subscribe(64)
	defer stop()
	for {
		select {
		case <-ctx.Done():
			return
		case e := <-ch:
			switch e.Type {
			case gate.EventKilled, gate.EventResumed, gate.EventAutonomy:
				log.Printf("gate: %s", e.Type)
			case gate.EventDone:
				log.Printf("gate: request %s ended %s %s", e.Request, e.Status, e.Error)
			}
		}
	}
}

// openInBrowser opens the history report with the desktop's opener, with
// the path as an argument (no shell), and reaps the opener when it exits.
func openInBrowser(path string) error {
	opener := "xdg-open"
	if runtime.GOOS == "darwin" {
		opener = "open"
	}
	cmd := exec.Command(opener, path)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("opening the history report: %w", err)
	}
	go cmd.Wait()
	return nil
}
