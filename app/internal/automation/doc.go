// Package automation owns the person's scheduled automations (seed 004's
// generators): the model (a request in words or a fixed Action DSL plan,
// a schedule, a cooldown, on or off, and a global switch), the schedule
// language ("weekdays 09:00", "every 2h", "at login" …), how they are
// written in settings.json, the scheduler that starts them when they are
// due, and the Book that makes the person's changes of them.
//
// It must never run anything itself: every run goes to a Runner, which in
// the app submits it to the gate exactly as the person's own request
// (`airlock run` for a plan, `airlock ask` for words) under the client name
// "automation: NAME", so that rating, approvals, the kill switch and the
// history apply unchanged. It starts nothing while the kill switch or a
// switch is off, never two runs of one automation at once, never one
// sooner than its cooldown after the last; and it never adds or turns on
// an automation without the person's yes (Book.Confirm).
package automation
