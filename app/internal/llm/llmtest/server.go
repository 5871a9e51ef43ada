// Package llmtest owns a fake model server for tests: an httptest server
// that speaks Ollama's API (/api/tags, /api/chat as NDJSON) or the
// OpenAI-compatible one (/v1/models, /v1/chat/completions as server-sent
// events) byte for byte as the real servers write them, and answers chats
// with scripted replies. It must never be used outside tests.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/llm"
)

// Reply is one scripted answer to a chat.
type Reply struct {
	// Text is the content. It is streamed in chunks of about one word
	// each, unless Chunks is set.
	Text   string
	Chunks []string
	// Status, when not 0 or 200, answers with that HTTP status and the
	// server's error body, with Text as its message.
	Status int
	// Hold streams the chunks, then keeps the stream open until the client
	// goes away (a slow model): Held is closed once the chunks are out,
	// Aborted once the client has gone.
	Hold bool
	// Truncate ends the stream without its final marker.
	Truncate bool
	// Raw, when set, is written as the whole body, as it is.
	Raw string
}

// Chat is one chat request the server received.
type Chat struct {
	Path     string
	Auth     string // the Authorization header
	Model    string
	Stream   bool
	Messages []llm.Message
	Body     map[string]any
}

// Options configure a server.
type Options struct {
	API    llm.API  // required
	Models []string // what the model list holds
	TLS    bool     // serve https with httptest's certificate
	Key    string   // if set, every request must carry "Authorization: Bearer Key"
}

// Server is a fake model server.
type Server struct {
	*httptest.Server
	opts Options

	mu      sync.Mutex
	replies []Reply // guarded by mu; each is used once, in order
	last    Reply   // guarded by mu; the last one used, used again when none is queued
	chats   []Chat  // guarded by mu
	lists   int     // guarded by mu; model-list requests

	held        chan struct{}
	aborted     chan struct{}
	heldOnce    sync.Once
	abortedOnce sync.Once
}

// New starts a server for the test; it is closed when the test ends.
func New(t testing.TB, o Options) *Server {
	t.Helper()
	s := &Server{opts: o, held: make(chan struct{}), aborted: make(chan struct{}), last: Reply{Text: llm.NoAction}}
	mux := http.NewServeMux()
	switch o.API {
	case llm.APIOllama:
		mux.HandleFunc("GET /api/tags", s.auth(s.ollamaTags))
		mux.HandleFunc("POST /api/chat", s.auth(s.ollamaChat))
	case llm.APIOpenAI:
		mux.HandleFunc("GET /v1/models", s.auth(s.openAIModels))
		mux.HandleFunc("POST /v1/chat/completions", s.auth(s.openAIChat))
	default:
		t.Fatalf("llmtest: unknown API %q", o.API)
	}
	s.Server = httptest.NewUnstartedServer(mux)
	s.Server.Config.ErrorLog = log.New(io.Discard, "", 0) // refused certificates are the point of some tests
	if o.TLS {
		s.Server.StartTLS()
	} else {
		s.Server.Start()
	}
	t.Cleanup(s.Close)
	return s
}

// Close releases held streams and shuts the server down.
func (s *Server) Close() {
	s.Server.CloseClientConnections()
	s.Server.Close()
}

// Reply queues replies for the next chats, each used once; when none is
// queued, the last one used is used again (at first, "# No action needed").
func (s *Server) Reply(rs ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.replies = append(s.replies, rs...)
}

// Chats returns the chat requests received so far.
func (s *Server) Chats() []Chat {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Chat(nil), s.chats...)
}

// Lists returns how many model-list requests the server received.
func (s *Server) Lists() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lists
}

// Held is closed when a Hold reply has sent its chunks.
func (s *Server) Held() <-chan struct{} { return s.held }

// Aborted is closed when the client of a Hold reply has gone away.
func (s *Server) Aborted() <-chan struct{} { return s.aborted }

func (s *Server) next() Reply {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.replies) > 0 {
		s.last = s.replies[0]
		s.replies = s.replies[1:]
	}
	return s.last
}

func (s *Server) auth(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.opts.Key != "" && r.Header.Get("Authorization") != "Bearer "+s.opts.Key {
			if s.opts.API == llm.APIOllama {
				writeJSON(w, http.StatusUnauthorized, map[string]any{"error": "unauthorized"})
				return
			}
			writeJSON(w, http.StatusUnauthorized, map[string]any{"error": map[string]any{
				"message": "Incorrect API key provided: sk-pr****************************XYZ1.", "type": "invalid_request_error",
				"param": nil, "code": "invalid_api_key"}})
			return
		}
		h(w, r)
	}
}

func (s *Server) record(r *http.Request) (Chat, error) {
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		return Chat{}, err
	}
	c := Chat{Path: r.URL.Path, Auth: r.Header.Get("Authorization"), Body: body}
	c.Model, _ = body["model"].(string)
	c.Stream, _ = body["stream"].(bool)
	raw, _ := json.Marshal(body["messages"])
	json.Unmarshal(raw, &c.Messages)
	s.mu.Lock()
	s.chats = append(s.chats, c)
	s.mu.Unlock()
	return c, nil
}

func (s *Server) known(model string) bool {
	for _, m := range s.opts.Models {
		if m == model {
			return true
		}
	}
	return false
}

// chunks splits text after each space or newline, as a model streams
// tokens.
func (r Reply) chunks() []string {
	if r.Chunks != nil {
		return r.Chunks
	}
	var out []string
	start := 0
	for i := 0; i < len(r.Text); i++ {
		if r.Text[i] == ' ' || r.Text[i] == '\n' {
			out = append(out, r.Text[start:i+1])
			start = i + 1
		}
	}
	if start < len(r.Text) {
		out = append(out, r.Text[start:])
	}
	return out
}

// hold keeps a stream open until the client goes away.
func (s *Server) hold(r *http.Request) {
	s.heldOnce.Do(func() { close(s.held) })
	select {
	case <-r.Context().Done():
		s.abortedOnce.Do(func() { close(s.aborted) })
	case <-time.After(time.Minute): // a client that never goes away fails its test, not the run
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

const created = "2025-01-28T14:03:07.123456789Z"

func (s *Server) ollamaTags(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.lists++
	s.mu.Unlock()
	models := []map[string]any{}
	for _, m := range s.opts.Models {
		models = append(models, map[string]any{
			"name": m, "model": m, "modified_at": "2025-01-20T10:00:00.000000000Z", "size": 2019393189,
			"digest": "a80c4f17acd55265feec403c7aef86be0c25983ab279d83f3bcd3abbcb5b8b72",
			"details": map[string]any{"parent_model": "", "format": "gguf", "family": "llama", "families": []string{"llama"},
				"parameter_size": "3.2B", "quantization_level": "Q4_K_M"}})
	}
	writeJSON(w, http.StatusOK, map[string]any{"models": models})
}

func (s *Server) ollamaChat(w http.ResponseWriter, r *http.Request) {
	c, err := s.record(r)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": "invalid character in request body"})
		return
	}
	if !s.known(c.Model) {
		writeJSON(w, http.StatusNotFound, map[string]any{"error": fmt.Sprintf("model %q not found, try pulling it first", c.Model)})
		return
	}
	rep := s.next()
	if rep.Status != 0 && rep.Status != http.StatusOK {
		writeJSON(w, rep.Status, map[string]any{"error": rep.Text})
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	if rep.Raw != "" {
		fmt.Fprint(w, rep.Raw)
		return
	}
	fl, _ := w.(http.Flusher)
	enc := json.NewEncoder(w)
	n := 0
	for _, ch := range rep.chunks() {
		enc.Encode(map[string]any{"model": c.Model, "created_at": created,
			"message": map[string]any{"role": "assistant", "content": ch}, "done": false})
		n++
		if fl != nil {
			fl.Flush()
		}
	}
	if rep.Hold {
		s.hold(r)
		return
	}
	if rep.Truncate {
		return
	}
	enc.Encode(map[string]any{"model": c.Model, "created_at": created,
		"message": map[string]any{"role": "assistant", "content": ""}, "done": true, "done_reason": "stop",
		"total_duration": 4883583458, "load_duration": 1334875, "prompt_eval_count": 26 + len(c.Messages),
		"prompt_eval_duration": 342546000, "eval_count": n, "eval_duration": 4535599000})
}

func (s *Server) openAIModels(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.lists++
	s.mu.Unlock()
	data := []map[string]any{}
	for _, m := range s.opts.Models {
		data = append(data, map[string]any{"id": m, "object": "model", "created": 1686935002, "owned_by": "organization-owner"})
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
}

func (s *Server) openAIChat(w http.ResponseWriter, r *http.Request) {
	c, err := s.record(r)
	if err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"message": "invalid JSON", "type": "invalid_request_error"}})
		return
	}
	if !s.known(c.Model) {
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{
			"message": fmt.Sprintf("The model `%s` does not exist or you do not have access to it.", c.Model),
			"type":    "invalid_request_error", "param": nil, "code": "model_not_found"}})
		return
	}
	rep := s.next()
	if rep.Status != 0 && rep.Status != http.StatusOK {
		writeJSON(w, rep.Status, map[string]any{"error": map[string]any{"message": rep.Text, "type": "server_error"}})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if rep.Raw != "" {
		fmt.Fprint(w, rep.Raw)
		return
	}
	fl, _ := w.(http.Flusher)
	event := func(v any) {
		b, _ := json.Marshal(v)
		fmt.Fprintf(w, "data: %s\n\n", b)
		if fl != nil {
			fl.Flush()
		}
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": "chatcmpl-8x1", "object": "chat.completion.chunk", "created": 1694268190,
			"model": c.Model, "system_fingerprint": "fp_44709d6fcb",
			"choices": []map[string]any{{"index": 0, "delta": delta, "logprobs": nil, "finish_reason": finish}}}
	}
	fmt.Fprint(w, ": keep-alive\n\n")
	event(chunk(map[string]any{"role": "assistant", "content": ""}, nil))
	n := 0
	for _, ch := range rep.chunks() {
		event(chunk(map[string]any{"content": ch}, nil))
		n++
	}
	if rep.Hold {
		s.hold(r)
		return
	}
	if rep.Truncate {
		return
	}
	event(chunk(map[string]any{}, "stop"))
	if opts, _ := c.Body["stream_options"].(map[string]any); opts["include_usage"] == true {
		event(map[string]any{"id": "chatcmpl-8x1", "object": "chat.completion.chunk", "created": 1694268190,
			"model": c.Model, "choices": []any{},
			"usage": map[string]any{"prompt_tokens": 26 + len(c.Messages), "completion_tokens": n, "total_tokens": 26 + len(c.Messages) + n}})
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// Plain returns a reply of text, streamed word by word.
func Plain(text string) Reply { return Reply{Text: text} }

// Join writes lines as one reply text.
func Join(lines ...string) string { return strings.Join(lines, "\n") + "\n" }
