// Package gate is Airlock's one pipeline: every action, whoever proposes it,
// passes parse → sanitise → assess → decide → approve → execute → record
// here, and nothing else in the program may reach the executor (a test checks
// the import graph). It also owns the kill switch, and Ask, which has a
// model turn a request in words into a plan and then submits that plan like
// any other: model output never changes a decision. A plan the person edits
// in the approval popup instead of answering is theirs: it is judged again
// from scratch, as a new request that names the one it replaces.
//
// Its contract: nothing executes that the policy did not allow or the person
// did not approve; a blocked action is never offered for approval; when no
// approver is available an action that needs one fails with an error saying
// approval was required; and once Kill returns, nothing begins executing until
// Resume, which only the native UI calls.
package gate

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/llm"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// Errors callers branch on. Each is also safe to show to a user.
var (
	ErrKilled           = errors.New("the kill switch is on: nothing runs until you resume from the menu (Resume after a kill), or restart Airlock")
	ErrDenied           = errors.New("denied")
	ErrWithdrawn        = errors.New("withdrawn by its client before the person answered")
	ErrBlocked          = errors.New("blocked")
	ErrUnsupported      = errors.New("cannot run here")
	ErrApprovalRequired = policy.ErrApprovalRequired
)

// Executor carries out one action or script. execute.Executor implements
// it; tests give fakes. Both methods must return promptly once ctx is done,
// having stopped whatever they started (child process groups are killed).
// RunScript must run the script confined by the OS sandbox with the
// profile of g.
type Executor interface {
	// RunAssessed carries out an action assessed at the given level
	// (execute.Executor.RunAssessed: a launch is rated again at its start
	// and refused above it).
	RunAssessed(ctx context.Context, a action.Action, assessed level.Level) (execute.Result, error)
	RunScript(ctx context.Context, kind, src string, argv []string, dir string, g sandbox.Grant) (execute.Result, error)
}

// Sandbox says whether the OS sandbox confines commands and scripts here.
// sandbox.Box implements it.
type Sandbox interface {
	// Available returns nil when it does, else why not.
	Available() error
	// String says what confines them, or why nothing does, in one line.
	String() string
}

// EscapeKiller is an Executor whose actions can leave processes behind
// outside their own tree (a child that called setsid, an orphaned
// grandchild); execute.Executor is one. Kill calls KillEscaped once what was
// running has stopped: it must kill every such process, wait until they
// have died, and return how many it killed.
type EscapeKiller interface {
	KillEscaped() int
}

// Recorder keeps the history. history.Store implements it. A write that
// returns nil is durable. A Recorder that can also queue a request and its
// decisions without waiting for each (history.Store's QueueRequest and
// QueueDecision) has the request written while the plan is assessed, and
// the decisions in the same commit when they are queued in time (queuer).
type Recorder interface {
	AddRequest(ctx context.Context, r history.Request) error
	AddDecision(ctx context.Context, d history.Decision) error
	AddOutcome(ctx context.Context, o history.Outcome) error
	AddModelCall(ctx context.Context, m history.ModelCall) error
}

// Approver asks the person. approval.Broker implements it; nil means no
// approver is available.
type Approver interface {
	Ask(ctx context.Context, r approval.Request) (approval.Answer, error)
	KillAll() int
}

// Config is what a gate is built from. Env, Exec and History are required.
type Config struct {
	Env      *risk.Env
	Exec     Executor
	History  Recorder
	Approver Approver         // nil: nothing that needs approval can run
	Grants   *policy.Grants   // nil: no remembered grants
	Autonomy policy.Autonomy  // initial level; SetAutonomy changes it
	Now      func() time.Time // nil: time.Now
	Events   func(e Event)    // nil: none; must not block (called with no lock held)
	DrainMax time.Duration    // how long Kill waits for in-flight actions to stop; 0: 2 s
	GrantTTL time.Duration    // lifetime of a remembered grant; 0: the session
	NewID    func() string    // request ids; nil: random

	// LLM returns the model server Ask uses: endpoint, API, model and API
	// key as the person configured them, the key read from the key store
	// when it is called. nil: Ask is refused.
	LLM func(ctx context.Context) (llm.Config, error)
	// Frontmost, if set, says which app is in front: each submission locks
	// it when it starts executing and checks it before every action that
	// types or clicks (seed 003's context lock); Ask tells the model. nil:
	// no context lock (no frontmost app to watch).
	Frontmost policy.Frontmost
	// Sandbox is the OS sandbox Exec confines commands and scripts with.
	// Where it is not available, they never run unasked: the gate asks
	// the person for every one. nil: not known (for tests whose executor
	// runs nothing for real); the gate then decides by the level alone.
	Sandbox Sandbox
	// NoScripts, when set, says why AppleScript and JXA cannot run here
	// ("AppleScript and JXA need macOS"): such a submission is refused
	// before anyone is asked, rather than approved and then failed.
	NoScripts string
	// Rules are the person's lasting rules for commands (settings.json's
	// "rules"), read when the gate starts: see applyRules. nil: none.
	// Env, Sandbox and Rules are the gate's until Reconfigure changes
	// them (a settings reload).
	Rules policy.Rules
	// KeepRule keeps an allow rule the person chose in the approval popup
	// ("always allow this exact command here"). It must ask the person
	// once more in Airlock's own confirmation popup (it raises trust, like
	// the menu's items that do) and only on their yes write the rule to
	// the settings and put it in force, with Reconfigure; its error says
	// why it did not. nil: the popup does not offer it.
	KeepRule func(ctx context.Context, o RuleOffer) error
}

// Gate is the pipeline and the kill switch. It is safe for concurrent use.
type Gate struct {
	cfg Config

	mu       sync.Mutex
	live     live            // guarded by mu; what Reconfigure changes
	autonomy policy.Autonomy // guarded by mu
	killed   bool            // guarded by mu
	kills    int             // guarded by mu; trips since start
	runs     map[uint64]*run // guarded by mu; every tracked operation in flight
	nextRun  uint64          // guarded by mu
	actions  int             // guarded by mu; actions executing now
	pending  int             // guarded by mu; approvals waiting now
	synth    int             // guarded by mu; actions that type or click executing now
	// synthIdle, guarded by mu, is closed when synth drops to 0 (made by a
	// waiting beginApproval).
	synthIdle chan struct{}
}

// run is one tracked operation: a submission, or a model request.
type run struct {
	cancel  context.CancelFunc
	stopped chan struct{} // closed when the operation has ended
}

// New returns a gate. It starts un-killed at cfg.Autonomy.
func New(cfg Config) *Gate {
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.DrainMax == 0 {
		cfg.DrainMax = 2 * time.Second
	}
	if cfg.NewID == nil {
		cfg.NewID = randomID
	}
	return &Gate{cfg: cfg, live: live{env: cfg.Env, box: cfg.Sandbox, rules: cfg.Rules}, autonomy: cfg.Autonomy, runs: map[uint64]*run{}}
}

// Track registers a long-running operation (a submission, a model request)
// so the kill switch can cancel it. It fails with ErrKilled while the switch
// is on. The caller must call done when the operation ends.
func (g *Gate) Track(ctx context.Context) (context.Context, func(), error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.killed {
		return nil, nil, ErrKilled
	}
	ctx, cancel := context.WithCancel(ctx)
	id := g.nextRun
	g.nextRun++
	r := &run{cancel: cancel, stopped: make(chan struct{})}
	g.runs[id] = r
	var once sync.Once
	done := func() {
		once.Do(func() {
			cancel()
			g.mu.Lock()
			delete(g.runs, id)
			g.mu.Unlock()
			close(r.stopped)
		})
	}
	return ctx, done, nil
}

// begin is the one door to execution: it admits an action only while the
// switch is off and its submission is live, under the same lock Kill takes,
// so nothing is admitted after Kill has returned.
func (g *Gate) begin(ctx context.Context, synth bool) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.killed {
		return ErrKilled
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if synth && g.pending > 0 {
		return ErrApprovalOnScreen
	}
	g.actions++
	if synth {
		g.synth++
	}
	return nil
}

// ErrApprovalOnScreen refuses an action that types or clicks while an
// approval is being asked: synthesised input could answer it.
var ErrApprovalOnScreen = errors.New("refused: this action types or clicks, and an approval is on screen that it could answer; try again once it is answered")

// beginApproval waits until no action that types or clicks is running and
// then counts an approval as pending, under the same lock begin takes: an
// approval is never on screen while synthesised input runs, so no script can
// click Approve on the gate's own popup.
func (g *Gate) beginApproval(ctx context.Context) error {
	for {
		g.mu.Lock()
		if g.synth == 0 {
			g.pending++
			g.mu.Unlock()
			return nil
		}
		idle := g.synthIdle
		if idle == nil {
			idle = make(chan struct{})
			g.synthIdle = idle
		}
		g.mu.Unlock()
		select {
		case <-idle:
		case <-ctx.Done():
			return fmt.Errorf("%w (while waiting for an action that types or clicks to finish)", withdrawn(ctx))
		}
	}
}

func (g *Gate) endApproval() {
	g.mu.Lock()
	g.pending--
	g.mu.Unlock()
}

func (g *Gate) end(synth bool) {
	g.mu.Lock()
	if synth {
		g.synth--
		if g.synth == 0 && g.synthIdle != nil {
			close(g.synthIdle)
			g.synthIdle = nil
		}
	}
	g.actions--
	g.mu.Unlock()
}

// KillReport says what a trip of the kill switch stopped.
type KillReport struct {
	Cancelled  int           `json:"cancelled"`  // submissions and model requests cancelled
	Approvals  int           `json:"approvals"`  // pending approvals resolved as killed
	Stragglers int           `json:"stragglers"` // operations still running when Kill gave up waiting
	Escaped    int           `json:"escaped"`    // processes that had left their action's tree, killed
	Took       time.Duration `json:"took"`
}

// Kill trips the switch: from any state, at once, with no confirmation. It
// cancels every tracked operation (which SIGKILLs their child process
// groups, and whatever their actions started elsewhere), resolves every
// pending approval as killed, refuses new work with ErrKilled, waits (up to
// Config.DrainMax) for what was running to stop, and then, with an
// EscapeKiller executor, kills every process that escaped an action. Only
// Resume turns the switch off.
func (g *Gate) Kill() KillReport {
	start := g.cfg.Now()
	g.mu.Lock()
	g.killed = true
	g.kills++
	runs := make([]*run, 0, len(g.runs))
	for _, r := range g.runs {
		runs = append(runs, r)
	}
	g.mu.Unlock()

	rep := KillReport{Cancelled: len(runs)}
	// Approvals first, so that each resolves as killed rather than as
	// withdrawn by its cancelled submission.
	if g.cfg.Approver != nil {
		rep.Approvals = g.cfg.Approver.KillAll()
	}
	for _, r := range runs {
		r.cancel()
	}
	rep.Stragglers = waitStopped(runs, g.cfg.DrainMax)
	if k, ok := g.cfg.Exec.(EscapeKiller); ok {
		rep.Escaped = k.KillEscaped()
	}
	rep.Took = g.cfg.Now().Sub(start)
	g.emit(Event{Type: EventKilled, Time: g.cfg.Now()})
	return rep
}

// Resume turns the kill switch off. Only the native UI calls it: no client
// method reaches it.
func (g *Gate) Resume() {
	g.mu.Lock()
	g.killed = false
	g.mu.Unlock()
	g.emit(Event{Type: EventResumed, Time: g.cfg.Now()})
}

// SetAutonomy changes the autonomy level for work submitted from now on.
// Only the native UI calls it.
func (g *Gate) SetAutonomy(a policy.Autonomy) {
	g.mu.Lock()
	g.autonomy = a
	g.mu.Unlock()
	g.emit(Event{Type: EventAutonomy, Time: g.cfg.Now()})
}

// Status is a snapshot of the gate.
type Status struct {
	Killed    bool   `json:"killed"`
	Kills     int    `json:"kills"`
	Autonomy  int    `json:"autonomy"`
	Level     string `json:"level"`
	Running   int    `json:"running"`   // tracked operations
	Executing int    `json:"executing"` // actions executing now
	Pending   int    `json:"pending"`   // approvals waiting
	// Sandbox says what confines commands and scripts, or why nothing does
	// (then they run only when approved); "" when not known.
	Sandbox string `json:"sandbox,omitempty"`
}

// Status reports the gate's state.
func (g *Gate) Status() Status {
	var box string
	if sb := g.current().box; sb != nil {
		box = sb.String()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return Status{Killed: g.killed, Kills: g.kills, Autonomy: int(g.autonomy), Level: g.autonomy.String(),
		Running: len(g.runs), Executing: g.actions, Pending: g.pending, Sandbox: box}
}

func (g *Gate) emit(e Event) {
	if g.cfg.Events != nil {
		g.cfg.Events(e)
	}
}

// waitStopped waits up to max for every run to stop and returns how many
// had not.
func waitStopped(runs []*run, max time.Duration) int {
	deadline := time.NewTimer(max)
	defer deadline.Stop()
	for i, r := range runs {
		select {
		case <-r.stopped:
		case <-deadline.C:
			left := 0
			for _, r := range runs[i:] {
				select {
				case <-r.stopped:
				default:
					left++
				}
			}
			return left
		}
	}
	return 0
}
