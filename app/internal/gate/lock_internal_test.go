package gate

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// The DSL has no command that types or clicks, so a plan cannot yet put
// input after a RELEASE_LOCK; these tests give the executing submission
// such steps directly.

type front struct {
	mu  sync.Mutex
	app policy.App
}

func (f *front) Frontmost(context.Context) (policy.App, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.app, nil
}

func (f *front) set(a policy.App) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.app = a
}

type nopHistory struct {
	mu       sync.Mutex
	outcomes []history.Outcome
}

func (*nopHistory) AddRequest(context.Context, history.Request) error     { return nil }
func (*nopHistory) AddDecision(context.Context, history.Decision) error   { return nil }
func (*nopHistory) AddModelCall(context.Context, history.ModelCall) error { return nil }
func (h *nopHistory) AddOutcome(_ context.Context, o history.Outcome) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.outcomes = append(h.outcomes, o)
	return nil
}

type nopExec struct{}

func (nopExec) RunAssessed(context.Context, action.Action, level.Level) (execute.Result, error) {
	return execute.Result{}, nil
}
func (nopExec) RunScript(context.Context, string, string, []string, string, sandbox.Grant) (execute.Result, error) {
	return execute.Result{}, nil
}

var (
	textEdit = policy.App{BundleID: "com.apple.TextEdit", Name: "TextEdit", PID: 10}
	safari   = policy.App{BundleID: "com.apple.Safari", Name: "Safari", PID: 20}
	termApp  = policy.App{BundleID: "com.apple.Terminal", Name: "Terminal", PID: 30}
)

// typing is a step that types; switching brings app to the front;
// releasing is RELEASE_LOCK "app".
func typing() step {
	return step{preview: "type", verdict: risk.Verdict{Level: level.Caution, Reasons: []risk.Reason{{Level: level.Caution, Rule: "as.keystroke", Text: "types", Effect: effect.Of(effect.Input)}}},
		run: func(context.Context, bool) (execute.Result, error) { return execute.Result{Output: "typed"}, nil }}
}

func switching(f *front, app policy.App) step {
	return step{preview: "switch", verdict: risk.Verdict{Level: level.Caution},
		run: func(context.Context, bool) (execute.Result, error) { f.set(app); return execute.Result{}, nil }}
}

func releasing(app string) step {
	return step{preview: "release", releaseTo: app, verdict: risk.Verdict{Level: level.Caution}}
}

func TestReleaseLock(t *testing.T) {
	paths, err := sanitize.NewConfig(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name    string
		steps   func(f *front) []step
		status  string
		failed  int    // the action refused, from 0; -1 none
		wantErr string // in its error
	}{
		{"without a release, a switch refuses input", func(f *front) []step {
			return []step{typing(), switching(f, safari), typing()}
		}, StatusRefused, 2, "frontmost application changed"},
		{"a release to the app switched to lets input reach it, and only it", func(f *front) []step {
			return []step{typing(), releasing("Safari"), switching(f, safari), typing(), typing(), switching(f, termApp), typing()}
		}, StatusRefused, 6, "frontmost application changed from \"Safari\""},
		{"a release to one app does not let input reach another", func(f *front) []step {
			return []step{releasing("Safari"), switching(f, termApp), typing()}
		}, StatusRefused, 2, "the plan switched to \"Safari\", but \"Terminal\""},
		{"a release with no switch after it", func(f *front) []step {
			return []step{typing(), releasing("TextEdit"), typing()}
		}, StatusOK, -1, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := &front{app: textEdit}
			hist := &nopHistory{}
			g := New(Config{Env: &risk.Env{Paths: paths}, Exec: nopExec{}, History: hist, Frontmost: f})
			steps := tt.steps(f)
			rep := &Report{Actions: make([]ActionReport, len(steps))}
			for i := range rep.Actions {
				rep.Actions[i] = ActionReport{Index: i, Status: StatusSkipped}
			}
			sub := &submission{g: g, s: Submission{Client: "t"}, rep: rep, steps: steps}
			got, err := sub.execute(context.Background())
			if got.Status != tt.status {
				t.Fatalf("status %q (%v), want %q; actions %+v", got.Status, err, tt.status, got.Actions)
			}
			for i, a := range got.Actions {
				switch {
				case i == tt.failed:
					if a.Status != StatusRefused || !strings.Contains(a.Error, tt.wantErr) || !errors.Is(err, policy.ErrContextChanged) {
						t.Errorf("action %d: %+v (%v), want refused with %q", i, a, err, tt.wantErr)
					}
				case tt.failed < 0 || i < tt.failed:
					if a.Status != StatusOK {
						t.Errorf("action %d: %+v, want ok", i, a)
					}
				}
				if steps[i].releaseTo != "" && a.Status == StatusOK && !strings.Contains(a.Output, "context lock released") {
					t.Errorf("action %d (the release) says %q", i, a.Output)
				}
			}
			// Every action has its outcome recorded, the release too.
			if len(hist.outcomes) != len(steps) {
				t.Errorf("%d outcomes recorded for %d actions", len(hist.outcomes), len(steps))
			}
		})
	}
}
