package llm_test

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/llm"
	"github.com/airlockhq/airlock/app/internal/llm/llmtest"
)

// calls collects what a client records.
type calls struct {
	mu  sync.Mutex
	all []llm.Call
}

func (c *calls) record(call llm.Call) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.all = append(c.all, call)
	return nil
}

func (c *calls) list() []llm.Call {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]llm.Call(nil), c.all...)
}

func newClient(t *testing.T, cfg llm.Config) (*llm.Client, *calls) {
	t.Helper()
	rec := &calls{}
	cfg.Record = rec.record
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c, rec
}

var apis = []llm.API{llm.APIOllama, llm.APIOpenAI}

var hello = []llm.Message{{Role: llm.RoleUser, Content: "hello"}}

// TestChatStreams: on both wire formats the reply arrives whole, in the
// order streamed, with progress per chunk, the server's token counts, and
// one recorded call per HTTP request.
func TestChatStreams(t *testing.T) {
	for _, api := range apis {
		t.Run(string(api), func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Options{API: api, Models: []string{"tiny:1b"}})
			text := llmtest.Join(`NOTIFY "Airlock" "hello there"`, `SPEAK "done"`)
			srv.Reply(llmtest.Plain(text))
			c, rec := newClient(t, llm.Config{Endpoint: srv.URL, API: api, Model: "tiny:1b"})
			var progress []llm.Progress
			rep, err := c.Chat(context.Background(), hello, func(p llm.Progress) { progress = append(progress, p) })
			if err != nil {
				t.Fatal(err)
			}
			if rep.Content != text || rep.Model != "tiny:1b" {
				t.Errorf("reply %q from %q, want %q from tiny:1b", rep.Content, rep.Model, text)
			}
			words := len(strings.Fields(text))
			if len(progress) != words || progress[len(progress)-1].Bytes != len(text) {
				t.Errorf("progress %+v, want %d steps ending at %d bytes", progress, words, len(text))
			}
			if rep.CompletionTokens != words || rep.PromptTokens == 0 {
				t.Errorf("tokens %d/%d, want the server's counts", rep.PromptTokens, rep.CompletionTokens)
			}
			got := rec.list()
			if len(got) != 1 || got[0].Status != 200 || got[0].Err != nil || got[0].CompletionTokens != words {
				t.Fatalf("recorded %+v, want one successful call with its tokens", got)
			}
			if !strings.HasPrefix(got[0].URL, srv.URL+"/") {
				t.Errorf("recorded URL %q", got[0].URL)
			}
			chats := srv.Chats()
			if len(chats) != 1 || !chats[0].Stream || chats[0].Messages[0].Content != "hello" {
				t.Errorf("the server saw %+v, want one streamed chat", chats)
			}
		})
	}
}

// TestDetectAndChoose: with no API configured the client finds it out from
// the model list; with no model, the only one listed is used, none or
// several is an error that says what to do.
func TestDetectAndChoose(t *testing.T) {
	for _, api := range apis {
		t.Run(string(api), func(t *testing.T) {
			one := llmtest.New(t, llmtest.Options{API: api, Models: []string{"only:7b"}})
			c, rec := newClient(t, llm.Config{Endpoint: one.URL})
			m, err := c.Model(context.Background())
			if err != nil || m != "only:7b" || c.API() != api {
				t.Errorf("Model = %q, %v; API %q; want only:7b, %s", m, err, c.API(), api)
			}
			if len(rec.list()) == 0 {
				t.Error("the model list request was not recorded")
			}

			several := llmtest.New(t, llmtest.Options{API: api, Models: []string{"zeta", "alpha", "bad name", "mid:3b"}})
			c, _ = newClient(t, llm.Config{Endpoint: several.URL, API: api})
			_, err = c.Model(context.Background())
			var mc *llm.ModelChoiceError
			if !errors.As(err, &mc) || strings.Join(mc.Models, ",") != "alpha,mid:3b,zeta" {
				t.Errorf("Model with several = %v, want a ModelChoiceError listing the valid names sorted", err)
			} else if !strings.Contains(err.Error(), "--model") {
				t.Errorf("%q does not say how to choose", err)
			}

			none := llmtest.New(t, llmtest.Options{API: api})
			c, _ = newClient(t, llm.Config{Endpoint: none.URL, API: api})
			if _, err = c.Model(context.Background()); !errors.Is(err, llm.ErrNoModels) {
				t.Errorf("Model with none = %v, want ErrNoModels", err)
			}
		})
	}
}

func TestUnknownModel(t *testing.T) {
	for _, tc := range []struct {
		api  llm.API
		hint string
	}{
		{llm.APIOllama, "ollama pull gone:1b"},
		{llm.APIOpenAI, "load it in the server"},
	} {
		srv := llmtest.New(t, llmtest.Options{API: tc.api, Models: []string{"there"}})
		c, rec := newClient(t, llm.Config{Endpoint: srv.URL, API: tc.api, Model: "gone:1b"})
		_, err := c.Chat(context.Background(), hello, nil)
		if !errors.Is(err, llm.ErrModelNotFound) || !strings.Contains(err.Error(), tc.hint) {
			t.Errorf("%s: %v, want ErrModelNotFound saying %q", tc.api, err, tc.hint)
		}
		if got := rec.list(); len(got) != 1 || got[0].Status != 404 {
			t.Errorf("%s: recorded %+v, want one call with status 404", tc.api, got)
		}
	}
}

// TestServerDown: nothing listening gives the message that says how to
// start the server, and the call is still recorded, without a status.
func TestServerDown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	for _, tc := range []struct {
		cfg  llm.Config
		want string
	}{
		{llm.Config{Endpoint: "http://" + addr, API: llm.APIOllama, Model: "m"},
			"Ollama is not running at http://" + addr + "; start it with `ollama serve`"},
		{llm.Config{Endpoint: "http://" + addr, API: llm.APIOpenAI, Model: "m"},
			"no model server is running at http://" + addr},
		{llm.Config{Endpoint: "http://" + addr}, "no model server is running"},
	} {
		c, rec := newClient(t, tc.cfg)
		_, err := c.Chat(context.Background(), hello, nil)
		if !errors.Is(err, llm.ErrUnreachable) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want ErrUnreachable saying %q", tc.cfg, err, tc.want)
		}
		if got := rec.list(); len(got) != 1 || got[0].Status != 0 || got[0].Err == nil {
			t.Errorf("recorded %+v, want one failed call without a status", got)
		}
	}
}

// TestDefaultEndpointMessage: the default endpoint is Ollama's, and the
// message for it names Ollama even before the API is known.
func TestDefaultEndpointMessage(t *testing.T) {
	c, err := llm.New(llm.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Endpoint() != llm.DefaultEndpoint {
		t.Errorf("default endpoint %q", c.Endpoint())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := c.Models(ctx); err != nil && errors.Is(err, llm.ErrUnreachable) {
		want := "Ollama is not running at http://127.0.0.1:11434; start it with `ollama serve`"
		if err.Error() != want {
			t.Errorf("error %q, want %q", err, want)
		}
	}
}

// TestStreamFailures: a stream that stops short, an error mid-stream, a
// reply over the limit and a server that is not a model server all fail
// with their own kind; none returns partial content as if it were whole.
func TestStreamFailures(t *testing.T) {
	long := strings.Repeat("word ", 400) // 2000 bytes
	for _, api := range apis {
		for _, tc := range []struct {
			name   string
			reply  llmtest.Reply
			max    int
			kind   error
			status int
		}{
			{"truncated", llmtest.Reply{Text: "NOTIFY \"a\" \"b\"", Truncate: true}, 0, llm.ErrBadReply, 200},
			{"too large", llmtest.Plain(long), 1000, llm.ErrReplyTooLarge, llm.StatusCancelled},
			{"too large in one piece", llmtest.Reply{Chunks: []string{long}}, 1000, llm.ErrReplyTooLarge, llm.StatusCancelled},
			{"server error", llmtest.Reply{Status: 500, Text: "CUDA out of memory"}, 0, llm.ErrServer, 500},
			{"overloaded", llmtest.Reply{Status: 503, Text: "server busy"}, 0, llm.ErrServer, 503},
		} {
			t.Run(string(api)+"/"+tc.name, func(t *testing.T) {
				srv := llmtest.New(t, llmtest.Options{API: api, Models: []string{"m"}})
				srv.Reply(tc.reply)
				c, rec := newClient(t, llm.Config{Endpoint: srv.URL, API: api, Model: "m", MaxReply: tc.max})
				rep, err := c.Chat(context.Background(), hello, nil)
				if !errors.Is(err, tc.kind) {
					t.Fatalf("Chat = %q, %v; want %v", rep.Content, err, tc.kind)
				}
				if rep.Content != "" {
					t.Errorf("partial content %q returned", rep.Content)
				}
				if got := rec.list(); len(got) != 1 || got[0].Status != tc.status {
					t.Errorf("recorded %+v, want status %d", got, tc.status)
				}
				if tc.reply.Status != 0 && !strings.Contains(err.Error(), tc.reply.Text) {
					t.Errorf("%q does not carry the server's message", err)
				}
			})
		}
	}
}

// TestMidStreamErrors: errors a server sends inside a 200 stream.
func TestMidStreamErrors(t *testing.T) {
	for _, tc := range []struct {
		api  llm.API
		raw  string
		kind error
	}{
		{llm.APIOllama, `{"model":"m","message":{"role":"assistant","content":"NO"},"done":false}` + "\n" + `{"error":"model runner has unexpectedly stopped"}` + "\n", llm.ErrServer},
		{llm.APIOllama, "not json\n", llm.ErrBadReply},
		{llm.APIOpenAI, `data: {"error":{"message":"context length exceeded","type":"invalid_request_error"}}` + "\n\n", llm.ErrServer},
		{llm.APIOpenAI, "data: {not json}\n\n", llm.ErrBadReply},
		{llm.APIOpenAI, "event: ping\n: comment\n\n", llm.ErrBadReply},
	} {
		srv := llmtest.New(t, llmtest.Options{API: tc.api, Models: []string{"m"}})
		srv.Reply(llmtest.Reply{Raw: tc.raw})
		c, _ := newClient(t, llm.Config{Endpoint: srv.URL, API: tc.api, Model: "m"})
		if _, err := c.Chat(context.Background(), hello, nil); !errors.Is(err, tc.kind) {
			t.Errorf("%s %q: %v, want %v", tc.api, tc.raw, err, tc.kind)
		}
	}
}

// TestCancelAbortsStream is the kill switch at this level: cancelling the
// context while the model streams ends Chat at once, the server sees its
// client go, and the call is recorded as cancelled.
func TestCancelAbortsStream(t *testing.T) {
	for _, api := range apis {
		t.Run(string(api), func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Options{API: api, Models: []string{"m"}})
			srv.Reply(llmtest.Reply{Text: "NOTIFY \"slow\" ", Hold: true})
			c, rec := newClient(t, llm.Config{Endpoint: srv.URL, API: api, Model: "m"})
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			go func() {
				_, err := c.Chat(ctx, hello, nil)
				done <- err
			}()
			waitFor(t, srv.Held(), "the stream to start")
			cancel()
			var err error
			select {
			case err = <-done:
			case <-time.After(10 * time.Second):
				t.Fatal("Chat still running 10 s after its context was cancelled")
			}
			if !errors.Is(err, llm.ErrCancelled) || !errors.Is(err, context.Canceled) {
				t.Errorf("Chat = %v, want ErrCancelled wrapping context.Canceled", err)
			}
			waitFor(t, srv.Aborted(), "the server to see its client go")
			if got := rec.list(); len(got) != 1 || got[0].Status != llm.StatusCancelled {
				t.Errorf("recorded %+v, want one call with status %d", got, llm.StatusCancelled)
			}
		})
	}
}

func waitFor(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("gave up waiting for %s", what)
	}
}

// TestIdleTimeout: a server that goes silent is abandoned after
// IdleTimeout, with an error saying so.
func TestIdleTimeout(t *testing.T) {
	srv := llmtest.New(t, llmtest.Options{API: llm.APIOllama, Models: []string{"m"}})
	srv.Reply(llmtest.Reply{Text: "NOTIFY ", Hold: true})
	c, rec := newClient(t, llm.Config{Endpoint: srv.URL, API: llm.APIOllama, Model: "m", IdleTimeout: 50 * time.Millisecond})
	_, err := c.Chat(context.Background(), hello, nil)
	if !errors.Is(err, llm.ErrTimeout) || !strings.Contains(err.Error(), "sent nothing") {
		t.Errorf("Chat = %v, want ErrTimeout for silence", err)
	}
	if got := rec.list(); len(got) != 1 || got[0].Status != llm.StatusCancelled {
		t.Errorf("recorded %+v", got)
	}
}

// TestAPIKey: over https the key goes as a bearer token to the endpoint;
// a refused key says what to do; the key appears in no error and no
// formatting of the Config.
func TestAPIKey(t *testing.T) {
	const key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789XYZ1"
	srv := llmtest.New(t, llmtest.Options{API: llm.APIOpenAI, Models: []string{"gpt-x"}, TLS: true, Key: key})
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	ok, _ := newClient(t, llm.Config{Endpoint: srv.URL, API: llm.APIOpenAI, Model: "gpt-x", APIKey: key, RootCAs: pool})
	srv.Reply(llmtest.Plain("# No action needed"))
	if _, err := ok.Chat(context.Background(), hello, nil); err != nil {
		t.Fatal(err)
	}
	if got := srv.Chats(); len(got) != 1 || got[0].Auth != "Bearer "+key {
		t.Errorf("the server saw %+v, want the key as a bearer token", got)
	}

	bad, rec := newClient(t, llm.Config{Endpoint: srv.URL, API: llm.APIOpenAI, Model: "gpt-x", APIKey: llm.Secret("sk-wrong-" + key[9:]), RootCAs: pool})
	_, err := bad.Chat(context.Background(), hello, nil)
	if !errors.Is(err, llm.ErrUnauthorized) || !strings.Contains(err.Error(), "airlock key set") {
		t.Errorf("wrong key: %v, want ErrUnauthorized saying how to set the key", err)
	}
	if strings.Contains(err.Error(), "abcdefghij") || strings.Contains(fmt.Sprint(rec.list()), "abcdefghij") {
		t.Errorf("the key leaked into %q or the record", err)
	}
	cfg := llm.Config{APIKey: key}
	for _, s := range []string{fmt.Sprint(cfg), fmt.Sprintf("%+v", cfg), fmt.Sprintf("%#v", cfg), fmt.Sprintf("%q", cfg.APIKey), fmt.Sprintf("%x", cfg.APIKey)} {
		if strings.Contains(s, "abcdefghij") || strings.Contains(s, "616263") {
			t.Errorf("formatting a Config shows the key: %s", s)
		}
	}

	// Without the test's roots the certificate is not trusted.
	untrusted, _ := newClient(t, llm.Config{Endpoint: srv.URL, API: llm.APIOpenAI, Model: "gpt-x", APIKey: key})
	if _, err := untrusted.Chat(context.Background(), hello, nil); !errors.Is(err, llm.ErrUnreachable) || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("untrusted certificate: %v", err)
	}
}

// TestNoRedirects: a redirect is reported, never followed, so neither the
// key nor the request goes where the endpoint does not point.
func TestNoRedirects(t *testing.T) {
	var followed bool
	target := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { followed = true }))
	defer target.Close()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL+r.URL.Path, http.StatusTemporaryRedirect)
	}))
	defer srv.Close()
	c, _ := newClient(t, llm.Config{Endpoint: srv.URL, API: llm.APIOllama, Model: "m", APIKey: "secret-key-1234567890"})
	_, err := c.Chat(context.Background(), hello, nil)
	if !errors.Is(err, llm.ErrBadReply) || !strings.Contains(err.Error(), "redirected") || followed {
		t.Errorf("Chat = %v, followed %v; want the redirect reported and not followed", err, followed)
	}
}

// TestNotAModelServer: a server that speaks neither API says so.
func TestNotAModelServer(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	c, rec := newClient(t, llm.Config{Endpoint: srv.URL})
	_, err := c.Models(context.Background())
	if !errors.Is(err, llm.ErrBadReply) || !strings.Contains(err.Error(), "neither") {
		t.Errorf("Models = %v", err)
	}
	if len(rec.list()) != 2 {
		t.Errorf("recorded %d calls, want both probes", len(rec.list()))
	}
}

// TestRecordFailureFails: a call that cannot be recorded fails the
// operation.
func TestRecordFailureFails(t *testing.T) {
	srv := llmtest.New(t, llmtest.Options{API: llm.APIOllama, Models: []string{"m"}})
	c, err := llm.New(llm.Config{Endpoint: srv.URL, API: llm.APIOllama, Model: "m",
		Record: func(llm.Call) error { return errors.New("disk full") }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Chat(context.Background(), hello, nil); err == nil || !strings.Contains(err.Error(), "disk full") {
		t.Errorf("Chat = %v, want the recording error", err)
	}
}

func TestNewRefuses(t *testing.T) {
	for _, cfg := range []llm.Config{
		{Endpoint: "http://example.com"},
		{API: "anthropic"},
		{Model: "bad model"},
		{APIKey: "line\nbreak"},
	} {
		if _, err := llm.New(cfg); err == nil {
			t.Errorf("New(%+v) accepted it", cfg)
		}
	}
}

// TestUnstreamedCompletion: an OpenAI-compatible server that ignores
// "stream" and answers with one JSON completion is read as well.
func TestUnstreamedCompletion(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"m",`+
			`"choices":[{"index":0,"message":{"role":"assistant","content":"NOTIFY \"a\" \"b\""},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":9,"completion_tokens":4,"total_tokens":13}}`)
	}))
	defer srv.Close()
	c, rec := newClient(t, llm.Config{Endpoint: srv.URL, API: llm.APIOpenAI, Model: "m"})
	rep, err := c.Chat(context.Background(), hello, nil)
	if err != nil || rep.Content != `NOTIFY "a" "b"` || rep.CompletionTokens != 4 {
		t.Errorf("Chat = %+v, %v", rep, err)
	}
	if got := rec.list(); len(got) != 1 || got[0].PromptTokens != 9 {
		t.Errorf("recorded %+v", got)
	}
}

// An unstreamed completion is read only up to one reply and its envelope: a
// server sending megabytes of empty choices (each an allocation when
// decoded) gets an error, not Airlock's memory.
func TestUnstreamedCompletionBounded(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"choices":[`+strings.Repeat(`{},`, 1<<20)+`{}]}`)
	}))
	defer srv.Close()
	c, _ := newClient(t, llm.Config{Endpoint: srv.URL, API: llm.APIOpenAI, Model: "m", MaxReply: 64 << 10})
	if _, err := c.Chat(context.Background(), hello, nil); !errors.Is(err, llm.ErrBadReply) {
		t.Fatalf("Chat = %v, want ErrBadReply", err)
	}
}

// A server that echoes the API key in its error text does not get it shown,
// logged or recorded — even a key no redaction pattern knows.
func TestAPIKeyNotEchoed(t *testing.T) {
	const key = "plain-key-without-a-known-shape-0123456789"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprintf(w, `{"error":{"message":"key %s is not allowed"}}`, strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer "))
	}))
	defer srv.Close()
	c, rec := newClient(t, llm.Config{Endpoint: srv.URL, API: llm.APIOpenAI, Model: "m", APIKey: llm.Secret(key)})
	_, err := c.Chat(context.Background(), hello, nil)
	if !errors.Is(err, llm.ErrUnauthorized) {
		t.Fatalf("err = %v, want ErrUnauthorized", err)
	}
	if strings.Contains(err.Error(), key) {
		t.Fatalf("the error shows the key: %v", err)
	}
	for _, call := range rec.list() {
		if call.Err != nil && strings.Contains(call.Err.Error(), key) {
			t.Fatalf("the recorded call shows the key: %v", call.Err)
		}
	}
}
