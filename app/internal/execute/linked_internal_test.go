package execute

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// TestLinkMemoAsResolveExisting: linkMemo.resolve gives what
// resolveExisting gives for every place of the persistence table in a
// home whose folders are links of every kind (to a root, to a link,
// dangling, dangling through another link, looping, relative with ..),
// asked in the table's order and again in reverse, so that each path is
// resolved both before and after what shares its folders.
func TestLinkMemoAsResolveExisting(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	docs := filepath.Join(home, "Documents")
	for _, d := range []string{docs + "/dotfiles/config", docs + "/lib", home + "/.config", base + "/elsewhere"} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		home + "/Library":               docs + "/lib",                  // a folder of places, into a root
		home + "/.config/fish":          "../Documents/dotfiles/config", // relative, through ..
		home + "/.zshrc":                docs + "/dotfiles/zshrc",       // dangling, into a root
		home + "/.bashrc":               home + "/.zshrc",               // to a dangling link
		home + "/.profile":              home + "/.profile",             // a loop
		home + "/.ssh":                  base + "/elsewhere",            // outside the roots
		home + "/.config/nvim":          base + "/missing/nvim",         // dangling, nowhere
		docs + "/lib/LaunchAgents":      "../dotfiles/agents",           // dangling, relative, below a link
		home + "/.local":                home + "/.config",              // a link to a folder holding links
		home + "/.config/environment.d": "fish",                         // a link to a link
	}
	for at, to := range links {
		if err := os.Symlink(to, at); err != nil {
			t.Fatal(err)
		}
	}
	var paths []string
	for _, pl := range sanitize.PersistencePlaces(home) {
		if pl.Under != home || slices.ContainsFunc(pl.Elems, func(s string) bool { return strings.Contains(s, "*") }) {
			continue
		}
		p := filepath.Join(append([]string{home}, pl.Elems...)...)
		paths = append(paths, p, filepath.Join(p, "x", "y"))
	}
	for at := range links {
		paths = append(paths, at, filepath.Join(at, "z"))
	}
	if len(paths) < 100 {
		t.Fatalf("only %d paths", len(paths))
	}
	for _, order := range []string{"table", "reverse"} {
		if order == "reverse" {
			slices.Reverse(paths)
		}
		m := newLinkMemo()
		differ := 0
		for _, p := range paths {
			wr, wok := resolveExisting(p, 0)
			gr, gok := m.resolve(p)
			if gr != wr || gok != wok {
				differ++
				t.Errorf("%s order: %s: memo %q %v, resolveExisting %q %v", order, p, gr, gok, wr, wok)
			}
		}
		if differ == 0 && len(m.found) == 0 {
			t.Errorf("%s order: the memo found nothing", order)
		}
	}
}

// BenchmarkLinkedPlaces: one look at the places of a home whose Library is
// mostly missing (linked.go's linkMemo; lookedplants.go pays it for every
// unasked action on a Mac).
func BenchmarkLinkedPlaces(b *testing.B) {
	home := b.TempDir()
	docs := filepath.Join(home, "Documents")
	if err := os.MkdirAll(filepath.Join(home, "Library", "Preferences"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.MkdirAll(docs, 0o755); err != nil {
		b.Fatal(err)
	}
	cfg, err := sanitize.NewConfig(home, []string{docs})
	if err != nil {
		b.Fatal(err)
	}
	e := &Executor{Paths: cfg}
	b.ReportAllocs()
	for b.Loop() {
		e.linkedPlaces()
	}
}
