package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/ipc"
	"github.com/airlockhq/airlock/app/internal/redact"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// startHint says how to start the gate, for an agent to pass on.
const startHint = "ask the person to open Airlock (or to run `airlock serve` in a terminal), " +
	"then call this tool again; assess, validate_applescript and list_actions work without it"

// errNotRunning is dial's error when no gate listens.
var errNotRunning = errors.New("airlock's gate is not running")

// forwarder sends work to the running gate. It keeps no connection between
// calls: each call dials afresh, so a connection the gate closed while idle
// is never reused, concurrent calls never share one (an ipc.Client runs one
// call at a time), and a gate started or restarted after `airlock mcp` is
// found.
type forwarder struct {
	dir       func() (string, error)
	path      string // Config.Path
	maxOutput int
	// progressEvery is the period of the notifications a waiting call
	// sends; approvalTimeout is the gate's approval timeout, for the time
	// left (0: not known).
	progressEvery   time.Duration
	approvalTimeout func() time.Duration
}

func (f *forwarder) dial() (*ipc.Client, error) {
	dir, err := f.dir()
	if err != nil {
		return nil, fmt.Errorf("finding Airlock's data folder: %w", err)
	}
	c, err := ipc.Dial(dir)
	if errors.Is(err, ipc.ErrNotRunning) {
		return nil, fmt.Errorf("%w, so nothing ran: %s", errNotRunning, startHint)
	}
	if err != nil {
		return nil, fmt.Errorf("reaching Airlock's gate: %w", err)
	}
	return c, nil
}

// submit sends one piece of work to the gate and turns its report into the
// tool's result. A report whose status is not ok is an error result that
// still carries the report.
func (f *forwarder) submit(ctx context.Context, req *sdk.CallToolRequest, kind, src string, argv []string, dir string) (*sdk.CallToolResult, RunResult, error) {
	size := len(src)
	for _, a := range argv {
		size += len(a)
	}
	if size > MaxSource {
		return nil, RunResult{}, fmt.Errorf("the %s is %d bytes with its arguments: at most %d", sourceNoun(kind), size, MaxSource)
	}
	if kind == gate.KindCommand && (len(argv) == 0 || argv[0] == "") {
		return nil, RunResult{}, errors.New(`argv must start with the program to run, e.g. ["ls", "-l"]`)
	}
	c, err := f.dial()
	if err != nil {
		return nil, RunResult{}, err
	}
	defer c.Close()
	params := ipc.SubmitParams{Client: ClientName(clientName(req)), Kind: kind, Plan: src, Argv: argv}
	if kind == gate.KindCommand {
		params.Dir, params.Path = dir, f.path
	}
	p := newProgress(ctx, req, f.progressEvery, f.approvalTimeout())
	stop := make(chan struct{})
	defer close(stop)
	go p.tick(stop)
	raw, err := c.Call(ctx, "submit", params, p.event)
	if err != nil {
		return nil, RunResult{}, callError(ctx, err, true)
	}
	var rep gate.Report
	if err := json.Unmarshal(raw, &rep); err != nil {
		return nil, RunResult{}, fmt.Errorf("reading the gate's report: %w", err)
	}
	res := resultOf(rep, f.maxOutput)
	return &sdk.CallToolResult{IsError: res.Status != gate.StatusOK, Content: []sdk.Content{&sdk.TextContent{Text: res.Text()}}}, res, nil
}

func sourceNoun(kind string) string {
	switch kind {
	case gate.KindPlan:
		return "plan"
	case gate.KindCommand:
		return "command"
	}
	return "script"
}

// status asks the gate for its state. A gate that is not running is a
// status, not an error.
func (f *forwarder) status(ctx context.Context) (*sdk.CallToolResult, Status, error) {
	c, err := f.dial()
	if errors.Is(err, errNotRunning) {
		st := Status{Running: false, Message: "Airlock is not running: " + startHint + "."}
		return textResult(st.Message), st, nil
	}
	if err != nil {
		return nil, Status{}, err
	}
	defer c.Close()
	raw, err := c.Call(ctx, "status", nil, nil)
	if err != nil {
		return nil, Status{}, callError(ctx, err, false)
	}
	var gs gate.Status
	if err := json.Unmarshal(raw, &gs); err != nil {
		return nil, Status{}, fmt.Errorf("reading the gate's status: %w", err)
	}
	st := statusOf(gs)
	return textResult(st.Message), st, nil
}

// callError explains a call that got no report. For a submit, a lost
// connection leaves open whether the work ran, and the text says so rather
// than retrying.
func callError(ctx context.Context, err error, submit bool) error {
	var rpc *ipc.RPCError
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("the call was cancelled, and with it the request at the gate (recorded there as withdrawn): %w", ctx.Err())
	case errors.As(err, &rpc):
		return fmt.Errorf("the gate refused the request: %s", redact.String(rpc.Message))
	case submit:
		return fmt.Errorf("lost the connection to Airlock's gate before its answer (%v): whether the work ran is unknown; "+
			"call status, and ask the person before trying again", err)
	}
	return fmt.Errorf("lost the connection to Airlock's gate: %w", err)
}

// clientName is the name the MCP client gave in its clientInfo.
func clientName(req *sdk.CallToolRequest) string {
	if req == nil {
		return ""
	}
	info := req.ClientInfo()
	if info == nil {
		return ""
	}
	if info.Name != "" {
		return info.Name
	}
	return info.Title
}

// ClientName is how the gate names an MCP client in its popup and history:
// "mcp: " and the name the client gave, made fit for the gate's client-name
// rule (1 to ipc.MaxClientName bytes of printable text, no surrounding
// space). Control and format characters (bidi overrides, zero-width) are
// dropped and other spaces become one ASCII space, so one client cannot pass
// for another; the name is cut at a character boundary. An empty name is
// "mcp: unnamed client".
func ClientName(name string) string {
	const prefix = "mcp: "
	const max = ipc.MaxClientName - len(prefix)
	var b strings.Builder
	space := false
	for _, r := range name {
		if b.Len() > max {
			break
		}
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
		case unicode.IsPrint(r):
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteRune(r)
		}
	}
	s := b.String()
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = strings.TrimRight(s[:cut], " ")
	}
	if s == "" {
		s = "unnamed client"
	}
	return prefix + s
}

// DefaultProgressEvery is how often a call that waits for the person or runs
// tells its client so, when the client asked for progress: often enough
// that a client which extends its time limit on progress (the TypeScript
// SDK's resetTimeoutOnProgress, 60 s by default) never gives up on a call
// that is still alive.
const DefaultProgressEvery = 10 * time.Second

// progress turns the gate's events into MCP progress notifications, when the
// client asked for them with a progress token, and between events says
// every period what the call is waiting for and for how long: the approval
// with the time left before it times out, or the action running.
type progress struct {
	ctx     context.Context
	ss      *sdk.ServerSession
	token   any
	every   time.Duration
	timeout time.Duration // the approval timeout; 0: unknown
	now     func() time.Time

	mu    sync.Mutex
	n     float64   // guarded by mu; notifications sent
	phase string    // guarded by mu; what the call waits for: phaseGate, phaseApproval or phaseRunning
	since time.Time // guarded by mu; when the phase began
	what  string    // guarded by mu; phaseRunning: the action's number and preview
}

const (
	phaseGate     = "gate"     // the gate rates, records or decides
	phaseApproval = "approval" // the person's answer
	phaseRunning  = "running"  // an action executing
)

func newProgress(ctx context.Context, req *sdk.CallToolRequest, every, timeout time.Duration) *progress {
	p := &progress{ctx: ctx, every: every, timeout: timeout, now: time.Now, phase: phaseGate}
	p.since = p.now()
	if req != nil && req.Params != nil {
		p.ss, p.token = req.Session, req.Params.GetProgressToken()
	}
	return p
}

// tick sends the periodic notifications until stop is closed. It does
// nothing when the client asked for no progress.
func (p *progress) tick(stop <-chan struct{}) {
	if p.token == nil || p.ss == nil || p.every <= 0 {
		return
	}
	t := time.NewTicker(p.every)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-p.ctx.Done():
			return
		case <-t.C:
			p.mu.Lock()
			msg := p.waitingLocked()
			p.mu.Unlock()
			p.send(msg)
		}
	}
}

// waitingLocked says what the call is waiting for; p.mu must be held.
func (p *progress) waitingLocked() string {
	elapsed := p.now().Sub(p.since).Round(time.Second)
	switch p.phase {
	case phaseApproval:
		s := fmt.Sprintf("still waiting for the person to answer Airlock's approval popup (%v so far", elapsed)
		if p.timeout > 0 {
			left := max(p.timeout-elapsed, 0).Round(time.Second)
			s += fmt.Sprintf("; about %v left before it times out and is denied", left)
		}
		return s + ")"
	case phaseRunning:
		s, _ := bound(fmt.Sprintf("still running %s (%v so far)", p.what, elapsed), 512)
		return s
	}
	return fmt.Sprintf("Airlock's gate is still working on it (%v so far)", elapsed)
}

func (p *progress) event(raw json.RawMessage) {
	var e gate.Event
	if json.Unmarshal(raw, &e) != nil {
		return
	}
	p.mu.Lock()
	switch e.Type {
	case gate.EventAwaitingApproval:
		p.phase, p.since = phaseApproval, p.now()
	case gate.EventStarted:
		p.phase, p.since, p.what = phaseRunning, p.now(), fmt.Sprintf("%d. %s", e.Index+1, e.Preview)
	case gate.EventApproval, gate.EventResult:
		p.phase, p.since = phaseGate, p.now()
	}
	p.mu.Unlock()
	if e.Type == gate.EventOutput {
		for _, msg := range outputMessages(e) {
			p.send(msg)
		}
		return
	}
	if msg := describeEvent(e); msg != "" {
		p.send(msg)
	}
}

// maxOutputMessage bounds the text of one progress notification that
// carries a running command's output; a larger event is sent in several.
const maxOutputMessage = 4 << 10

// outputMessages turns an output event (what a running command printed, as
// the gate streams it, redacted) into progress messages, stderr's marked
// as such.
func outputMessages(e gate.Event) []string {
	prefix := ""
	if e.Stream == gate.StreamStderr {
		prefix = "stderr: "
	}
	text := redact.String(e.Output) // the gate redacted it; once more costs little
	var out []string
	for text != "" {
		n := min(len(text), maxOutputMessage)
		for n < len(text) && n > 0 && !utf8.RuneStart(text[n]) {
			n--
		}
		if n == 0 {
			n = len(text)
		}
		out = append(out, prefix+text[:n])
		text = text[n:]
	}
	return out
}

// send sends one notification, numbered after the last.
func (p *progress) send(msg string) {
	if p.token == nil || p.ss == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	// Under the lock, so that notifications leave in the order of their
	// numbers. A client that went away ends the call; a lost notification
	// is no reason to stop the work.
	_ = p.ss.NotifyProgress(p.ctx, &sdk.ProgressNotificationParams{ProgressToken: p.token, Progress: p.n, Message: msg})
}

// describeEvent says in one line what an event of the gate means.
func describeEvent(e gate.Event) string {
	var s string
	switch e.Type {
	case gate.EventAssessed:
		s = fmt.Sprintf("%d. %s: risk %s, %s", e.Index+1, e.Preview, e.Risk, decisionWords(e.Decision))
	case gate.EventAwaitingApproval:
		s = "waiting for the person to answer Airlock's approval popup"
	case gate.EventApproval:
		s = "approval: " + e.Approval
	case gate.EventStarted:
		s = fmt.Sprintf("%d. %s: running", e.Index+1, e.Preview)
	case gate.EventResult:
		s = fmt.Sprintf("%d. %s: %s", e.Index+1, e.Preview, e.Status)
	case gate.EventDone:
		s = "done: " + e.Status
	default:
		return ""
	}
	s, _ = bound(s, 512)
	return s
}
