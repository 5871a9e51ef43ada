// Package approval asks the person. It owns the broker that holds pending
// approval requests (bounded; each resolves exactly once: approved, denied,
// timeout, killed, or withdrawn by its client; a request's time to answer
// starts when it is on screen), the events that tell the rest of the program
// about them, and the Prompter contract (including Edit: the person may edit
// a plan's text instead of answering, and the gate then judges the edit as
// the person's own) with two prompters: a terminal one
// that reads the controlling terminal, and a scripted one for tests. Native
// popups implement the same contract in the app.
//
// It must never approve anything on its own: every outcome other than a
// person's explicit yes is a denial, a destructive item needs a yes of its
// own, and nothing an agent controls (standard input, a client socket) can
// answer a prompt or edit its text. Blocked actions are never offered.
package approval
