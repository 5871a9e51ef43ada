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
