package llm

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// API names the wire protocol a model server speaks.
type API string

const (
	APIOllama API = "ollama" // /api/chat (NDJSON), /api/tags
	APIOpenAI API = "openai" // /v1/chat/completions (server-sent events), /v1/models
)

// ParseAPI checks an API name; "" means "find out from the server".
func ParseAPI(s string) (API, error) {
	switch API(s) {
	case "", APIOllama, APIOpenAI:
		return API(s), nil
	}
	return "", fmt.Errorf("model API %s: want ollama or openai", quoteShort(s))
}

// Secret is an API key. It prints as "[redacted]" whatever the verb, so a
// Config can be logged without leaking it.
type Secret string

// Format writes "[redacted]".
func (Secret) Format(f fmt.State, _ rune) { io.WriteString(f, "[redacted]") }

// Defaults of Config's limits.
const (
	DefaultMaxReply    = 1 << 20         // bytes of content in one reply
	DefaultTimeout     = 5 * time.Minute // one call, from request to the end of the reply
	DefaultIdleTimeout = 2 * time.Minute // silence, loading the model included
	wireFactor         = 16              // a stream may be this many times its content
	maxErrorBody       = 4 << 10
	maxListBody        = 1 << 20
	connectTimeout     = 10 * time.Second
	maxOutputTokens    = 8192
)

// StatusCancelled is the Status recorded for a call Airlock abandoned before
// the reply ended (the kill switch, a deadline, a reply over the limit), as
// nginx logs a request its client closed.
const StatusCancelled = 499

// Config says which server and model to use and how.
type Config struct {
	// Endpoint is the server's base URL; "" means DefaultEndpoint. It must
	// pass ParseEndpoint.
	Endpoint string
	// API is the server's protocol; "" finds out by asking the server for
	// its model list (Ollama's first).
	API API
	// Model is the model to use; "" means the only one the server lists
	// (several is a *ModelChoiceError). It must pass ValidModelName.
	Model string
	// APIKey, if set, is sent as "Authorization: Bearer" to Endpoint and
	// nowhere else. The caller reads it from the key store.
	APIKey Secret
	// RootCAs, if set, replaces the system's roots for https (tests).
	RootCAs *x509.CertPool
	// MaxReply bounds the content of one reply, in bytes; the stream
	// carrying it may be up to 16 times that. 0 means DefaultMaxReply.
	MaxReply int
	// Timeout bounds one call; 0 means DefaultTimeout.
	Timeout time.Duration
	// IdleTimeout bounds the wait for the next byte (the first one
	// included, while the server loads the model); 0 means
	// DefaultIdleTimeout.
	IdleTimeout time.Duration
	// Record, if set, is called once for every HTTP request, after it
	// ended, however it ended. An error from it fails the operation: the
	// caller records every call or none goes through unrecorded.
	Record func(Call) error
}

// Call is one HTTP request to the model server, as it is recorded.
type Call struct {
	URL              string        // endpoint and path; never a key
	Status           int           // HTTP status; 0 without a response; StatusCancelled if abandoned
	Duration         time.Duration // from sending to the end of the reply
	PromptTokens     int           // as the server counted them; 0 if it did not say
	CompletionTokens int
	Err              error // nil if the call succeeded
}

// Message is one message of a chat.
type Message struct {
	Role    string `json:"role"` // RoleSystem, RoleUser or RoleAssistant
	Content string `json:"content"`
}

// Chat roles.
const (
	RoleSystem    = "system"
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Progress reports a reply as it streams.
type Progress struct {
	Model   string
	Attempt int // 1, or 2 for the retry after a plan that did not parse
	Tokens  int // pieces of content received so far, about one token each
	Bytes   int // bytes of content received so far
}

// Reply is a model's whole answer to a chat.
type Reply struct {
	Content          string
	Model            string
	PromptTokens     int
	CompletionTokens int
}

// Client talks to one model server. It is safe for concurrent use.
type Client struct {
	cfg Config
	ep  Endpoint
	hc  *http.Client

	mu    sync.Mutex
	api   API    // guarded by mu; "" until found out
	model string // guarded by mu; "" until chosen
}

// New checks cfg and returns a client. It does not contact the server.
func New(cfg Config) (*Client, error) {
	if cfg.Endpoint == "" {
		cfg.Endpoint = DefaultEndpoint
	}
	ep, err := ParseEndpoint(cfg.Endpoint)
	if err != nil {
		return nil, err
	}
	if _, err := ParseAPI(string(cfg.API)); err != nil {
		return nil, err
	}
	if cfg.Model != "" && !ValidModelName(cfg.Model) {
		return nil, fmt.Errorf("model name %s: use letters, digits and . _ : / - @ + (at most %d bytes)", quoteShort(cfg.Model), maxModelName)
	}
	if strings.ContainsAny(string(cfg.APIKey), "\r\n\x00") {
		return nil, errors.New("the API key holds a line break or NUL: store it again with `airlock key set NAME`")
	}
	if cfg.MaxReply <= 0 {
		cfg.MaxReply = DefaultMaxReply
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	dialer := &net.Dialer{Timeout: connectTimeout}
	if ep.Plain() {
		dialer.Control = checkLoopbackDial
	}
	tr := &http.Transport{
		Proxy:                  nil, // never: a proxy would see plain http, and is not the configured endpoint
		DialContext:            dialer.DialContext,
		TLSClientConfig:        &tls.Config{MinVersion: tls.VersionTLS12, RootCAs: cfg.RootCAs},
		TLSHandshakeTimeout:    connectTimeout,
		ForceAttemptHTTP2:      !ep.Plain(),
		MaxResponseHeaderBytes: 64 << 10,
		IdleConnTimeout:        30 * time.Second,
	}
	hc := &http.Client{
		Transport: tr,
		// A redirect could lead the key, or plain http, elsewhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return &Client{cfg: cfg, ep: ep, hc: hc, api: cfg.API, model: cfg.Model}, nil
}

// Close releases the client's idle connections. The client stays usable.
func (c *Client) Close() { c.hc.CloseIdleConnections() }

// Endpoint returns the server's base URL.
func (c *Client) Endpoint() string { return c.ep.String() }

// API returns the protocol in use, "" until it is known.
func (c *Client) API() API {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.api
}

// Models asks the server which models it has, sorted and without
// duplicates; names that fail ValidModelName are left out. With no API
// configured, it finds out which one the server speaks.
func (c *Client) Models(ctx context.Context) ([]string, error) {
	c.mu.Lock()
	api := c.api
	c.mu.Unlock()
	if api != "" {
		return c.list(ctx, api, false)
	}
	models, err := c.list(ctx, APIOllama, true)
	if errors.Is(err, errNotThisAPI) {
		models, err = c.list(ctx, APIOpenAI, true)
		if errors.Is(err, errNotThisAPI) {
			return nil, errorf(ErrBadReply, "%s speaks neither Ollama's API (/api/tags) nor the OpenAI-compatible one (/v1/models)", c.ep)
		}
		api = APIOpenAI
	} else {
		api = APIOllama
	}
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.api = api
	c.mu.Unlock()
	return models, nil
}

// errNotThisAPI: the server answered, but not as the API asked about.
var errNotThisAPI = errors.New("not this API")

func (c *Client) list(ctx context.Context, api API, probing bool) ([]string, error) {
	path := "/api/tags"
	if api == APIOpenAI {
		path = "/v1/models"
	}
	var names []string
	err := c.roundTrip(ctx, api, path, nil, func(resp *http.Response, body io.Reader, _ *Call) error {
		b, err := io.ReadAll(io.LimitReader(body, maxListBody))
		if err != nil {
			return err
		}
		var list struct {
			Models *[]struct {
				Name  string `json:"name"`
				Model string `json:"model"`
			} `json:"models"`
			Data *[]struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		if json.Unmarshal(b, &list) != nil || (api == APIOllama && list.Models == nil) || (api == APIOpenAI && list.Data == nil) {
			if probing {
				return errNotThisAPI
			}
			return errorf(ErrBadReply, "%s%s did not answer with a model list", c.ep, path)
		}
		if list.Models != nil {
			for _, m := range *list.Models {
				names = append(names, cmp(m.Name, m.Model))
			}
		}
		if list.Data != nil {
			for _, m := range *list.Data {
				names = append(names, m.ID)
			}
		}
		return nil
	})
	var he *httpStatusError
	if probing && errors.As(err, &he) && (he.status == http.StatusNotFound || he.status == http.StatusMethodNotAllowed) {
		return nil, errNotThisAPI
	}
	if err != nil {
		return nil, err
	}
	names = slices.DeleteFunc(names, func(n string) bool { return !ValidModelName(n) })
	slices.Sort(names)
	return slices.Compact(names), nil
}

func cmp(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Model returns the model the client uses, choosing it first if none was
// configured: the only one the server lists. None is an error wrapping
// ErrNoModels; several is a *ModelChoiceError.
func (c *Client) Model(ctx context.Context) (string, error) {
	c.mu.Lock()
	api, model := c.api, c.model
	c.mu.Unlock()
	if model != "" && api != "" {
		return model, nil
	}
	models, err := c.Models(ctx) // also finds out the API
	if err != nil {
		return "", err
	}
	if model != "" {
		return model, nil
	}
	switch len(models) {
	case 0:
		hint := "load one in the server"
		if c.API() == APIOllama {
			hint = "install one with `ollama pull NAME`"
		}
		return "", errorf(ErrNoModels, "%s has no models; %s", c.ep, hint)
	case 1:
		c.mu.Lock()
		c.model = models[0]
		c.mu.Unlock()
		return models[0], nil
	}
	return "", &ModelChoiceError{Endpoint: c.ep.String(), Models: models}
}

// Chat sends msgs and returns the model's whole reply. progress, if not
// nil, is called as the reply streams (from this goroutine). Cancelling ctx
// aborts the stream at once.
func (c *Client) Chat(ctx context.Context, msgs []Message, progress func(Progress)) (Reply, error) {
	model, err := c.Model(ctx)
	if err != nil {
		return Reply{}, err
	}
	api := c.API()
	var path string
	var req any
	if api == APIOllama {
		path = "/api/chat"
		req = map[string]any{"model": model, "messages": msgs, "stream": true,
			"options": map[string]any{"temperature": 0, "num_predict": maxOutputTokens}}
	} else {
		path = "/v1/chat/completions"
		req = map[string]any{"model": model, "messages": msgs, "stream": true, "temperature": 0,
			"max_tokens": maxOutputTokens, "stream_options": map[string]any{"include_usage": true}}
	}
	body, err := json.Marshal(req)
	if err != nil {
		return Reply{}, fmt.Errorf("encoding the chat request: %w", err)
	}
	var content strings.Builder
	pr := Progress{Model: model}
	onDelta := func(d string) error {
		if content.Len()+len(d) > c.cfg.MaxReply {
			return errorf(ErrReplyTooLarge, "the model's reply is longer than %d bytes", c.cfg.MaxReply)
		}
		content.WriteString(d)
		pr.Tokens++
		pr.Bytes = content.Len()
		if progress != nil {
			progress(pr)
		}
		return nil
	}
	var end streamEnd
	err = c.roundTrip(ctx, api, path, body, func(resp *http.Response, r io.Reader, call *Call) error {
		maxLine := c.cfg.MaxReply + 64<<10
		var err error
		switch ct := resp.Header.Get("Content-Type"); {
		case api == APIOllama:
			end, err = decodeOllama(r, maxLine, onDelta)
		case strings.HasPrefix(ct, "application/json"):
			end, err = decodeCompletion(io.LimitReader(r, int64(maxLine)), onDelta)
		default:
			end, err = decodeSSE(r, maxLine, onDelta)
		}
		call.PromptTokens, call.CompletionTokens = end.PromptTokens, end.CompletionTokens
		return err
	})
	if err != nil {
		return Reply{}, err
	}
	return Reply{Content: content.String(), Model: cmp(end.Model, model),
		PromptTokens: end.PromptTokens, CompletionTokens: end.CompletionTokens}, nil
}

// httpStatusError is a reply whose status was not 200.
type httpStatusError struct {
	status int
	err    *Error
}

func (e *httpStatusError) Error() string { return e.err.Msg }
func (e *httpStatusError) Unwrap() error { return e.err }

// roundTrip sends one request (GET when body is nil) and hands a 200
// reply's body, bounded and watched for silence, to read. It records the
// call however it ends and turns every failure into an *Error.
func (c *Client) roundTrip(parent context.Context, api API, path string, body []byte,
	read func(resp *http.Response, body io.Reader, call *Call) error) error {
	start := time.Now()
	call := Call{URL: c.ep.url(path)}
	err := c.exchange(parent, api, path, body, &call, read)
	if err != nil && c.cfg.APIKey != "" && strings.Contains(err.Error(), string(c.cfg.APIKey)) {
		// A server that echoes the key back in its error text must not
		// have it shown, logged or recorded.
		err = &scrubbedError{err: err, text: strings.ReplaceAll(err.Error(), string(c.cfg.APIKey), "[redacted:api-key]")}
	}
	call.Duration = time.Since(start)
	call.Err = err
	if call.Status == 0 && err != nil && parent.Err() != nil {
		call.Status = StatusCancelled
	}
	if c.cfg.Record != nil {
		if rerr := c.cfg.Record(call); rerr != nil {
			return fmt.Errorf("recording the model call: %w", rerr)
		}
	}
	return err
}

func (c *Client) exchange(parent context.Context, api API, path string, body []byte, call *Call,
	read func(resp *http.Response, body io.Reader, call *Call) error) error {
	ctx, cancel := context.WithTimeout(parent, c.cfg.Timeout)
	defer cancel()
	var idle atomic.Bool
	watchdog := time.AfterFunc(c.cfg.IdleTimeout, func() { idle.Store(true); cancel() })
	defer watchdog.Stop()

	method := http.MethodGet
	var rd io.Reader
	if body != nil {
		method, rd = http.MethodPost, bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, call.URL, rd)
	if err != nil {
		return fmt.Errorf("making the request to %s: %w", call.URL, err)
	}
	req.Header.Set("User-Agent", "airlock")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+string(c.cfg.APIKey))
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return c.failure(parent, ctx, &idle, err)
	}
	defer resp.Body.Close()
	call.Status = resp.StatusCode
	limit := int64(c.cfg.MaxReply) * wireFactor
	br := &boundedReader{r: resp.Body, left: limit, limit: limit, seen: func() { watchdog.Reset(c.cfg.IdleTimeout) }}
	if resp.StatusCode != http.StatusOK {
		err = c.statusError(api, path, resp, br)
	} else {
		err = read(resp, br, call)
	}
	if err != nil && br.exceeded {
		err = br.err()
	}
	if err != nil {
		var pe *Error
		if parent.Err() != nil || ctx.Err() != nil || (errors.As(err, &pe) && pe.Kind == ErrReplyTooLarge) {
			call.Status = StatusCancelled
		}
		return c.failure(parent, ctx, &idle, err)
	}
	return nil
}

// failure turns a transport or read error into an *Error saying what to
// do. Errors that already are *Error pass through unless a context ended.
func (c *Client) failure(parent, ctx context.Context, idle *atomic.Bool, err error) error {
	switch {
	case parent.Err() != nil:
		e := errorf(ErrCancelled, "the request to the model was cancelled")
		e.err = parent.Err()
		return e
	case idle.Load():
		return errorf(ErrTimeout, "the model server at %s sent nothing for %v", c.ep, c.cfg.IdleTimeout)
	case ctx.Err() != nil:
		return errorf(ErrTimeout, "the model did not finish within %v", c.cfg.Timeout)
	}
	var pe *Error
	if errors.As(err, &pe) || errors.Is(err, errNotThisAPI) {
		return err
	}
	if errors.Is(err, ErrInsecureEndpoint) {
		return errorf(ErrUnreachable, "refused to connect to %s: %v", c.ep, errNotLoopback)
	}
	var dnsErr *net.DNSError
	var opErr *net.OpError
	if errors.Is(err, syscall.ECONNREFUSED) || errors.As(err, &dnsErr) || errors.As(err, &opErr) && opErr.Op == "dial" {
		if c.cfg.API == APIOllama || c.cfg.API == "" && c.ep.u.Port() == "11434" {
			return errorf(ErrUnreachable, "Ollama is not running at %s; start it with `ollama serve`", c.ep)
		}
		return errorf(ErrUnreachable, "no model server is running at %s; start it (llama.cpp's llama-server, LM Studio's server, or `ollama serve`)", c.ep)
	}
	var certErr *tls.CertificateVerificationError
	if errors.As(err, &certErr) {
		return errorf(ErrUnreachable, "the certificate of %s is not trusted: %s", c.ep, serverText(certErr.Err.Error()))
	}
	return errorf(ErrUnreachable, "talking to the model server at %s failed: %s", c.ep, serverText(err.Error()))
}

// statusError reads a little of a non-200 reply for the server's message.
func (c *Client) statusError(api API, path string, resp *http.Response, body io.Reader) error {
	b, _ := io.ReadAll(io.LimitReader(body, maxErrorBody))
	msg := ""
	var e struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(b, &e) == nil && len(e.Error) > 0 {
		msg = serverText(errorText(e.Error))
	}
	status := resp.StatusCode
	wrap := func(kind error, format string, a ...any) error {
		return &httpStatusError{status: status, err: errorf(kind, format, a...)}
	}
	said := ""
	if msg != "" {
		said = ": " + msg
	}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		hint := "store its API key with `airlock key set NAME` and name it in the llmApiKey setting"
		if c.cfg.APIKey != "" {
			hint = "check the API key stored under the llmApiKey setting (`airlock key set NAME` replaces it)"
		}
		return wrap(ErrUnauthorized, "the model server at %s refused the request (HTTP %d%s); %s", c.ep, status, said, hint)
	case status == http.StatusNotFound && (path == "/api/chat" || path == "/v1/chat/completions"):
		c.mu.Lock()
		model := c.model
		c.mu.Unlock()
		hint := "load it in the server"
		if api == APIOllama {
			hint = "install it with `ollama pull " + model + "`"
		}
		return wrap(ErrModelNotFound, "model %s is not available at %s%s; %s", quoteShort(model), c.ep, said, hint)
	case status >= 300 && status < 400:
		return wrap(ErrBadReply, "the model server at %s redirected the request (HTTP %d); set the endpoint to the server's own address", c.ep, status)
	}
	return wrap(ErrServer, "the model server at %s answered HTTP %d%s", c.ep, status, said)
}

// scrubbedError is err with the API key taken out of its text; errors.Is
// still sees through it.
type scrubbedError struct {
	err  error
	text string
}

func (e *scrubbedError) Error() string       { return e.text }
func (e *scrubbedError) UserMessage() string { return e.text }
func (e *scrubbedError) Unwrap() error       { return e.err }
