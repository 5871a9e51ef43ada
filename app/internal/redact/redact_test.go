package redact_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/redact"
)

type secretCase struct {
	ID     string `json:"id"`
	Kind   string `json:"kind"`
	Text   string `json:"text"`
	Secret string `json:"secret"`
}

type benignCase struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

func load[T any](t testing.TB, name string) []T {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var c T
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s:%d: %v", name, n, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

var markerText = regexp.MustCompile(`\[redacted:[a-z0-9-]+\]`)

// leak returns a piece of secret that is still in out: the whole secret,
// or any run of 8 of its bytes (so a half-redacted key counts as leaked).
func leak(out, secret string) string {
	const window = 8
	// A marker's own text ("[redacted:rubygems-api-token]") may repeat
	// the start of the key it replaced; that is no leak.
	out = markerText.ReplaceAllString(out, "\x00")
	if len(secret) <= window {
		if strings.Contains(out, secret) {
			return secret
		}
		return ""
	}
	for i := 0; i+window <= len(secret); i++ {
		if w := secret[i : i+window]; strings.Contains(out, w) {
			return w
		}
	}
	return ""
}

// TestSecretsCorpus: no secret in the corpus, nor any 8-byte piece of it,
// survives String, and a marker stands where it was.
func TestSecretsCorpus(t *testing.T) {
	cases := load[secretCase](t, "secrets.jsonl")
	if len(cases) < 40 {
		t.Fatalf("corpus has %d secrets, want at least 40", len(cases))
	}
	kinds := map[string]int{}
	for _, c := range cases {
		kinds[c.Kind]++
		if !strings.Contains(c.Text, c.Secret) {
			t.Errorf("%s: secret is not in the text", c.ID)
			continue
		}
		out := redact.String(c.Text)
		if w := leak(out, c.Secret); w != "" {
			t.Errorf("%s (%s): %q survives in %q", c.ID, c.Kind, w, out)
		}
		if !strings.Contains(out, "[redacted:") {
			t.Errorf("%s: no marker in %q", c.ID, out)
		}
	}
	t.Logf("%d secrets of %d kinds", len(cases), len(kinds))
}

// TestBenignCorpus: text without secrets comes back byte for byte.
func TestBenignCorpus(t *testing.T) {
	for _, c := range load[benignCase](t, "benign.jsonl") {
		if out := redact.String(c.Text); out != c.Text {
			t.Errorf("%s: mangled\n in: %q\nout: %q", c.ID, c.Text, out)
		}
	}
}

// TestString pins what stays around a secret: names, separators, quotes,
// user names and hosts.
func TestString(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"pair keeps name and quotes", `{"password": "hunter2", "user": "ada"}`, `{"password": "[redacted:secret]", "user": "ada"}`},
		{"single quotes", `PASS_WORD='x'; DB_PASSWORD='s3cret'`, `PASS_WORD='x'; DB_PASSWORD='[redacted:secret]'`},
		{"empty value left alone", `password=""`, `password=""`},
		{"url keeps user and host", "postgres://app:pw1234@db:5432/x", "postgres://app:[redacted:url-password]@db:5432/x"},
		{"provider key beats pair", "api_key=sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345", "api_key=[redacted:anthropic-key]"},
		{"marker is left alone", "token=[redacted:secret]", "token=[redacted:secret]"},
		{"marker with a tail is redacted whole", "token=[redacted:secret]hunter2", "token=[redacted:secret]"},
		{"pem to end when unterminated", "a\n-----BEGIN RSA PRIVATE KEY-----\nMIIEow", "a\n[redacted:private-key]"},
		{"authorization scheme stays", "Authorization: Basic YWRhOmh1bnRlcjI=", "Authorization: Basic [redacted:authorization]"},
		{"two secrets", "ghp_abcdefghijklmnopqrstuvwxyz0123456789 and password: x1", "[redacted:github-token] and password: [redacted:secret]"},
		{"kebab-case is not a key", "sk-learn-compatible-transformers", "sk-learn-compatible-transformers"},
		{"no secret", "MOVE_FILE \"~/a\" \"~/b\"", "MOVE_FILE \"~/a\" \"~/b\""},
		{"a reference is no secret", `password=$DB_PASSWORD; token: "${{ secrets.TOKEN }}"; export API_KEY="$(security find-generic-password -s api -w)"`, `password=$DB_PASSWORD; token: "${{ secrets.TOKEN }}"; export API_KEY="$(security find-generic-password -s api -w)"`},
		{"go := takes a quoted literal", "token := lexer.Next()\ntoken := \"t0k3n-v4lue\"", "token := lexer.Next()\ntoken := \"[redacted:secret]\""},
		{"plist data over lines", "<key>api_token</key>\n\t<data>\n\tc2VjcmV0\n\t</data>", "<key>api_token</key>\n\t<data>[redacted:secret]</data>"},
		{"gitleaks names the format", "key ghp_Zq3ZKpY8rW2vN6mT4xB1cD7eF9gH0jL5sA2u", "key [redacted:github-pat]"},
		{"context keyword on the line", "SOURCEGRAPH_TOKEN=sgp_3f9c2a7d1e8b4c6a5f0d9e2b7c4a1f8e3d6b9c0a", "SOURCEGRAPH_TOKEN=[redacted:sourcegraph-access-token]"},
		{"a git SHA far from the word is no token", "sourcegraph\n\ncommit 4296eba9119a1ddddaaef486c9bf4e9c39319606", "sourcegraph\n\ncommit 4296eba9119a1ddddaaef486c9bf4e9c39319606"},
		{"empty", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := redact.String(tt.in); got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestIdempotent: redacting redacted text changes nothing, for the whole
// corpus and for the corpus run together into one text.
func TestIdempotent(t *testing.T) {
	var all []string
	for _, c := range load[secretCase](t, "secrets.jsonl") {
		once := redact.String(c.Text)
		if twice := redact.String(once); twice != once {
			t.Errorf("%s: not idempotent\n once %q\ntwice %q", c.ID, once, twice)
		}
		all = append(all, c.Text)
	}
	joined := strings.Join(all, "\n")
	once := redact.String(joined)
	if twice := redact.String(once); twice != once {
		t.Errorf("joined corpus: not idempotent")
	}
}
