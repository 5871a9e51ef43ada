package execute

import (
	"path"
	"strings"
	"testing"
)

func TestRootOf(t *testing.T) {
	roots := []string{"/home/u/Documents", "/home/u/Documents/Work", "/home/u/Desktop"}
	tests := []struct {
		p         string
		fold      bool
		root, rel string
		ok        bool
	}{
		{"/home/u/Documents/a/b.txt", false, "/home/u/Documents", "a/b.txt", true},
		{"/home/u/Documents", false, "/home/u/Documents", ".", true},
		{"/home/u/Documents/Work/x", false, "/home/u/Documents/Work", "x", true}, // the deepest root
		{"/home/u/DocumentsX/a", false, "", "", false},                           // not a folder of it
		{"/home/u/documents/a", false, "", "", false},
		{"/home/u/documents/a", true, "/home/u/Documents", "a", true}, // macOS: no case
		{"/home/u", false, "", "", false},
		{"/home/u/Documents/../.ssh", false, "", "", false},
		{"/home/u/Documents/./a", false, "", "", false},
		{"/home/u/Documents/", false, "", "", false},
		{"/home/u//Documents/a", false, "", "", false},
		{"relative/Documents", false, "", "", false},
		{"/", false, "", "", false},
	}
	for _, tt := range tests {
		root, rel, ok := rootOf(roots, tt.p, tt.fold)
		if root != tt.root || rel != tt.rel || ok != tt.ok {
			t.Errorf("rootOf(%q, fold %v) = %q, %q, %v; want %q, %q, %v", tt.p, tt.fold, root, rel, ok, tt.root, tt.rel, tt.ok)
		}
	}
}

// FuzzRootOf: whatever the path, what rootOf finds is a root that holds it,
// and rel leads from there to the path and nowhere else.
func FuzzRootOf(f *testing.F) {
	for _, s := range []string{"/home/u/Documents/a", "/home/u/Documents", "/home/u/Documents/../x", "/home/u/Documents//a", "/home/u/DOCUMENTS/a/./b"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	roots := []string{"/home/u/Documents", "/home/u/Documents/Work", "/home/u/Desktop"}
	f.Fuzz(func(t *testing.T, p string, fold bool) {
		root, rel, ok := rootOf(roots, p, fold)
		if !ok {
			return
		}
		if path.Clean(p) != p {
			t.Fatalf("%q is not clean, yet it was placed", p)
		}
		if rel != "." && (path.IsAbs(rel) || path.Clean(rel) != rel || rel == ".." || strings.HasPrefix(rel, "../") || strings.Contains(rel, "/../") || strings.HasSuffix(rel, "/..")) {
			t.Fatalf("rel %q of %q leads out of %q", rel, p, root)
		}
		for _, e := range strings.Split(rel, "/") {
			if e == ".." || e == "" || (e == "." && rel != ".") {
				t.Fatalf("rel %q has the element %q", rel, e)
			}
		}
		got := path.Join(root, rel)
		if got != p && !(fold && strings.EqualFold(got, p)) {
			t.Fatalf("%q placed as %q + %q = %q", p, root, rel, got)
		}
	})
}
