package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/ipc"
	"github.com/airlockhq/airlock/app/internal/llm"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/secrets"
	"github.com/spf13/pflag"
)

type askOptions struct {
	dryRun   bool
	json     bool
	model    string
	endpoint string
	context  string
	client   string
}

// cmdAsk is `airlock ask "request"`: the gate's model turns the words into
// a plan, which the gate then decides, asks about and runs like `airlock
// run`'s.
// askFlags declares airlock ask's flags.
func askFlags(fs *pflag.FlagSet) runFunc {
	var opts askOptions
	fs.BoolVar(&opts.dryRun, "dry-run", false, "show the plan and every decision, execute nothing")
	fs.BoolVar(&opts.json, "json", false, "print the events and the report as JSON lines")
	fs.StringVar(&opts.model, "model", "", "the model to use instead of the configured one")
	fs.StringVar(&opts.endpoint, "endpoint", "", "the model server to use instead of the configured one (never gets the configured API key)")
	fs.StringVar(&opts.context, "context", "", "context for the model, given to it as quoted data; - reads it from standard input")
	fs.StringVar(&opts.client, "client", "airlock ask", "the name the gate records and shows for this client")
	return func(ctx context.Context, fs *pflag.FlagSet, stdin io.Reader, stdout, stderr io.Writer) error {
		return cmdAsk(ctx, fs, opts, stdin, stdout, stderr)
	}
}

func cmdAsk(ctx context.Context, fs *pflag.FlagSet, opts askOptions, stdin io.Reader, stdout, stderr io.Writer) error {
	request := strings.Join(fs.Args(), " ")
	if strings.TrimSpace(request) == "" {
		return usagef(`say what to do: airlock ask "put today's invoices in ~/Documents/Invoices"`)
	}
	if request == "-" && opts.context == "-" {
		return usagef("only one of the request and --context can come from standard input")
	}
	var err error
	if request == "-" {
		if request, err = readInput("-", stdin, ipc.MaxAskRequest); err != nil {
			return err
		}
	}
	if opts.context == "-" {
		if opts.context, err = readInput("-", stdin, ipc.MaxAskContext); err != nil {
			return err
		}
	}
	c, err := dialGate()
	if err != nil {
		return err
	}
	defer c.Close()
	progress := newProgressLine(stderr)
	var rep gate.AskReport
	err = follow(ctx, c, "ask", ipc.AskParams{Client: opts.client, Request: request, Context: opts.context,
		Model: opts.model, Endpoint: opts.endpoint, DryRun: opts.dryRun}, opts.json, stdout,
		func(e gate.Event) bool {
			if e.Type == gate.EventModel {
				progress.show(e)
				return true
			}
			progress.clear()
			return false
		}, &rep)
	progress.clear()
	if err != nil {
		return err
	}
	if !opts.json {
		if rep.NoAction {
			fmt.Fprintf(stdout, "%s found nothing to do.\n", rep.Model)
		}
		printReport(stdout, rep.Report)
	}
	return outcome(rep.Status)
}

// progressLine shows the model's progress: on a terminal, one line
// rewritten in place; elsewhere, a line per change of state.
type progressLine struct {
	w     io.Writer
	tty   bool
	shown bool   // a line is on screen, without its newline (tty only)
	last  string // the last state printed (not a tty)
}

func newProgressLine(w io.Writer) *progressLine {
	tty := false
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			tty = true
		}
	}
	return &progressLine{w: w, tty: tty}
}

func (p *progressLine) show(e gate.Event) {
	var line string
	switch e.Status {
	case gate.ModelAsking:
		line = fmt.Sprintf("asking %s…", e.Model)
	case gate.ModelRetrying:
		line = fmt.Sprintf("the plan did not parse; asking %s again…", e.Model)
	case gate.ModelStreaming:
		line = fmt.Sprintf("%s is writing a plan… %d tokens", e.Model, e.Tokens)
	case gate.ModelAnswered:
		line = fmt.Sprintf("%s answered; the gate is checking the plan", e.Model)
	case gate.ModelFailed:
		line = "the model failed: " + e.Error
	default:
		return
	}
	if !p.tty {
		if e.Status != gate.ModelStreaming && e.Status != p.last {
			fmt.Fprintln(p.w, line)
		}
		p.last = e.Status
		return
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
	p.shown = true
}

func (p *progressLine) clear() {
	if p.tty && p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// Ask is the socket's ask: the gate asks its model and submits the plan.
// Like Submit, the outcome is in the report.
func (h gateHandler) Ask(ctx context.Context, p ipc.AskParams, notify func(v any) error) (any, error) {
	rep, _ := h.g.Ask(ctx, gate.AskRequest{Client: socketClient(p.Client), Identity: peerIdentity(ctx), Request: p.Request, Context: p.Context,
		Model: p.Model, Endpoint: p.Endpoint, DryRun: p.DryRun}, func(e gate.Event) {
		notify(e) // a client that went away cancels ctx; its events are dropped
	})
	return rep, nil
}

// modelConfig is the gate's model server as the settings name it, with
// the API key, if one is named, read from the key store now.
func modelConfig(s policy.Settings, keys secrets.KeyStore) (llm.Config, error) {
	cfg := llm.Config{Endpoint: s.LLMEndpoint, API: llm.API(s.LLMAPI), Model: s.LLMModel}
	if s.LLMKeyName == "" {
		return cfg, nil
	}
	key, err := keys.Get(llm.KeyStoreName(s.LLMKeyName))
	if errors.Is(err, secrets.ErrNotFound) {
		return cfg, fmt.Errorf("the API key %q named by llmApiKey is not in the key store: store it with `airlock key set %s`", s.LLMKeyName, s.LLMKeyName)
	}
	if err != nil {
		return cfg, fmt.Errorf("reading the API key %q: %w", s.LLMKeyName, err)
	}
	cfg.APIKey = llm.Secret(key)
	return cfg, nil
}
