package gate

import (
	"context"
	"errors"
	"fmt"

	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// Setup is what a reload of the person's settings changes in a running
// gate: the analyzers' environment (the sandbox roots and allowed apps),
// the OS sandbox built for those roots, and the rules. Whoever calls
// Reconfigure has already had the person confirm what of it raises trust
// (policy.SettingsDiff): the gate takes it as given.
type Setup struct {
	Env   *risk.Env    // required, with Paths
	Box   *sandbox.Box // the OS sandbox of Env's roots; nil: none (tests)
	Rules policy.Rules
}

// Reconfigurer is an Executor whose sandbox paths and OS sandbox can be
// changed while it serves (execute.Executor): it must wait for the action
// it is running to end, and confine every later one with the new ones.
type Reconfigurer interface {
	Reconfigure(ctx context.Context, paths *sanitize.Config, box *sandbox.Box) error
}

// live is the part of the configuration Reconfigure changes. A submission
// reads it once, when it starts, and keeps it to its end: an action is
// rated, decided and shown against one set of settings.
type live struct {
	env   *risk.Env
	box   Sandbox // nil: not known
	rules policy.Rules
}

// Reconfigure puts s in force: the executor first (after the action it is
// running, if any), then the gate, so that every submission that starts
// after it returns is rated, decided and run with s. A submission under way
// keeps the settings it started with; the executor checks each of its
// later actions' paths against the new roots, so a root taken away is not
// written to again. On error nothing has changed.
func (g *Gate) Reconfigure(ctx context.Context, s Setup) error {
	if s.Env == nil || s.Env.Paths == nil {
		return errors.New("reconfiguring the gate: no sandbox paths")
	}
	cur := g.current()
	same := cur.env != nil && cur.env.Paths == s.Env.Paths && (cur.box == nil && s.Box == nil || s.Box != nil && cur.box == Sandbox(s.Box))
	if r, ok := g.cfg.Exec.(Reconfigurer); ok && !same {
		// Only when the paths or the sandbox change: a change of the rules
		// alone need not wait for the action running now.
		if err := r.Reconfigure(ctx, s.Env.Paths, s.Box); err != nil {
			return fmt.Errorf("reconfiguring the gate: %w", err)
		}
	}
	l := live{env: s.Env, rules: s.Rules}
	if s.Box != nil {
		l.box = s.Box
	}
	g.mu.Lock()
	g.live = l
	g.mu.Unlock()
	return nil
}

// current returns the settings in force now.
func (g *Gate) current() live {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.live
}
