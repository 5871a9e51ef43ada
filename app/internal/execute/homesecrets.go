package execute

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// An unasked action reads the whole home but what is hidden (its dot
// entries, ~/Library, ~/snap: sanitize.HiddenFolders), so a project kept
// out of the sandbox roots (~/src/app/.env, ~/work/deploy.key) showed its
// secret files to a command that reads a folder whole (grep -r . ~/src).
// On macOS Seatbelt refuses every file named like a secret, wherever it
// lies (sandbox/seatbelt_unasked.go); Linux's mounts hide paths, not
// names, so there the executor lists the secret files of the home outside
// the roots as it lists the roots' (rootsecrets.go) and the sandbox hides
// each one.
//
// The home is not the person's work the way a root is, and it may be
// large (a checkout with its node_modules, a media library): refusing
// every unasked action when it is larger than a walk's bounds would stop
// the agent in that home altogether. So each folder of the home is walked
// with an index of its own, bounded (maxHomeFolderEntries), and the whole
// walk is bounded too (maxHomeEntries); a folder the walk could not see
// whole, or that holds more secret files than maxHomeFolderSecrets, is
// hidden whole instead: an unasked action has no business there, and an
// approved one sees it. Only a folder that holds a sandbox root cannot be
// hidden whole; past the bounds there the action is refused unasked, as
// for the roots.
//
// Not walked: the home's hidden entries, hidden already, and the allowed
// ones among them (sanitize.HiddenAllowed: toolchains such as ~/.rustup,
// ~/.local/bin), which are large, hold programs and are written by their
// installers, not by the person; a secret-named file there is seen.

// maxHomeFolderEntries bounds the entries one folder of the home is walked
// through before it is hidden whole. Measured on a developer's home
// stand-in (/usr, about 400,000 entries), see BenchmarkHomeSecrets.
const maxHomeFolderEntries = 500_000

// maxHomeFolders bounds the folders of the whole home's index (each is one
// lstat at every unasked action's start, about 7 µs: 25,000 folders cost
// an unasked start about 0.18 s at most): the folders of the home past it
// are hidden whole, which costs an unasked action only what it has no
// business reading.
const maxHomeFolders = 25_000

// maxHomeFolderSecrets bounds the secret files hidden one by one in one
// folder of the home; a folder holding more is hidden whole.
const maxHomeFolderSecrets = 512

// homeIndex indexes the home's folders outside the roots, one rootLinks
// each (by the folder's path), kept by the Executor across actions.
type homeIndex struct {
	mu      sync.Mutex
	folders map[string]*rootLinks
	// bounds for tests, 0 meaning the constants above: entries of one
	// folder, folders of the home, secret files of one folder.
	folderLimit, limit, secrets int
}

// secretFiles returns what an unasked action must not see in the home
// outside the roots: the secret files (rate.SecretFile) of its folders
// that are not hidden already and the links to such files, one by one,
// and the folders too large to walk (or holding too many), whole.
// Absolute. A home inside a root is the roots' walk: nothing is returned.
// Also returned is what of git's the folders walked hold (gitFinds),
// which gitStores checks. The error wraps
// ErrSecretsUnhidden and names the folder when a folder too large to walk
// holds a root, unless byName: the sandbox refuses secret files by their
// names wherever they lie (Seatbelt, on macOS), so such a folder's files
// need no hiding, and what is lost is only its repositories past the
// bounds, whose object stores go unchecked.
func (h *homeIndex) secretFiles(home string, roots []string, byName bool) (files []string, git gitFinds, err error) {
	if home == "" || !filepath.IsAbs(home) {
		return nil, git, nil
	}
	// The roots are resolved (sanitize.Config.Roots): so is the home, or a
	// root reached through a linked home would be taken for a folder of it
	// and hidden whole.
	home, err = filepath.EvalSymlinks(home)
	if err != nil {
		return nil, git, nil // no home to read
	}
	for _, r := range roots {
		if home == r || inside(home, r) {
			return nil, git, nil
		}
	}
	entries, err := os.ReadDir(home)
	if err != nil {
		return nil, git, nil // nothing of the home to read
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.folders == nil {
		h.folders = map[string]*rootLinks{}
	}
	hidden := map[string]bool{}
	for _, f := range sanitize.HiddenFolders(home) {
		hidden[f.Path] = true
	}
	var out []string
	spent, seen := 0, map[string]bool{}
	for _, e := range entries {
		p := filepath.Join(home, e.Name())
		switch t := e.Type(); {
		case strings.HasPrefix(e.Name(), ".") || hidden[p] || slices.Contains(roots, p):
			// hidden already, or a root (rootsecrets.go)
		case t.IsRegular():
			if _, ok := rate.SecretFile(p); ok {
				out = append(out, p)
			} else if gitDataKind(home, e.Name()) != notGitData {
				git.data = append(git.data, p)
			}
		case t&os.ModeSymlink != 0:
			if leadsToSecret(p) {
				out = append(out, p)
			}
		case t.IsDir():
			seen[p] = true
			found, gits, n, err := h.folder(p, roots, h.bound(h.limit, maxHomeFolders)-spent, byName)
			if err != nil {
				return nil, gitFinds{}, err
			}
			spent += n
			out = append(out, found...)
			git.join(gits)
		}
	}
	for p := range h.folders {
		if !seen[p] {
			delete(h.folders, p) // gone, or now hidden or a root
		}
	}
	return out, git, nil
}

// folder walks one folder of the home, when budget (folders of the home's
// index) is not spent, and returns what to hide in it and the folders its
// index holds, and what of git's it holds. Past its bounds the folder
// itself is hidden, unless it holds a root (see secretFiles for byName).
func (h *homeIndex) folder(dir string, roots []string, budget int, byName bool) (found []string, git gitFinds, n int, err error) {
	var inner []string
	for _, r := range roots {
		if inside(r, dir) {
			inner = append(inner, r)
		}
	}
	x := h.folders[dir]
	if x == nil {
		x = &rootLinks{}
		h.folders[dir] = x
	}
	x.limit = h.bound(h.folderLimit, maxHomeFolderEntries)
	x.skip = func(d string) bool { return slices.Contains(inner, d) }
	stop := walkStop(fmt.Sprintf("the home's folders hold more than %d folders", h.bound(h.limit, maxHomeFolders)))
	if budget > 0 {
		stop = x.walkLocked([]string{dir}, func(d string, f *indexedFolder) {
			found = secretsIn(found, d, f)
			git.add(d, f)
		})
	}
	n = len(x.folders) // one lstat each at the next walk: what this folder costs
	if n > budget {
		stop = walkStop(fmt.Sprintf("the home's folders hold more than %d folders", h.bound(h.limit, maxHomeFolders)))
	}
	if stop == "" && len(found) <= h.bound(h.secrets, maxHomeFolderSecrets) {
		return found, git, n, nil
	}
	if len(inner) > 0 && byName {
		return nil, git, n, nil
	}
	if len(inner) > 0 {
		why := string(stop)
		if why == "" {
			why = fmt.Sprintf("%s holds more than %d files whose names say they hold a secret", dir, h.bound(h.secrets, maxHomeFolderSecrets))
		}
		return nil, gitFinds{}, n, fmt.Errorf("%w: %s, more than Airlock looks through before each command, and it holds the sandbox root %s; "+
			"a command runs unasked only when the secret files of the home are hidden, so this one runs only if you approve it",
			ErrSecretsUnhidden, why, inner[0])
	}
	return []string{dir}, gitFinds{}, n, nil
}

// bound is v, or def when v is 0.
func (h *homeIndex) bound(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}
