package gate_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// fakeExec records what it was asked to run. run, when set, decides the
// result; it is called with the action's context.
type fakeExec struct {
	mu     sync.Mutex
	ran    []string
	grants []ossandbox.Grant // of each script, in order
	run    func(ctx context.Context, a action.Action) (execute.Result, error)
	// script, when set, is called while a script runs.
	script func(ctx context.Context)
}

// Run and RunScript honour execute.WithCheck as the real executor does:
// an action whose check fails does not start (and is not recorded).
func (f *fakeExec) RunAssessed(ctx context.Context, a action.Action, _ level.Level) (execute.Result, error) {
	if err := execute.Check(ctx); err != nil {
		return execute.Result{}, err
	}
	f.mu.Lock()
	f.ran = append(f.ran, a.Cmd.Name)
	f.mu.Unlock()
	if f.run != nil {
		return f.run(ctx, a)
	}
	return execute.Result{Output: "done " + a.Cmd.Name}, nil
}

func (f *fakeExec) RunScript(ctx context.Context, kind, src string, argv []string, dir string, g ossandbox.Grant) (execute.Result, error) {
	if err := execute.Check(ctx); err != nil {
		return execute.Result{}, err
	}
	f.mu.Lock()
	f.ran = append(f.ran, kind)
	f.grants = append(f.grants, g)
	f.mu.Unlock()
	if f.script != nil {
		f.script(ctx)
	}
	return execute.Result{Output: "ran " + kind}, ctx.Err()
}

func (f *fakeExec) names() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.ran...)
}

// memHistory keeps records in memory.
type memHistory struct {
	mu        sync.Mutex
	requests  []history.Request
	decisions []history.Decision
	outcomes  []history.Outcome
	calls     []history.ModelCall
	fail      error
}

func (h *memHistory) AddModelCall(_ context.Context, m history.ModelCall) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fail != nil {
		return h.fail
	}
	h.calls = append(h.calls, m)
	return nil
}

func (h *memHistory) AddRequest(_ context.Context, r history.Request) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fail != nil {
		return h.fail
	}
	h.requests = append(h.requests, r)
	return nil
}

func (h *memHistory) AddDecision(_ context.Context, d history.Decision) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fail != nil {
		return h.fail
	}
	h.decisions = append(h.decisions, d)
	return nil
}

func (h *memHistory) AddOutcome(_ context.Context, o history.Outcome) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fail != nil {
		return h.fail
	}
	h.outcomes = append(h.outcomes, o)
	return nil
}

func (h *memHistory) outcomeStatuses() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for _, o := range h.outcomes {
		out = append(out, o.Status)
	}
	return out
}

// answerer is an Approver that answers with a function and counts calls.
type answerer struct {
	mu     sync.Mutex
	asked  []approval.Request
	answer func(ctx context.Context, r approval.Request) (approval.Answer, error)
	killed int
}

func (a *answerer) Ask(ctx context.Context, r approval.Request) (approval.Answer, error) {
	a.mu.Lock()
	a.asked = append(a.asked, r)
	a.mu.Unlock()
	return a.answer(ctx, r)
}

func (a *answerer) KillAll() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.killed++
	return 0
}

func (a *answerer) count() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.asked)
}

func approveAll(_ context.Context, r approval.Request) (approval.Answer, error) {
	ans := approval.Answer{Outcome: approval.Approved, Items: make([]bool, len(r.Items))}
	for i := range ans.Items {
		ans.Items[i] = true
	}
	return ans, nil
}

func denyAll(context.Context, approval.Request) (approval.Answer, error) {
	return approval.Answer{Outcome: approval.Denied}, approval.ErrDenied
}

// sandbox makes a home with the default sandbox roots and returns the
// analyzers' environment.
func sandbox(t testing.TB) (*risk.Env, string) {
	t.Helper()
	home := t.TempDir()
	for _, d := range []string{"Documents", "Downloads", "Desktop"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := sanitize.NewConfig(home, nil)
	if err != nil {
		t.Fatal(err)
	}
	return &risk.Env{Paths: cfg}, home
}

type rig struct {
	g    *gate.Gate
	exec *fakeExec
	hist *memHistory
	ask  *answerer
	home string
}

func newRig(t testing.TB, autonomy policy.Autonomy, answer func(context.Context, approval.Request) (approval.Answer, error), opts ...func(*gate.Config)) *rig {
	env, home := sandbox(t)
	r := &rig{exec: &fakeExec{}, hist: &memHistory{}, home: home}
	cfg := gate.Config{Env: env, Exec: r.exec, History: r.hist, Autonomy: autonomy,
		Grants: policy.NewGrants(nil)}
	if answer != nil {
		r.ask = &answerer{answer: answer}
		cfg.Approver = r.ask
	}
	for _, o := range opts {
		o(&cfg)
	}
	r.g = gate.New(cfg)
	return r
}

var errBoom = errors.New("boom")
