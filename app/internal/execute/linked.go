package execute

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// People keep their start-up files in a folder of their own, often a git
// repository in ~/Documents, and link them from the home (GNU stow, chezmoi
// in symlink mode, a hand-made ~/.zshrc → ~/Documents/dotfiles/zshrc, a
// whole ~/.config/nvim). The persistence table names ~/.zshrc; an action
// that runs unasked writes the file the link points to, under its own name
// in the root, and the shell runs it all the same. So the table's places in
// the home are resolved through links, and a change where one leads is
// held as one at the place itself.

// linkedPlace is a place of the persistence table in the home that leads,
// through a link, into a sandbox root.
type linkedPlace struct {
	path  string // where it leads: absolute and resolved
	entry string // the table's entry: "~/.zshrc"
	what  string // what lies there: "a shell start-up file"
}

// plantLook is what plants looks up beyond a change's own path, for one
// list of changes: its git folders, and the places linked into the roots
// (found once, on first need).
type plantLook struct {
	git    *gitFolders
	linked []linkedPlace
	found  bool
	// The links in the roots (rootlinks.go), found on first need.
	inRoots  []reachedLink
	byTarget linkIndex // inRoots by where they lead
	complete bool
	indexed  bool
	changes  []sandbox.Change // the list's changes: the links it makes lead somewhere too
	view     *afterView       // the roots as the action left them (linkview.go)
	walked   int              // entries placeBelow looked at, for the whole list
	includes *gitIncludes     // the files git's configuration includes (gitinclude.go), found on first need
	sourced  *sourcing        // the files start-up files load (sourced.go), found on first need
	// movedFrom, for a DSL move or copy, returns the source of what lands
	// at a path (openrunners.go); nil for a command's changes.
	movedFrom func(p string) (string, bool)
}

func (e *Executor) plantLook(changes []sandbox.Change) *plantLook {
	l := &plantLook{git: e.gitFolders(changes), changes: changes, view: e.afterView(changes)}
	l.git.look = l // the git checks ask whether a work tree file is held (gitstate.go)
	return l
}

// linkedWhy says why c lies where a place of the home leads through a
// link ("" when it does not).
func (l *plantLook) linkedWhy(e *Executor, c sandbox.Change) string {
	if !l.found {
		l.linked, l.found = e.linkedPlaces(), true
	}
	for _, p := range l.linked {
		if c.Path == p.path || inside(c.Path, p.path) {
			return p.what + ", reached from " + p.entry + " through a link"
		}
	}
	if !l.indexed {
		named := func(p string) bool { _, ok := e.Paths.Plants(p); return ok }
		l.inRoots, l.complete = e.links.links(e.Paths.Roots, named)
		l.inRoots = append(l.inRoots, e.madeLinks(l.changes, l.view)...)
		l.byTarget = indexLinks(l.inRoots)
		l.indexed = true
	}
	reached, all := l.byTarget.reachedAll(c.Path)
	for _, r := range reached {
		if z, ok := e.Paths.Plants(r); ok {
			return z.Detail + ", reached as " + e.short(r) + " through a link"
		}
	}
	if !all {
		return "reached through more links than Airlock follows"
	}
	if why := l.linkToPlaces(e, c); why != "" {
		return why
	}
	if !l.complete && c.Kind == sandbox.Changed {
		return "changes a file that existed, in sandbox roots too large for Airlock to find every link that may lead to it"
	}
	return ""
}

// linkedPlaces returns the table's places in the home (those without a
// wildcard) that resolve into a sandbox root: a link in the home on the
// way to them, or at them, leads there.
func (e *Executor) linkedPlaces() []linkedPlace {
	home := e.Paths.Home
	if home == "" {
		return nil
	}
	var out []linkedPlace
	memo := newLinkMemo()
	for _, pl := range sanitize.PersistencePlaces(home) {
		if pl.Under != home || slices.ContainsFunc(pl.Elems, func(s string) bool { return strings.Contains(s, "*") }) {
			continue
		}
		p := filepath.Join(append([]string{home}, pl.Elems...)...)
		r, ok := memo.resolve(p)
		if !ok || r == p {
			continue
		}
		if _, _, in := rootOf(e.Paths.Roots, r, foldCase); !in {
			continue
		}
		out = append(out, linkedPlace{path: r, entry: pl.Entry, what: pl.What})
	}
	return out
}

// maxLinkHops bounds how many dangling links resolveExisting follows.
const maxLinkHops = 40

// resolveExisting resolves the links of p's longest existing part and
// joins the rest to it; a dangling link on the way is followed to where it
// points (hops of them so far). ok is false when that fails (a loop, a
// folder that cannot be read).
func resolveExisting(p string, hops int) (string, bool) {
	var rest []string
	for cur := p; ; cur = filepath.Dir(cur) {
		r, err := filepath.EvalSymlinks(cur)
		if err == nil {
			slices.Reverse(rest)
			return filepath.Join(append([]string{r}, rest...)...), true
		}
		if !errors.Is(err, fs.ErrNotExist) || cur == "/" || cur == "." {
			return "", false
		}
		if fi, lerr := os.Lstat(cur); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			// A link to nothing yet: where it points is where a write
			// through it would land.
			t, err := os.Readlink(cur)
			if err != nil {
				return "", false
			}
			if !filepath.IsAbs(t) {
				t = filepath.Join(filepath.Dir(cur), t)
			}
			slices.Reverse(rest)
			if hops >= maxLinkHops {
				return "", false
			}
			r, ok := resolveExisting(filepath.Clean(t), hops+1)
			if !ok {
				return "", false
			}
			return filepath.Join(append([]string{r}, rest...)...), true
		}
		rest = append(rest, filepath.Base(cur))
	}
}

// linkMemo is resolveExisting for many paths that share their folders
// (the persistence table's places in the home): what it found of each
// folder, resolved, and which it found missing, so that each is looked up
// once. Without it every place looked each of its folders up again from
// the root, most of them missing: 5 ms for a home's places, which every
// unasked action on a Mac pays (lookedplants.go).
type linkMemo struct {
	found   map[string]string // a path that exists, resolved
	missing map[string]bool   // a path that does not exist and is no link
}

func newLinkMemo() *linkMemo {
	return &linkMemo{found: map[string]string{}, missing: map[string]bool{}}
}

// resolve is resolveExisting(p, 0), remembering what it finds. A path
// whose folder is missing is missing too, and no link: it is not looked
// up.
func (m *linkMemo) resolve(p string) (string, bool) {
	var rest []string
	done := func(r string) (string, bool) {
		slices.Reverse(rest)
		return filepath.Join(append([]string{r}, rest...)...), true
	}
	for cur := p; ; cur = filepath.Dir(cur) {
		if r, ok := m.found[cur]; ok {
			return done(r)
		}
		if !m.missing[filepath.Dir(cur)] || cur == "/" || cur == "." {
			r, err := filepath.EvalSymlinks(cur)
			if err == nil {
				m.found[cur] = r
				return done(r)
			}
			if !errors.Is(err, fs.ErrNotExist) || cur == "/" || cur == "." {
				return "", false
			}
			if fi, lerr := os.Lstat(cur); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
				// A link to nothing yet: resolveExisting follows it.
				r, ok := resolveExisting(cur, 0)
				if !ok {
					return "", false
				}
				return done(r)
			}
		}
		m.missing[cur] = true
		rest = append(rest, filepath.Base(cur))
	}
}

// madeLinks returns the links the changes make, with where they lead: a
// link made by the same action that writes where it leads (proj/.vscode →
// ../shared/x beside shared/x/tasks.json) reaches a place as surely as one
// the person made. A link that is held itself (at a place, or in a .git)
// lands only if the person keeps it, having seen it in the popup: it leads
// nowhere until then.
func (e *Executor) madeLinks(changes []sandbox.Change, view *afterView) []reachedLink {
	var out []reachedLink
	for _, c := range changes {
		if c.Kind == sandbox.Removed || c.Upper == "" || e.heldByPlace(c.Path) {
			continue
		}
		fi, err := os.Lstat(c.Upper)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			continue
		}
		t, err := os.Readlink(c.Upper)
		if err != nil {
			continue
		}
		if !filepath.IsAbs(t) {
			t = filepath.Dir(c.Path) + "/" + t // not cleaned: ".." after a link climbs out of its target
		}
		if r, ok := view.resolve(t); ok {
			out = append(out, reachedLink{link: c.Path, target: r})
		}
	}
	return out
}

// linkToPlaces says why c, a link the action made to a folder, plants: a
// place of the table lies below the folder under the link's name ("" when
// none does). The folder is walked as the action left it.
func (l *plantLook) linkToPlaces(e *Executor, c sandbox.Change) string {
	if c.Kind == sandbox.Removed || c.Upper == "" {
		return ""
	}
	fi, err := os.Lstat(c.Upper)
	if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return ""
	}
	r, ok := l.view.resolve(c.Path)
	if !ok {
		return ""
	}
	if m, _, there := l.view.lstat(r); !there || !m.IsDir() {
		return ""
	}
	named := func(p string) bool { _, ok := e.Paths.Plants(p); return ok }
	place, complete := l.view.placeBelow(c.Path, r, named, &l.walked)
	switch {
	case place != "":
		z, _ := e.Paths.Plants(place)
		return "a link to " + e.short(r) + ", which makes " + e.short(place) + " (" + z.Detail + ")"
	case !complete:
		return "a link to " + e.short(r) + ", a folder too large for Airlock to check for places that run code"
	}
	return ""
}

// heldByPlace reports whether a change at p is held for its path alone: a
// place of the persistence table, or anything in a .git.
func (e *Executor) heldByPlace(p string) bool {
	if _, ok := e.Paths.Plants(p); ok {
		return true
	}
	for d := p; d != "/" && d != "."; d = filepath.Dir(d) {
		if strings.EqualFold(filepath.Base(d), ".git") {
			return true
		}
	}
	return false
}
