// Package ipc owns the gate's unix-socket protocol: the socket's place and
// permissions, the single-instance lock, the peer check, line-delimited
// JSON-RPC 2.0 framing with its limits, and the client the CLI and the MCP
// server use to talk to a running gate.
//
// The protocol is a closed set of nine methods (Methods): submit work (a
// plan, or a request in words for the gate's model to turn into one), read
// status, read history, trip the kill switch, read or change the person's
// automations, open the dashboard (the app opens it in the browser
// itself; a client asking for a link to print gets one that can only
// read), and propose to undo what a request changed on disk (done only
// after the person's yes in the confirmation popup), and reload the
// settings file (what of it raises trust, likewise). It must never grow a method that approves, denies, changes the
// autonomy level or re-arms after a kill, nor one that makes a change
// raising trust on the client's word: those happen only in the native UI,
// so an agent holding the socket still cannot approve itself. An
// automation a client adds or turns on is only proposed: it runs once the
// person has said yes in Airlock's own confirmation popup (the same as the
// menu's), and each of its runs is decided like any request.
//
// The kill switch also has a socket of its own (KillSocketName), its
// reserved path: connecting trips it, the gate reads nothing there, and no
// connection limit, idle client or request in flight on the gate's socket
// stands before it. Kill is its client.
//
// The server never serves another user (directory 0700, sockets 0600, peer
// uid checked before any request is read), and tells its handler who it
// serves: the peer's process and program, as the kernel and (on macOS) the
// code signature vouch for them, read once when the connection is accepted
// (Peer, PeerFrom) — never the name a client gives itself. It never buffers
// more than one frame of MaxFrame bytes per connection, ends a connection on
// the first frame it cannot accept, and never shows a client the text of an
// error unless the error says it is safe to (UserError). Its connection
// limit is held only by requests in flight: an idle connection gives way to
// a new one.
package ipc
