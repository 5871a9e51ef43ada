package llm

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"syscall"
)

// DefaultEndpoint is Ollama's address on this machine.
const DefaultEndpoint = "http://127.0.0.1:11434"

// ErrInsecureEndpoint is wrapped by the error for an endpoint that would
// send requests in clear off this machine.
var ErrInsecureEndpoint = errors.New("a model server that is not on this machine must use https")

// maxEndpointLen bounds an endpoint URL, in bytes.
const maxEndpointLen = 2048

// An Endpoint is a model server's base URL that passed the transport rule.
// Make it with ParseEndpoint.
type Endpoint struct {
	u     *url.URL
	plain bool // http: allowed only to loopback, checked again at dial time
}

// ParseEndpoint checks raw and returns the endpoint. It must be an http or
// https URL with a host, no user name or password (keys come from the key
// store), no query and no fragment. http is allowed only when the host is
// "localhost" or a loopback IP literal (127.0.0.0/8, ::1), compared as a
// parsed host, so "http://127.0.0.1.evil.com" is refused; the client checks
// again that every address it dials for it is loopback. A path is kept as a
// prefix (a reverse proxy's); a final "/v1", as OpenAI-compatible servers
// document their base URL, is dropped, since the client adds it.
func ParseEndpoint(raw string) (Endpoint, error) {
	bad := func(format string, a ...any) (Endpoint, error) {
		return Endpoint{}, fmt.Errorf("model endpoint %s: %s", quoteShort(raw), fmt.Sprintf(format, a...))
	}
	if raw == "" {
		return bad("is empty")
	}
	if len(raw) > maxEndpointLen {
		return bad("is longer than %d bytes", maxEndpointLen)
	}
	for _, r := range raw {
		if r <= ' ' || r == 0x7f || r > 0x7e {
			return bad("must be plain ASCII without spaces or control characters")
		}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return bad("is not a URL")
	}
	switch {
	case u.Scheme != "http" && u.Scheme != "https":
		return bad("must start with https:// (or http:// for a server on this machine)")
	case u.Opaque != "" || u.Host == "":
		return bad("has no host")
	case u.User != nil:
		return bad("must not hold a user name or password; keep API keys in the key store (`airlock key set NAME`)")
	case u.RawQuery != "" || u.ForceQuery || u.Fragment != "" || strings.Contains(raw, "#"):
		return bad("must not have a query or a fragment")
	}
	host := u.Hostname()
	if port := u.Port(); port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return bad("port %s is not 1 to 65535", quoteShort(port))
		}
	} else if strings.HasSuffix(u.Host, ":") {
		return bad("has an empty port")
	}
	if strings.Contains(host, "%") {
		return bad("must not name a network zone")
	}
	for _, seg := range strings.Split(u.Path, "/") {
		if seg == "." || seg == ".." {
			return bad("path must not contain . or .. segments")
		}
	}
	if strings.Contains(u.RawPath, "%2") || strings.Contains(u.RawPath, "%5") {
		return bad("path must not contain escaped slashes")
	}
	plain := u.Scheme == "http"
	if plain && !loopbackHost(host) {
		return Endpoint{}, fmt.Errorf("model endpoint %s: %w (http is allowed only to localhost, 127.0.0.0/8 or ::1)", quoteShort(raw), ErrInsecureEndpoint)
	}
	clean := &url.URL{Scheme: u.Scheme, Host: strings.ToLower(u.Host), Path: strings.TrimRight(u.Path, "/")}
	clean.Path = strings.TrimSuffix(clean.Path, "/v1")
	return Endpoint{u: clean, plain: plain}, nil
}

// String returns the base URL, without a final slash.
func (e Endpoint) String() string {
	if e.u == nil {
		return ""
	}
	return e.u.String()
}

// Plain reports whether the endpoint is plain http (to loopback).
func (e Endpoint) Plain() bool { return e.plain }

// url returns the endpoint with path appended.
func (e Endpoint) url(path string) string { return e.String() + path }

// loopbackHost reports whether host, as url.Hostname returns it, is
// "localhost" or a loopback IP literal. Nothing is resolved here: the dialer
// checks the addresses a name resolves to.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// errNotLoopback is the dialer's refusal of a plain-http connection that
// would leave this machine.
var errNotLoopback = fmt.Errorf("%w: the host resolved to an address that is not loopback", ErrInsecureEndpoint)

// checkLoopbackDial is the dialer's Control for plain-http endpoints: it
// runs for every address dialled, after resolution, and refuses any that is
// not a loopback IP.
func checkLoopbackDial(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return errNotLoopback
	}
	if ip := net.ParseIP(host); ip == nil || !ip.IsLoopback() {
		return errNotLoopback
	}
	return nil
}

// maxModelName bounds a model name, in bytes.
const maxModelName = 200

// ValidModelName reports whether name can be a model's name: 1 to 200
// bytes of letters, digits and . _ : / - @ +, as Ollama ("llama3.2:3b",
// "hf.co/org/repo:Q4_K_M") and OpenAI-compatible servers
// ("lmstudio-community/Meta-Llama-3.1-8B-Instruct-GGUF") spell them. Names
// are shown in approval popups, so nothing that could disguise text is
// allowed.
func ValidModelName(name string) bool {
	if name == "" || len(name) > maxModelName {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case strings.IndexByte("._:/-@+", c) >= 0:
		default:
			return false
		}
	}
	return true
}

// quoteShort quotes s for an error message, cut to a readable length.
func quoteShort(s string) string {
	const max = 60
	if len(s) <= max {
		return strconv.Quote(s)
	}
	cut := max
	for cut > 0 && s[cut]&0xc0 == 0x80 {
		cut--
	}
	return strconv.Quote(s[:cut]) + "…"
}
