package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/datadir"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/ipc"
	"github.com/airlockhq/airlock/app/internal/llm"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sanitize"
	"github.com/airlockhq/airlock/app/internal/secrets"
)

type serveOptions struct {
	prompter string
	tty      string
}

// Files in the data directory.
const (
	settingsFile = "settings.json"
	historyFile  = "history.db"
)

func cmdServe(ctx context.Context, args []string, _ io.Reader, stdout, stderr io.Writer) error {
	opts := serveOptions{tty: "/dev/tty"}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&opts.prompter, "prompter", "", "who approves: terminal (asks on /dev/tty) or none (nothing that needs approval runs)")
	if err := fs.Parse(args); err != nil {
		return usagef("%s", err)
	}
	if fs.NArg() > 0 {
		return usagef("takes no arguments")
	}
	switch opts.prompter {
	case "terminal", "none":
	case "":
		return usagef("--prompter is required: terminal or none")
	default:
		return usagef("--prompter %q: want terminal or none", opts.prompter)
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	return runServe(ctx, opts, stdout, stderr)
}

// runServe builds the gate from the data directory and serves its socket
// until ctx is done.
func runServe(ctx context.Context, opts serveOptions, stdout, stderr io.Writer) error {
	dir, err := datadir.Data()
	if err != nil {
		return err
	}
	if err := datadir.Ensure(dir); err != nil {
		return err
	}
	settings, err := policy.LoadSettings(filepath.Join(dir, settingsFile))
	if err != nil {
		return err
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return fmt.Errorf("finding the home folder: %w", err)
	}
	paths, err := sanitize.NewConfig(home, settings.Roots)
	if err != nil {
		return fmt.Errorf("%s: sandbox roots: %w", filepath.Join(dir, settingsFile), err)
	}
	keys, err := secrets.Open()
	if err != nil {
		return fmt.Errorf("opening the key store (the history is encrypted with a key kept there): %w", err)
	}
	store, err := history.Open(filepath.Join(dir, historyFile), keys)
	if err != nil {
		return err
	}
	defer store.Close()

	var approver gate.Approver
	if opts.prompter == "terminal" {
		term, err := approval.NewTerminal(opts.tty)
		if err != nil {
			return fmt.Errorf("the terminal prompter needs a terminal: %w", err)
		}
		defer term.Close()
		approver = approval.NewBroker(term, approval.Options{Timeout: settings.ApprovalTimeout})
	}
	exec, err := gate.DefaultExecutor(paths)
	if err != nil {
		return err
	}
	g := gate.New(gate.Config{
		Env:      &risk.Env{Paths: paths},
		Exec:     exec,
		History:  store,
		Approver: approver,
		Grants:   policy.NewGrants(nil),
		Autonomy: settings.Autonomy,
		LLM:      func(context.Context) (llm.Config, error) { return modelConfig(settings, keys) },
	})
	srv, err := ipc.Listen(dir, gateHandler{g: g, store: store})
	if err != nil {
		return err
	}
	defer srv.Close()
	fmt.Fprintf(stdout, "airlock: gate serving on %s (autonomy %s, prompter %s)\n", filepath.Join(dir, ipc.SocketName), settings.Autonomy, opts.prompter)
	fmt.Fprintln(stdout, "airlock: `airlock kill` stops everything; after a kill, restart the gate here to accept work again.")
	err = srv.Serve(ctx)
	if errors.Is(err, context.Canceled) || ctx.Err() != nil {
		fmt.Fprintln(stdout, "airlock: gate stopped")
		return nil
	}
	return err
}

// gateHandler answers the socket's methods from the gate and the history.
// It is the whole surface a client reaches: no method approves, denies,
// resumes or changes a setting.
type gateHandler struct {
	g     *gate.Gate
	store *history.Store
}

func (h gateHandler) Submit(ctx context.Context, p ipc.SubmitParams, notify func(v any) error) (any, error) {
	client := p.Client
	if client == "" {
		client = "unnamed client"
	}
	rep, _ := h.g.Submit(ctx, gate.Submission{Client: client, Kind: p.Kind, Plan: p.Plan, Argv: p.Argv, DryRun: p.DryRun}, func(e gate.Event) {
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
