package sanitize_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// TestCredentialStores: the list the OS sandbox hides is the zone table's,
// expanded in the given home, and every path on it is one Classify refuses.
func TestCredentialStores(t *testing.T) {
	const home = "/home/ann"
	c, err := sanitize.NewConfig(home, []string{})
	if err != nil {
		t.Fatal(err)
	}
	got := sanitize.CredentialStores(home)
	for _, want := range []string{".ssh", ".gnupg", ".aws", ".local/share/keyrings", "Library/Keychains", ".netrc", ".docker"} {
		if !slices.Contains(got, filepath.Join(home, want)) {
			t.Errorf("CredentialStores(%q) lacks ~/%s", home, want)
		}
	}
	for _, p := range got {
		if !strings.HasPrefix(p, home+"/") || filepath.Clean(p) != p {
			t.Errorf("%q is not a clean path in the home", p)
		}
		if z := c.Classify(p); z.Kind != sanitize.ZoneCredential {
			t.Errorf("%q classifies as %v, not as a credential store", p, z.Kind)
		}
	}
}

// TestPersistencePlaces: every place is a pattern that, spelled out in a
// home, Persistence flags; home entries start in the home (or anywhere
// without one); absolute entries come with their /private twins.
func TestPersistencePlaces(t *testing.T) {
	const home = "/Users/ann"
	c, err := sanitize.NewConfig(home, []string{})
	if err != nil {
		t.Fatal(err)
	}
	places := sanitize.PersistencePlaces(home)
	if len(places) < 50 {
		t.Fatalf("only %d places", len(places))
	}
	seen := map[string]bool{}
	for _, p := range places {
		seen[p.Entry] = true
		if len(p.Elems) == 0 || p.What == "" {
			t.Errorf("%+v: no elements or no description", p)
		}
		var spelled []string
		for _, e := range p.Elems {
			switch {
			case e == "*":
				spelled = append(spelled, "x")
			case strings.HasPrefix(e, "*"):
				spelled = append(spelled, "x"+e[1:])
			default:
				spelled = append(spelled, e)
			}
		}
		under := p.Under
		switch {
		case strings.HasPrefix(p.Entry, "~/"):
			if under != home {
				t.Errorf("%s starts in %q, not the home", p.Entry, under)
			}
		case strings.HasPrefix(p.Entry, "**/"):
			if under != "" {
				t.Errorf("%s starts in %q, not anywhere", p.Entry, under)
			}
			under = home + "/Documents/project"
		default:
			if under != "/" {
				t.Errorf("%s starts in %q, not /", p.Entry, under)
			}
		}
		path := filepath.Join(append([]string{under}, spelled...)...)
		if _, ok := c.Persistence(path); !ok {
			t.Errorf("%s (%s) is not a persistence location", path, p.Entry)
		}
	}
	for _, want := range []string{"~/.zshrc", "**/.git", "**/*.git/hooks", "~/Library/LaunchAgents", "/etc/zshrc", "**/.envrc"} {
		if !seen[want] {
			t.Errorf("no place for %s", want)
		}
	}
	var twin bool
	for _, p := range places {
		twin = twin || strings.Join(p.Elems, "/") == "private/etc/zshrc"
	}
	if !twin {
		t.Error("/etc/zshrc comes without its /private twin")
	}
	for _, p := range sanitize.PersistencePlaces("") {
		if strings.HasPrefix(p.Entry, "~/") && p.Under != "" {
			t.Errorf("without a home, %s starts in %q", p.Entry, p.Under)
		}
	}
}
