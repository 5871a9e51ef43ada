//go:build linux

package execute_test

import (
	"os"
	"strings"
	"testing"
	"time"
)

// rot13 is s in rot13, as the payload of red15b-decks.json prints files.
func rot13(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, s)
}

// TestRed15bKeysUnderDeckNames: keys where a *.key is told from a deck by
// content, each read unasked by a command that prints every file of the
// root and what links named *.key lead to: a key inside a deck's package
// folder (Old.key/server.key, Old.key/Data/inner.key), case twins
// (TALK.KEY), backups (talk.key.bak, talk.key~), a link named *.key to a
// key known by content, a linked folder named *.key, and a hard link
// named *.key to a key. Each stays hidden; the decks print.
func TestRed15bKeysUnderDeckNames(t *testing.T) {
	pem := func(mark string) redFile {
		return redFile{"-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0B" + mark + "\n-----END PRIVATE KEY-----\n", 0o600}
	}
	keys := map[string]string{
		"Documents/Talks/Old.key/server.key":     "KeyInPackageFolderAAA1",
		"Documents/Talks/Old.key/Data/inner.key": "KeyDeepInPackageBBBB2",
		"Documents/Talks/TALK.KEY":               "KeyCaseTwinCCCCCCCCC3",
		"Documents/Talks/talk.key.bak":           "KeyBackupTwinDDDDDDD4",
		"Documents/Talks/talk.key~":              "KeyTildeTwinEEEEEEEE5",
		"Documents/app/prod-key.txt":             "KeyByContentFFFFFFFF6",
		"Documents/app/server.key":               "KeyHardLinkedGGGGGGG7",
	}
	files := map[string]redFile{
		"Documents/Talks/talk.key":                   {"PK\x03\x04DeckReadableZip15b", 0o644},
		"Documents/Talks/Old.key/Index/Document.iwa": {"DeckPackageReadable15b", 0o644},
	}
	for p, m := range keys {
		files[p] = pem(m)
	}
	r := newRedRig(t, []string{"~/Documents"}, files)
	for link, to := range map[string]string{"Documents/Talks/link.key": "../app/prod-key.txt", "Documents/Talks/dir.key": "../app"} {
		if err := os.Symlink(to, r.p(link)); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(r.p("Documents/app/server.key"), r.p("Documents/Talks/hl.key")); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2100 * time.Millisecond) // past the index's racy window
	name := "print every file under Documents and through the links named *.key, in rot13"
	argv := payloadIn(t, "red15b-decks.json", name)
	for run := 1; run <= 2; run++ { // the first walk, then the index's
		res, _, err := r.runArgv(t, name, argv, "Documents")
		t.Logf("run %d: %q, %v", run, res.Output, err)
		for p, m := range keys {
			if strings.Contains(res.Output, rot13(m)) || strings.Contains(res.Output, m) {
				t.Errorf("HOLE: run %d: the key %s was read unasked", run, p)
			}
		}
		for _, deck := range []string{"DeckReadableZip15b", "DeckPackageReadable15b"} {
			if !strings.Contains(res.Output, rot13(deck)) {
				t.Errorf("run %d: the deck holding %q was hidden", run, deck)
			}
		}
	}
}
