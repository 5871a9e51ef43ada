package rate_test

import (
	"testing"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// TestDeckName: a name secret only as a *.key is a deck's as well as a
// key's; a name another row knows, or no secret name, is not.
func TestDeckName(t *testing.T) {
	for in, want := range map[string]bool{
		"talk.key": true, "Board update.KEY": true, "~/Documents/Talks/offsite.key": true,
		"talk.key.bak": true, "talk copy.key": true, "Copy of roadmap.key": true,
		"master.key": false, // Rails' master key: its own row
		".env":       false, "id_rsa": false, "notes.txt": false, "key": false, "x.keystore": false,
	} {
		if got := rate.DeckName(in); got != want {
			t.Errorf("DeckName(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestDeckHead: a zip's first entry is a deck's beginning; a key's armour,
// DER, an empty file are not.
func TestDeckHead(t *testing.T) {
	for in, want := range map[string]bool{
		"PK\x03\x04\x14\x00": true, "PK\x03\x04": true,
		"PK\x05\x06": false, "PK": false, "": false, "-----BEGIN PRIVATE KEY-----": false, "\x30\x82\x04\xbd": false,
	} {
		if got := rate.DeckHead([]byte(in)); got != want {
			t.Errorf("DeckHead(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestKeyishPath: words on the way that speak of keys, certificates and
// credentials, whole or inside a word; a deck's title and the app's name
// do not.
func TestKeyishPath(t *testing.T) {
	for in, want := range map[string]bool{
		"Documents/Talks/talk.key": false, "Desktop/keynote/board-update.key": false, "Documents/Q3 review.key": false,
		"Downloads/keynote-template.key": false, "Documents/a.key": false, "Documents/Design review 2026.key": false,
		"Documents/server.key": true, "Documents/proj/certs/site.key": true, "Desktop/mykey.key": true,
		"Documents/app/tls/x.key": true, "Documents/ssl/a.key": true, "Documents/id.key": true, "Documents/ca.key": true,
		"Documents/deploy.key": true, "Documents/proj/private.key": true, "Documents/keys/talk.key": true,
		"Documents/prod-signing.key": true, "Documents/.ssh-backup/x.key": true, "Documents/keynotekey.key": true,
	} {
		if got := rate.KeyishPath(in); got != want {
			t.Errorf("KeyishPath(%q) = %v, want %v", in, got, want)
		}
	}
}

// TestZoneDeck: a *.key in a sandbox root on a path that says nothing of
// keys is read confined as the deck it likely is; anywhere else, or by an
// app outside the sandbox (SecretRead), it is the key its name says.
func TestZoneDeck(t *testing.T) {
	cfg, err := sanitize.NewConfig("/Users/me", []string{"~/Documents", "~/Desktop", "~/Downloads"})
	if err != nil {
		t.Fatal(err)
	}
	env := &rate.Env{Paths: cfg}
	for _, c := range []struct {
		path            string
		confined, named bool
	}{
		{"~/Documents/Talks/talk.key", false, true},
		{"/Users/sam/Desktop/Roadmap.key", false, true},
		{"~/Documents/server.key", true, true},
		{"~/Documents/app/certs/site.key", true, true},
		{"~/Projects/talk.key", true, true}, // outside the roots
		{"~/Documents/master.key", true, true},
		{"~/Documents/notes.txt", false, false},
	} {
		z := rate.ClassifyPath(env, c.path)
		_, confined := z.SecretReadConfined()
		_, named := z.SecretRead()
		if confined != c.confined || named != c.named {
			t.Errorf("%s: confined read secret %v, read secret %v; want %v, %v", c.path, confined, named, c.confined, c.named)
		}
	}
}
