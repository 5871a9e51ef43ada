package execute

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// labelKey is the context key of WithLabel.
type labelKey struct{}

// WithLabel names the action ctx runs, as what it changed is named in the
// Trash and the history ("request 4f…, action 2"). RunScript uses it for
// the changes of an action that ran unasked.
func WithLabel(ctx context.Context, label string) context.Context {
	return context.WithValue(ctx, labelKey{}, label)
}

// approvedKey is the context key of WithApproved.
type approvedKey struct{}

// WithApproved says ctx runs a DSL action the person approved (in the
// request, or by a remembered grant), as a command's Grant.Approved does:
// a move or copy is then made as shown, not reviewed first (fileplants.go).
// Without it an action runs as one nobody approved.
func WithApproved(ctx context.Context) context.Context {
	return context.WithValue(ctx, approvedKey{}, true)
}

// approvedIn reports whether WithApproved marked ctx.
func approvedIn(ctx context.Context) bool {
	ok, _ := ctx.Value(approvedKey{}).(bool)
	return ok
}

// labelOf returns the label WithLabel attached to ctx, or a generic one.
func labelOf(ctx context.Context) string {
	if l, ok := ctx.Value(labelKey{}).(string); ok && l != "" {
		return l
	}
	return "an action"
}

// review deals with what a command that ran unasked changed in its
// copy-on-write view (layers), once it has ended:
//   - killed (ctx ended): nothing is applied; its new versions go to the
//     Trash in one folder (DiscardChanges), so nothing is lost and nothing
//     half-done lands;
//   - otherwise (it succeeded or failed on its own) the changes are
//     applied (applyChanges: old versions to the Trash first), and the
//     ones that plant code are held for the person in res.Held, whose
//     layers the gate removes (res.Release) once it has resolved them.
//
// A layer that cannot be read is not applied: the person's files are
// untouched (the action only ever wrote into its layer), and the error says
// so. It runs within the executor's turn.
func (e *Executor) review(ctx context.Context, layers []sandbox.Layer) (Result, error) {
	var res Result
	remove := func() {
		if err := sandbox.RemoveLayers(layers); err != nil {
			slog.Warn("removing an action's copy-on-write layers", "error", err)
		}
	}
	var changes []sandbox.Change
	for _, l := range layers {
		cs, err := sandbox.ReadLayer(l)
		if err != nil {
			remove()
			return res, fmt.Errorf("%w: what it changed could not be read (%v), so none of it was applied: your files are as they were", ErrNotApplied, err)
		}
		changes = append(changes, cs...)
	}
	label := labelOf(ctx)
	if len(changes) == 0 {
		remove()
		return res, nil
	}
	if ctx.Err() != nil {
		// Killed: the kill switch cancelled ctx, which must not stop the
		// discard (what it leaves would go with the layers).
		applied, err := e.discardChanges(changes, label)
		res.Changes = applied.Records
		remove()
		if err != nil {
			return res, fmt.Errorf("its changes were not applied, and putting them in the Trash failed: %w", err)
		}
		return res, nil
	}
	if err := landingFits(changes); err != nil {
		remove()
		return res, fmt.Errorf("%w: stopped, and nothing it wrote was kept (your files are as they were): %w", ErrNotApplied, err)
	}
	applied, held, err := e.applyChanges(ctx, changes, label)
	res.Changes = applied.Records
	if len(applied.Pending) > 0 {
		// Stopped half way (the kill switch): the rest goes to the Trash.
		more, derr := e.discardChanges(applied.Pending, label)
		res.Changes = append(res.Changes, more.Records...)
		err = errors.Join(err, derr)
	}
	if held != nil {
		res.Held = held
		res.Release = remove
	} else {
		remove()
	}
	res.Trashed = Applied{Records: res.Changes}.Trashed()
	if len(res.Changes) > 0 {
		res.Output = joinLines(res.Output, Applied{Records: res.Changes}.Summary())
	}
	return res, err
}

func joinLines(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}
