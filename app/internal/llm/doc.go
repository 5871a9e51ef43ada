// Package llm owns Airlock's side of talking to a language model: clients
// for Ollama's /api/chat (streaming NDJSON) and the OpenAI-compatible
// /v1/chat/completions (server-sent events) that llama.cpp's server and
// LM Studio speak, the model lists of both (/api/tags, /v1/models), the
// prompt built from the Action DSL's registry, and the extraction of a plan
// from a reply.
//
// The model is untrusted at every step. This package never executes,
// approves or assesses anything: what it returns is text that the gate
// parses, sanitises, rates and puts before the person like any other plan.
// Anything fed to the model that did not come from Airlock itself — the
// request, the caller's context, errors quoting an earlier reply — goes in as
// quoted data (one JSON string literal), never as instructions.
//
// Transport (seed 003): an endpoint that is not on this machine must use
// https; plain http is allowed only to loopback, and that is checked on the
// address actually dialled, not on the spelling of the host. Redirects are
// never followed and no proxy is used. Every read is bounded (a reply over
// Config.MaxReply is an error) and every call has a deadline; cancelling the
// context (the kill switch) aborts a stream at once. API keys come only from
// the caller, who reads them from the key store, and are sent only to the
// configured endpoint; they are never logged or put in an error.
//
// Which model: the one configured, else the only one the server lists. When
// the server lists several and none is configured, this package does not
// guess: it fails with a *ModelChoiceError naming them, so the person
// chooses (a model name is never hard-coded).
package llm
