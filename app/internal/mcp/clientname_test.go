package mcp_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/ipc"
	airmcp "github.com/airlockhq/airlock/app/internal/mcp"
	"github.com/airlockhq/airlock/app/internal/redact"
)

func TestClientName(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "Claude Desktop", "mcp: Claude Desktop"},
		{"empty", "", "mcp: unnamed client"},
		{"only spaces", " \t\n ", "mcp: unnamed client"},
		{"surrounding spaces", "  goose  ", "mcp: goose"},
		{"inner whitespace", "a\tb\r\nc   d", "mcp: a b c d"},
		{"no-break spaces", "a\u00a0\u2003b", "mcp: a b"},
		{"bidi override", "claude\u202e edoc", "mcp: claude edoc"},
		{"zero width", "cur\u200bsor", "mcp: cursor"},
		{"controls", "\x00\x07bell\x1b[31m", "mcp: bell[31m"},
		{"only controls", "\x00\u202e\u200b", "mcp: unnamed client"},
		{"long", strings.Repeat("a", 100), "mcp: " + strings.Repeat("a", ipc.MaxClientName-5)},
		{"long multibyte", strings.Repeat("é", 40), "mcp: " + strings.Repeat("é", (ipc.MaxClientName-5)/2)},
		{"cut before a space", strings.Repeat("a", ipc.MaxClientName-6) + " bcd", "mcp: " + strings.Repeat("a", ipc.MaxClientName-6)},
		{"invalid UTF-8", "a\xffb", "mcp: a\ufffdb"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := airmcp.ClientName(tc.in); got != tc.want {
				t.Errorf("ClientName(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// FuzzClientName checks that any name a client gives becomes one the gate
// accepts, marked as an MCP client's.
func FuzzClientName(f *testing.F) {
	for _, s := range []string{"", "Claude Desktop", "a\u202eb", strings.Repeat("é", 40), "\xff\xfe", " x ", "\u00a0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		name := airmcp.ClientName(in)
		if !strings.HasPrefix(name, "mcp: ") {
			t.Fatalf("%q lost its prefix", name)
		}
		frame, err := ipc.Request{ID: json.RawMessage("1"), Method: "submit", Params: ipc.SubmitParams{Client: name, Plan: "x"}}.Encode()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ipc.DecodeRequest(frame[:len(frame)-1]); err != nil {
			t.Fatalf("the gate refuses the client name %q: %v", name, err)
		}
	})
}

func TestBound(t *testing.T) {
	token := "ghp_" + strings.Repeat("A1b2C3d4E5", 4)[:36]
	tests := []struct {
		name    string
		in      string
		n       int
		want    string
		wantCut bool
	}{
		{"fits", "hello", 5, "hello", false},
		{"cut", "hello world", 5, "hello\n… [6 more bytes cut by airlock mcp]", true},
		{"nothing left", "abc", 0, "\n… [3 more bytes cut by airlock mcp]", true},
		{"at a character boundary", "aéb", 2, "a\n… [3 more bytes cut by airlock mcp]", true},
		{"secret redacted before the cut", "x " + token, 8, "x [redac\n… [" + itoa(len("x "+redact.String(token))-8) + " more bytes cut by airlock mcp]", true},
		{"secret that fits", "token " + token, 1000, "token " + redact.String(token), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, cut := airmcp.Bound(tc.in, tc.n)
			if got != tc.want || cut != tc.wantCut {
				t.Errorf("Bound(%q, %d) = %q, %v; want %q, %v", tc.in, tc.n, got, cut, tc.want, tc.wantCut)
			}
		})
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// FuzzBound checks that a bounded text is a prefix of the redacted text,
// within its bound, and valid UTF-8 when the text was.
func FuzzBound(f *testing.F) {
	f.Add("hello", 3)
	f.Add("aéb€", 2)
	f.Add("password=hunter2 and more", 10)
	f.Fuzz(func(t *testing.T, in string, n int) {
		if n < 0 || n > 1<<20 {
			return
		}
		got, cut := airmcp.Bound(in, n)
		full := redact.String(in)
		body, note, _ := strings.Cut(got, "\n… [")
		if !cut {
			if got != full {
				t.Fatalf("uncut %q is not the redacted %q", got, full)
			}
			return
		}
		if len(body) > n || !strings.HasPrefix(full, body) || note == "" {
			t.Fatalf("Bound(%q, %d) = %q", in, n, got)
		}
		if utf8.ValidString(in) && !utf8.ValidString(got) {
			t.Fatalf("Bound(%q, %d) = %q is not UTF-8", in, n, got)
		}
	})
}
