package execute

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// The links an action makes are read in the view it leaves, not in the
// roots as they were: a link's target is followed element by element, each
// looked up in the layer first (the action's new folders and links) and in
// the root after, so that "../hop/../vs" climbs out of where the link hop
// it made leads, as the system will, not out of hop (a lexical reading),
// and a chain of links it made leads to its end. And a link it makes to a
// folder makes every entry below that folder reachable under the link's
// name: work/.vscode → ../shared/vs makes shared/vs/tasks.json, written by
// an earlier action where no place names it, work/.vscode/tasks.json. So
// the folder a made link leads to is walked, and a place among the names
// it gives holds the link.

// maxLinkWalk bounds the entries looked at below the folders the links of
// one action lead to; past it the link is held, unchecked.
const maxLinkWalk = 20_000

// maxReached bounds the paths one change is reached by through chained
// links (reachedAll); past it the change is held.
const maxReached = 256

// afterView is the roots as an action left them: its layers over them.
type afterView struct {
	roots []string
	upper map[string]string // an outermost root → its layer's upper folder
	// opaque are the folders the changes make anew (newFolder): every
	// entry of theirs is in the layer, none of the root's shows through.
	opaque map[string]bool
}

func (e *Executor) afterView(changes []sandbox.Change) *afterView {
	v := &afterView{roots: e.Paths.Roots, upper: map[string]string{}, opaque: map[string]bool{}}
	for _, c := range changes {
		root := outerRoot(v.roots, c.Path)
		if root == "" || c.Upper == "" {
			continue
		}
		rel, err := filepath.Rel(root, c.Path)
		if err != nil {
			continue
		}
		if rel == "." {
			v.upper[root] = c.Upper
		} else if u, ok := strings.CutSuffix(c.Upper, string(filepath.Separator)+rel); ok {
			v.upper[root] = u
		}
		if fi, err := os.Lstat(c.Upper); err == nil && newFolder(c, fi.Mode()) {
			v.opaque[c.Path] = true
		}
	}
	return v
}

// lstat returns p's type in the view, a link's target, and whether p is
// there at all.
func (v *afterView) lstat(p string) (fs.FileMode, string, bool) {
	if root := outerRoot(v.roots, p); root != "" {
		if up, ok := v.upper[root]; ok {
			rel, _ := filepath.Rel(root, p)
			q := filepath.Join(up, rel)
			if fi, err := os.Lstat(q); err == nil {
				if isWhiteout(q) {
					return 0, "", false
				}
				t, _ := os.Readlink(q)
				return fi.Mode(), t, true
			}
			for d := filepath.Dir(p); d == root || inside(d, root); d = filepath.Dir(d) {
				if v.opaque[d] {
					return 0, "", false
				}
				if d == root {
					break
				}
			}
		}
	}
	fi, err := os.Lstat(p)
	if err != nil {
		return 0, "", false
	}
	t, _ := os.Readlink(p)
	return fi.Mode(), t, true
}

// resolve follows the links of the path p (absolute, not cleaned: "..")
// in the view: the path it leads to, the part that is not there yet joined
// as written. False for a loop.
func (v *afterView) resolve(p string) (string, bool) {
	todo := strings.Split(p, "/")
	cur, hops := "/", 0
	for len(todo) > 0 {
		e := todo[0]
		todo = todo[1:]
		switch e {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, e)
		mode, target, ok := v.lstat(next)
		switch {
		case !ok:
			return filepath.Join(append([]string{next}, todo...)...), true
		case mode&fs.ModeSymlink == 0:
			cur = next
			continue
		}
		if hops++; hops > maxLinkHops || target == "" {
			return "", false
		}
		if filepath.IsAbs(target) {
			cur = "/"
		}
		todo = append(strings.Split(target, "/"), todo...)
	}
	return cur, true
}

// names lists the entries of the folder dir in the view.
func (v *afterView) names(dir string) []string {
	var out []string
	root := outerRoot(v.roots, dir)
	if up, ok := v.upper[root]; ok && root != "" {
		rel, _ := filepath.Rel(root, dir)
		if es, err := os.ReadDir(filepath.Join(up, rel)); err == nil {
			for _, e := range es {
				if !isWhiteout(filepath.Join(up, rel, e.Name())) {
					out = append(out, e.Name())
				}
			}
		}
	}
	if v.opaque[dir] {
		return out
	}
	if es, err := os.ReadDir(dir); err == nil {
		for _, e := range es {
			if _, _, ok := v.lstat(filepath.Join(dir, e.Name())); ok && !slices.Contains(out, e.Name()) {
				out = append(out, e.Name())
			}
		}
	}
	return out
}

// placeBelow walks the folder target, which the link at link leads to, in
// the view (following the links in it, to the bound) and returns the first
// path under link that a place names ("" for none), and whether the walk
// saw everything (false past maxLinkWalk). count is the entries walked so
// far, for the whole list of changes.
func (v *afterView) placeBelow(link, target string, named func(string) bool, count *int) (string, bool) {
	for _, n := range v.names(target) {
		if *count++; *count > maxLinkWalk {
			return "", false
		}
		under, in := filepath.Join(link, n), filepath.Join(target, n)
		if named(under) {
			return under, true
		}
		mode, _, ok := v.lstat(in)
		if !ok {
			continue
		}
		if mode&fs.ModeSymlink != 0 {
			r, rok := v.resolve(in)
			if !rok {
				continue
			}
			if m, _, ok := v.lstat(r); !ok || !m.IsDir() {
				continue
			}
			in = r
		} else if !mode.IsDir() {
			continue
		}
		if p, ok := v.placeBelow(under, in, named, count); p != "" || !ok {
			return p, ok
		}
	}
	return "", true
}

// linkIndex is a list of links by where they lead, so that the links
// leading to a path or to a folder it lies in are found by looking up its
// folders, not by going through every link.
type linkIndex map[string][]string

func indexLinks(links []reachedLink) linkIndex {
	x := linkIndex{}
	for _, l := range links {
		t := filepath.Clean(l.target)
		x[t] = append(x[t], l.link)
	}
	return x
}

// reachedAs returns the paths by which p is reached through the links:
// for each link leading to p or to a folder p lies in, the link's path
// joined with the rest of p.
func (x linkIndex) reachedAs(p string) []string {
	var out []string
	for d := p; ; d = filepath.Dir(d) {
		for _, l := range x[d] {
			if d == p {
				out = append(out, l)
			} else {
				out = append(out, filepath.Join(l, strings.TrimPrefix(p[len(d):], "/")))
			}
		}
		if d == "/" || d == "." {
			return out
		}
	}
}

// reachedAll returns the paths p is reached by through the links, chained
// (a link to a folder holding a link to p), each once, and whether they
// are all there (false past maxReached).
func (x linkIndex) reachedAll(p string) ([]string, bool) {
	first := x.reachedAs(p)
	if len(first) == 0 {
		return nil, true // most paths: no link leads to them
	}
	seen := map[string]bool{p: true}
	var out []string
	for todo, next := []string{p}, first; len(todo) > 0; next = nil {
		q := todo[0]
		todo = todo[1:]
		if next == nil {
			next = x.reachedAs(q)
		}
		for _, r := range next {
			if seen[r] {
				continue
			}
			if len(seen) > maxReached {
				return out, false
			}
			seen[r] = true
			out = append(out, r)
			todo = append(todo, r)
		}
	}
	return out, true
}
