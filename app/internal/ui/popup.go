// Package ui asks the person through the native popups: it maps approval
// requests to the bridge's approval popup and the popup's answer back to an
// approval answer, one popup at a time.
//
// It must never approve on its own: an error, a closed popup, the deadline
// or the request's context ending deny (the deadline as a timeout), a
// destructive item runs only with its own confirmation (and, where the
// platform has it, the owner's authentication: policy.NeedsOwner), and
// "allow again this session" is never offered or passed on for a request
// with a destructive item.
package ui

import (
	"context"
	"fmt"
	"time"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/bridge"
)

// ShowFunc shows an approval popup and returns the person's answer, with
// bridge.ShowApproval's contract: it denies on every error, closes the popup
// when ctx ends, and asks about each Confirm item on its own.
type ShowFunc func(ctx context.Context, p bridge.ApprovalPopup) (bridge.PopupAnswer, error)

// PopupOptions configure NewPopupPrompter. Zero values take the defaults.
type PopupOptions struct {
	Show     ShowFunc         // bridge.ShowApproval when nil
	ArmDelay time.Duration    // bridge.DefaultArmDelay when ≤ 0
	Now      func() time.Time // the clock that decides whether the deadline passed; time.Now when nil
	// OwnerAuth reports whether the owner's authentication can be asked for
	// (bridge.OwnerAuthAvailable when nil). Where it can, the actions
	// policy.NeedsOwner names (the destructive ones) need it after their own
	// yes.
	OwnerAuth func() bool
}

// NewPopupPrompter returns an approval.Prompter that asks with native
// popups. Requests are shown one at a time, in the order they arrive; one
// waiting for its turn still ends with its context.
func NewPopupPrompter(opts PopupOptions) approval.Prompter {
	p := &popupPrompter{show: opts.Show, arm: opts.ArmDelay, now: opts.Now, turn: make(chan struct{}, 1)}
	p.ownerAuth = bridge.OwnerAuthAvailable()
	if opts.OwnerAuth != nil {
		p.ownerAuth = opts.OwnerAuth()
	}
	if p.show == nil {
		p.show = bridge.ShowApproval
	}
	if p.arm <= 0 {
		p.arm = bridge.DefaultArmDelay
	}
	if p.now == nil {
		p.now = time.Now
	}
	return p
}

type popupPrompter struct {
	ownerAuth bool // ask for the owner's authentication where policy.NeedsOwner says so
	show      ShowFunc
	arm       time.Duration
	now       func() time.Time
	turn      chan struct{} // holds a token while a popup is shown
}

// Prompt shows r in a popup and waits for the answer. See approval.Prompter.
func (p *popupPrompter) Prompt(ctx context.Context, r approval.Request) (approval.Answer, error) {
	deny := approval.Answer{Outcome: approval.Denied}
	select {
	case p.turn <- struct{}{}:
	case <-ctx.Done():
		return deny, ctx.Err()
	}
	defer func() { <-p.turn }()
	if err := ctx.Err(); err != nil {
		return deny, err
	}
	a, err := p.show(ctx, popupFor(r, p.arm, p.ownerAuth))
	switch {
	case err != nil:
		return deny, fmt.Errorf("approval popup: %w", err)
	case !a.Approve && !r.Deadline.IsZero() && !p.now().Before(r.Deadline):
		return approval.Answer{Outcome: approval.Timeout}, nil
	}
	return answerFor(r, a)
}

// popupFor is what the popup for r shows. With ownerAuth, the items whose
// approval policy.NeedsOwner says needs the owner ask for it.
func popupFor(r approval.Request, arm time.Duration, ownerAuth bool) bridge.ApprovalPopup {
	p := bridge.ApprovalPopup{
		Client:        r.Client,
		Tool:          r.Tool,
		Items:         make([]bridge.PopupItem, len(r.Items)),
		Deadline:      r.Deadline,
		ArmDelay:      arm,
		AllowRemember: true,
	}
	for i, it := range r.Items {
		destructive := it.Risk >= level.Destructive
		p.Items[i] = bridge.PopupItem{
			Number:  it.Index,
			Level:   it.Risk.String(),
			Preview: it.Preview,
			Text:    it.Text,
			Reasons: append([]string(nil), it.Reasons...),
			Confirm: destructive,
		}
		p.Items[i].Authenticate = destructive && ownerAuth &&
			policy.NeedsOwner(policy.Change{Kind: policy.ChangeApprove, Risk: it.Risk})
		if destructive {
			p.AllowRemember = false
		}
	}
	return p
}

// answerFor turns the popup's answer into the request's, refusing one that
// does not fit the request.
func answerFor(r approval.Request, a bridge.PopupAnswer) (approval.Answer, error) {
	deny := approval.Answer{Outcome: approval.Denied}
	if !a.Approve {
		return deny, nil
	}
	if len(a.Items) != len(r.Items) {
		return deny, fmt.Errorf("approval popup: answered for %d actions of %d", len(a.Items), len(r.Items))
	}
	out := approval.Answer{Outcome: approval.Approved, Items: append([]bool(nil), a.Items...), Remember: a.Remember}
	some := false
	for i, it := range r.Items {
		some = some || out.Items[i]
		if it.Risk >= level.Destructive {
			out.Remember = false
		}
	}
	if !some {
		return deny, nil
	}
	return out, nil
}
