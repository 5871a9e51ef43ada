package sandbox

import (
	"slices"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// TestTablesFor: a home's tables are the sanitiser's, for that home; the
// next home's are its own; and a caller appending to them leaves them as
// they were.
func TestTablesFor(t *testing.T) {
	for _, home := range []string{"/home/a", "/Users/b", "/home/a"} {
		got := tablesFor(home)
		if want := sanitize.CredentialStores(home); !slices.Equal(got.stores, want) {
			t.Errorf("%s: stores %q, want %q", home, got.stores, want)
		}
		if want := sanitize.HiddenAllowed(home); !slices.Equal(got.allowed, want) {
			t.Errorf("%s: allowed %q, want %q", home, got.allowed, want)
		}
		if want := sanitize.HiddenFolders(home); !slices.Equal(got.folders, want) {
			t.Errorf("%s: folders %v, want %v", home, got.folders, want)
		}
		n := len(got.allowed)
		_ = append(got.allowed, "/appended")
		_ = append(got.stores, "/appended")
		again := tablesFor(home)
		if len(again.allowed) != n || slices.Contains(again.allowed[:cap(again.allowed)], "/appended") ||
			slices.Contains(again.stores[:cap(again.stores)], "/appended") {
			t.Errorf("%s: appending to the tables changed them", home)
		}
	}
}
