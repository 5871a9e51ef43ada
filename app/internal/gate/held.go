package gate

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"unicode"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/level"
)

// heldTool names, in the popup, what a held-changes question is about.
const heldTool = "keep changes an action made"

// reviewed finishes what a command that ran unasked changed (res, from the
// executor's review of its copy-on-write view), for action i: the changes
// that plant code the person would run later (res.Held) are put to the
// person, one popup listing them ("keep these changes?", discard unless
// they say yes to each: at every level, for they are destructive in
// effect); then the action's layers go (res.Release), and every change is
// recorded for undo. It returns a line for the action's output saying
// what became of the held ones ("" for none).
func (sub *submission) reviewed(ctx context.Context, i int, res execute.Result) string {
	g, rep := sub.g, sub.rep
	recs := res.Changes
	var note string
	if res.Held != nil {
		keep := sub.askHeld(ctx, i, res.Held)
		// Resolving must not stop half way for the kill switch: what is
		// not applied goes to the Trash, and the layers go next.
		more, err := res.Held.Resolve(context.WithoutCancel(ctx), keep)
		recs = append(recs, more.Records...)
		kept := 0
		for _, k := range keep {
			if k {
				kept++
			}
		}
		note = fmt.Sprintf("%d changes that plant code were held for you: %d kept, %d put in the Trash", len(keep), kept, len(keep)-kept)
		if err != nil {
			note += " (" + err.Error() + ")"
		}
	}
	if res.Release != nil {
		res.Release()
	}
	if len(recs) > 0 {
		if err := g.RecordChanges(context.WithoutCancel(ctx), rep.Request, i, 0, recs); err != nil {
			slog.Error("recording an action's changes", "request", rep.Request, "action", i+1, "error", err)
			note = joinNote(note, "its changes could not be recorded, so `airlock undo` cannot put them back: "+err.Error())
		}
	}
	return note
}

// askHeld asks the person whether to keep each held change, and returns
// the answers: all no when nobody is there to ask, the question is
// refused, times out or is denied.
func (sub *submission) askHeld(ctx context.Context, i int, h *execute.Held) []bool {
	g, rep := sub.g, sub.rep
	keep := make([]bool, len(h.Items))
	if g.cfg.Approver == nil || g.isKilled() {
		return keep
	}
	req := approval.Request{ID: rep.Request + "-held", Client: sub.s.Client, Program: sub.s.Identity.Program,
		NoRemember: true, NoRememberWhy: "changes an action made are kept or not each time",
		Tool: heldTool, Created: g.cfg.Now(), Items: make([]approval.Item, len(h.Items))}
	for j, it := range h.Items {
		req.Items[j] = approval.Item{Index: j + 1, Preview: "Keep: " + it.String(), Text: heldText(i, rep.Actions[i].Preview, it),
			Risk: level.Destructive, Reasons: []string{"action " + fmt.Sprint(i+1) + " ran without your approval and made this change, which plants code you would run later: " + it.Reason + "; not applied unless you keep it"}}
	}
	sub.event(Event{Type: EventAwaitingApproval, Index: i})
	ans, err := sub.ask(ctx, req)
	outcome, _ := sub.outcome(ctx, ans, err)
	sub.event(Event{Type: EventApproval, Index: i, Approval: outcome.String()})
	if outcome != approval.Approved {
		return keep
	}
	for j := range keep {
		keep[j] = j < len(ans.Items) && ans.Items[j]
	}
	return keep
}

// heldText is what the popup shows of one held change: the action that
// made it and the change.
func heldText(i int, preview string, it execute.HeldChange) string {
	return fmt.Sprintf("action %d: %s\n%s %s", i+1, preview, it.Change.Kind, oneLine(it.Change.Path))
}

// oneLine writes a path an action chose in one line, its control
// characters as ⟨U+000A⟩: in a popup's text, which keeps newlines, a name
// holding one could show a line of its own ("Keep: created ~/notes.txt").
func oneLine(s string) string {
	if !strings.ContainsFunc(s, unicode.IsControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsControl(r) {
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func joinNote(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}
