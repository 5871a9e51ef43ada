package sanitize

import (
	"path/filepath"
	"strings"
)

// CredentialStores returns where the credential and private-data stores of
// the zone table (zones.go) lie in home, in table order: each entry written
// as ~/… joined to home. Entries with a wildcard, which no fixed path can
// name, are left out. The OS sandbox hides these paths from the actions it
// runs, so that the second layer refuses what the first does.
//
// Home must be absolute and clean. Nothing is looked up on disk: a store
// that does not exist is listed too.
func CredentialStores(home string) []string {
	var out []string
	for _, e := range credentialZone {
		rest, ok := strings.CutPrefix(e.path, "~/")
		if !ok || strings.ContainsAny(rest, "*?[") {
			continue
		}
		out = append(out, filepath.Join(home, filepath.FromSlash(rest)))
	}
	return out
}

// A PersistencePlace is one place of the persistence table (zones.go) as a
// pattern of path elements, for an OS sandbox that refuses writes there by
// pattern: it covers the path its elements match and everything under it.
type PersistencePlace struct {
	// Under is the absolute folder the pattern starts in: the home for a
	// "~/" entry, "/" for an absolute one. "" is any folder at any depth:
	// a "**/" entry, and a "~/" entry when no home is given.
	Under string
	// Elems are the path elements after Under: a name as the table writes
	// it (matched as the file system compares names: case-insensitively on
	// a Mac), "*" for any one element, "*" and a suffix for any element
	// that ends in that suffix ("*.git"), or a prefix and "*" for any
	// element that starts with it (".zcompdump*").
	Elems []string
	// Entry is the table's entry ("~/.zshrc", "**/*.git/hooks"), and What
	// what lies there ("a shell start-up file").
	Entry, What string
}

// PersistencePlaces returns the places of the persistence table, in table
// order, with home (absolute and clean) as the folder of its "~/" entries,
// or "" to have them start in any folder (a superset, for a sandbox that
// does not know which home an action sees). An absolute entry under /etc,
// /tmp or /var comes with its /private twin right after it. The table
// grows (other packages' reviewers append to it): generate from this,
// never copy it.
func PersistencePlaces(home string) []PersistencePlace {
	var out []PersistencePlace
	for _, e := range persistenceZone {
		switch {
		case strings.HasPrefix(e.path, "~/"):
			out = append(out, PersistencePlace{Under: home, Elems: elems(e.path[1:]), Entry: e.path, What: e.what})
		case strings.HasPrefix(e.path, "**/"):
			out = append(out, PersistencePlace{Elems: elems(e.path[2:]), Entry: e.path, What: e.what})
		default:
			out = append(out, PersistencePlace{Under: "/", Elems: elems(e.path), Entry: e.path, What: e.what})
			if t, ok := twin(e.path); ok {
				out = append(out, PersistencePlace{Under: "/", Elems: elems(t), Entry: e.path, What: e.what})
			}
		}
	}
	return out
}
