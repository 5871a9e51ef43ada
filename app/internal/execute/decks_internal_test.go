package execute

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestDecksByContent: the walk of the roots hides a *.key that does not
// open as a zip (a key, an empty file, a name Rails' key has) and a copied
// credential store's *.key, and returns as decks the zip files and the
// package folders named *.key, for Seatbelt to allow again.
func TestDecksByContent(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write("Talks/talk.key", "PK\x03\x04deck")
	write("Talks/talk.key.bak", "PK\x03\x04an older deck")
	write("Talks/Old.key/Index.zip", "PK\x03\x04")
	write("Talks/Old.key/Data/inner.key", "-----BEGIN PRIVATE KEY-----\n")
	write("app/server.key", "-----BEGIN PRIVATE KEY-----\n")
	write("app/empty.key", "")
	write("app/config/master.key", "PK\x03\x04")
	write("backup/.ssh/deploy.key", "PK\x03\x04")
	write("node_modules/pkg/test.key", "-----BEGIN PRIVATE KEY-----\n")
	later := time.Now().Add(time.Hour)
	x := rootLinks{now: func() time.Time { return later }}
	secrets, decks, _, err := x.secretFilesAndDecks([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(root, p)
			out = append(out, r)
		}
		slices.Sort(out)
		return out
	}
	wantDecks := []string{"Talks/Old.key", "Talks/talk.key", "Talks/talk.key.bak"}
	if got := rel(decks); !slices.Equal(got, wantDecks) {
		t.Errorf("decks %q, want %q", got, wantDecks)
	}
	got := rel(secrets)
	for _, want := range []string{"Talks/Old.key/Data/inner.key", "app/server.key", "app/empty.key", "app/config/master.key", "node_modules/pkg/test.key"} {
		if !slices.Contains(got, want) {
			t.Errorf("%s is not hidden: %q", want, got)
		}
	}
	if !slices.ContainsFunc(got, func(s string) bool { return s == "backup/.ssh" || s == "backup/.ssh/deploy.key" }) {
		t.Errorf("a copied credential store's deck-like key is not hidden: %q", got)
	}
	for _, deck := range wantDecks {
		if slices.Contains(got, deck) {
			t.Errorf("the deck %s is hidden", deck)
		}
	}
}
