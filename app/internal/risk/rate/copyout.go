package rate

import (
	"path/filepath"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// CopyOut is what an application's duplicate or move does when it puts
// things outside the home and the sandbox roots (/Users/Shared, a disk):
// the Finder copies outside every sandbox, and what it carries lies where
// no walk of the executor looks, so the files the sandbox hides from
// unasked actions by their content (a key known by its first bytes) are
// hidden no longer there (a red team's find,
// TestRed15bAppCopiesHiddenKeysOutOfEveryWalk).
var CopyOut = effect.Of(effect.Create, effect.Bulk, effect.Unconfined)

// CopyOutText is the warning of CopyOut, with the destination's place.
const CopyOutText = "COPY OUT to %s: the application puts it outside your home and the sandbox folders, where what Airlock hides from unasked actions is hidden no longer"

// OutsideWalks reports whether p, a destination an application is given
// (POSIX, "~/…", or "" for the startup disk's top), lies outside the home
// and every sandbox root of env, where the executor's walks do not look.
// With no paths known (env nil) nothing is.
func OutsideWalks(p string, env *Env) bool {
	if env == nil || env.Paths == nil || env.Paths.Home == "" {
		return false
	}
	if strings.Contains(p, HoleUnquoted) || strings.Contains(p, HoleQuoted) || strings.Contains(p, "…") {
		return false // computed: not known to lie outside
	}
	switch {
	case p == "" || p == "/":
		return true
	case p == "~" || strings.HasPrefix(p, "~/"):
		return false
	case !strings.HasPrefix(p, "/"):
		return false
	}
	// Another account's home is judged as the person's (OtherHome): a
	// script written for /Users/me copies within the home.
	p = OtherHome(filepath.Clean(p), env.Paths.Home)
	within := func(dir string) bool {
		dir = filepath.Clean(dir)
		return strings.EqualFold(p, dir) || strings.HasPrefix(strings.ToLower(p), strings.ToLower(dir)+"/")
	}
	if within(env.Paths.Home) {
		return false
	}
	for _, r := range env.Paths.Roots {
		if within(r) {
			return false
		}
	}
	return true
}
