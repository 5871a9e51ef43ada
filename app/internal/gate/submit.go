package gate

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/redact"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sandbox"
	"mvdan.cc/sh/v3/syntax"
)

// Submission is one piece of work from a client: a plan in the Action DSL,
// or one script.
type Submission struct {
	Client string // the name the client gave itself: "airlock run", an MCP client's name …; shown, never trusted
	// Identity is the client's program as the operating system vouched for
	// it: grants belong to it. The zero value is an unverified client, which
	// no grant covers and which cannot be granted anything.
	Identity policy.Identity
	Kind     string // KindPlan (the default), KindAppleScript, KindJXA or KindCommand
	Plan     string // the plan, or the script's source (empty for a command)
	Argv     []string
	DryRun   bool // report every decision, execute nothing
	// Dir and Path are, for a command, the caller's working folder
	// (absolute; "" is the home) and PATH ("" leaves the program to the
	// sandbox's PATH): the command runs there, its program is looked up
	// there, and the path found is what is assessed, shown and run
	// (commandPlace).
	Dir, Path string

	// Set only by Ask: the request id chosen before the model was asked,
	// the kind recorded, notes appended to the recorded text, and the words
	// the model was asked (shown with the plan for approval).
	id, recordKind, note, asked string

	// Set only for the person's edit of a plan (submission.edited): the
	// request it replaces, who edited it and where, and how many edits led
	// to it.
	editOf, editedBy string
	edits            int
}

// The kinds of work a submission carries.
const (
	KindPlan        = "dsl"                   // Plan is an Action DSL plan
	KindAppleScript = execute.KindAppleScript // Plan is AppleScript; Argv reaches `on run argv`
	KindJXA         = execute.KindJXA         // Plan is JXA; Argv reaches `function run(argv)`
	KindCommand     = execute.KindCommand     // Argv is a program and its arguments, run without a shell
)

// Status values of a report and of each of its actions.
const (
	StatusOK        = "ok"        // ran and succeeded
	StatusFailed    = "failed"    // ran and failed
	StatusSkipped   = "skipped"   // not run: an earlier action stopped the plan
	StatusDenied    = "denied"    // the person said no
	StatusTimeout   = "timeout"   // nobody answered in time
	StatusWithdrawn = "withdrawn" // its client gave up (cancelled, went away) before the person answered
	StatusRefused   = "refused"   // blocked, or approval required and no approver
	StatusKilled    = "killed"    // the kill switch stopped it
	StatusDryRun    = "dry-run"   // would have been decided as Decision; nothing ran
	StatusRejected  = "rejected"  // the plan did not parse
	StatusEdited    = "edited"    // the person edited it in the approval popup; their edit was judged and ran instead
)

// ActionReport is what happened to one action.
type ActionReport struct {
	Index    int      `json:"index"`
	Line     int      `json:"line"`
	Preview  string   `json:"preview"`
	Risk     string   `json:"risk"`
	Reasons  []string `json:"reasons"`
	Decision string   `json:"decision"`           // auto, ask, granted, refused
	Approval string   `json:"approval,omitempty"` // approved, denied, timeout, killed, withdrawn, granted, edited
	Status   string   `json:"status"`
	Output   string   `json:"output,omitempty"`
	Error    string   `json:"error,omitempty"`
	Millis   float64  `json:"ms"`

	recorded bool // its outcome is in the history
}

// Report is the answer to a submission.
type Report struct {
	Request string         `json:"request"`
	Client  string         `json:"client"`
	Status  string         `json:"status"`
	Risk    string         `json:"risk,omitempty"`
	Reasons []string       `json:"reasons,omitempty"` // what only the whole plan shows
	Actions []ActionReport `json:"actions"`
	Error   string         `json:"error,omitempty"`
	// EditOf is set when the person edited the plan in the approval
	// popup: this report is of their edit, judged from scratch, and EditOf
	// is the request whose plan they edited (its actions ended "edited").
	// EditedBy says who edited it and where.
	EditOf   string `json:"editOf,omitempty"`
	EditedBy string `json:"editedBy,omitempty"`
}

// Submit takes a plan through the whole pipeline. notify, when not nil,
// receives the submission's events as they happen. The returned error is
// nil only when every action ran and succeeded (or, in a dry run, when the
// plan was judged); it wraps ErrKilled, ErrDenied, ErrWithdrawn, ErrBlocked,
// ErrApprovalRequired, approval.ErrTimeout or the first failure. ctx is the
// client's: its ending while the plan waits for the person withdraws it.
func (g *Gate) Submit(ctx context.Context, s Submission, notify func(Event)) (Report, error) {
	tctx, done, err := g.Track(ctx)
	if err != nil {
		// Refused, and recorded: nothing refused goes unrecorded.
		rep := Report{Client: s.Client}
		sub := &submission{g: g, s: s, rep: &rep, notify: notify, autonomy: g.level(), live: g.current()}
		if rerr := sub.recordRequest(context.WithoutCancel(ctx)); rerr != nil {
			return sub.fail(StatusKilled, errors.Join(err, rerr))
		}
		return sub.refuseWhole(ctx, StatusKilled, err)
	}
	defer done()
	return g.submit(tctx, s, notify)
}

// submit is Submit for an operation already tracked.
func (g *Gate) submit(ctx context.Context, s Submission, notify func(Event)) (Report, error) {
	rep := Report{Client: s.Client, EditOf: s.editOf, EditedBy: s.editedBy}
	sub := &submission{g: g, s: s, rep: &rep, notify: notify, autonomy: g.level(), live: g.current()}
	// The request is recorded while the plan is assessed, beside the
	// history's commit instead of before it: assessing and deciding only
	// read, and run waits for the record before it tells anyone anything,
	// records a decision as made or runs anything.
	return sub.run(ctx, sub.queueRequest(ctx))
}

// queuer is a Recorder that takes records without waiting for each to be
// durable (history.Store): it writes them in the order given, and may
// commit a request and its decisions together.
type queuer interface {
	QueueRequest(ctx context.Context, r history.Request) history.Pending
	QueueDecision(ctx context.Context, d history.Decision) history.Pending
}

// The history the gate is built with queues; a change to its methods must
// not leave the gate waiting on each record unnoticed.
var _ queuer = (*history.Store)(nil)

// queueRequest starts recording the submission's request and returns what
// waits for it to be durable. A Recorder that is not a queuer records it
// before queueRequest returns.
func (sub *submission) queueRequest(ctx context.Context) func() error {
	r := sub.request()
	q, ok := sub.g.cfg.History.(queuer)
	if !ok {
		// Recorded first, then assessed.
		err := sub.record(ctx, r)
		return func() error { return err }
	}
	p := q.QueueRequest(ctx, r)
	return func() error {
		// Handed over, it is written within a commit: the answer is
		// waited for even past a kill, which then finds it recorded.
		if err := p.Wait(context.WithoutCancel(ctx)); err != nil {
			return fmt.Errorf("recording the request: %w", err)
		}
		return nil
	}
}

// recordRequest gives the submission its request id and records it.
func (sub *submission) recordRequest(ctx context.Context) error {
	return sub.record(ctx, sub.request())
}

// record records the request r (sub.request's).
func (sub *submission) record(ctx context.Context, r history.Request) error {
	if err := sub.g.cfg.History.AddRequest(ctx, r); err != nil {
		return fmt.Errorf("recording the request: %w", err)
	}
	return nil
}

// request gives the submission its request id and returns the record of
// the request.
func (sub *submission) request() history.Request {
	g, s, rep := sub.g, sub.s, sub.rep
	rep.Request = s.id
	if rep.Request == "" {
		rep.Request = g.cfg.NewID()
	}
	kind, text := s.Kind, s.Plan
	if kind == "" {
		kind = KindPlan
	}
	if s.recordKind != "" {
		kind = s.recordKind
	}
	if len(s.Argv) > 0 {
		text += "\n-- argv: " + shellQuote(s.Argv)
	}
	text += s.note
	return history.Request{ID: rep.Request, Time: g.cfg.Now(),
		Client: s.Client, Program: s.Identity.Program, Kind: kind, Text: text,
		EditOf: s.editOf, EditedBy: s.editedBy}
}

func (g *Gate) level() policy.Autonomy {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.autonomy
}

// submission is the state of one Submit.
type submission struct {
	g        *Gate
	s        Submission
	rep      *Report
	notify   func(Event)
	autonomy policy.Autonomy
	live     live // the settings it is rated, decided and run with
	steps    []step
}

// step is one thing the submission would do: an action of a plan, or the
// script.
type step struct {
	line    int
	text    string // the exact text the person approves (and a grant covers)
	preview string
	verdict risk.Verdict
	// confined says the step runs in the OS sandbox (a command or script);
	// script that it is AppleScript or JXA.
	confined, script bool
	// run carries the step out; approved says the person approved it.
	run func(ctx context.Context, approved bool) (execute.Result, error)
	// runsOf names the files the step runs besides its text (a remembered
	// approval pins them); runs is its answer, worked out only for a step
	// that would be asked about.
	runsOf func(ctx context.Context) risk.Runs
	runs   risk.Runs
	// releaseTo, for RELEASE_LOCK, is the app the plan switches to: the
	// step releases the context lock, and the next action that types or
	// clicks locks onto that app (nil run).
	releaseTo string
	// argv and dir are, for a command, what it runs and where ("" the
	// home), for the person's rules (applyRules), which may mark it
	// refused (refusal says why), asked every time (ruleAsks) or allowed
	// while check holds.
	argv     []string
	dir      string
	refusal  string
	ruleAsks bool
	check    func() error
	// rulePins are the allow rule's pins of the files it runs, for the
	// hold right before it starts (holdRuns).
	rulePins []policy.Pin
	// shown pins the files the step runs as they were when the approval
	// popup was put up: an approved step starts only while they hold
	// (nil: nothing could be pinned, or it was not asked about).
	shown []policy.Pin
	// reassess rates the command or script again, for a check right
	// before it starts (stillRated): its verdict read the disk (what a
	// path names, what the working folder holds), which another action
	// can change while it waits for its turn.
	reassess func(ctx context.Context) (risk.Verdict, error)
}

// releaseLock is the DSL command the gate carries out itself.
const releaseLock = "RELEASE_LOCK"

// steps turns the submission into what it would do, with the verdict of
// each and of the whole. A plan that does not parse is an error. The
// assessment runs under ctx: the kill switch stops it, and the error then
// wraps risk.ErrStopped.
func (sub *submission) prepare(ctx context.Context) (risk.Verdict, []string, error) {
	g, s, env := sub.g, sub.s, sub.live.env
	if s.editOf == "" && strings.Contains(strings.ToLower(s.Client), editedMark) {
		// The popup would show it as the person's own edit (edited).
		return risk.Verdict{}, nil, fmt.Errorf("%w: the client's name %q claims the person's edit: only Airlock says %q, and only of a plan the person edited",
			ErrBlocked, s.Client, editedMark)
	}
	switch s.Kind {
	case "", KindPlan:
		p, err := action.Parse(s.Plan)
		if err != nil {
			return risk.Verdict{}, nil, fmt.Errorf("%w: the plan does not parse: %v", ErrBlocked, err)
		}
		total, per, err := risk.PlanContext(ctx, p, s.Plan, env)
		if err != nil {
			return risk.Verdict{}, nil, err
		}
		for i, a := range p.Actions {
			assessed := per[i].Level
			st := step{line: a.Line, text: a.String(), preview: a.Preview(), verdict: per[i],
				run: func(ctx context.Context, approved bool) (execute.Result, error) {
					if approved {
						ctx = execute.WithApproved(ctx)
					}
					return g.cfg.Exec.RunAssessed(ctx, a, assessed)
				}}
			st.runsOf = func(ctx context.Context) risk.Runs {
				return risk.RunFiles(ctx, risk.KindDSL, st.text, sub.home(), env)
			}
			if a.Cmd.Name == releaseLock {
				// The gate's own state, not the executor's work.
				st.releaseTo, _ = a.Arg("app")
				st.run = nil
			}
			sub.steps = append(sub.steps, st)
		}
		return total, planOnly(total, p, per), nil
	case KindAppleScript, KindJXA, KindCommand:
		if s.Kind != KindCommand && (s.Dir != "" || s.Path != "") {
			return risk.Verdict{}, nil, fmt.Errorf("%w: a working folder and PATH are given only with a command", ErrBlocked)
		}
		var v risk.Verdict
		var err error
		var preview, dir string
		text, argv := s.Plan, s.Argv
		switch s.Kind {
		case KindAppleScript:
			v, err = risk.AssessContext(ctx, risk.KindAppleScript, s.Plan, env)
			risk.ScriptArgs(&v, s.Argv, env)
			preview = "Run AppleScript"
		case KindJXA:
			v, err = risk.AssessContext(ctx, risk.KindJXA, s.Plan, env)
			risk.ScriptArgs(&v, s.Argv, env)
			preview = "Run JavaScript for Automation"
		case KindCommand:
			if s.Plan != "" {
				return risk.Verdict{}, nil, fmt.Errorf("%w: a command is given as argv, not as text", ErrBlocked)
			}
			// No shell runs the command, so Airlock expands ~ itself, before
			// it is rated and shown: what the person approves is the path
			// that is used.
			argv = expandHome(s.Argv, env.Paths.Home)
			if argv, dir, err = commandPlace(argv, s.Dir, s.Path, env.Paths); err != nil {
				return risk.Verdict{}, nil, fmt.Errorf("%w: %v", ErrBlocked, err)
			}
			v, err = risk.ShellArgvIn(ctx, argv, dir, env)
		}
		if err != nil {
			return risk.Verdict{}, nil, err
		}
		if s.Kind == KindCommand {
			text = shellQuote(argv)
			preview = "Run " + text
			if dir != "" {
				// Where it runs is part of what is approved: a grant for
				// "rm -r build" in one folder covers no other.
				text += "\n-- in: " + dir
				preview += " (in " + dir + ")"
			}
		}
		if len(argv) > 0 && s.Kind != KindCommand {
			text += "\n-- arguments: " + shellQuote(argv)
		}
		if n := strings.Count(s.Plan, "\n") + 1; s.Kind != KindCommand {
			preview += fmt.Sprintf(" (%d lines)", n)
		}
		kind, src := s.Kind, s.Plan
		sub.steps = []step{{line: 1, text: text, preview: preview, verdict: v, confined: true, script: s.Kind != KindCommand,
			run: func(ctx context.Context, approved bool) (execute.Result, error) {
				gr := sandbox.GrantFor(v, approved)
				if approved {
					// What the person approved may see the hidden files it names.
					gr.Reveal = sandbox.Reveals(sub.home(), append([]string{src, dir}, argv...)...)
				}
				return g.cfg.Exec.RunScript(ctx, kind, src, argv, dir, gr)
			},
			runsOf: func(ctx context.Context) risk.Runs {
				switch kind {
				case KindCommand:
					// Commands start in dir, or else the home
					// (execute.RunScript).
					if dir != "" {
						return risk.RunFilesArgv(ctx, argv, dir, env)
					}
					return risk.RunFilesArgv(ctx, argv, sub.home(), env)
				case KindJXA:
					return risk.RunFiles(ctx, risk.KindJXA, src, sub.home(), env)
				}
				return risk.RunFiles(ctx, risk.KindAppleScript, src, sub.home(), env)
			}}}
		if s.Kind == KindCommand {
			sub.steps[0].argv, sub.steps[0].dir = argv, dir
		}
		sub.steps[0].reassess = func(ctx context.Context) (risk.Verdict, error) {
			switch kind {
			case KindCommand:
				return risk.ShellArgvIn(ctx, argv, dir, env)
			case KindJXA:
				v, err := risk.AssessContext(ctx, risk.KindJXA, src, env)
				risk.ScriptArgs(&v, argv, env)
				return v, err
			}
			v, err := risk.AssessContext(ctx, risk.KindAppleScript, src, env)
			risk.ScriptArgs(&v, argv, env)
			return v, err
		}
		return v, nil, nil
	default:
		return risk.Verdict{}, nil, fmt.Errorf("%w: unknown kind %q: want dsl, applescript, jxa or command", ErrBlocked, s.Kind)
	}
}

// run assesses and decides the submission while its request is being
// recorded, and carries it out. recorded waits for the request's record:
// nothing is told, recorded as decided or run before it has answered, and
// a request that could not be recorded is refused, whatever its assessment
// found. Nothing runs unrecorded.
func (sub *submission) run(ctx context.Context, recorded func() error) (Report, error) {
	g, rep := sub.g, sub.rep
	total, planReasons, err := sub.prepare(ctx)
	if err != nil {
		if rerr := recorded(); rerr != nil {
			return sub.fail(StatusRefused, rerr)
		}
	}
	if errors.Is(err, risk.ErrStopped) {
		// The kill switch, or the client went away, while it was being
		// assessed: nothing was decided.
		if g.isKilled() {
			err = fmt.Errorf("%w: %w", ErrKilled, err)
		}
		return sub.fail(StatusKilled, err)
	}
	if err != nil {
		return sub.refuseWhole(ctx, StatusRejected, err)
	}
	rep.Risk = total.Level.String()
	rep.Reasons = planReasons

	// Decide every action before anything runs: a plan with a blocked
	// action is refused whole, and nothing of it runs.
	ask, blocked, unsupported := false, -1, -1
	rep.Actions = make([]ActionReport, len(sub.steps))
	assessed := make([]Event, 0, len(sub.steps)) // told once the request is recorded
	for i, st := range sub.steps {
		v := st.verdict
		ar := &rep.Actions[i]
		*ar = ActionReport{Index: i, Line: st.line, Preview: redact.String(st.preview), Risk: v.Level.String(),
			Reasons: redactAll(v.Texts()), Status: StatusSkipped}
		d := policy.Decide(sub.autonomy, v.Level)
		if st.script && g.cfg.NoScripts != "" && d != policy.Refuse {
			// Rated as anywhere, but never asked about: it cannot run.
			d = policy.Refuse
			ar.Reasons = append(ar.Reasons, g.cfg.NoScripts)
			if unsupported < 0 {
				unsupported = i
			}
		}
		d, ar.Reasons = sub.applyRules(ctx, i, d, ar.Reasons)
		if d == policy.Auto && st.confined && sub.live.box != nil {
			// Fail closed: what the OS sandbox cannot confine here never
			// runs unasked.
			if err := sub.live.box.Available(); err != nil {
				d = policy.Ask
				ar.Reasons = append(ar.Reasons, redact.String("runs without the OS sandbox ("+err.Error()+"): only if you approve it"))
			}
		}
		ar.Decision = d.String()
		switch {
		case d == policy.Refuse && unsupported == i:
		case d == policy.Refuse:
			if blocked < 0 {
				blocked = i
			}
		case d == policy.Ask && g.cfg.Grants != nil && sub.granted(ctx, i):
			ar.Approval = approvalGranted
		case d == policy.Ask:
			ask = true
		}
		assessed = append(assessed, Event{Type: EventAssessed, Index: i, Preview: ar.Preview, Risk: ar.Risk, Reasons: ar.Reasons, Decision: ar.Decision})
	}
	// What only the whole plan shows (recipients across actions) can call
	// for a question that no single action does.
	planAsk := policy.Decide(sub.autonomy, total.Level) == policy.Ask && len(rep.Reasons) > 0
	ask = ask || planAsk
	decided := sub.queueDecisions(ctx)
	if err := recorded(); err != nil {
		rep.Risk, rep.Reasons, rep.Actions = "", nil, nil // nothing was decided
		return sub.fail(StatusRefused, err)
	}
	for _, e := range assessed {
		sub.event(e)
	}
	if err := decided(); err != nil {
		return sub.fail(StatusRefused, err)
	}
	if blocked >= 0 {
		ar := &rep.Actions[blocked]
		ar.Status = StatusRefused
		ar.Error = sub.refusalOf(blocked)
		return sub.finish(ctx, StatusRefused, fmt.Errorf("%w: action %d (line %d): %s", ErrBlocked, blocked+1, ar.Line, ar.Error))
	}
	if unsupported >= 0 && !sub.s.DryRun {
		ar := &rep.Actions[unsupported]
		ar.Status, ar.Error = StatusRefused, g.cfg.NoScripts
		return sub.finish(ctx, StatusRefused, fmt.Errorf("%w: %s", ErrUnsupported, g.cfg.NoScripts))
	}
	if sub.s.DryRun {
		for i := range rep.Actions {
			rep.Actions[i].Status = StatusDryRun
		}
		return sub.finish(ctx, StatusDryRun, nil)
	}
	if ask {
		if err := sub.approve(ctx, planAsk); err != nil {
			var ed *editedPlan
			if errors.As(err, &ed) {
				return sub.edited(ctx, ed)
			}
			return sub.finish(ctx, statusOf(err), err)
		}
	}
	return sub.execute(ctx)
}

// approvalGranted marks an action that needed a question but matched a
// remembered grant exactly, so nobody was asked.
const approvalGranted = "granted"

// granted names the files step i runs and reports whether a remembered
// grant covers it: its text, for this client's program, with those files
// as they were approved (read again now).
func (sub *submission) granted(ctx context.Context, i int) bool {
	st := &sub.steps[i]
	if st.ruleAsks {
		return false // the person's rule asks every time
	}
	if st.runsOf != nil {
		st.runs = st.runsOf(ctx)
	}
	return sub.g.cfg.Grants.Allowed(sub.s.Identity, st.text, st.runs, st.verdict.Level)
}

// rememberable says whether the person may be offered "allow again" for
// the actions the submission asks about, and if not why: a grant must be
// possible for every action the answer would remember (Grants.Grantable:
// its program is verified, it is not destructive, and Airlock can name and
// read the files it runs).
func (sub *submission) rememberable() (bool, string) {
	g := sub.g
	if !sub.s.Identity.Verified() {
		return false, "the client's program is not verified"
	}
	if g.cfg.Grants == nil {
		return true, ""
	}
	for i, st := range sub.steps {
		// Every action asked about had its files named when it was
		// decided (granted).
		ar := sub.rep.Actions[i]
		if ar.Decision != policy.Ask.String() || ar.Approval == approvalGranted {
			continue
		}
		if st.ruleAsks {
			return false, "your rule asks about it every time"
		}
		if err := g.cfg.Grants.Grantable(sub.s.Identity, st.runs, st.verdict.Level); err != nil {
			why := strings.TrimPrefix(err.Error(), policy.ErrNotGrantable.Error()+": ")
			if len(sub.steps) > 1 {
				why = fmt.Sprintf("action %d: %s", i+1, why)
			}
			return false, why
		}
	}
	return true, ""
}

// approve asks the person about the plan: one request listing every action.
// It returns nil when the plan may start; actions the person did not allow
// are marked and stop the plan when reached.
func (sub *submission) approve(ctx context.Context, planAsk bool) error {
	g, rep := sub.g, sub.rep
	if g.cfg.Approver == nil {
		for i := range rep.Actions {
			if needsAnswer(rep.Actions[i], false) {
				rep.Actions[i].Status = StatusRefused
				rep.Actions[i].Error = ErrApprovalRequired.Error()
			}
		}
		return fmt.Errorf("%w: no one is there to approve this plan (risk %s)", ErrApprovalRequired, rep.Risk)
	}
	remember, whyNot := sub.rememberable()
	offer := sub.ruleOffer()
	req := approval.Request{ID: rep.Request, Client: sub.s.Client, Program: sub.s.Identity.Program,
		NoRemember: !remember, NoRememberWhy: whyNot, Tool: toolOf(sub.s), Asked: sub.s.asked,
		EditedBy: sub.s.editedBy, Edit: editOffer(sub.s),
		Created: g.cfg.Now(), Items: make([]approval.Item, len(rep.Actions))}
	for i, st := range sub.steps {
		ar := rep.Actions[i]
		// The person sees exactly what would run: the prompt is local and
		// shows the text unredacted (only what is stored or sent to the
		// client is redacted), so nothing approved can hide behind a
		// "[redacted]" marker.
		req.Items[i] = approval.Item{Index: i + 1, Preview: st.preview, Text: st.text,
			Risk: st.verdict.Level, Reasons: ar.Reasons, RunsAnyway: !needsAnswer(ar, planAsk)}
	}
	if offer != nil {
		req.OfferRule = offer.Words
	}
	sub.pinShown(ctx, planAsk)
	sub.event(Event{Type: EventAwaitingApproval})
	ans, err := sub.ask(ctx, req)
	outcome, err := sub.outcome(ctx, ans, err)
	if outcome == approval.Edited {
		ans, outcome, err = sub.editUntilValid(ctx, req, ans)
	}
	sub.event(Event{Type: EventApproval, Approval: outcome.String()})
	if outcome == approval.Edited {
		for i := range rep.Actions {
			if needsAnswer(rep.Actions[i], planAsk) {
				rep.Actions[i].Approval = approval.Edited.String()
			}
			rep.Actions[i].Status = StatusEdited
		}
		return &editedPlan{text: ans.Text, by: ans.By}
	}
	if outcome != approval.Approved {
		for i := range rep.Actions {
			if needsAnswer(rep.Actions[i], planAsk) {
				rep.Actions[i].Approval = outcome.String()
				rep.Actions[i].Status = statusOf(err)
			}
		}
		return err
	}
	for i := range rep.Actions {
		ar := &rep.Actions[i]
		if !needsAnswer(*ar, planAsk) {
			continue
		}
		ok := i < len(ans.Items) && ans.Items[i]
		if !ok {
			ar.Approval = approval.Denied.String()
			continue
		}
		ar.Approval = approval.Approved.String()
		if ans.Remember && remember && ar.Decision == policy.Ask.String() && g.cfg.Grants != nil {
			// A grant covers exactly this text and the files it runs, as
			// they are now, for this client's verified program; never
			// destructive ones, nothing for an unverified program, nothing
			// whose files Airlock cannot name (Allow refuses those).
			st := sub.steps[i]
			g.cfg.Grants.Allow(sub.s.Identity, st.text, st.runs, st.verdict.Level, g.cfg.GrantTTL)
		}
	}
	if ans.Rule && offer != nil && rep.Actions[0].Approval == approval.Approved.String() {
		sub.keepRule(ctx, offer)
	}
	return nil
}

// ask asks the approver, once no action that types or clicks runs (see
// beginApproval).
// pinShown pins, for each step the person is asked about, the files it
// runs as they are when the popup goes up (a red team's find: a script
// rewritten while the popup was up ran as approved). The pins are read
// again right before the step starts (execute).
func (sub *submission) pinShown(ctx context.Context, planAsk bool) {
	for i := range sub.steps {
		st := &sub.steps[i]
		if st.runsOf == nil || !needsAnswer(sub.rep.Actions[i], planAsk) {
			continue
		}
		if !st.runs.Known && st.runs.Why == "" {
			st.runs = st.runsOf(ctx) // not named yet: no grant was looked up
		}
		if pins, err := policy.PinNow(st.runs); err == nil {
			st.shown = pins
		}
	}
}

func (sub *submission) ask(ctx context.Context, req approval.Request) (approval.Answer, error) {
	g := sub.g
	if err := g.beginApproval(ctx); err != nil {
		return approval.Answer{}, err
	}
	defer g.endApproval()
	return g.cfg.Approver.Ask(ctx, req)
}

// outcome is how a question ended, from the approver's answer and error:
// approved or edited by the person, or else the kill switch, the timeout,
// the client's withdrawal or a denial, with the error the submission ends
// with.
func (sub *submission) outcome(ctx context.Context, ans approval.Answer, err error) (approval.Outcome, error) {
	outcome := ans.Outcome
	switch {
	case err == nil && outcome == approval.Approved:
	case err == nil && outcome == approval.Edited && !sub.g.isKilled():
	case errors.Is(err, approval.ErrKilled) || outcome == approval.Killed || sub.g.isKilled():
		outcome, err = approval.Killed, ErrKilled
	case errors.Is(err, approval.ErrTimeout) || outcome == approval.Timeout:
		outcome, err = approval.Timeout, approval.ErrTimeout
	case errors.Is(err, ErrApprovalRequired):
		outcome = approval.Denied
	case errors.Is(err, ErrWithdrawn) || errors.Is(err, approval.ErrWithdrawn) || outcome == approval.Withdrawn ||
		ctx.Err() != nil && !errors.Is(err, approval.ErrDenied) && !errors.Is(err, ErrDenied):
		// The client gave up (its context ended) before the person
		// answered: not the person's denial.
		outcome, err = approval.Withdrawn, withdrawn(ctx)
	default:
		if err == nil || !errors.Is(err, ErrDenied) {
			err = fmt.Errorf("%w by the person", ErrDenied)
		}
		outcome = approval.Denied
	}
	return outcome, err
}

// maxEdits bounds how many times one submission's plan may be edited, one
// edit after another: past it the popup offers no Edit.
const maxEdits = 20

// editOffer is what the person may edit instead of answering: the plan, or
// the script (its arguments stay as they are); nil for a command, whose
// argv Airlock never parses from text, and past maxEdits.
func editOffer(s Submission) *approval.Edit {
	if s.edits >= maxEdits {
		return nil
	}
	switch s.Kind {
	case "", KindPlan:
		return &approval.Edit{Kind: KindPlan, Text: s.Plan}
	case KindAppleScript, KindJXA:
		return &approval.Edit{Kind: s.Kind, Text: s.Plan}
	}
	return nil
}

// editErrors says why text cannot stand as an edit of kind: a plan's
// line-numbered parse errors; a script that is empty or too large. A script
// is otherwise not checked here: the analyzer rates it, failing closed.
func editErrors(kind, text string) []string {
	switch kind {
	case KindPlan:
		if _, err := action.Parse(text); err != nil {
			var errs action.Errors
			if errors.As(err, &errs) {
				out := make([]string, len(errs))
				for i, e := range errs {
					out[i] = e.Error()
				}
				return out
			}
			return []string{err.Error()}
		}
	default:
		switch {
		case strings.TrimSpace(text) == "":
			return []string{"the script is empty"}
		case len(text) > action.MaxPlanBytes:
			return []string{fmt.Sprintf("the script is %d bytes; at most %d", len(text), action.MaxPlanBytes)}
		}
	}
	return nil
}

// editUntilValid takes the person's edit (ans, Edited) of req: while it
// does not parse, it asks again, showing the errors, until the person
// gives an edit that does, or cancels (a denial), or the question ends
// otherwise (timeout, kill, withdrawal). It returns the last answer and the
// outcome the original request ends with.
func (sub *submission) editUntilValid(ctx context.Context, req approval.Request, ans approval.Answer) (approval.Answer, approval.Outcome, error) {
	for {
		errs := editErrors(req.Edit.Kind, ans.Text)
		if len(errs) == 0 {
			return ans, approval.Edited, nil
		}
		again := approval.Request{Client: req.Client, Program: req.Program, NoRemember: true, Tool: req.Tool,
			Asked: req.Asked, EditedBy: req.EditedBy, Created: sub.g.cfg.Now(),
			Edit: &approval.Edit{Kind: req.Edit.Kind, Text: ans.Text, Errors: errs}}
		a, err := sub.ask(ctx, again)
		outcome, err := sub.outcome(ctx, a, err)
		if outcome != approval.Edited {
			return a, outcome, err
		}
		ans = a
	}
}

// editedPlan is approve's answer when the person edited the plan instead:
// their text, and who edited it where.
type editedPlan struct{ text, by string }

func (e *editedPlan) Error() string { return "the person edited the plan in the approval popup" }

// edited ends the submission whose plan the person edited (its actions end
// "edited"), and submits their edit in its place as a new request that
// names it: parsed, sanitised, assessed and decided from scratch, as the
// person's own plan. It keeps the program that asked for the record but not
// its identity: no grant covers the edit, and none is offered for it. Its
// report is the answer to the client.
func (sub *submission) edited(ctx context.Context, ed *editedPlan) (Report, error) {
	g, s := sub.g, sub.s
	next := g.cfg.NewID()
	why := fmt.Errorf("the person edited the plan in the approval popup; their edit is request %s", next)
	for i := range sub.rep.Actions {
		sub.rep.Actions[i].Error = "replaced by the person's edit, request " + next
	}
	if _, err := sub.finish(ctx, StatusEdited, why); err != why {
		return *sub.rep, err // its outcome could not be recorded: nothing more runs
	}
	client := s.Client
	if s.editOf == "" {
		client += " (" + editedMark + ")"
	}
	edit := Submission{Client: client, Identity: policy.Identity{Program: s.Identity.Program}, Kind: s.Kind, Plan: ed.text,
		Argv: s.Argv, id: next, asked: s.asked, editOf: sub.rep.Request, editedBy: ed.by, edits: s.edits + 1}
	return g.submit(ctx, edit, sub.notify)
}

// editedMark is what the client's name of the person's edit ends with, in
// parentheses: no client may give itself a name that holds it.
const editedMark = "edited by the person"

// needsAnswer says whether the person's answer decides whether the action
// may run: it was asked about and no grant covers it, or the whole plan was
// asked about.
func needsAnswer(ar ActionReport, planAsk bool) bool {
	if ar.Approval == approvalGranted {
		return false
	}
	return ar.Decision == policy.Ask.String() || planAsk
}

// home is the folder commands start in and ~ names (the analyzers' home,
// which the executor shares), or "" when none is configured.
// home is the home folder of the settings the submission runs with.
func (sub *submission) home() string { return homeOf(sub.live.env) }

func homeOf(env *risk.Env) string {
	if env == nil || env.Paths == nil {
		return ""
	}
	return env.Paths.Home
}

func (g *Gate) isKilled() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.killed
}

// execute runs the actions in order and stops at the first one that does
// not succeed; the rest are reported as skipped.
func (sub *submission) execute(ctx context.Context) (Report, error) {
	g, rep := sub.g, sub.rep
	// Each submission has its own lock, taken when it starts executing:
	// another submission's start must not move it.
	var lock *policy.ContextLock
	var lockErr error
	if g.cfg.Frontmost != nil {
		lock = policy.NewContextLock(g.cfg.Frontmost)
		lockErr = lock.Lock(ctx)
		defer lock.Release()
	}
	switchTo := "" // the app a RELEASE_LOCK named, until input locks onto it
	for i, st := range sub.steps {
		ar := &rep.Actions[i]
		if ar.Approval == approval.Denied.String() {
			ar.Status = StatusDenied
			return sub.finish(ctx, StatusDenied, fmt.Errorf("%w: action %d (line %d) was not approved", ErrDenied, i+1, ar.Line))
		}
		synth := st.verdict.SynthesisesInput()
		if synth {
			if switchTo != "" && lock != nil {
				lockErr = lock.LockOn(ctx, switchTo)
				switchTo = ""
			}
			if err := checkLock(ctx, lock, lockErr); err != nil {
				ar.Status, ar.Error = StatusRefused, err.Error()
				return sub.finish(ctx, StatusRefused, err)
			}
		}
		if err := g.begin(ctx, synth); err != nil {
			if errors.Is(err, ErrApprovalOnScreen) {
				ar.Status, ar.Error = StatusRefused, err.Error()
				return sub.finish(ctx, StatusRefused, err)
			}
			ar.Status, ar.Error = StatusKilled, ErrKilled.Error()
			return sub.finish(ctx, StatusKilled, ErrKilled)
		}
		sub.event(Event{Type: EventStarted, Index: i, Preview: ar.Preview})
		start := time.Now()
		var res execute.Result
		var err error
		if st.run == nil {
			res.Output = releaseContextLock(lock, st.releaseTo)
			switchTo = st.releaseTo
		} else {
			approved := ar.Approval == approval.Approved.String() || ar.Approval == approvalGranted
			runCtx := ctx
			if ar.Approval == approvalGranted {
				// Checked again when its turn comes, right before it
				// starts: a file it runs changed while it waited (for
				// the person's answer to the rest of the plan, for the
				// action before it) and the grant no longer holds.
				id, text, runs, lvl := sub.s.Identity, st.text, st.runs, st.verdict.Level
				runCtx = execute.WithCheck(ctx, func() error { return g.cfg.Grants.Check(id, text, runs, lvl) })
			}
			if st.check != nil {
				runCtx = execute.WithCheck(runCtx, st.check) // an allow rule's pins, read again
			}
			if ar.Approval == approval.Approved.String() && st.shown != nil {
				// What the person approved is what the popup showed: the
				// files it runs must not have changed since.
				pins := st.shown
				runCtx = execute.WithCheck(runCtx, func() error {
					return policy.CheckPins(pins, "the approval popup showed it")
				})
			}
			if st.reassess != nil {
				runCtx = withStillRated(runCtx, st)
			}
			runCtx = sub.holdRuns(runCtx, st, ar.Approval)
			runCtx = execute.WithLabel(runCtx, fmt.Sprintf("request %s, action %d", rep.Request, i+1))
			live := sub.liveOutput(i, st)
			if live != nil {
				runCtx = execute.WithOutput(runCtx, live.write)
			}
			res, err = st.run(runCtx, approved)
			if live != nil {
				live.close() // the last of it goes before the result
			}
		}
		g.end(synth)
		if note := sub.reviewed(ctx, i, res); note != "" {
			res.Output = joinLines(res.Output, note)
		}
		ar.Millis = float64(time.Since(start).Microseconds()) / 1000
		ar.Output = redact.String(res.Output)
		switch {
		case err == nil:
			ar.Status = StatusOK
		case errors.Is(err, policy.ErrLapsed), errors.Is(err, errRatedHigher):
			ar.Status, ar.Error = StatusRefused, redact.String(err.Error())+"; submit it again to be asked"
		case g.isKilled() || errors.Is(err, context.Canceled) && ctx.Err() != nil:
			ar.Status, ar.Error = StatusKilled, ErrKilled.Error()
		default:
			ar.Status, ar.Error = StatusFailed, redact.String(err.Error())
		}
		if rerr := sub.recordOutcome(ctx, i); rerr != nil && err == nil {
			err = rerr
			ar.Status, ar.Error = StatusFailed, rerr.Error()
		}
		sub.event(Event{Type: EventResult, Index: i, Preview: ar.Preview, Status: ar.Status, Output: ar.Output, Error: ar.Error})
		if ar.Status != StatusOK {
			if ar.Status == StatusKilled {
				return sub.finish(ctx, StatusKilled, ErrKilled)
			}
			if ar.Status == StatusRefused {
				return sub.finish(ctx, StatusRefused, fmt.Errorf("action %d (line %d) did not start: %w", i+1, ar.Line, err))
			}
			return sub.finish(ctx, StatusFailed, fmt.Errorf("action %d (line %d) failed: %s", i+1, ar.Line, ar.Error))
		}
	}
	return sub.finish(ctx, StatusOK, nil)
}

// holdRuns returns ctx carrying, for a step whose approval pinned the
// files it runs (the popup's pins, a grant's, an allow rule's), the hold
// that reads them once more right before it starts and hands the executor
// their bytes when each still holds what was approved: the action runs
// from those bytes, not from what the paths hold by the time its
// interpreter opens them (the agent's tools, outside Airlock, can swap a
// file in the microseconds after its last read).
func (sub *submission) holdRuns(ctx context.Context, st step, approvedAs string) context.Context {
	var pins []policy.Pin
	switch {
	case approvedAs == approvalGranted && sub.g.cfg.Grants != nil:
		pins = sub.g.cfg.Grants.PinsOf(sub.s.Identity, st.text, st.runs)
	case approvedAs == approval.Approved.String():
		pins = st.shown
	}
	if st.check != nil {
		pins = append(slices.Clone(pins), st.rulePins...)
	}
	if len(pins) == 0 {
		return ctx
	}
	return execute.WithHold(ctx, func() ([]sandbox.Pinned, error) {
		held, err := policy.Hold(pins, "it was approved")
		if err != nil {
			return nil, err
		}
		out := make([]sandbox.Pinned, len(held))
		for i, h := range held {
			out[i] = sandbox.Pinned{Path: h.Path, Mode: uint32(h.Mode.Perm()), ModTime: h.ModTime.UnixNano(), Bytes: h.Bytes}
		}
		return out, nil
	})
}

func joinLines(a, b string) string {
	if a == "" {
		return b
	}
	return a + "\n" + b
}

// releaseContextLock releases the submission's lock for RELEASE_LOCK and
// says so; the caller locks onto app before the next input.
func releaseContextLock(lock *policy.ContextLock, app string) string {
	if lock == nil {
		return "no context lock is kept here (this gate reads no frontmost app): nothing to release"
	}
	was := "none was held"
	if a, held := lock.Locked(); held {
		was = "it was on " + a.String()
	}
	lock.Release()
	return fmt.Sprintf("context lock released (%s); the next action that types or clicks locks onto %q and is refused if another app is in front", was, app)
}

func checkLock(ctx context.Context, lock *policy.ContextLock, lockErr error) error {
	if lock == nil {
		return nil
	}
	if lockErr != nil {
		return fmt.Errorf("refused: this action types or clicks, and the frontmost app could not be locked: %w", lockErr)
	}
	return lock.Check(ctx)
}

// toolOf is what the approval shows as carrying the actions: "plan" for a
// plan a client wrote, the script's kind for a script or command, and
// nothing for a plan a model made from a request in words (Asked shows the
// words instead).
func toolOf(s Submission) string {
	switch {
	case s.asked != "":
		return ""
	case s.Kind == KindAppleScript:
		return "AppleScript"
	case s.Kind == KindJXA:
		return "JavaScript for Automation"
	case s.Kind == KindCommand:
		return "command"
	}
	return "plan"
}

// withdrawn is the error of a request its client withdrew: ctx's cause says
// how (the client disconnected, the gate is shutting down).
func withdrawn(ctx context.Context) error {
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) {
		return fmt.Errorf("%w: %v", ErrWithdrawn, cause)
	}
	return ErrWithdrawn
}

// expandHome returns argv with each argument that is ~, or starts with ~/,
// made absolute under home, as a shell would expand it. Nothing else is
// expanded (~user, $HOME, ~ within an argument): the analyzer reads those
// as the words they are, and the program gets them so.
func expandHome(argv []string, home string) []string {
	out := make([]string, len(argv))
	for i, a := range argv {
		switch {
		case home == "":
			out[i] = a
		case a == "~":
			out[i] = home
		case strings.HasPrefix(a, "~/"):
			out[i] = home + a[1:]
		default:
			out[i] = a
		}
	}
	return out
}

// fail ends a submission before any action was decided.
func (sub *submission) fail(status string, err error) (Report, error) {
	sub.rep.Status, sub.rep.Error = status, redact.String(err.Error())
	sub.event(Event{Type: EventDone, Status: status, Error: sub.rep.Error})
	return *sub.rep, err
}

// refuseWhole ends a submission refused as a whole before any of its
// actions was decided (the kill switch was on, the plan did not parse), and
// records why: the history has one row for the whole request, decided
// "refused" at risk blocked, with status (StatusKilled, StatusRejected) and
// err as its outcome. The request itself must have been recorded.
func (sub *submission) refuseWhole(ctx context.Context, status string, err error) (Report, error) {
	rep := sub.rep
	rep.Risk = level.Blocked.String()
	if rerr := recordWhole(ctx, sub.g, rep.Request, int(sub.autonomy), status, err); rerr != nil {
		err = errors.Join(err, rerr)
	}
	return sub.fail(status, err)
}

// wholePreview is what the history shows as the action of a request
// refused as a whole: none of its actions was decided or run.
var wholePreview = map[string]string{
	StatusKilled:   "Whole request refused: the kill switch was on; nothing ran",
	StatusRejected: "Whole request rejected (its error says why); nothing ran",
}

// recordWhole records the row of a request refused as a whole (see
// refuseWhole). A request that was never recorded (its id is empty, or
// recording it failed) gets nothing more.
func recordWhole(ctx context.Context, g *Gate, id string, autonomy int, status string, err error) error {
	if id == "" {
		return nil
	}
	ctx = context.WithoutCancel(ctx) // a refusal is recorded even if its client has gone
	why := redact.String(err.Error())
	if e := g.cfg.History.AddDecision(ctx, history.Decision{RequestID: id, Index: 0, Time: g.cfg.Now(),
		Preview: wholePreview[status], Risk: level.Blocked, Reasons: []string{why},
		Autonomy: autonomy, Decision: policy.Refuse.String()}); e != nil {
		return fmt.Errorf("recording the refusal: %w", e)
	}
	if e := g.cfg.History.AddOutcome(ctx, history.Outcome{RequestID: id, Index: 0, Time: g.cfg.Now(),
		Status: status, Error: why}); e != nil {
		return fmt.Errorf("recording the refusal: %w", e)
	}
	return nil
}

// finish records the outcome of every action that has not had one yet and
// ends the submission.
func (sub *submission) finish(ctx context.Context, status string, err error) (Report, error) {
	rep := sub.rep
	rep.Status = status
	if err != nil {
		rep.Error = redact.String(err.Error())
	}
	for i := range rep.Actions {
		ar := &rep.Actions[i]
		if ar.recorded {
			continue
		}
		if rerr := sub.recordOutcome(ctx, i); rerr != nil {
			// Never silent: a record that could not be written is part
			// of the answer.
			err = errors.Join(err, rerr)
			rep.Error = redact.String(err.Error())
		}
	}
	sub.event(Event{Type: EventDone, Status: status, Error: rep.Error})
	return *rep, err
}

func statusOf(err error) string {
	switch {
	case errors.Is(err, ErrKilled):
		return StatusKilled
	case errors.Is(err, approval.ErrTimeout):
		return StatusTimeout
	case errors.Is(err, ErrApprovalRequired):
		return StatusRefused
	case errors.Is(err, ErrWithdrawn):
		return StatusWithdrawn
	default:
		return StatusDenied
	}
}

// queueDecisions starts recording the decision on every step, after the
// request (queueRequest), and returns what waits for them to be durable,
// to be called once the request's record has answered. A Recorder that is
// not a queuer records them one by one when that is called.
func (sub *submission) queueDecisions(ctx context.Context) func() error {
	decision := func(i int) history.Decision {
		st, ar := sub.steps[i], sub.rep.Actions[i]
		return history.Decision{RequestID: sub.rep.Request, Index: i,
			Time: sub.g.cfg.Now(), Action: st.text, Preview: ar.Preview, Risk: st.verdict.Level,
			Reasons: ar.Reasons, Autonomy: int(sub.autonomy), Decision: ar.Decision}
	}
	q, ok := sub.g.cfg.History.(queuer)
	if !ok {
		return func() error {
			for i := range sub.steps {
				if err := sub.g.cfg.History.AddDecision(ctx, decision(i)); err != nil {
					return fmt.Errorf("recording the decision for action %d: %w", i+1, err)
				}
			}
			return nil
		}
	}
	// Queued after the request, they are written after it, in the same
	// commit when the writer has not begun it yet; a decision whose
	// request did not commit fails.
	queued := make([]history.Pending, len(sub.steps))
	for i := range sub.steps {
		queued[i] = q.QueueDecision(ctx, decision(i))
	}
	return func() error {
		for i, p := range queued {
			if err := p.Wait(ctx); err != nil {
				return fmt.Errorf("recording the decision for action %d: %w", i+1, err)
			}
		}
		return nil
	}
}

func (sub *submission) recordOutcome(ctx context.Context, i int) error {
	ar := &sub.rep.Actions[i]
	ar.recorded = true
	err := sub.g.cfg.History.AddOutcome(context.WithoutCancel(ctx), history.Outcome{RequestID: sub.rep.Request, Index: i,
		Time: sub.g.cfg.Now(), Approval: ar.Approval, Status: ar.Status,
		Duration: time.Duration(ar.Millis * float64(time.Millisecond)), Output: ar.Output, Error: ar.Error})
	if err != nil {
		return fmt.Errorf("recording the result of action %d: %w", i+1, err)
	}
	return nil
}

// liveOutput returns what streams the output of step i while it runs to
// the submission's client, or nil when there is nothing to stream it to or
// the step is not a command. The menu and the log get only the result.
func (sub *submission) liveOutput(i int, st step) *liveOutput {
	if sub.notify == nil || st.argv == nil {
		return nil
	}
	return newLiveOutput(func(stream, text string) {
		sub.notify(Event{Type: EventOutput, Request: sub.rep.Request, Index: i, Stream: stream, Output: text, Time: sub.g.cfg.Now()})
	})
}

func (sub *submission) event(e Event) {
	e.Request = sub.rep.Request
	e.Time = sub.g.cfg.Now()
	if sub.notify != nil {
		sub.notify(e)
	}
	sub.g.emit(e)
}

// planOnly returns the reasons of the plan's verdict that no single action
// has: what only the whole plan shows (risk.Plan repeats each action's
// reasons in the total, prefixed with its line).
func planOnly(total risk.Verdict, p *action.Plan, per []risk.Verdict) []string {
	seen := map[string]bool{}
	for i, v := range per {
		for _, r := range v.Reasons {
			seen[r.Rule+"\x00"+fmt.Sprintf("line %d: %s", p.Actions[i].Line, r.Text)] = true
		}
	}
	var out []string
	for _, r := range total.Reasons {
		if !seen[r.Rule+"\x00"+r.Text] {
			out = append(out, redact.String(r.Text))
		}
	}
	return out
}

func firstBlocked(v risk.Verdict) string {
	for _, r := range v.Reasons {
		if r.Level == level.Blocked {
			return redact.String(r.Text)
		}
	}
	return "blocked"
}

func redactAll(ss []string) []string {
	for i, s := range ss {
		ss[i] = redact.String(s)
	}
	return ss
}

// shellQuote writes argv as a shell would need it (mvdan.cc/sh's quoting),
// for showing only: it is never run through a shell. An argument no shell
// can hold (a NUL byte) is shown Go-quoted.
func shellQuote(argv []string) string {
	out := make([]string, len(argv))
	for i, a := range argv {
		q, err := syntax.Quote(a, syntax.LangBash)
		if err != nil {
			q = strconv.Quote(a)
		}
		out[i] = q
	}
	return strings.Join(out, " ")
}

func randomID() string {
	var b [12]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("gate: no randomness: " + err.Error())
	}
	return hex.EncodeToString(b[:])
}
