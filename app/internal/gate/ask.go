package gate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/llm"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/redact"
)

// ErrNoModel is wrapped by Ask's error when no model server is configured.
var ErrNoModel = errors.New("no model server is configured")

// AskRequest is a request in words. A model turns it into a plan, which
// then goes through the gate like any plan a client submits: asking
// approves nothing.
type AskRequest struct {
	Client   string          // the name the client gave itself: "airlock ask", the menu's "Automate…"
	Identity policy.Identity // the client's verified program; see Submission.Identity
	Request  string          // the person's words; at most llm.MaxRequestBytes
	Context  string          // optional context from the caller, given to the model as quoted data; at most llm.MaxContextBytes
	Model    string          // "": the configured model
	Endpoint string          // "": the configured endpoint; any other never receives the configured API key
	DryRun   bool            // decide every action of the plan, run nothing
}

// AskReport is the answer to Ask: the plan's report, and what the model
// did. Its Status is one of the Report statuses; StatusFailed with no
// actions means the model gave no usable reply.
type AskReport struct {
	Report
	Model    string `json:"model,omitempty"`
	Endpoint string `json:"endpoint,omitempty"`
	Plan     string `json:"plan,omitempty"`     // the plan as submitted, extracted from the reply
	Attempts int    `json:"attempts,omitempty"` // replies asked for: 1, or 2 after a plan that did not parse
	NoAction bool   `json:"noAction,omitempty"` // the model found nothing to do
}

// progressEvery spaces out streaming events.
const progressEvery = 100 * time.Millisecond

// Ask asks the configured model (or r's) for a plan for r.Request and
// submits it, with the client named "r.Client (model NAME)". It runs as
// one tracked operation: the kill switch aborts the model's stream at once
// and then everything Submit would do. Every call to the model server is
// recorded (history.ModelCall) under the request's id, and so is the
// request, even when no plan came back. notify, when not nil, receives
// EventModel events while the model works, then the submission's events.
//
// Nothing the model writes changes the autonomy level, a grant or a
// decision: its plan is parsed, sanitised, rated and decided exactly as a
// submitted one, and anything that needs approval waits for the person.
// The error is Submit's, or the model's (wrapping ErrNoModel or one of
// llm's errors), or ErrKilled.
func (g *Gate) Ask(ctx context.Context, r AskRequest, notify func(Event)) (AskReport, error) {
	if r.Client == "" {
		r.Client = "unnamed client"
	}
	rep := AskReport{Report: Report{Client: r.Client}}
	a := &asking{g: g, r: r, rep: &rep, notify: notify}
	tctx, done, err := g.Track(ctx)
	if err != nil {
		rep.Request = g.cfg.NewID()
		return a.refuse(ctx, StatusKilled, err)
	}
	defer done()
	ctx = tctx
	rep.Request = g.cfg.NewID()
	if err := checkAsk(r); err != nil {
		return a.refuse(ctx, StatusRejected, err)
	}
	client, err := a.client(ctx)
	if err != nil {
		return a.fail(ctx, StatusRefused, err, false)
	}
	defer client.Close()
	rep.Endpoint = client.Endpoint()

	pc := llm.PromptContext{Now: g.cfg.Now(), Request: r.Request, Caller: r.Context}
	if f := g.cfg.Frontmost; f != nil {
		if app, err := f.Frontmost(ctx); err == nil {
			pc.Frontmost = app.Name
		}
	}
	if env := g.current().env; env != nil && env.Paths != nil {
		pc.Roots = make([]string, len(env.Paths.Roots))
		for i, root := range env.Paths.Roots {
			pc.Roots[i] = env.Paths.ShortPath(root)
		}
	}
	res, err := client.Plan(ctx, pc, a.progress)
	rep.Model, rep.Attempts = a.model, res.Attempts
	if err != nil && !errors.Is(err, llm.ErrBadPlan) {
		if g.isKilled() {
			return a.fail(ctx, StatusKilled, ErrKilled, true)
		}
		if ctx.Err() != nil {
			return a.fail(ctx, StatusWithdrawn, fmt.Errorf("%w while the model worked: %v", withdrawn(ctx), err), true)
		}
		return a.fail(ctx, StatusFailed, err, true)
	}
	// A plan that does not parse goes to the gate too, which rejects and
	// records it: the history shows what the model proposed.
	a.event(Event{Type: EventModel, Status: ModelAnswered, Model: a.model, Attempt: res.Attempts})
	rep.Plan, rep.NoAction = res.Plan, res.NoAction()
	sub := Submission{Client: fmt.Sprintf("%s (model %s)", r.Client, a.model), Identity: r.Identity, Plan: res.Plan, DryRun: r.DryRun,
		id: rep.Request, recordKind: recordKindAsk, note: a.note(res.Attempts, ""), asked: r.Request}
	rep.Report, err = g.submit(ctx, sub, notify)
	return rep, err
}

// recordKindAsk is the kind the history records for a request in words.
const recordKindAsk = "ask"

// checkAsk refuses a request the model should never see.
func checkAsk(r AskRequest) error {
	switch {
	case strings.TrimSpace(r.Request) == "":
		return errors.New("the request is empty: say what should be done")
	case len(r.Request) > llm.MaxRequestBytes:
		return fmt.Errorf("the request is longer than %d bytes", llm.MaxRequestBytes)
	case len(r.Context) > llm.MaxContextBytes:
		return fmt.Errorf("the context is longer than %d bytes", llm.MaxContextBytes)
	case r.Model != "" && !llm.ValidModelName(r.Model):
		return fmt.Errorf("model name %q: use letters, digits and . _ : / - @ +", r.Model)
	}
	if r.Endpoint != "" {
		if _, err := llm.ParseEndpoint(r.Endpoint); err != nil {
			return err
		}
	}
	return nil
}

// asking is the state of one Ask.
type asking struct {
	g      *Gate
	r      AskRequest
	rep    *AskReport
	notify func(Event)
	model  string    // the model in use, once known
	last   time.Time // of the last streaming event
}

// client builds the model client from the configuration and r's
// overrides. The configured API key goes only to the configured endpoint.
func (a *asking) client(ctx context.Context) (*llm.Client, error) {
	if a.g.cfg.LLM == nil {
		return nil, fmt.Errorf("%w: set llmEndpoint (and llmModel) in the settings", ErrNoModel)
	}
	cfg, err := a.g.cfg.LLM(ctx)
	if err != nil {
		return nil, fmt.Errorf("reading the model settings: %w", err)
	}
	if a.r.Endpoint != "" {
		configured := cfg.Endpoint
		if configured == "" {
			configured = llm.DefaultEndpoint
		}
		asked, _ := llm.ParseEndpoint(a.r.Endpoint)
		conf, err := llm.ParseEndpoint(configured)
		if err != nil || asked.String() != conf.String() {
			cfg = llm.Config{Endpoint: a.r.Endpoint, MaxReply: cfg.MaxReply, Timeout: cfg.Timeout, IdleTimeout: cfg.IdleTimeout}
		}
	}
	if a.r.Model != "" {
		cfg.Model = a.r.Model
	}
	id := a.rep.Request
	cfg.Record = func(c llm.Call) error {
		return a.g.cfg.History.AddModelCall(context.WithoutCancel(ctx), history.ModelCall{RequestID: id,
			Time: a.g.cfg.Now(), Endpoint: c.URL, Status: c.Status, Duration: c.Duration,
			PromptTokens: c.PromptTokens, CompletionTokens: c.CompletionTokens})
	}
	return llm.New(cfg)
}

// progress turns the model's progress into events: one when each attempt
// starts, then at most one per progressEvery while the reply streams.
func (a *asking) progress(p llm.Progress) {
	a.model = p.Model
	if p.Tokens == 0 {
		status := ModelAsking
		if p.Attempt > 1 {
			status = ModelRetrying
		}
		a.event(Event{Type: EventModel, Status: status, Model: p.Model, Attempt: p.Attempt})
		return
	}
	if now := time.Now(); p.Tokens == 1 || now.Sub(a.last) >= progressEvery {
		a.last = now
		a.event(Event{Type: EventModel, Status: ModelStreaming, Model: p.Model, Tokens: p.Tokens, Attempt: p.Attempt})
	}
}

// note is what the history keeps besides the plan: the words asked, the
// caller's context, the model and, for a request that produced no plan,
// why.
func (a *asking) note(attempts int, why string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n-- asked: %q", a.r.Request)
	if a.r.Context != "" {
		fmt.Fprintf(&b, "\n-- context: %q", a.r.Context)
	}
	if a.model != "" {
		fmt.Fprintf(&b, "\n-- model: %s at %s (%d attempts)", a.model, a.rep.Endpoint, attempts)
	}
	if why != "" {
		fmt.Fprintf(&b, "\n-- no plan: %s", why)
	}
	return b.String()
}

// fail ends an Ask that produced no plan. If the model was asked, the
// request is recorded, so its model calls have a request to belong to.
func (a *asking) fail(ctx context.Context, status string, err error, asked bool) (AskReport, error) {
	rep := a.rep
	rep.Status, rep.Error = status, redact.String(err.Error())
	if asked {
		a.event(Event{Type: EventModel, Status: ModelFailed, Model: a.model, Error: rep.Error})
		rerr := a.g.cfg.History.AddRequest(context.WithoutCancel(ctx), history.Request{ID: rep.Request, Time: a.g.cfg.Now(),
			Client: a.r.Client, Program: a.r.Identity.Program, Kind: recordKindAsk, Text: strings.TrimPrefix(a.note(rep.Attempts, err.Error()), "\n")})
		if rerr != nil {
			err = errors.Join(err, fmt.Errorf("recording the request: %w", rerr))
			rep.Error = redact.String(err.Error())
		}
	}
	a.event(Event{Type: EventDone, Status: status, Error: rep.Error})
	return *rep, err
}

// refuse ends an Ask refused before the model was asked (the kill switch
// was on, the request was not acceptable) and records it: the request in
// words, and one row for the whole request saying why.
func (a *asking) refuse(ctx context.Context, status string, err error) (AskReport, error) {
	rep := a.rep
	ctx = context.WithoutCancel(ctx) // a refusal is recorded even if its client has gone
	text := a.r.Request
	if len(text) > llm.MaxRequestBytes {
		text = text[:llm.MaxRequestBytes] + fmt.Sprintf("\n-- cut: the request was %d bytes", len(a.r.Request))
	}
	rerr := a.g.cfg.History.AddRequest(ctx, history.Request{ID: rep.Request, Time: a.g.cfg.Now(),
		Client: a.r.Client, Program: a.r.Identity.Program, Kind: recordKindAsk, Text: text})
	if rerr != nil {
		rerr = fmt.Errorf("recording the request: %w", rerr)
	} else {
		rep.Risk = level.Blocked.String()
		rerr = recordWhole(ctx, a.g, rep.Request, int(a.g.level()), status, err)
	}
	if rerr != nil {
		err = errors.Join(err, rerr)
	}
	return a.fail(ctx, status, err, false)
}

func (a *asking) event(e Event) {
	e.Request = a.rep.Request
	e.Time = a.g.cfg.Now()
	if a.notify != nil {
		a.notify(e)
	}
	a.g.emit(e)
}
