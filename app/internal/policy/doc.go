// Package policy decides what the gate may do without asking, and holds the
// rules no setting can loosen. It owns:
//
//   - the autonomy matrix of seed 003 (Decide): Level 0 asks for everything,
//     Level 1 (the default) asks for dangerous and destructive actions,
//     Level 2 asks only for destructive ones; blocked actions are refused at
//     every level and never offered for approval;
//   - seed 001's invariant: an action that needs approval when no approver is
//     available fails with ErrApprovalRequired;
//   - the context lock (ContextLock): input-synthesising actions run only while
//     the application that was frontmost when the plan started still is, or,
//     once the plan has released the lock to switch apps (RELEASE_LOCK), the
//     application it named;
//   - remembered grants (Grants): "allow again this session" for the exact
//     action text the person saw and the content of every file it runs
//     (risk.RunFiles names them; each is read again when the grant is
//     checked, so a changed script is asked about again), for the verified
//     program that asked (Identity), never for a name a client gives
//     itself, never for destructive actions, never for an action whose
//     files Airlock cannot name;
//   - the settings file (Settings): sandbox roots, allowed apps, approval
//     timeout, autonomy level, kill hotkey and the automations
//     (app/internal/automation reads them), validated on load;
//   - which of the person's changes raise trust (RaisesTrust: they must come
//     from the person's own input, confirmed in Airlock's own popup) and
//     which also need the device owner's authentication (NeedsOwner).
//
// It must never approve anything itself, never widen a grant beyond the exact
// text approved and the files as they were, never let a setting make destructive actions run unasked,
// and never treat a state it cannot establish (no frontmost app, an
// unreadable settings file, an unknown level) as permission.
package policy
