package execute

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// A sandbox root holds files whose names say they hold a secret: a
// project's .env, server.key, credentials.json, Terraform state
// (rate.SecretFile). The analyzer rates a read that names one as a secret
// read, and asks; but a command that reads a folder whole (grep -r . .) or
// a glob (cat *.k?y) names none, and what it prints reaches the agent in
// shapes the redactor does not know. So an action that runs unasked does
// not see those files at all: the executor lists them from its index of
// the roots (rootlinks.go, the same walk, reading again only the folders
// that changed) and the sandbox hides each one (sandbox.Grant.Secrets).
// An action the person approved sees them, as it sees everything else in
// the roots.
//
// Also hidden is every link in the roots that leads to such a file, under
// whatever name (notes.txt → ~/keys/server.key): hiding a link hides what
// it leads to. A folder named like a secret file (a folder .env) is not
// hidden: it is walked, and the secret files in it are.
//
// What this does not hide: a file whose name says nothing (a hard link the
// person made to .env under another name, a key pasted into notes.txt),
// which neither the analyzer nor the redactor can tell from any other. The
// secret files of the home outside the roots are hidden too: on Linux from
// an index of the home's folders (homesecrets.go), on macOS by Seatbelt,
// by name (sandbox/seatbelt_unasked.go).

// maxSecretFiles bounds the secret files hidden from one action: each is
// one mount of the launcher's (Linux) or one rule (macOS).
const maxSecretFiles = 4096

// ErrSecretsUnhidden is wrapped by the error of an action that runs unasked
// and was not started because the secret files of the sandbox roots could
// not all be found: it runs only if the person approves it.
var ErrSecretsUnhidden = errors.New("the secret files of the sandbox roots cannot all be hidden")

// secretFiles walks the roots (reading only what changed since the last
// walk) and returns the files in them whose names rate.SecretFile knows,
// and the links in them that lead to such a file, absolute; and the git
// repositories in them (gitFound), whose object stores gitStores checks.
// It fails
// closed, with an error wrapping ErrSecretsUnhidden that names the root,
// when the walk could not see everything (more entries or deeper folders
// than the index's bounds) or finds more than maxSecretFiles: hiding the
// rest by guesswork (whole folders) would hide the person's work from the
// action in ways neither it nor the agent could tell apart from a broken
// project, while asking says what happened.
func (x *rootLinks) secretFiles(roots []string) (files, repos []string, err error) {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []string
	stop := x.walkLocked(roots, func(dir string, f *indexedFolder) {
		out = secretsIn(out, dir, f)
		repos = append(repos, gitFound(dir, f)...)
	})
	if stop != "" {
		return nil, nil, fmt.Errorf("%w: %s, more than Airlock looks through before each command; "+
			"a command runs there unasked only when every secret file in it is hidden, so this one runs only if you approve it "+
			"(or take that folder out of \"roots\" in settings.json)", ErrSecretsUnhidden, stop)
	}
	most := x.secrets
	if most == 0 {
		most = maxSecretFiles
	}
	if len(out) > most {
		where := out[most]
		if r, _, ok := rootOf(roots, where, false); ok {
			where = r
		}
		return nil, nil, fmt.Errorf("%w: the sandbox roots hold more than %d files whose names say they hold a secret (.env, keys, "+
			"credentials), %s among them; this command runs only if you approve it", ErrSecretsUnhidden, most, where)
	}
	return out, repos, nil
}

// secretsIn appends to out, absolute, the secret files of the indexed
// folder dir and the links in it that lead to one: what an unasked action
// must not see there.
func secretsIn(out []string, dir string, f *indexedFolder) []string {
	for _, s := range f.secrets {
		out = append(out, filepath.Join(dir, s))
	}
	for _, l := range f.links {
		if p := filepath.Join(dir, l); leadsToSecret(p) {
			out = append(out, p)
		}
	}
	return out
}

// leadsToSecret reports whether the link p leads to a regular file whose
// name, or the link's own, rate.SecretFile knows. Links are resolved
// again at every walk: what a link leads to can change without its
// folder changing (a link on its way replaced).
func leadsToSecret(p string) bool {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	if _, ok := rate.SecretFile(p); ok {
		return true
	}
	end, err := linkEnd(p)
	if err != nil {
		return true // changed since the stat: hide it rather than guess
	}
	_, ok := rate.SecretFile(end)
	return ok
}

// linkEnd returns a path whose last element is the name of the file the
// link p leads to. Most links lead to a file in one step: the link's
// text, read from its folder as the kernel reads it (a "..", after a
// link on the way, climbs out of where that link leads, so the text is
// not cleaned), names a file that is no link. Chains are resolved whole.
func linkEnd(p string) (string, error) {
	text, err := os.Readlink(p)
	if err != nil {
		return "", err
	}
	t := text
	if !strings.HasPrefix(t, "/") {
		t = filepath.Dir(p) + "/" + text
	}
	fi, err := os.Lstat(t)
	if err != nil {
		return "", err
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		return t, nil
	}
	return filepath.EvalSymlinks(p)
}
