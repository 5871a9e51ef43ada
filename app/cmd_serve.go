package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/automation"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/ipc"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/tray"
	"github.com/airlockhq/airlock/app/internal/ui"
	"github.com/airlockhq/airlock/bridge"
	"github.com/spf13/pflag"
)

type serveOptions struct {
	prompter string
	tty      string
}

// serveFlags declares airlock serve's flags.
func serveFlags(fs *pflag.FlagSet) runFunc {
	opts := serveOptions{tty: "/dev/tty"}
	fs.StringVar(&opts.prompter, "prompter", "auto", "who approves: terminal (asks on /dev/tty), popup (zenity popups on a Linux desktop), none (nothing that needs approval runs), or auto (popup with a display, else terminal with one, else none)")
	return func(ctx context.Context, fs *pflag.FlagSet, _ io.Reader, stdout, stderr io.Writer) error {
		return cmdServe(ctx, fs, opts, stdout, stderr)
	}
}

func cmdServe(ctx context.Context, fs *pflag.FlagSet, opts serveOptions, stdout, stderr io.Writer) error {
	if fs.NArg() > 0 {
		return usagef("takes no arguments")
	}
	switch opts.prompter {
	case "auto", "terminal", "popup", "none":
	default:
		return usagef("--prompter %q: want auto, terminal, popup or none", opts.prompter)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return runServe(ctx, opts, stdout, stderr)
}

// runServe builds the gate from the data directory and serves its socket
// until ctx is done.
func runServe(ctx context.Context, opts serveOptions, stdout, stderr io.Writer) error {
	var gopts gateOptions
	if opts.prompter == "auto" {
		var why string
		opts.prompter, why = choosePrompter(popupsHere, func() error {
			term, err := approval.NewTerminal(opts.tty)
			if err == nil {
				term.Close()
			}
			return err
		})
		fmt.Fprintf(stdout, "airlock: approvals: %s (%s; --prompter chooses another)\n", prompterWords[opts.prompter], why)
	}
	switch opts.prompter {
	case "terminal":
		term, err := approval.NewTerminal(opts.tty)
		if err != nil {
			return fmt.Errorf("the terminal prompter needs a terminal: %w", err)
		}
		defer term.Close()
		gopts.prompter = term
	case "popup":
		// Checked before the key store is opened: no display, no gate.
		if err := popupsUsable(); err != nil {
			return err
		}
		bridge.PrepareApprovalPopup()
		gopts.prompter = ui.NewPopupPrompter(ui.PopupOptions{})
	}
	b, err := buildGate(gopts)
	if err != nil {
		return err
	}
	defer b.Close()
	// Automations are added and turned on only after the person's yes in
	// a popup; the terminal prompter has none, so there they are changed
	// in settings.json (read at start) or turned off only.
	// An undo, the same: only after the person's yes in a popup.
	if opts.prompter == "popup" {
		trust := &tray.Trust{Confirm: bridge.Confirm}
		b.book.Confirm = confirmAutomation(trust)
		b.undo.confirm = confirmUndo(trust)
		b.reload.confirm = confirmSettings(trust)
		b.reload.rule = confirmRule(trust)
	} else {
		b.book.Confirm = func(context.Context, automation.Change) error {
			return fmt.Errorf("%w, and this gate (airlock serve --prompter=%s) shows none: use the menu-bar app or "+
				"`airlock serve --prompter=popup`, or write it into settings.json and start the gate again", automation.ErrNotConfirmed, opts.prompter)
		}
		b.undo.confirm = func(context.Context, gate.UndoQuestion) error {
			return fmt.Errorf("not undone: it needs the person's yes in Airlock's confirmation popup, and this gate "+
				"(airlock serve --prompter=%s) shows none: use the menu-bar app or `airlock serve --prompter=popup`", opts.prompter)
		}
	}
	b.runScheduler(ctx)
	fmt.Fprintf(stdout, "airlock: gate serving on %s (autonomy %s, prompter %s)\n", b.srv.Path(), b.settings.Autonomy, opts.prompter)
	fmt.Fprintf(stdout, "airlock: the OS sandbox of commands and scripts: %s\n", b.box)
	fmt.Fprintln(stdout, "airlock: `airlock kill` stops everything; after a kill, restart the gate here to accept work again.")
	err = b.srv.Serve(ctx)
	if errors.Is(err, context.Canceled) || ctx.Err() != nil {
		fmt.Fprintln(stdout, "airlock: gate stopped")
		return nil
	}
	return err
}

// prompterWords say what each prompter does, for the line serve prints.
var prompterWords = map[string]string{
	"popup":    "asked in popups",
	"terminal": "asked on this terminal",
	"none":     "nobody to ask: whatever needs approval is refused",
}

// choosePrompter is --prompter=auto: popups where they can be shown (a
// display), else this terminal where there is one, else none. It returns
// the choice and why, in words.
func choosePrompter(popups, terminal func() error) (prompter, why string) {
	perr := popups()
	if perr == nil {
		return "popup", "a display is available"
	}
	terr := terminal()
	if terr == nil {
		return "terminal", fmt.Sprintf("no popups: %v; this terminal can ask", perr)
	}
	return "none", fmt.Sprintf("no popups: %v; no terminal: %v", perr, terr)
}

// popupsHere says why popups cannot ask here, for --prompter=auto.
func popupsHere() error {
	if runtime.GOOS == "darwin" {
		return errors.New("on macOS they come with the menu-bar app")
	}
	return bridge.PopupsAvailable()
}

// socketClient is the name a socket client is shown and recorded under. A
// client names itself, so it may not take a name the gate's own front ends
// use: one claiming the menu's "Automate…" or an automation's
// "automation: NAME" is shown as what it is.
func socketClient(name string) string {
	lower := strings.ToLower(name)
	switch {
	case name == "":
		return "unnamed client"
	case strings.HasPrefix(lower, "automate"), strings.HasPrefix(lower, "automation"):
		return "socket client calling itself " + strconv.Quote(name)
	}
	return name
}

// peerIdentity is the verified program of the socket client a handler
// serves: what grants belong to, whatever the client calls itself. A peer
// whose program could not be verified gets an identity with no key, shown
// with the reason.
func peerIdentity(ctx context.Context) policy.Identity {
	p, ok := ipc.PeerFrom(ctx)
	if !ok {
		return policy.Identity{}
	}
	return policy.Identity{Key: p.Key(), Program: p.String()}
}

// popupsUsable says why `serve --prompter=popup` cannot ask here. On macOS
// the popups need the AppKit main loop, which only the menu-bar app runs.
func popupsUsable() error {
	if runtime.GOOS == "darwin" {
		return errors.New("--prompter=popup is for Linux desktops; on macOS the popups come with the menu-bar app")
	}
	if err := bridge.PopupsAvailable(); err != nil {
		return fmt.Errorf("the popup prompter cannot ask here: %w", err)
	}
	return nil
}

// gateHandler answers the socket's methods from the gate and the history.
// It is the whole surface a client reaches: no method approves, denies,
// resumes or changes a setting.
type gateHandler struct {
	g     *gate.Gate
	store *history.Store
	dash  *dashLink        // nil or empty: no dashboard (airlock serve)
	book  *automation.Book // the automations; nil: none here
	undo  *undoConfirm     // how an undo asks the person; nil or empty: nobody can
	// reload reads settings.json again (reloadSettings); nil: this gate
	// cannot.
	reload func(ctx context.Context) (reloadReport, error)
}

func (h gateHandler) Submit(ctx context.Context, p ipc.SubmitParams, notify func(v any) error) (any, error) {
	rep, _ := h.g.Submit(ctx, gate.Submission{Client: socketClient(p.Client), Identity: peerIdentity(ctx),
		Kind: p.Kind, Plan: p.Plan, Argv: p.Argv, DryRun: p.DryRun, Dir: p.Dir, Path: p.Path}, func(e gate.Event) {
		notify(e) // a client that went away cancels ctx; its events are dropped
	})
	return rep, nil
}

func (h gateHandler) Status(context.Context) (any, error) { return h.g.Status(), nil }

func (h gateHandler) History(ctx context.Context, p ipc.HistoryParams) (any, error) {
	n := p.Limit
	if n <= 0 || n > 1000 {
		n = 50
	}
	entries, err := h.store.Recent(ctx, n)
	if err != nil {
		return nil, err
	}
	out := make([]historyRecord, len(entries))
	for i, e := range entries {
		out[i] = recordOf(e)
	}
	return out, nil
}

func (h gateHandler) Kill(context.Context) (any, error) { return h.g.Kill(), nil }
