package redact_test

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/redact"
)

// selfEvident are the corpus kinds whose format alone gives them away; the
// others (passwords, bearer tokens, URL passwords) are secret only beside
// their names.
var selfEvident = map[string]bool{
	"openai-key": true, "anthropic-key": true, "aws-key-id": true, "github-token": true,
	"gitlab-token": true, "slack-token": true, "stripe-key": true, "google-key": true,
	"google-oauth": true, "huggingface-token": true, "npm-token": true, "jwt": true,
}

// FuzzRedact checks that String never panics, is idempotent, and that a
// key of a self-evident format planted between arbitrary texts never
// survives, whatever surrounds it, and that Find reports it.
func FuzzRedact(f *testing.F) {
	var secrets []string
	for _, c := range load[secretCase](f, "secrets.jsonl") {
		f.Add(c.Text, uint8(0), "")
		if selfEvident[c.Kind] {
			secrets = append(secrets, c.Secret)
		}
	}
	for _, c := range load[benignCase](f, "benign.jsonl") {
		f.Add(c.Text, uint8(1), c.Text)
	}
	f.Add("password=", uint8(2), "@host")
	f.Add("https://u:", uint8(3), "@h/")
	f.Add(`"token": "`, uint8(4), `"`)
	f.Add("[redacted:", uint8(5), "]")
	f.Fuzz(func(t *testing.T, before string, pick uint8, after string) {
		once := redact.String(before)
		if twice := redact.String(once); twice != once {
			t.Fatalf("not idempotent:\n  in %q\nonce %q\ntwice %q", before, once, twice)
		}
		s := secrets[int(pick)%len(secrets)]
		in := before + " " + s + " " + after
		out := redact.String(in)
		if strings.Contains(out, s) {
			t.Fatalf("secret survives:\n in %q\nout %q", in, out)
		}
		if again := redact.String(out); again != out {
			t.Fatalf("not idempotent:\n  in %q\nonce %q\ntwice %q", in, out, again)
		}
		// Find sees it too, where it is.
		at, covered := len(before)+1, false
		for _, f := range redact.Find(in) {
			if f.Start < 0 || f.End > len(in) || f.Start >= f.End || f.Kind == "" {
				t.Fatalf("Find(%q) gave %+v", in, f)
			}
			covered = covered || f.Start < at+len(s) && at < f.End
		}
		if !covered {
			t.Fatalf("Find misses the planted secret in %q: %+v", in, redact.Find(in))
		}
	})
}
