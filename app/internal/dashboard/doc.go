// Package dashboard owns Airlock's dashboard: server-rendered pages, served
// by the menu-bar app on 127.0.0.1, that show the history grouped by
// request (the request in words and its client, the model calls, the plan,
// each action's risk, reasons, decision, approval and result), filtered by
// client, risk, outcome and time; the automations with their on/off state,
// next run and last result; the allowed apps and the sandbox roots.
//
// # Who may see it
//
// Every response but the one that opens a session is 403 without the
// session cookie. The app mints a link for each opening (Server.Link): a
// one-time code, 32 random bytes, good for OpenCodeLifetime, that the
// server swaps for an HttpOnly, SameSite=Strict cookie holding one of two
// per-launch secrets (32 random bytes each) and a redirect to a URL with no
// secret in it. The secrets never appear in a URL, so never in a command
// line (xdg-open's argv is readable by every process of the user), the
// browser's history file, a terminal or a screen share; a code seen there is
// spent or expired. Secrets and codes are compared in constant time.
//
// Two kinds of session: Full, for a link the app opens in the browser
// itself (the menu's "Dashboard…", `airlock dashboard`), and ReadOnly, for a
// link given to a socket client to print (`airlock dashboard --print`). The
// socket is reachable by every program of the user, agents included, so a
// printed link must give no more than the socket already does: reading the
// history. A read-only session shows no form and every change it posts is
// refused.
//
// Who asked for a link (Asker) sets its access, and each asker's unused
// codes are kept apart, a few of each: a socket client asking for link
// after link forgets only codes socket clients asked for, never the one
// the person's click on the menu minted and the browser has yet to follow.
//
// # Changing a setting
//
// A change posted from a full session (the global automation switch, one
// automation on or off) changes nothing by itself: it is made only after
// the person's yes in Airlock's own confirmation popup (Config.Confirm, the
// one the menu uses for trust-raising changes; one at a time; or, for
// turning something on, the scheduler's own question, when it is a
// SelfConfirming one that shows the plan and its rating), and every answer
// is recorded in the history as a request of kind "setting". A
// cookie on 127.0.0.1 is sent to every port of 127.0.0.1 (browsers do not
// isolate cookies by port), so the session is not what stands between an
// agent and a setting: the popup is.
//
// It must never write anything decrypted to disk (pages are rendered in
// memory and sent with Cache-Control: no-store), never run script (the
// Content-Security-Policy allows none, and the pages have none), never show
// a recorded value without redact.String and escaping, and never serve a
// request whose Host is not its own address (DNS rebinding) or a POST whose
// Origin is not its own.
package dashboard
