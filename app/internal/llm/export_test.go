package llm

// Hooks for the external tests.
var (
	CheckLoopbackDial = checkLoopbackDial
	DecodeOllama      = decodeOllama
	DecodeSSE         = decodeSSE
)
