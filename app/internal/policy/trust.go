package policy

import (
	"fmt"

	"github.com/airlockhq/airlock/app/internal/level"
)

// A Change is something the person does in Airlock's own UI that changes
// what the gate may do. RaisesTrust and NeedsOwner decide, from the change
// alone, how sure Airlock must be that the person made it.
type Change struct {
	Kind ChangeKind
	// From and To are the levels before and after, for ChangeLevel.
	From, To Autonomy
	// Killed is whether the kill switch is on, for ChangeResume.
	Killed bool
	// Risk is the highest risk of the actions the answer lets run, for
	// ChangeApprove.
	Risk level.Level
}

// ChangeKind is what a Change does.
type ChangeKind int

const (
	ChangeLevel    ChangeKind = iota + 1 // choose an autonomy level
	ChangeResume                         // turn the kill switch off
	ChangeApprove                        // approve a request (or one destructive item of it)
	ChangeRemember                       // "allow again this session": a grant
	ChangeRevoke                         // forget a grant
	ChangeKill                           // trip the kill switch
	// ChangeAutomationOn adds an automation, turns one on, or turns the
	// automations' global switch on: something will run that the person
	// did not start.
	ChangeAutomationOn
	// ChangeAutomationOff removes an automation, turns one off, or turns
	// the global switch off.
	ChangeAutomationOff
)

func (k ChangeKind) String() string {
	switch k {
	case ChangeLevel:
		return "level"
	case ChangeResume:
		return "resume"
	case ChangeApprove:
		return "approve"
	case ChangeRemember:
		return "remember"
	case ChangeRevoke:
		return "revoke"
	case ChangeKill:
		return "kill"
	case ChangeAutomationOn:
		return "automation on"
	case ChangeAutomationOff:
		return "automation off"
	}
	return fmt.Sprintf("ChangeKind(%d)", int(k))
}

// RaisesTrust reports whether c lets more run without asking than before:
// a higher autonomy level, resuming while the kill switch is on, an
// approval, a grant, an automation added or turned on. Such a change must come from the person's own input
// in Airlock's own window: on Linux a menu item that raises trust only opens
// a confirmation popup (the tray's D-Bus menu obeys any process of the
// session); on macOS the control that makes it refuses accessibility presses
// and events another process posted. Lowering trust (a lower level, a
// revoke, the kill switch) never needs more than a click: whoever makes it
// can only make the gate ask more.
//
// A change it does not know, or an invalid level, raises trust: unknown is
// never taken as harmless.
func RaisesTrust(c Change) bool {
	switch c.Kind {
	case ChangeLevel:
		return !c.From.Valid() || !c.To.Valid() || c.To > c.From
	case ChangeResume:
		return c.Killed
	case ChangeRevoke, ChangeKill, ChangeAutomationOff:
		return false
	}
	return true // ChangeApprove, ChangeRemember, ChangeAutomationOn, and anything unknown
}

// NeedsOwner reports whether c needs the device owner's authentication
// (Touch ID or the login password, on macOS) on top of the confirmation:
// approving a destructive action, switching to Level 2, and resuming after
// a kill (DESIGN.md, "Approval"). These are the changes whose effect cannot
// be taken back once something has run. Like RaisesTrust it takes what it
// does not know as needing the most.
func NeedsOwner(c Change) bool {
	switch c.Kind {
	case ChangeLevel:
		return RaisesTrust(c) && (!c.To.Valid() || c.To == FullAuto)
	case ChangeResume:
		return c.Killed
	case ChangeApprove:
		return c.Risk >= level.Destructive
	case ChangeRemember, ChangeRevoke, ChangeKill:
		// A grant never covers a destructive action (Grants.Allow refuses
		// one), so remembering needs no more than the approval it comes
		// with.
		return false
	case ChangeAutomationOn, ChangeAutomationOff:
		// An automation's runs are decided like the person's own
		// requests: what would need the owner then still asks then.
		return false
	}
	return true
}
