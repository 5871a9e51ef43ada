package jxa

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// itemPathsOf analyses src and returns the paths itemPaths finds for the
// expression that is the last line of src.
func itemPathsOf(t *testing.T, src string) []string {
	t.Helper()
	var v rate.Verdict
	lx := lexJS(src)
	an := &jsAn{src: src, lx: lx, v: &v, defs: map[string][]jsDef{}, alias: map[string]string{}}
	an.collect()
	last := src[strings.LastIndexByte(src, '\n')+1:]
	var expr []jsToken
	for _, tk := range lx.toks {
		if int(tk.start) >= len(src)-len(last) {
			expr = append(expr, tk)
		}
	}
	return an.itemPaths(expr, 0)
}

// TestItemPaths: the paths of the Finder's and System Events' items, named
// in one chain or through variables; anything not named in full is none,
// or a hole where the item's name is not known.
func TestItemPaths(t *testing.T) {
	hole := rate.HoleUnquoted
	for _, c := range []struct {
		src  string
		want []string
	}{
		{"const f = Application('Finder')\nf.home.folders['Documents'].files['.env']", []string{"~/Documents/.env"}},
		{"Application('Finder').desktop.files.byName('a.txt')", []string{"~/Desktop/a.txt"}},
		{"const f = Application('Finder')\nconst d = f.home.folders['Documents']\nconst a = d.folders['app']\na.files['.env']", []string{"~/Documents/app/.env"}},
		{"const f = Application('Finder')\nf.startupDisk.folders['Users'].folders['me']", []string{"/Users/me"}},
		{"const se = Application('System Events')\nse.diskItems['~/.netrc']", []string{"~/.netrc"}},
		{"const se = Application('System Events')\nse.folders.byName('/tmp').files['x']", []string{"/tmp/x"}},
		{"const se = Application('System Events')\nse.documentsFolder.files['n.txt']", []string{"~/Documents/n.txt"}},
		{"const f = Application('Finder')\nconst n = '.e' + 'nv'\nf.home.files[n]", []string{"~/.env"}},
		{"const f = Application('Finder')\nf.home.folders['.ssh'].files[0]", []string{"~/.ssh/" + hole}},
		{"const f = Application('Finder')\nf.home.folders['.ssh'].files.whose({name: 'x'})", []string{"~/.ssh/" + hole}},
		{"const f = Application('Finder')\nconst d = f.duplicate(f.home.files['.env'], {to: f.desktop})\nd", []string{"~/.env"}},
		{"const f = Application('Finder');\n[f.home.files['a'], f.desktop.files['b']]", []string{"~/a", "~/Desktop/b"}},
		{"const f = Application('Finder')\nf['home']['folders']['Documents']['files'].byName('.env')", []string{"~/Documents/.env"}},
		// Not items named in full.
		{"const f = Application('Finder')\nf.home.folders['Documents'].name", nil},
		{"const f = Application('Finder')\nf.home.folders['Documents'].files['a'].open()", nil},
		{"const se = Application('System Events')\nse.diskItems['relative']", nil},
		{"const se = Application('System Events')\nse.diskItems[0]", nil},
		{"const f = Application('Finder')\nf.files['a']", nil},
		{"const m = Application('Mail')\nm.mailboxes['INBOX']", nil},
		{"const o = {home: {files: {}}}\no.home.files['.env']", nil},
		{"const f = Application('Finder')\nf", nil},
		// Variables defined by each other name nothing more, and end.
		{"var a = b.folders['x']\nvar b = a.folders['y']\na.files['z']", nil},
		{"const f = Application('Finder')\nvar a = f.home\na = a.folders['x']\na.files['z']", []string{"~/z", "~/x/z"}},
	} {
		got := itemPathsOf(t, c.src)
		if !slices.Equal(got, c.want) {
			t.Errorf("itemPaths of %q: %q, want %q", c.src, got, c.want)
		}
	}
}

// TestItemPathsBounded: many variables defined by each other, each used
// where a path is checked, are resolved once each.
func TestItemPathsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("const app = Application.currentApplication();\nconst f = Application('Finder');\nvar v0 = f.home;\n")
	const n = 400
	for i := 1; i < n; i++ {
		for k := 0; k < 8; k++ {
			fmt.Fprintf(&b, "v%d = v%d.folders['d%d'];\n", i, (i*7+k*13)%n, k)
		}
	}
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "app.read(v%d);\n", i)
	}
	src := b.String()
	start := time.Now()
	var v rate.Verdict
	lx := lexJS(src)
	an := &jsAn{src: src, lx: lx, v: &v, defs: map[string][]jsDef{}, alias: map[string]string{}}
	an.collect()
	for i := 0; i < n; i++ {
		an.varItems(jsKey{fn: -1, name: fmt.Sprintf("v%d", i)}, 0)
	}
	t.Logf("%d work units", an.work)
	if an.work > 8*8*n {
		t.Errorf("%d work units for %d variables of 8 definitions each", an.work, n)
	}
	if len(an.items) > n+1 {
		t.Errorf("%d variables resolved, want at most %d", len(an.items), n+1)
	}
	for name, it := range an.items {
		if len(it.paths) > maxItemPaths {
			t.Errorf("%s: %d paths, over %d", name.name, len(it.paths), maxItemPaths)
		}
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
}
