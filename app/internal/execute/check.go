package execute

import (
	"context"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// checkKey is the context key of the check WithCheck attaches.
type checkKey struct{}

// WithCheck returns ctx carrying check, which Run and RunScript call once
// the executor's turn is theirs, right before the action starts: an error
// from it refuses the action, which then does nothing, and is returned
// wrapped. The gate uses it for an action a remembered grant covers: the
// files the grant pinned must still hold what the person approved when the
// action starts, not only when it was decided (nothing else the executor
// runs can change them between the check and the start).
//
// A check already in ctx stays: it runs first, and check only when it
// passed, so a later layer (an allow rule's pins, a second rating) adds to
// the checks of the earlier ones (a grant's) and never replaces them.
func WithCheck(ctx context.Context, check func() error) context.Context {
	if check == nil {
		return ctx
	}
	if before, ok := ctx.Value(checkKey{}).(func() error); ok && before != nil {
		after := check
		check = func() error {
			if err := before(); err != nil {
				return err
			}
			return after()
		}
	}
	return context.WithValue(ctx, checkKey{}, check)
}

// Check runs the check WithCheck attached to ctx, if any. Executors other
// than this one (tests') call it where they would start an action.
func Check(ctx context.Context) error {
	if check, ok := ctx.Value(checkKey{}).(func() error); ok && check != nil {
		return check()
	}
	return nil
}

// holdKey is the context key of the hold WithHold attaches.
type holdKey struct{}

// WithHold returns ctx carrying hold, which RunScript calls right after the
// check WithCheck attached (once the executor's turn is theirs): it reads
// the files the action runs once more and returns them as it read them,
// when each still holds what the person approved (policy.Hold), and the
// action runs from those bytes (sandbox.Grant.Pinned), not from the paths
// read again by its interpreter. An error from it refuses the action, which
// then does nothing, and is returned wrapped.
func WithHold(ctx context.Context, hold func() ([]sandbox.Pinned, error)) context.Context {
	return context.WithValue(ctx, holdKey{}, hold)
}

// Hold runs the hold WithHold attached to ctx, if any.
func Hold(ctx context.Context) ([]sandbox.Pinned, error) {
	if hold, ok := ctx.Value(holdKey{}).(func() ([]sandbox.Pinned, error)); ok && hold != nil {
		return hold()
	}
	return nil, nil
}
