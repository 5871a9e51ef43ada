package execute

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

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
	heads map[string]map[string]bool // the refs each git folder's HEADs name (checkedOut)
	// changed are the changes by path (changeKey): the view the git
	// checks read (gitview.go).
	changed map[string]sandbox.Change
	repos   map[string]*gitRepo // what the git checks found (gitstate.go)
	// look is the list's plantLook, and held what isHeld decided of a
	// change, by path.
	look *plantLook
	held map[string]bool
}

// gitFolder is what a folder is: a git folder before the changes (in the
// root), after them (the layer over the root).
type gitFolder struct{ before, after bool }

func (f gitFolder) is() bool { return f.before || f.after }

func (e *Executor) gitFolders(changes []sandbox.Change) *gitFolders {
	g := &gitFolders{e: e, upper: map[string]string{}, seen: map[string]gitFolder{},
		changed: make(map[string]sandbox.Change, len(changes)), repos: map[string]*gitRepo{}}
	for _, c := range changes {
		g.changed[changeKey(c.Path)] = c
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
			return g.refWhy(d, c, mode)
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
			return g.refWhy(d, c, mode)
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

// A branch is data, but not harmless data: the commit it names is written
// into the work tree by the person's next checkout of it (or pull from a
// bare repository, or stash pop), past any review. An action that commits a
// .envrc onto a branch the person has but is not on, with git plumbing
// (hash-object, commit-tree, update-ref), plants it as surely as writing
// it. So a change to the refs (refs/, packed-refs, reftable/) is held,
// except the branch a HEAD of the repository names before the changes: a
// commit on the checked-out branch changes nothing a checkout would bring
// (its files are the work tree's, which the review sees). The HEADs are
// read as they were, not as the action left them: a HEAD it moved (to a
// branch it made, or detached onto a commit of its own) is held itself,
// and so is a linked worktree's folder it adds (.git/worktrees is no data),
// so neither may name the branch it moves.

// refWhy says why c, inside the git folder d, moves a ref other than the
// checked-out branch, moves HEAD, or adds to a reflog what git checks out
// (reflog.go); "" when it does none of these, or lies elsewhere in d.
func (g *gitFolders) refWhy(d string, c sandbox.Change, mode fs.FileMode) string {
	rel, err := filepath.Rel(d, c.Path)
	if err != nil || mode.IsDir() {
		return "" // a folder of refs names no commit
	}
	rel = filepath.ToSlash(rel)
	first, _, _ := strings.Cut(rel, "/")
	switch first {
	case "refs":
		if g.checkedOut(d)[rel] {
			return g.branchMoveWhy(d, rel) // gitstate.go
		}
	case "index":
		return g.indexWhy(d)
	case "objects":
		return g.objectWhy(d, rel, c, mode)
	case "ORIG_HEAD":
		return g.origHeadWhy(d, c, mode)
	case "FETCH_HEAD":
		return "sets FETCH_HEAD in " + g.e.short(d) + ": git merge FETCH_HEAD writes the files of the commits it names without this review, and nothing tells a fetched one from a planted one"
	case "packed-refs", "reftable":
	case "HEAD":
		if rel != "HEAD" || !g.headMoved(d) {
			return ""
		}
		return "moves HEAD in " + g.e.short(d) + " to another branch or commit: the person's next reset, stash or checkout writes its files without this review"
	case "logs":
		return g.reflogWhy(d, rel, c, mode) // reflog.go
	default:
		return ""
	}
	return "moves " + rel + " in " + g.e.short(d) + ": checking it out later writes the files of its commit without this review"
}

// maxHead bounds what is read of a HEAD file: "ref: " and a ref name.
const maxHead = 4096

// checkedOut returns the refs the HEADs of the git folder d name before the
// changes: its own HEAD and its linked worktrees' (worktrees/*/HEAD), as
// the root holds them. What the action wrote there is held, not applied
// (headMoved; .git/worktrees is the persistence table's), so it names
// nothing here.
func (g *gitFolders) checkedOut(d string) map[string]bool {
	if g.heads == nil {
		g.heads = map[string]map[string]bool{}
	}
	if h, ok := g.heads[d]; ok {
		return h
	}
	h := map[string]bool{}
	add := func(rel string) {
		if ref, ok := g.headRef(d, rel); ok {
			h[ref] = true
		}
	}
	add("HEAD")
	if dir, err := g.e.reach(d); err == nil {
		wt, err := dir.sub("worktrees")
		dir.Close()
		if err == nil {
			names, _ := wt.f.Readdirnames(-1)
			wt.Close()
			for _, n := range names {
				add("worktrees/" + n + "/HEAD")
			}
		}
	}
	g.heads[d] = h
	return h
}

// headMoved reports whether the action changed what the HEAD of the git
// folder d says (a branch, or a commit when detached): its text in the
// layer differs from the root's, or either cannot be read.
func (g *gitFolders) headMoved(d string) bool {
	before, okb := g.headBefore(d, "HEAD")
	after, oka := g.headAfter(d)
	return !okb || !oka || before != after
}

// headRef reads the HEAD file rel of the git folder d as the root holds
// it, before the changes: "ref: refs/heads/main" gives refs/heads/main. A
// detached HEAD (a commit id) names no branch.
func (g *gitFolders) headRef(d, rel string) (string, bool) {
	text, ok := g.headBefore(d, rel)
	ref, isRef := strings.CutPrefix(text, "ref:")
	ref = strings.TrimSpace(ref)
	if !ok || !isRef || !strings.HasPrefix(ref, "refs/") {
		return "", false
	}
	return ref, true
}

// headBefore reads the HEAD file rel of the git folder d as the root holds
// it, trimmed, following no link; false when it cannot.
func (g *gitFolders) headBefore(d, rel string) (string, bool) {
	f, err := g.openReal(d, rel)
	if err != nil {
		return "", false
	}
	return readHead(f)
}

// headAfter reads the HEAD of the git folder d as the action left it (the
// layer's version over the root's), trimmed, following no link; false when
// it is removed or cannot be read.
func (g *gitFolders) headAfter(d string) (string, bool) {
	if up := g.upper[d]; up != "" {
		p := filepath.Join(up, "HEAD")
		if _, err := os.Lstat(p); err == nil {
			if isWhiteout(p) {
				return "", false
			}
			f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
			if err != nil {
				return "", false
			}
			return readHead(f)
		}
	}
	return g.headBefore(d, "HEAD")
}

// readHead reads at most maxHead bytes of f, trimmed, and closes it.
func readHead(f *os.File) (string, bool) {
	defer f.Close()
	buf := make([]byte, maxHead)
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", false
	}
	return strings.TrimSpace(string(buf[:n])), true
}

// openReal opens rel (a path of names) in the git folder d as the root
// holds it, following no link on the way.
func (g *gitFolders) openReal(d, rel string) (*os.File, error) {
	dir, err := g.e.reach(d)
	if err != nil {
		return nil, err
	}
	elems := strings.Split(rel, "/")
	for _, name := range elems[:len(elems)-1] {
		sub, err := dir.sub(name)
		dir.Close()
		if err != nil {
			return nil, err
		}
		dir = sub
	}
	defer dir.Close()
	return dir.open(elems[len(elems)-1], os.O_RDONLY, 0)
}
