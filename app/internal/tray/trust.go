package tray

import (
	"context"
	"fmt"
	"sync"

	"github.com/airlockhq/airlock/app/internal/policy"
)

// Question is a confirmation popup: its title, its text, the label of its
// yes button, and the reason the owner's authentication gives if the change
// needs it ("switch Airlock to Level 2").
type Question struct {
	Title, Text, Yes, Reason string
}

// Trust makes the person's changes that raise trust (policy.RaisesTrust):
// each only after their yes in a confirmation popup of Airlock's own and,
// where policy.NeedsOwner says so and the platform has it, their
// authentication. One such change is asked about at a time, wherever it
// comes from (the menu, the socket, the dashboard): while one is open,
// others are refused with ErrConfirmationOpen, so that a program sending
// clicks or requests cannot queue popups. It is safe for concurrent use.
type Trust struct {
	// Confirm asks a yes/no question in a popup (bridge.Confirm); nil:
	// nobody can be asked, and nothing that raises trust can be done.
	Confirm func(ctx context.Context, title, text, yes string) (bool, error)
	// Authenticate asks for the device owner's authentication; nil: this
	// platform has none, and the confirmation alone stands.
	Authenticate func(ctx context.Context, reason string) error

	confirming sync.Mutex // held while a change is asked about and made
}

// Raise makes change c by calling apply: at once if c does not raise trust,
// else only after the person said yes to q (and authenticated, where c
// needs the owner). Its errors wrap ErrNotConfirmed, ErrNotAuthenticated or
// ErrConfirmationOpen, or are apply's.
func (t *Trust) Raise(ctx context.Context, c policy.Change, q Question, apply func() error) error {
	if !policy.RaisesTrust(c) {
		return apply()
	}
	if !t.confirming.TryLock() {
		return ErrConfirmationOpen
	}
	defer t.confirming.Unlock()
	if t.Confirm == nil {
		return fmt.Errorf("%w (no popup can ask here)", ErrNotConfirmed)
	}
	ok, err := t.Confirm(ctx, q.Title, q.Text, q.Yes)
	switch {
	case err != nil:
		return fmt.Errorf("%w: the popup failed: %v", ErrNotConfirmed, err)
	case !ok:
		return ErrNotConfirmed
	}
	if policy.NeedsOwner(c) && t.Authenticate != nil {
		if err := t.Authenticate(ctx, q.Reason); err != nil {
			return fmt.Errorf("%w: %v", ErrNotAuthenticated, err)
		}
	}
	return apply()
}
