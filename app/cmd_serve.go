package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/ipc"
	"github.com/airlockhq/airlock/app/internal/ui"
	"github.com/airlockhq/airlock/bridge"
)

type serveOptions struct {
	prompter string
	tty      string
}

func cmdServe(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	opts := serveOptions{tty: "/dev/tty"}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&opts.prompter, "prompter", "", "who approves: terminal (asks on /dev/tty), popup (zenity popups on a Linux desktop) or none (nothing that needs approval runs)")
	if err := fs.Parse(args); err != nil {
		return usagef("%s", err)
	}
	if fs.NArg() > 0 {
		return usagef("takes no arguments")
	}
	switch opts.prompter {
	case "terminal", "popup", "none":
	case "":
		return usagef("--prompter is required: terminal, popup or none")
	default:
		return usagef("--prompter %q: want terminal, popup or none", opts.prompter)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return runServe(ctx, opts, stdout, stderr)
}

// runServe builds the gate from the data directory and serves its socket
// until ctx is done.
func runServe(ctx context.Context, opts serveOptions, stdout, stderr io.Writer) error {
	var gopts gateOptions
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

// socketClient is the name a socket client is shown and recorded under. A
// client names itself, so it may not take a name the gate's own front ends
// use: one claiming the menu's "Automate…" is shown as what it is.
func socketClient(name string) string {
	switch {
	case name == "":
		return "unnamed client"
	case strings.HasPrefix(strings.ToLower(name), "automate"):
		return "socket client calling itself " + strconv.Quote(name)
	}
	return name
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
}

func (h gateHandler) Submit(ctx context.Context, p ipc.SubmitParams, notify func(v any) error) (any, error) {
	rep, _ := h.g.Submit(ctx, gate.Submission{Client: socketClient(p.Client), Kind: p.Kind, Plan: p.Plan, Argv: p.Argv, DryRun: p.DryRun}, func(e gate.Event) {
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
