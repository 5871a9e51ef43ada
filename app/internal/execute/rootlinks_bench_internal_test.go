package execute

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// benchTree makes a root of 1,000 folders holding 20 files each (20,000
// entries), with one link to a folder.
func benchTree(b *testing.B) string {
	root := b.TempDir()
	for i := range 1000 {
		d := filepath.Join(root, fmt.Sprintf("p%02d/d%04d", i%40, i))
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
		for j := range 20 {
			if err := os.WriteFile(filepath.Join(d, fmt.Sprintf("f%02d", j)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := os.Symlink("../p01", filepath.Join(root, "p00/linked")); err != nil {
		b.Fatal(err)
	}
	return root
}

// BenchmarkRootLinksFirst is the first walk of a 20,000-entry root: every
// folder read.
func BenchmarkRootLinksFirst(b *testing.B) {
	root := benchTree(b)
	named := func(string) bool { return false }
	for b.Loop() {
		x := rootLinks{now: settled}
		x.links([]string{root}, named)
	}
}

// BenchmarkRootLinksAgain is a review's walk after the first, nothing
// changed: one lstat per folder.
func BenchmarkRootLinksAgain(b *testing.B) {
	root := benchTree(b)
	named := func(string) bool { return false }
	x := rootLinks{now: settled} // the tree was just made: measure it as one long settled
	x.links([]string{root}, named)
	for b.Loop() {
		x.links([]string{root}, named)
	}
}

// BenchmarkRootLinksManyLinks is a review's walk of a root shaped like a
// pnpm project: 2,000 links to package folders and 2,000 links to files
// (node_modules/.bin), whose paths no place names but which the walk
// checks against the folder links (reachedFiles).
func BenchmarkRootLinksManyLinks(b *testing.B) {
	root := pnpmTree(b)
	named := func(string) bool { return false }
	x := rootLinks{now: settled} // the tree was just made: measure it as one long settled
	x.links([]string{root}, named)
	for b.Loop() {
		x.links([]string{root}, named)
	}
}

// pnpmTree makes a root shaped like a pnpm project: 2,000 links to package
// folders and 2,000 links to files (node_modules/.bin).
func pnpmTree(b *testing.B) string {
	root := b.TempDir()
	store := filepath.Join(root, "node_modules", ".pnpm")
	bin := filepath.Join(root, "node_modules", ".bin")
	for _, d := range []string{store, bin} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 2000 {
		pkg := filepath.Join(store, fmt.Sprintf("pkg%04d@1.0.0", i))
		if err := os.MkdirAll(pkg, 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(pkg, "cli.js"), nil, 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.Symlink(pkg, filepath.Join(root, "node_modules", fmt.Sprintf("pkg%04d", i))); err != nil {
			b.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(pkg, "cli.js"), filepath.Join(bin, fmt.Sprintf("cmd%04d", i))); err != nil {
			b.Fatal(err)
		}
	}
	return root
}
