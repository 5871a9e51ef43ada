package execute

import (
	"path"
	"runtime"
	"strings"
)

// foldCase says whether paths on this system compare without case, as on
// macOS's usual volumes: ~/documents/x is then inside the root ~/Documents.
var foldCase = runtime.GOOS == "darwin"

// rootOf finds the sandbox root that holds p, an absolute clean path: the
// deepest of roots (absolute and clean) that is p or one of its folders,
// comparing elements without case when fold is set. rel is p relative to
// it: "." for the root itself, else clean, relative, without "." or ".."
// elements. ok is false when no root holds p, or p is not clean.
func rootOf(roots []string, p string, fold bool) (root, rel string, ok bool) {
	if !strings.HasPrefix(p, "/") || path.Clean(p) != p {
		return "", "", false
	}
	elems := split(p)
	for _, e := range elems {
		if e == "." || e == ".." || e == "" {
			return "", "", false
		}
	}
	best := -1
	for _, r := range roots {
		re := split(r)
		if !strings.HasPrefix(r, "/") || len(re) > len(elems) || len(re) <= best {
			continue
		}
		match := true
		for i, e := range re {
			if e != elems[i] && !(fold && strings.EqualFold(e, elems[i])) {
				match = false
				break
			}
		}
		if match {
			root, best = r, len(re)
		}
	}
	if best < 0 {
		return "", "", false
	}
	if best == len(elems) {
		return root, ".", true
	}
	return root, path.Join(elems[best:]...), true
}

// split returns the elements of an absolute path ("/" has none).
func split(p string) []string {
	p = strings.Trim(p, "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}
