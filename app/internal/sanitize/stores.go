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
