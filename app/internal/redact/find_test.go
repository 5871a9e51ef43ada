package redact_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/redact"
)

// TestFindProviders: Find sees the secrets String removes, by their form:
// every key of the secrets and provider corpora, bare or beside its name,
// is covered by what Find reports, and Find reports no text that is not
// in the input.
func TestFindProviders(t *testing.T) {
	type one struct{ id, text, secret string }
	var all []one
	for _, c := range load[secretCase](t, "secrets.jsonl") {
		all = append(all, one{c.ID, c.Text, c.Secret})
	}
	for _, c := range load[providerCase](t, "providers.jsonl") {
		all = append(all, one{c.ID, c.Text, c.Secret})
	}
	missed := 0
	for _, c := range all {
		at := strings.Index(c.text, c.secret)
		found := redact.Find(c.text)
		covered := false
		for _, s := range found {
			if s.Start < 0 || s.End > len(c.text) || s.Start >= s.End || s.Kind == "" {
				t.Fatalf("%s: Find returned %+v for a text of %d bytes", c.id, s, len(c.text))
			}
			if s.Start < at+len(c.secret) && at < s.End {
				covered = true
			}
		}
		if !covered {
			missed++
			t.Logf("%s: Find misses %q in %q (found %+v)", c.id, c.secret, c.text, found)
		}
	}
	// Find leaves out values that only a name beside them calls secret
	// and that look like words; every such case in the corpora is logged
	// above. The floor: all but a handful.
	if limit := len(all) / 50; missed > limit {
		t.Errorf("Find misses %d of %d secrets; at most %d may be missed", missed, len(all), limit)
	}
}

// TestFindBenign: text without secrets gives Find nothing: it tells an
// analyzer that an action carries a secret, and must not cry wolf.
func TestFindBenign(t *testing.T) {
	texts := []string{}
	for _, c := range load[benignCase](t, "benign.jsonl") {
		texts = append(texts, c.Text)
	}
	b, err := os.ReadFile(filepath.Join("testdata", "ordinary.txt"))
	if err != nil {
		t.Fatal(err)
	}
	texts = append(texts, strings.Split(string(b), "\n%% ")...)
	texts = append(texts,
		"password: see the wiki",
		`OPEN_URL "https://github.com/search?q=sk-learn+tutorial"`,
		"Your token expires tomorrow; the api key page is under Settings.",
		`SEND_EMAIL "bob@example.com" "Notes" "The meeting moved to 3pm."`,
	)
	for _, s := range texts {
		if f := redact.Find(s); len(f) > 0 {
			t.Errorf("Find(%.120q) = %+v, want nothing", s, f)
		}
	}
}

// TestFindKinds pins the kinds Find reports and where.
func TestFindKinds(t *testing.T) {
	const pem = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n-----END OPENSSH PRIVATE KEY-----"
	for _, tc := range []struct {
		in, kind, secret string
	}{
		{"key AKIAZ7QX3M4N5P6R2T8W ok", "aws-key-id", "AKIAZ7QX3M4N5P6R2T8W"},
		{"pat ghp_R7mK2pX9vQ4nL8sT1wB6cY3dF5gH0jZ2aE4u.", "github-pat", "ghp_R7mK2pX9vQ4nL8sT1wB6cY3dF5gH0jZ2aE4u"},
		{"body:\n" + pem + "\nbye", "private-key", pem},
		{"mysql://app:s3cr3tPw@db/x", "url-password", "s3cr3tPw"},
		{"password=hunter2", "secret", "hunter2"},
	} {
		f := redact.Find(tc.in)
		if len(f) != 1 || f[0].Kind != tc.kind || tc.in[f[0].Start:f[0].End] != tc.secret {
			t.Errorf("Find(%q) = %+v, want one %s at %q", tc.in, f, tc.kind, tc.secret)
		}
	}
}
