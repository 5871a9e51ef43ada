// Package ui asks the person through the native popups: it maps approval
// requests to the bridge's approval popup and the popup's answer back to an
// approval answer, one popup at a time.
//
// It must never approve or edit on its own: an error, a closed popup, the
// deadline or the request's context ending deny (the deadline as a
// timeout), an edit is only what the person left in the editor when they
// chose to use it (a cancelled editor goes back to the request), a
// destructive item runs only with its own confirmation (and, where the
// platform has it, the owner's authentication: policy.NeedsOwner), and
// "allow again this session" and "always allow this exact command here"
// are never offered or passed on for a request with a destructive item.
package ui

import (
	"context"
	"fmt"
	"slices"
	"sync"
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

// EditFunc opens the editor of a request's text and returns the person's
// edit, with bridge.EditText's contract: ok only when the person chose to
// use their edit; it closes when ctx ends.
type EditFunc func(ctx context.Context, p bridge.EditPopup) (text string, ok bool, err error)

// PopupOptions configure NewPopupPrompter. Zero values take the defaults.
type PopupOptions struct {
	Show     ShowFunc         // bridge.ShowApproval when nil
	Edit     EditFunc         // bridge.EditText when nil
	EditedBy string           // who an edit is recorded as made by; "the person, in the approval popup (" + bridge.PopupName() + ")" when ""
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
// waiting for its turn still ends with its context, and Open shows one at
// once. A request's time starts when its popup is put on screen (see
// approval.Prompter).
func NewPopupPrompter(opts PopupOptions) *PopupPrompter {
	p := &PopupPrompter{show: opts.Show, edit: opts.Edit, editedBy: opts.EditedBy, arm: opts.ArmDelay, now: opts.Now}
	if p.edit == nil {
		p.edit = bridge.EditText
	}
	if p.editedBy == "" {
		p.editedBy = "the person, in the approval popup (" + bridge.PopupName() + ")"
	}
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

// PopupPrompter asks with native popups; see NewPopupPrompter. It is safe
// for concurrent use.
type PopupPrompter struct {
	ownerAuth bool // ask for the owner's authentication where policy.NeedsOwner says so
	show      ShowFunc
	edit      EditFunc
	editedBy  string
	arm       time.Duration
	now       func() time.Time

	mu      sync.Mutex
	busy    bool           // a popup holds the turn; guarded by mu
	queue   []*ticket      // requests waiting for the turn, oldest first; guarded by mu
	showing map[string]int // ids of the requests on screen (how many popups each); guarded by mu
	wanted  []string       // ids Open asked for before their request reached the prompter, oldest first; guarded by mu
}

// maxWanted bounds PopupPrompter.wanted: an id stays there only if its
// request ended before it reached the prompter.
const maxWanted = 16

// ticket is a request waiting for its turn on screen.
type ticket struct {
	id     string
	ready  chan struct{} // closed when it may be shown
	opened bool          // shown out of turn (Open): it does not hold the turn; set before ready closes
}

// Prompt shows r in a popup once its turn comes, and waits for the answer.
// See approval.Prompter.
func (p *PopupPrompter) Prompt(ctx context.Context, r approval.Request, shown approval.ShownFunc) (approval.Answer, error) {
	deny := approval.Answer{Outcome: approval.Denied}
	done, err := p.turn(ctx, r.ID)
	if err != nil {
		return deny, err
	}
	defer done()
	if err := ctx.Err(); err != nil {
		return deny, err
	}
	r.Deadline = shown()
	if len(r.Items) == 0 {
		// Only an edit is offered: the person's last edit was refused.
		return p.editAgain(ctx, r)
	}
	for {
		a, err := p.show(ctx, popupFor(r, p.arm, p.ownerAuth))
		switch {
		case err != nil:
			return deny, fmt.Errorf("approval popup: %w", err)
		case !a.Approve && !r.Deadline.IsZero() && !p.now().Before(r.Deadline):
			return approval.Answer{Outcome: approval.Timeout}, nil
		case a.Edit && r.Edit != nil:
			text, ok, err := p.edit(ctx, editorFor(r))
			switch {
			case err != nil:
				return deny, fmt.Errorf("editor: %w", err)
			case ok:
				return approval.Answer{Outcome: approval.Edited, Text: text, By: p.editedBy}, nil
			case !r.Deadline.IsZero() && !p.now().Before(r.Deadline):
				return approval.Answer{Outcome: approval.Timeout}, nil
			}
			continue // cancelled: back to the request as it was
		}
		return answerFor(r, a)
	}
}

// editAgain shows why the person's last edit was refused and lets them
// edit it again; anything but a new edit denies.
func (p *PopupPrompter) editAgain(ctx context.Context, r approval.Request) (approval.Answer, error) {
	if r.Edit == nil || len(r.Edit.Errors) == 0 {
		return approval.Answer{Outcome: approval.Denied}, fmt.Errorf("approval popup: the request offers nothing")
	}
	text, ok, err := p.edit(ctx, editorFor(r))
	switch {
	case err != nil:
		return approval.Answer{Outcome: approval.Denied}, fmt.Errorf("editor: %w", err)
	case ok:
		return approval.Answer{Outcome: approval.Edited, Text: text, By: p.editedBy}, nil
	case !r.Deadline.IsZero() && !p.now().Before(r.Deadline):
		return approval.Answer{Outcome: approval.Timeout}, nil
	}
	return approval.Answer{Outcome: approval.Denied}, nil
}

// editorFor is what the editor of r's text shows.
func editorFor(r approval.Request) bridge.EditPopup {
	what := "plan"
	switch r.Edit.Kind {
	case "applescript":
		what = "AppleScript"
	case "jxa":
		what = "JavaScript for Automation"
	}
	return bridge.EditPopup{Client: r.Client, What: what, Text: r.Edit.Text,
		Errors: append([]string(nil), r.Edit.Errors...), Deadline: r.Deadline}
}

// Open shows the request with this id at once, beside whatever popup is up,
// if it is waiting for its turn: the person asked for it from the menu
// ("Pending approvals"). Its time starts then. A request that has not
// reached the prompter yet is shown as soon as it does. Open reports false
// for a request already on screen, which it leaves as it is.
func (p *PopupPrompter) Open(id string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.showing[id] > 0 {
		return false
	}
	for i, t := range p.queue {
		if t.id == id {
			p.queue = append(p.queue[:i:i], p.queue[i+1:]...)
			t.opened = true
			close(t.ready)
			return true
		}
	}
	if !slices.Contains(p.wanted, id) {
		if len(p.wanted) == maxWanted {
			p.wanted = p.wanted[1:]
		}
		p.wanted = append(p.wanted, id)
	}
	return true
}

// turn waits until a request may be shown: when no other popup holds the
// turn and those that came before it have had theirs, or when Open shows it.
// done takes it off the screen and gives the turn on, if it held it.
func (p *PopupPrompter) turn(ctx context.Context, id string) (done func(), err error) {
	p.mu.Lock()
	if i := slices.Index(p.wanted, id); i >= 0 {
		p.wanted = slices.Delete(p.wanted, i, i+1)
		p.onScreenLocked(id, 1)
		p.mu.Unlock()
		return func() { p.offScreen(id, false) }, nil
	}
	if !p.busy {
		p.busy = true
		p.onScreenLocked(id, 1)
		p.mu.Unlock()
		return func() { p.offScreen(id, true) }, nil
	}
	t := &ticket{id: id, ready: make(chan struct{})}
	p.queue = append(p.queue, t)
	p.mu.Unlock()
	select {
	case <-t.ready:
	case <-ctx.Done():
		p.mu.Lock()
		for i, q := range p.queue {
			if q == t {
				p.queue = append(p.queue[:i:i], p.queue[i+1:]...)
				p.mu.Unlock()
				return nil, ctx.Err()
			}
		}
		p.mu.Unlock()
		// It was given the turn (or opened) as its context ended: it
		// shows nothing, and a turn it was given goes on to the next.
		<-t.ready
		if !t.opened {
			p.pass()
		}
		return nil, ctx.Err()
	}
	p.mu.Lock()
	p.onScreenLocked(id, 1)
	p.mu.Unlock()
	return func() { p.offScreen(id, !t.opened) }, nil
}

func (p *PopupPrompter) onScreenLocked(id string, n int) {
	if p.showing == nil {
		p.showing = map[string]int{}
	}
	p.showing[id] += n
	if p.showing[id] <= 0 {
		delete(p.showing, id)
	}
}

// offScreen records that a popup of id is down and, if it held the turn,
// gives the turn on.
func (p *PopupPrompter) offScreen(id string, held bool) {
	p.mu.Lock()
	p.onScreenLocked(id, -1)
	p.mu.Unlock()
	if held {
		p.pass()
	}
}

// pass gives the turn to the oldest waiting request, or frees it.
func (p *PopupPrompter) pass() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.queue) == 0 {
		p.busy = false
		return
	}
	t := p.queue[0]
	p.queue = p.queue[1:]
	close(t.ready) // busy stays set: t holds the turn now
}

// popupFor is what the popup for r shows. With ownerAuth, the items whose
// approval policy.NeedsOwner says needs the owner ask for it.
func popupFor(r approval.Request, arm time.Duration, ownerAuth bool) bridge.ApprovalPopup {
	p := bridge.ApprovalPopup{
		Client:        r.Client,
		Program:       r.Program,
		Tool:          r.Tool,
		Asked:         r.Asked,
		Items:         make([]bridge.PopupItem, len(r.Items)),
		Deadline:      r.Deadline,
		ArmDelay:      arm,
		AllowRemember: !r.NoRemember,
		AllowRule:     r.OfferRule,
		AllowEdit:     r.Edit != nil,
		EditedBy:      r.EditedBy,
	}
	for i, it := range r.Items {
		destructive := it.Risk >= level.Destructive
		p.Items[i] = bridge.PopupItem{
			Number:     it.Index,
			Level:      it.Risk.String(),
			Preview:    it.Preview,
			Text:       it.Text,
			Reasons:    it.ShownReasons(),
			RunsAnyway: it.RunsAnyway,
			Confirm:    destructive,
		}
		p.Items[i].Authenticate = destructive && ownerAuth &&
			policy.NeedsOwner(policy.Change{Kind: policy.ChangeApprove, Risk: it.Risk})
		if destructive {
			p.AllowRemember, p.AllowRule = false, ""
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
	out := approval.Answer{Outcome: approval.Approved, Items: append([]bool(nil), a.Items...), Remember: a.Remember,
		Rule: a.Rule && r.OfferRule != ""}
	some := false
	for i, it := range r.Items {
		some = some || out.Items[i]
		if it.Risk >= level.Destructive {
			out.Remember, out.Rule = false, false
		}
	}
	if !some {
		return deny, nil
	}
	return out, nil
}
