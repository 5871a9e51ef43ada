package mcp

// Bound exposes bound to the external tests.
var Bound = bound
