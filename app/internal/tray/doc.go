// Package tray owns Airlock's menu-bar menu: a pure model that turns the
// gate's state (autonomy level, kill switch, pending approvals, recent
// activity, remembered grants, the progress of a request in words) into the
// menu's items, icon, title and tooltip (Build); the App that keeps it in
// step with the gate's and the broker's events and carries out what the
// person clicks, "Automate…" and the history report included (a request typed into a popup, which
// the gate's model turns into a plan), and "Dashboard…" (the dashboard,
// opened in the browser; app/internal/dashboard); and its rendering with
// fyne.io/systray (Systray).
//
// It is one of the only two places a person changes what the gate may do:
// the autonomy level, resuming after a kill, revoking a grant. A click on
// its menu is untrusted input (on Linux any process of the session can send
// one over D-Bus), so it must never raise trust on a click alone: a higher
// level and Resume happen only after the person's yes in a confirmation
// popup (no popup available means no change), one popup at a time, and
// after the owner's authentication where policy.NeedsOwner asks for it and
// the platform has it. It must never approve what "Automate…" submits (its
// plan waits for the person like any other), never write the decrypted
// history to a file (the report is shown in a window of Airlock's own),
// never show text from a request without making it one visible line, and
// never poll: the menu changes only when an event says something did.
package tray
