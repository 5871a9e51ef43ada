package llm_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/llm"
)

func TestParseEndpoint(t *testing.T) {
	for _, tc := range []struct {
		in, want string
	}{
		{"http://127.0.0.1:11434", "http://127.0.0.1:11434"},
		{"http://127.0.0.1:11434/", "http://127.0.0.1:11434"},
		{"http://localhost:1234/v1", "http://localhost:1234"},
		{"http://LOCALHOST:8080/v1/", "http://localhost:8080"},
		{"http://127.8.9.10:8080", "http://127.8.9.10:8080"},
		{"http://[::1]:8080", "http://[::1]:8080"},
		{"http://[::ffff:127.0.0.1]:8080", "http://[::ffff:127.0.0.1]:8080"},
		{"https://models.example.com", "https://models.example.com"},
		{"https://gw.example.com/llm/v1", "https://gw.example.com/llm"},
		{"https://10.0.0.5:8443", "https://10.0.0.5:8443"},
	} {
		ep, err := llm.ParseEndpoint(tc.in)
		if err != nil {
			t.Errorf("ParseEndpoint(%q): %v", tc.in, err)
			continue
		}
		if ep.String() != tc.want {
			t.Errorf("ParseEndpoint(%q) = %q, want %q", tc.in, ep.String(), tc.want)
		}
	}
}

func TestParseEndpointRefuses(t *testing.T) {
	for _, tc := range []struct {
		in       string
		insecure bool // the transport rule, rather than the URL's shape
	}{
		{"http://127.0.0.1.evil.com", true},
		{"http://127.0.0.1.evil.com:11434", true},
		{"http://localhost.evil.com", true},
		{"http://evil.com/127.0.0.1", true},
		{"http://10.0.0.5:11434", true},
		{"http://0.0.0.0:11434", true},
		{"http://192.168.1.2", true},
		{"http://2130706433", true}, // 127.0.0.1 as a number: not a literal the rule accepts
		{"http://127.1", true},
		{"http://[::2]:80", true},
		{"http://models.example.com", true},
		{"", false},
		{"ftp://127.0.0.1", false},
		{"ws://127.0.0.1:11434", false},
		{"127.0.0.1:11434", false},
		{"https://", false},
		{"https://user:pw@models.example.com", false},
		{"https://models.example.com?key=1", false},
		{"https://models.example.com/#x", false},
		{"https://models.example.com:0", false},
		{"https://models.example.com:99999", false},
		{"https://models.example.com:", false},
		{"http://[fe80::1%25lo]:80", false},
		{"https://models.example.com/a/../b", false},
		{"https://models.example.com/a%2fb", false},
		{"http://127.0.0.1:11434/ x", false},
		{"http://127.0.0.1\n:11434", false},
		{"https://modèles.example.com", false},
		{"https://" + strings.Repeat("a", 3000) + ".com", false},
	} {
		_, err := llm.ParseEndpoint(tc.in)
		if err == nil {
			t.Errorf("ParseEndpoint(%q) accepted it", tc.in)
			continue
		}
		if got := errors.Is(err, llm.ErrInsecureEndpoint); got != tc.insecure {
			t.Errorf("ParseEndpoint(%q) = %v; ErrInsecureEndpoint %v, want %v", tc.in, err, got, tc.insecure)
		}
	}
}

// TestLoopbackDial checks the dialer's rule for plain http, which runs on
// the address a name resolved to: only loopback passes.
func TestLoopbackDial(t *testing.T) {
	for _, tc := range []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1:11434", true},
		{"127.255.0.1:80", true},
		{"[::1]:11434", true},
		{"[::ffff:127.0.0.1]:80", true},
		{"10.0.0.1:11434", false},
		{"93.184.216.34:80", false},
		{"[2001:db8::1]:80", false},
		{"0.0.0.0:80", false},
		{"localhost:80", false}, // never a name: the dialer passes resolved addresses
		{"garbage", false},
	} {
		err := llm.CheckLoopbackDial("tcp", tc.addr, nil)
		if (err == nil) != tc.ok {
			t.Errorf("dial %s: %v, want ok=%v", tc.addr, err, tc.ok)
		}
		if err != nil && !errors.Is(err, llm.ErrInsecureEndpoint) {
			t.Errorf("dial %s: %v does not wrap ErrInsecureEndpoint", tc.addr, err)
		}
	}
}

func TestValidModelName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"llama3.2", true},
		{"llama3.2:3b", true},
		{"hf.co/bartowski/Llama-3.2-3B-Instruct-GGUF:Q4_K_M", true},
		{"lmstudio-community/Meta-Llama-3.1-8B-Instruct-GGUF", true},
		{"qwen2.5-coder@q4_k_m", true},
		{"", false},
		{"llama 3", false},
		{"llama\u202e3", false},
		{"llama\n3", false},
		{"модель", false},
		{strings.Repeat("a", 201), false},
	} {
		if got := llm.ValidModelName(tc.name); got != tc.ok {
			t.Errorf("ValidModelName(%q) = %v, want %v", tc.name, got, tc.ok)
		}
	}
}
