package sandbox

import (
	"slices"
	"sync"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// homeTables are the sanitiser's tables as paths in one home: what Derive
// hides in every profile (the credential stores) and what hiddenEntries
// reads and keeps (the folders of hidden entries, the allowed ones). They
// depend on the home's path alone (nothing is looked up on disk), and
// joining them took about a third of Derive, which every action runs
// before it starts: so they are joined once per home and kept.
type homeTables struct {
	stores  []string                // sanitize.CredentialStores
	allowed []string                // sanitize.HiddenAllowed
	folders []sanitize.HiddenFolder // sanitize.HiddenFolders
}

// homeCache holds the tables of the last home asked for (a gate has one).
var homeCache struct {
	sync.Mutex
	home string
	t    *homeTables
}

// tablesFor returns home's tables (home absolute and clean). They are
// shared: a caller reads them, and appending to one of its slices (each
// at its full capacity) copies it.
func tablesFor(home string) *homeTables {
	homeCache.Lock()
	defer homeCache.Unlock()
	if homeCache.t == nil || homeCache.home != home {
		homeCache.home = home
		homeCache.t = &homeTables{
			stores:  slices.Clip(sanitize.CredentialStores(home)),
			allowed: slices.Clip(sanitize.HiddenAllowed(home)),
			folders: slices.Clip(sanitize.HiddenFolders(home)),
		}
	}
	return homeCache.t
}
