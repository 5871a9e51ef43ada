package execute

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// A project's .envrc, .vscode or hook may be a link to a file or folder
// elsewhere in a sandbox root (work/.envrc → ../shared/envrc), which direnv,
// the editor or git follow. An action that rewrites shared/envrc rewrites
// the .envrc, and the persistence table does not know shared/envrc by its
// name. So the gate keeps an index of the links in the roots, and a change
// a link leads to is judged at every path it is reached by: held when one
// of them is a place of the table (linkedWhy).
//
// Walking a root at every review would cost a second for a large
// Documents folder, so the index keeps, for each folder, its modification
// time and the names of its links and sub-folders; a walk after the first
// reads again only the folders whose time changed (a link made, removed or
// replaced changes its folder's time), one lstat for the others.

// maxIndexed bounds the entries one walk of the roots looks at. Past it
// the index is incomplete and the review fails closed: a change to a file
// that existed is held, since a link the walk did not reach may lead to it.
const maxIndexed = 2_000_000

// rootLinks is the index, kept by the Executor across reviews.
type rootLinks struct {
	mu       sync.Mutex
	folders  map[string]indexedFolder
	complete bool
	limit    int // entries one walk looks at; 0 means maxIndexed
}

// indexedFolder is what the index knows of one folder.
type indexedFolder struct {
	mtime   time.Time
	links   []string // names of the links in it
	folders []string // names of the folders in it
}

// reachedLink is a link in a root and where it leads (resolved).
type reachedLink struct{ link, target string }

// links walks the roots (reading only what changed since the last walk)
// and returns the links in them that matter, with where they lead, and
// whether the walk saw everything. A link matters when it leads to a
// folder (whatever lies below it is reached through it too), leads nowhere
// yet, or is itself a place (named says so): a link to a file at a path no
// place names (node_modules/.bin/…) makes nothing reachable by a place's
// name.
func (x *rootLinks) links(roots []string, named func(string) bool) ([]reachedLink, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.folders == nil {
		x.folders = map[string]indexedFolder{}
	}
	seen := map[string]bool{}
	count, limit := 0, x.limit
	if limit == 0 {
		limit = maxIndexed
	}
	var out []reachedLink
	var files []string // links to files whose own paths no place names
	var walk func(dir string) bool
	walk = func(dir string) bool {
		fi, err := os.Lstat(dir)
		if err != nil || !fi.IsDir() {
			delete(x.folders, dir)
			return true
		}
		seen[dir] = true
		f, ok := x.folders[dir]
		if !ok || !f.mtime.Equal(fi.ModTime()) {
			f = indexedFolder{mtime: fi.ModTime()}
			es, err := os.ReadDir(dir)
			if err != nil {
				return true // unreadable to the gate: nothing to follow there
			}
			count += len(es)
			for _, e := range es {
				switch t := e.Type(); {
				case t&fs.ModeSymlink != 0:
					f.links = append(f.links, e.Name())
				case t.IsDir():
					f.folders = append(f.folders, e.Name())
				}
			}
			x.folders[dir] = f
		}
		count++
		if count > limit {
			return false
		}
		for _, l := range f.links {
			p := filepath.Join(dir, l)
			if fi, err := os.Stat(p); err == nil && !fi.IsDir() && !named(p) {
				files = append(files, p)
				continue
			}
			if r, ok := resolveExisting(p, 0); ok && r != p {
				out = append(out, reachedLink{link: p, target: r})
			}
		}
		for _, s := range f.folders {
			if !walk(filepath.Join(dir, s)) {
				return false
			}
		}
		return true
	}
	complete := true
	for _, r := range roots {
		if !walk(r) {
			complete = false
			break
		}
	}
	out = append(out, reachedFiles(out, files, named)...)
	if complete {
		for d := range x.folders {
			if !seen[d] {
				delete(x.folders, d) // gone since the last walk
			}
		}
	}
	x.complete = complete
	return out, complete
}

// reachedFiles returns, of the links to files whose own paths no place
// names, those a place names once reached through the links to folders
// (work/.vscode → cfg, cfg/tasks.json → ../shared/t.json: a rewrite of
// shared/t.json is one of work/.vscode/tasks.json), with where they lead.
func reachedFiles(links []reachedLink, files []string, named func(string) bool) []reachedLink {
	if len(links) == 0 {
		return nil
	}
	x := indexLinks(links)
	var out []reachedLink
	for _, p := range files {
		reached, all := x.reachedAll(p)
		if all && !slices.ContainsFunc(reached, named) {
			continue
		}
		if r, ok := resolveExisting(p, 0); ok && r != p {
			out = append(out, reachedLink{link: p, target: r})
		}
	}
	return out
}
