package risk

import (
	"errors"
	"testing"

	"github.com/airlockhq/airlock/app/internal/risk/facts"
)

// TestKeynoteDeck: opening a *.key is no read of a secret only in
// Keynote, found as Keynote (by its bundle id) or, where no app is found
// here, named so; any other app, the default app not found, or another
// secret name is.
func TestKeynoteDeck(t *testing.T) {
	keynote := facts.Handler{ID: "com.apple.iWork.Keynote", Name: "Keynote"}
	textEdit := facts.Handler{ID: "com.apple.TextEdit", Name: "TextEdit"}
	fake := facts.Handler{ID: "com.example.keynote", Name: "Keynote"}
	notFound := errors.New("no such application")
	for _, c := range []struct {
		name string
		app  string
		h    facts.Handler
		err  error
		path string
		want bool
	}{
		{"Keynote found", "", keynote, nil, "/Users/me/Documents/talk.key", true},
		{"Keynote found, the name in capitals", "Keynote", keynote, nil, "/Users/me/Documents/TALK.KEY", true},
		{"TextEdit found", "TextEdit", textEdit, nil, "/Users/me/Documents/talk.key", false},
		{"another app calling itself Keynote", "Keynote", fake, nil, "/Users/me/Documents/talk.key", false},
		{"Keynote named, not found here", "Keynote.app", facts.Handler{}, notFound, "/Users/me/Documents/talk.key", true},
		{"the default app, not found here", "", facts.Handler{}, notFound, "/Users/me/Documents/talk.key", false},
		{"Keynote given another secret", "Keynote", keynote, nil, "/Users/me/Documents/.env", false},
	} {
		if got := keynoteDeck(c.app, c.h, c.err, c.path); got != c.want {
			t.Errorf("%s: keynoteDeck = %v, want %v", c.name, got, c.want)
		}
	}
}
