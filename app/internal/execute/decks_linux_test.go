//go:build linux

package execute_test

import (
	"os"
	"strings"
	"testing"
	"time"
)

// TestDecksAndKeysByContent: a *.key is a Keynote deck as often as a
// private key. An unasked command reads a deck (a zip, or a package
// folder's files) and copies it whole; a *.key that is no zip stays
// hidden, and so does one a key is pasted into after the first walk.
func TestDecksAndKeysByContent(t *testing.T) {
	const (
		deck    = "PK\x03\x04deckSlidesReadable00001"
		inner   = "packageDeckInnerReadable0002"
		keyBody = "MIIEvQIBADANBgkqhkiG9w0BAQkeyHIDDEN0003"
		pasted  = "MIIEvQIBADANBgkqhkiG9w0BApastedKEY0004"
	)
	r := newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		"Documents/Talks/talk.key":                    {deck, 0o644},
		"Documents/Talks/Old.key/Index/Document.iwa":  {inner, 0o644},
		"Documents/app/server.key":                    {"-----BEGIN PRIVATE KEY-----\n" + keyBody + "\n-----END PRIVATE KEY-----\n", 0o600},
		"Documents/Talks/pasted.key":                  {"PK\x03\x04a deck for now\n", 0o644},
		"Documents/Talks/Old.key/Data/preview.jpg":    {"jpeg", 0o644},
		"Documents/Talks/Old.key/Metadata/Properties": {"props", 0o644},
	})
	time.Sleep(2100 * time.Millisecond) // past the index's racy window, so the first listing is kept
	name := "read a deck and a key, both named *.key, and copy the deck"
	argv := payloadIn(t, "decks.json", name)
	res, _, err := r.runArgvKeep(t, name, argv, "Documents", true)
	t.Logf("%q, %v", res.Output, err)
	for _, want := range []string{"deckSlidesReadable00001", inner, "a deck for now"} {
		if !strings.Contains(res.Output, want) {
			t.Errorf("a deck was hidden from an unasked command: %q not in %q", want, res.Output)
		}
	}
	if leaked := leakedAny(res, err, []string{keyBody}); len(leaked) > 0 {
		t.Errorf("HOLE: a private key named *.key was read unasked: %q", leaked)
	}
	if got := r.read("Documents/Talks/talk-copy.key"); got != deck {
		t.Errorf("the deck's copy holds %q, want the deck whole", got)
	}

	// A key pasted over the deck in place (its folder unchanged) is read
	// again at the next walk and hidden.
	if err := os.WriteFile(r.p("Documents/Talks/pasted.key"), []byte("-----BEGIN EC PRIVATE KEY-----\n"+pasted+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _, err = r.runArgv(t, name, argv, "Documents")
	t.Logf("%q, %v", res.Output, err)
	if leaked := leakedAny(res, err, []string{pasted, keyBody}); len(leaked) > 0 {
		t.Errorf("HOLE: a key pasted into a deck's place was read unasked: %q", leaked)
	}
	if !strings.Contains(res.Output, "deckSlidesReadable00001") {
		t.Errorf("the deck was hidden at the second run: %q", res.Output)
	}
}
