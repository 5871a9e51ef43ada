package approval

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/airlockhq/airlock/app/internal/level"
)

// Outcome is how a request was resolved. The zero value is Denied.
type Outcome int

const (
	Denied    Outcome = iota // the person said no, closed the prompt, or was not asked
	Approved                 // the person said yes (to some items at least; see Answer.Items)
	Timeout                  // nobody answered in time; a denial recorded as "timeout"
	Killed                   // the kill switch denied it
	Withdrawn                // its client withdrew it (gave up, disconnected) before the person answered
	// Edited: the person edited the request's text in the popup (Answer.Text)
	// instead of answering. Nothing of the request runs; the gate judges the
	// edit from scratch as the person's own.
	Edited
)

func (o Outcome) String() string {
	switch o {
	case Denied:
		return "denied"
	case Approved:
		return "approved"
	case Timeout:
		return "timeout"
	case Killed:
		return "killed"
	case Withdrawn:
		return "withdrawn"
	case Edited:
		return "edited"
	}
	return fmt.Sprintf("outcome(%d)", int(o))
}

// The errors Ask returns for each way a request ends without approval, and
// the broker's refusals. Callers branch on them with errors.Is.
var (
	ErrDenied          = errors.New("approval denied")
	ErrTimeout         = errors.New("approval timed out")
	ErrKilled          = errors.New("approval cancelled by the kill switch")
	ErrWithdrawn       = errors.New("approval request withdrawn by its client before the person answered")
	ErrFull            = errors.New("too many approvals pending")
	ErrAlreadyResolved = errors.New("approval request already resolved")
	ErrUnknownRequest  = errors.New("no such approval request")
)

// Item is one action offered for approval, as the person will see it.
type Item struct {
	Index   int         // the action's number in its plan, from 1
	Preview string      // one line in words: "Move ~/a.pdf → ~/Documents/a.pdf"
	Text    string      // the exact action text (a DSL line, a whole script)
	Risk    level.Level // never Blocked: blocked actions are not offered
	Reasons []string    // the assessment's warnings
	// RunsAnyway says the action would run without the person's yes at
	// this level: it is listed so that the whole plan is seen, and its
	// answer is not asked for (a no to the plan still stops it when its
	// turn comes).
	RunsAnyway bool
}

// ShownReasons are the item's reasons as a prompter shows them, under the
// item's title: a reason that begins with the title (the DSL's "Move
// ~/a.pdf to the Trash: Move a file or folder to the Trash.") is shown
// without it, and one that is only the title is left out, so the popup
// does not say each title twice.
func (it Item) ShownReasons() []string {
	out := make([]string, 0, len(it.Reasons))
	for _, r := range it.Reasons {
		if it.Preview != "" {
			if rest, ok := strings.CutPrefix(r, it.Preview); ok {
				switch {
				case rest == "" || strings.TrimSpace(strings.TrimLeft(rest, ":.")) == "":
					continue
				case strings.HasPrefix(rest, ": "):
					r = strings.TrimSpace(rest[2:])
				}
			}
		}
		out = append(out, r)
	}
	return out
}

// Edit offers the person the text behind a request to edit in place of
// answering it: a plan (every action of it), or one script.
type Edit struct {
	Kind string // what the text is: "dsl" (a plan), "applescript" or "jxa"
	Text string // the whole text, exactly as it would run
	// Errors, in a request that offers nothing else (no Items), say why
	// the person's last edit (Text) was refused: what did not parse, line
	// by line. The person may edit it again or cancel.
	Errors []string
}

// Request asks the person to approve one or more actions, usually a plan.
type Request struct {
	ID     string // the callId; the broker assigns one when empty
	Client string // the name the client gave itself: "mcp: claude-desktop", "airlock run"
	// Program is the client's program as the operating system vouches for
	// it ("/usr/bin/foo (pid 123)", with its signer on macOS), or "" when
	// unknown. The name above is the client's own claim; this is not.
	Program string
	// NoRemember says no grant could hold for this request — its client's
	// program is not verified, or Airlock cannot name or read the files an
	// action runs, so a grant could not cover what runs — and
	// NoRememberWhy says why, for the person. A prompter must not offer
	// "allow again"; an answer that asks for it anyway is not remembered.
	NoRemember    bool
	NoRememberWhy string
	// OfferRule, when not "", offers "always allow this exact command
	// here": the words say the allow rule the gate would keep (the
	// command, its folder, the client). Only for a request of one command
	// that is not destructive; a prompter that cannot offer it leaves it
	// out. The answer's Rule keeps nothing by itself: the gate asks the
	// person once more before it writes the rule.
	OfferRule string
	Tool      string // what carries the actions: "plan", "AppleScript", "command"; "" for a plan a model made from Asked
	// Asked is, for a plan a model made from a request in words, those
	// words: what the person or the client asked for.
	Asked string
	// EditedBy is set for a plan the person edited: who edited it and
	// where ("the person, in the approval popup (zenity)").
	EditedBy string
	Items    []Item
	// Edit, when set, offers the person to edit the text behind Items
	// instead of answering (Edited). With no Items, the request is only
	// that: the person's last edit was refused (Edit.Errors), and they may
	// edit it again or cancel.
	Edit     *Edit
	Created  time.Time // set by the broker
	Shown    time.Time // set by the broker when the prompter shows it; zero while it waits its turn
	Deadline time.Time // set by the broker when it is shown: after it the request times out
}

// Answer is the resolution of a request.
type Answer struct {
	Outcome Outcome
	// Items says, per item of the request, whether it may run. It is all
	// false unless Outcome is Approved. A prompter may leave it nil to mean
	// "every item that is not destructive"; a destructive item runs only with
	// its own true.
	Items []bool
	// Remember asks the gate to remember the approval for the session. It
	// holds only with Approved; the gate never remembers destructive items.
	Remember bool
	// Rule asks the gate to keep the allow rule OfferRule says, for
	// good. It holds only with Approved, for a request that offered it,
	// and never with a destructive item approved.
	Rule bool
	// Text is, with Edited, the person's edit of the request's Edit.Text;
	// By says who edited it and in which popup. Both are kept only with
	// Edited, for a request that offered Edit.
	Text, By string
}

// checkRequest refuses what may never be offered.
func checkRequest(r Request) error {
	if len(r.Items) == 0 && (r.Edit == nil || len(r.Edit.Errors) == 0) {
		return errors.New("approval request offers no action")
	}
	for i, it := range r.Items {
		if it.Risk < level.Safe || it.Risk >= level.Blocked {
			return fmt.Errorf("approval request item %d is %s: blocked actions are never offered for approval", i+1, it.Risk)
		}
	}
	return nil
}

// settle makes a prompter's or a UI's answer to r safe to act on: an
// outcome other than Approved runs nothing, nothing is remembered for a
// request that offered no "allow again", an edit counts only for a
// request that offered one, a malformed item list denies everything, a nil
// list approves the items that are not destructive, and an approval that
// leaves no item to run is a denial.
func settle(r Request, a Answer) Answer {
	items := r.Items
	out := Answer{Outcome: a.Outcome, Items: make([]bool, len(items))}
	switch {
	case a.Outcome == Edited && r.Edit != nil:
		out.Text, out.By = a.Text, a.By
		if out.By == "" {
			out.By = "the person"
		}
		return out
	case a.Outcome != Approved:
		if a.Outcome != Timeout && a.Outcome != Killed && a.Outcome != Withdrawn {
			out.Outcome = Denied
		}
		return out
	case a.Items != nil && len(a.Items) != len(items):
		out.Outcome = Denied
		return out
	}
	some := false
	for i, it := range items {
		if a.Items == nil {
			out.Items[i] = it.Risk < level.Destructive
		} else {
			out.Items[i] = a.Items[i]
		}
		some = some || out.Items[i]
	}
	if !some {
		return Answer{Outcome: Denied, Items: out.Items}
	}
	out.Remember = a.Remember && !r.NoRemember
	out.Rule = a.Rule && r.OfferRule != ""
	for i, it := range items {
		if out.Items[i] && it.Risk >= level.Destructive {
			out.Rule = false
		}
	}
	return out
}

// maxRisk is the highest risk among the items.
func maxRisk(items []Item) level.Level {
	m := level.Safe
	for _, it := range items {
		m = level.Max(m, it.Risk)
	}
	return m
}
