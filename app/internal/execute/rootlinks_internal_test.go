package execute

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestRootLinks: the index finds links to folders and links that are
// places, skips links to files that are not, and after a change finds what
// changed (a folder's time moves when a link is made in it).
func TestRootLinks(t *testing.T) {
	root := t.TempDir()
	mk := func(rel string) {
		if err := os.MkdirAll(filepath.Join(root, rel), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, rel string) {
		if err := os.Symlink(target, filepath.Join(root, rel)); err != nil {
			t.Fatal(err)
		}
	}
	mk("shared/vscode")
	mk("work/node_modules/.bin")
	mk("work/node_modules/pkg")
	if err := os.WriteFile(filepath.Join(root, "shared/envrc"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "work/node_modules/pkg/cli.js"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link("../shared/envrc", "work/.envrc")
	link("../../shared/vscode", "work/.vscode") // leads outside the root: dangling
	link("../pkg/cli.js", "work/node_modules/.bin/cli")
	named := func(p string) bool { return filepath.Base(p) == ".envrc" }

	var x rootLinks
	got, complete := x.links([]string{root}, named)
	if !complete {
		t.Fatal("a small root was not walked whole")
	}
	var names []string
	for _, l := range got {
		rel, _ := filepath.Rel(root, l.link)
		names = append(names, rel)
	}
	slices.Sort(names)
	if want := []string{"work/.envrc", "work/.vscode"}; !slices.Equal(names, want) {
		t.Fatalf("links %q, want %q", names, want)
	}
	// .vscode leads to a folder that does not exist (../../shared from
	// work is outside root): a dangling link is kept for where it leads.
	if r := indexLinks(got).reachedAs(filepath.Join(root, "shared/envrc")); len(r) != 1 || r[0] != filepath.Join(root, "work/.envrc") {
		t.Fatalf("shared/envrc reached as %q", r)
	}

	// A link made later, in a folder the index has seen: found.
	time.Sleep(10 * time.Millisecond) // a folder time that differs on coarse clocks
	mk("proj")
	link("../shared/vscode", "proj/.vscode")
	got, _ = x.links([]string{root}, named)
	r := indexLinks(got).reachedAs(filepath.Join(root, "shared/vscode/tasks.json"))
	if !slices.Contains(r, filepath.Join(root, "proj/.vscode/tasks.json")) {
		t.Fatalf("shared/vscode/tasks.json reached as %q, want proj/.vscode/tasks.json among them", r)
	}

	// Past the bound, the walk says it is incomplete.
	small := rootLinks{limit: 3}
	if _, complete := small.links([]string{root}, named); complete {
		t.Fatal("a walk past its bound said it saw everything")
	}
}
