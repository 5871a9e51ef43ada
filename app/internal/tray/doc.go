// Package tray owns Airlock's menu-bar menu: a pure model that turns the
// gate's state (autonomy level, kill switch, pending approvals, recent
// activity, remembered grants, the progress of a request in words) into the
// menu's items, icon, title and tooltip (Build); the App that keeps it in
// step with the gate's and the broker's events and carries out what the
// person clicks, "Automate…" included (a request typed into a popup, which
// the gate's model turns into a plan); and its rendering with fyne.io/systray
// (Systray).
//
// It is one of the only two places a person changes what the gate may do:
// the autonomy level (Level 2 only after a confirmation), resuming after a
// kill, revoking a grant. It must never take those from anything but a click
// in its own menu, never switch to Level 2 without the person's yes (no
// confirmation available means no switch), never approve what "Automate…"
// submits (its plan waits for the person like any other), never show text
// from a request without making it one visible line, and never poll: the
// menu changes only when an event says something did.
package tray
