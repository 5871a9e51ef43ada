// Package mcp is `airlock mcp`: a Model Context Protocol server on stdio,
// built on the official Go SDK, through which any agent on the Mac (Claude
// Desktop, Claude Code, Goose, Cursor …) acts only through Airlock's gate.
//
// It owns the tools an agent sees and what they say: run_actions,
// run_applescript, run_jxa and run_command forward their work to the running
// gate over its socket (package ipc), named after the MCP client that asked,
// and answer with the gate's assessment, decision, approval outcome and result
// (outputs bounded and redacted), telling the client every few seconds, in
// progress notifications, what a long call waits for, and what a running
// command prints as it comes (redacted, bounded by the gate); assess,
// validate_applescript and list_actions answer offline, without the gate,
// rating against the gate's own settings; status reports the gate's state.
// Its stdio transport answers input that is no MCP message with the JSON-RPC
// error for it and goes on serving.
//
// It must never approve, deny or decide anything itself, never run anything
// but through the gate (it holds no executor), and never offer a tool or an
// argument that could approve: the approval is the person's, in the gate's own
// popup. Denied, timed out, withdrawn, blocked, refused, killed and failed
// calls are tool errors, so an agent cannot mistake them for success.
package mcp
