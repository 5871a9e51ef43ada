package shell

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// linkTarget is where the literal path w leads on the disk now when a
// link below the home lies on the way (~/Documents/keys/. with keys →
// ~/.ssh), spelled from ~ when it stays in the home; ok is false when no
// link is followed (the home's own path may pass through links, as
// macOS's /var → /private/var does), for a path computed at run time, a
// relative one, or one the disk cannot answer for.
func (a *shellAn) linkTarget(w word) (string, bool) {
	if w.hole || a.env == nil || a.env.Paths == nil || a.env.Paths.Home == "" {
		return "", false
	}
	if !strings.HasPrefix(w.s, "/") && !strings.HasPrefix(w.s, "~") {
		return "", false
	}
	abs, err := sanitize.ExpandHome(w.s, a.env.Paths.Home)
	if err != nil || !strings.HasPrefix(abs, "/") {
		return "", false
	}
	home := filepath.Clean(a.env.Paths.Home)
	rest, ok := strings.CutPrefix(filepath.Clean(abs), home+"/")
	if !ok {
		return "", false
	}
	if !linkBelow(home, rest) {
		return "", false
	}
	homeReal, err := filepath.EvalSymlinks(home)
	if err != nil {
		return "", false
	}
	// The longest part of the path that exists, its links followed, and
	// the rest as written (a file that is not there yet under a link).
	real, tail := "", ""
	for p := filepath.Clean(abs); len(p) > len(home); p = filepath.Dir(p) {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			real = filepath.Join(r, tail)
			break
		}
		tail = filepath.Join(filepath.Base(p), tail)
	}
	if real == "" || real == filepath.Join(homeReal, rest) {
		return "", false
	}
	if r, ok := strings.CutPrefix(real, homeReal+"/"); ok {
		return "~/" + r, true
	}
	return real, true
}

// linkBelow reports whether a name of rest (a clean path below home) is a
// link, up to the first that is missing: most paths pass through none,
// and then no link is followed and nothing need be resolved (resolving
// looks every name up from the root, home's included: linkTarget took
// a third of a 2 KB AppleScript's assessment that way).
func linkBelow(home, rest string) bool {
	p := home
	for rest != "" {
		name, more, _ := strings.Cut(rest, "/")
		p, rest = p+"/"+name, more
		fi, err := os.Lstat(p)
		if err != nil {
			return false // nothing below a missing name: no link there
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			return true
		}
	}
	return false
}

// publicByName reports a file whose name says it holds a public key or a
// certificate (public.pem, id_ed25519.pub, server.crt): reached through a
// link into a credential store, it is judged by that name, as it was
// before the link was followed.
func publicByName(p string) bool {
	base := strings.ToLower(filepath.Base(p))
	return strings.Contains(base, "public") || strings.HasSuffix(base, ".pub") || strings.HasSuffix(base, ".crt") ||
		strings.HasSuffix(base, ".cer") || base == "known_hosts"
}
