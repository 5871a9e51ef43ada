package execute

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// Git runs the hooks and the configuration of every git folder it finds,
// whatever it is called: a .git, but also a bare repository in a folder of
// any name (git takes a folder holding HEAD, objects and refs for one when
// run in it or below it, and runs its core.pager, core.fsmonitor, hooks …),
// and a repository's folder kept apart (git init --separate-git-dir: the
// work tree's .git is a file naming it). The persistence table knows git
// folders by their names (.git, *.git); gitFolders knows the others by
// what they hold, so that a change there is held as one in a .git is, and
// a change that makes a folder a git folder (its HEAD, objects and refs
// coming after a config already there) is held too.

// gitFolders answers, for the changes of one list, whether the folders
// they lie in are git folders before and after the changes.
type gitFolders struct {
	e *Executor
	// upper maps a folder of a sandbox root to its folder in the layer,
	// for the folders the changes lie in.
	upper map[string]string
	seen  map[string]gitFolder
}

// gitFolder is what a folder is: a git folder before the changes (in the
// root), after them (the layer over the root).
type gitFolder struct{ before, after bool }

func (f gitFolder) is() bool { return f.before || f.after }

func (e *Executor) gitFolders(changes []sandbox.Change) *gitFolders {
	g := &gitFolders{e: e, upper: map[string]string{}, seen: map[string]gitFolder{}}
	for _, c := range changes {
		root := outerRoot(e.Paths.Roots, c.Path)
		if c.Upper == "" || root == "" {
			continue
		}
		for p, u := c.Path, c.Upper; ; p, u = filepath.Dir(p), filepath.Dir(u) {
			if _, ok := g.upper[p]; ok {
				break
			}
			g.upper[p] = u
			if p == root || p == "/" || u == "/" {
				break
			}
		}
	}
	return g
}

// outerRoot returns the outermost sandbox root p lies in ("" for none):
// a layer is made for each outermost root.
func outerRoot(roots []string, p string) string {
	best := ""
	for _, r := range roots {
		if (p == r || inside(p, r)) && (best == "" || len(r) < len(best)) {
			best = r
		}
	}
	return best
}

// why says why c (whose new version has mode) plants code in a git folder
// that is not named .git, or "" when it does not: the nearest git folder
// it lies in decides (a .git is the persistence table's).
func (g *gitFolders) why(c sandbox.Change, mode fs.FileMode) string {
	root := outerRoot(g.e.Paths.Roots, c.Path)
	if c.Kind == sandbox.Removed || root == "" {
		return ""
	}
	d := filepath.Dir(c.Path)
	if newFolder(c, mode) {
		d = c.Path
	}
	for ; d == root || inside(d, root); d = filepath.Dir(d) {
		if strings.EqualFold(filepath.Base(d), ".git") {
			return ""
		}
		f := g.folder(d)
		if !f.is() {
			continue
		}
		switch {
		case d == c.Path:
			return "a new git folder, whose hooks and configuration git runs"
		case !f.before:
			return "makes " + g.e.short(d) + " a git folder, whose hooks and configuration git runs"
		}
		rel, _ := filepath.Rel(d, c.Path)
		first, _, _ := strings.Cut(rel, "/")
		if sanitize.GitData(first) {
			return ""
		}
		return "in the git folder " + g.e.short(d) + ", whose hooks and configuration git runs"
	}
	return ""
}

// folder says whether d is a git folder before and after the changes.
func (g *gitFolders) folder(d string) gitFolder {
	if f, ok := g.seen[d]; ok {
		return f
	}
	var real *folder
	if r, err := g.e.reach(d); err == nil {
		real = r
		defer r.Close()
	}
	inRoot := func(name string) (fs.FileMode, bool) {
		if real == nil {
			return 0, false
		}
		fi, err := real.lstat(name)
		if err != nil || fi == nil {
			return 0, false
		}
		return fi.mode, true
	}
	up := g.upper[d]
	afterwards := func(name string) (fs.FileMode, bool) {
		if up != "" {
			fi, err := os.Lstat(filepath.Join(up, name))
			switch {
			case err == nil && isWhiteout(filepath.Join(up, name)):
				return 0, false
			case err == nil:
				return fi.Mode(), true
			case !errors.Is(err, fs.ErrNotExist):
				return 0, true // unreadable: taken for there, to hold rather than miss
			}
		}
		return inRoot(name)
	}
	f := gitFolder{before: gitMarked(inRoot), after: gitMarked(afterwards)}
	g.seen[d] = f
	return f
}

// gitMarked reports whether a folder whose entries look describes may be
// a git folder as git recognises one (setup.c, is_git_directory): it holds
// HEAD and either objects and refs, or a commondir file naming the folder
// that holds them. Git checks little of each (refs need only be something
// it may search, a link will do), so any entry of the name counts: a
// folder taken for a git folder that git would refuse is only held the
// more.
func gitMarked(look func(name string) (fs.FileMode, bool)) bool {
	has := func(name string) bool { _, ok := look(name); return ok }
	return has("HEAD") && (has("commondir") || has("objects") && has("refs"))
}
