package execute

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// lonePacks are builtPacks, and packs whose deltas only an index-less
// read must order: a ref-delta before its base, a ref-delta on a
// ref-delta, an ofs-delta on a ref-delta.
func lonePacks() map[string]struct {
	objs   []packObj
	secret string
	err    bool
} {
	all := builtPacks()
	// insertDelta writes sizes of one byte: these stay under 128.
	plain := treeBody("a")
	tail, tail2 := treeBody("n"), treeBody("id_rsa")
	mid := append(slices.Clone(plain), tail...)
	top := append(slices.Clone(mid), tail2...)
	type c = struct {
		objs   []packObj
		secret string
		err    bool
	}
	all["a ref-delta before its base"] = c{objs: []packObj{
		{kind: packRefDelta, body: insertDelta(plain, tail2), ref: idOf("tree", plain), id: idOf("tree", append(slices.Clone(plain), tail2...))},
		{kind: packTree, body: plain, id: idOf("tree", plain)},
	}, secret: "id_rsa"}
	all["a ref-delta on a ref-delta"] = c{objs: []packObj{
		{kind: packRefDelta, body: insertDelta(mid, tail2), ref: idOf("tree", mid), id: idOf("tree", top)},
		{kind: packRefDelta, body: insertDelta(plain, tail), ref: idOf("tree", plain), id: idOf("tree", mid)},
		{kind: packTree, body: plain, id: idOf("tree", plain)},
	}, secret: "id_rsa"}
	all["an ofs-delta on a ref-delta"] = c{objs: []packObj{
		{kind: packRefDelta, body: insertDelta(plain, tail), ref: idOf("tree", plain), id: idOf("tree", mid)},
		{kind: packOfsDelta, body: insertDelta(mid, tail2), base: 0, id: idOf("tree", top)},
		{kind: packTree, body: plain, id: idOf("tree", plain)},
	}, secret: "id_rsa"}
	all["a ref-delta of a blob's delta naming nothing"] = c{objs: []packObj{
		{kind: packBlob, body: plain, id: idOf("blob", plain)},
		{kind: packOfsDelta, body: insertDelta(plain, tail), base: 0, id: idOf("blob", mid)},
		{kind: packRefDelta, body: insertDelta(mid, tail2), ref: idOf("blob", mid), id: idOf("blob", top)},
	}}
	all["a ref-delta whose base is a tree's id, the blob's"] = c{objs: []packObj{
		{kind: packBlob, body: plain, id: idOf("blob", plain)},
		{kind: packRefDelta, body: insertDelta(plain, tail2), ref: idOf("tree", plain), id: idOf("tree", top)},
	}, err: true}
	return all
}

// TestSecretInLonePack: a pack read from its start, without its index,
// gives what the check with the index gives, and finds the bases of
// ref-deltas wherever they lie; one cut short, with bytes after its
// objects, or saying more objects than it can hold, is an error; one of
// more objects than the budget is past the bounds.
func TestSecretInLonePack(t *testing.T) {
	for name, c := range lonePacks() {
		_, pack := buildPack(c.objs)
		got, err := secretInLonePack(bytes.NewReader(pack), int64(len(pack)), partBudget(time.Time{}))
		if got != c.secret || (err != nil) != c.err {
			t.Errorf("%s: %q, %v; want %q, error %v", name, got, err, c.secret, c.err)
		}
		if err != nil && !errors.Is(err, errGitObject) && !errors.Is(err, errStoreBounds) {
			t.Errorf("%s: %v wraps neither errGitObject nor errStoreBounds", name, err)
		}
	}
	_, pack := buildPack(builtPacks()["a whole tree naming .env"].objs)
	for what, spoilt := range map[string][]byte{
		"cut":                    pack[:len(pack)-25],
		"cut in its checksum":    pack[:len(pack)-1],
		"with bytes after":       append(slices.Clone(pack[:len(pack)-20]), "0123456789012345678901234"...),
		"saying 1,000 objects":   append(append(slices.Clone(pack[:8]), 0, 0, 3, 0xe8), pack[12:]...),
		"of another magic":       append([]byte("KCAP"), pack[4:]...),
		"of version 4":           append(append([]byte("PACK"), 0, 0, 0, 4), pack[8:]...),
		"shorter than a header":  pack[:10],
		"an entry's stream bent": append(append(slices.Clone(pack[:14]), pack[14]^0xff), pack[15:]...),
	} {
		if got, err := secretInLonePack(bytes.NewReader(spoilt), int64(len(spoilt)), partBudget(time.Time{})); err == nil {
			t.Errorf("a pack %s: %q, no error", what, got)
		}
	}
	small := partBudget(time.Time{})
	small.objects = 1
	_, two := buildPack(builtPacks()["whole trees, no secret"].objs)
	if _, err := secretInLonePack(bytes.NewReader(two), int64(len(two)), small); !errors.Is(err, errStoreBounds) {
		t.Errorf("a pack of 2 objects, 1 allowed: %v", err)
	}
	few := partBudget(time.Time{})
	few.bytes = 10
	if _, err := secretInLonePack(bytes.NewReader(two), int64(len(two)), few); !errors.Is(err, errStoreBounds) {
		t.Errorf("a pack of more bytes than allowed: %v", err)
	}
}

// bundleOf is a bundle of version 2 of the pack, with the header lines.
func bundleOf(pack []byte, lines ...string) []byte {
	b := "# v2 git bundle\n"
	for _, l := range lines {
		b += l + "\n"
	}
	return append([]byte(b+"\n"), pack...)
}

// TestSecretInBundle: a bundle's header is read to its pack, which is
// read from its start; a thin bundle's delta on a base outside it, a
// header git does not write, or one not ending before its pack, is an
// error.
func TestSecretInBundle(t *testing.T) {
	c := builtPacks()["a delta by offset naming z.key"]
	_, pack := buildPack(c.objs)
	ref := strings.Repeat("ab", 20) + " refs/heads/main"
	thin := builtPacks()["a delta whose base is elsewhere"]
	_, thinPack := buildPack(thin.objs)
	for name, tc := range map[string]struct {
		bundle []byte
		secret string
		err    bool
	}{
		"v2":                       {bundle: bundleOf(pack, ref), secret: "z.key"},
		"v3, SHA-1":                {bundle: append([]byte("# v3 git bundle\n@object-format=sha1\n@filter=blob:none\n"+ref+"\n\n"), pack...), secret: "z.key"},
		"with a prerequisite":      {bundle: bundleOf(pack, "-"+strings.Repeat("cd", 20)+" old", ref), secret: "z.key"},
		"thin":                     {bundle: bundleOf(thinPack, "-"+strings.Repeat("cd", 20), ref), err: true},
		"of version 1":             {bundle: append([]byte("# v1 git bundle\n"+ref+"\n\n"), pack...), err: true},
		"an unknown capability":    {bundle: append([]byte("# v3 git bundle\n@reverse=1\n"+ref+"\n\n"), pack...), err: true},
		"SHA-256, its ids SHA-1's": {bundle: append([]byte("# v3 git bundle\n@object-format=sha256\n"+ref+"\n\n"), pack...), err: true},
		"a ref without an id":      {bundle: bundleOf(pack, "refs/heads/main"), err: true},
		"no empty line":            {bundle: []byte("# v2 git bundle\n" + ref + "\n"), err: true},
		"no pack":                  {bundle: bundleOf(nil, ref), err: true},
	} {
		got, err := secretInBundle(bytes.NewReader(tc.bundle), int64(len(tc.bundle)), partBudget(time.Time{}))
		if got != tc.secret || (err != nil) != tc.err {
			t.Errorf("%s: %q, %v; want %q, error %v", name, got, err, tc.secret, tc.err)
		}
	}
}

// TestKindOfHead: bundles and packs by their first bytes, whatever their
// names; nothing else.
func TestKindOfHead(t *testing.T) {
	for head, want := range map[string]gitData{
		"# v2 git bundle\n": gitBundle, "# v3 git bundle\n": gitBundle, "PACK\x00\x00\x00\x02\x00\x00\x00\x01": gitPackFile,
		"PACK\x00\x00\x00\x03": gitPackFile, "PACK\x00\x00\x00\x04": notGitData, "# v2 git bundle": notGitData,
		"# v4 git bundle\n": notGitData, "PACK": notGitData, "\xfftOc\x00\x00\x00\x02": notGitData, "": notGitData,
	} {
		if got := kindOfHead([]byte(head)); got != want {
			t.Errorf("%q: %d, want %d", head, got, want)
		}
	}
}

// TestGitDataFound: the roots' walk finds bundles and stray packs by
// their first bytes, in any folder but node_modules, and not a store's
// own packs or loose objects (its check reads those); the home's walk
// finds one lying in the home itself. Each is checked: hidden when its
// history names a secret file, read once while its stamp holds.
func TestGitDataFound(t *testing.T) {
	repo := committedRepo(t)
	writeIn(t, repo, map[string]string{".env": "TOKEN=x\n"})
	gitIn(t, repo, "add", "-f", ".env")
	gitIn(t, repo, "commit", "-qm", "env")
	gitIn(t, repo, "gc", "-q")
	root := filepath.Join(resolvedTemp(t), "root")
	writeIn(t, root, map[string]string{"a/.keep": ""})
	gitIn(t, repo, "bundle", "create", "-q", filepath.Join(root, "a", "backup.dat"), "--all")
	bundle, err := os.ReadFile(filepath.Join(root, "a", "backup.dat"))
	if err != nil {
		t.Fatal(err)
	}
	packs, _ := filepath.Glob(filepath.Join(repo, ".git", "objects", "pack", "*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs %q", packs)
	}
	pack, err := os.ReadFile(packs[0])
	if err != nil {
		t.Fatal(err)
	}
	writeIn(t, root, map[string]string{
		"b/old":                                        string(pack),
		"node_modules/x/backup.bundle":                 string(bundle),
		"c/.git/objects/pack/pack-1.pack":              string(pack),
		"c/.git/objects/pack/saved.bundle":             string(bundle),
		"c/.git/objects/ab/" + strings.Repeat("c", 38): string(bundle),
		"d/objects/models/m.bundle":                    string(bundle),
		"d/notes.txt":                                  "# v2 git bundle is how the docs start it\n",
	})
	var x rootLinks
	_, git, err := x.secretFiles([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(git.data)
	want := []string{filepath.Join(root, "a", "backup.dat"), filepath.Join(root, "b", "old"),
		filepath.Join(root, "c", ".git", "objects", "pack", "saved.bundle"), filepath.Join(root, "d", "objects", "models", "m.bundle")}
	if !slices.Equal(git.data, want) {
		t.Fatalf("found %q, want %q", git.data, want)
	}
	later := time.Now().Add(time.Hour)
	s := gitStores{now: func() time.Time { return later }}
	hidden := s.hide(gitFinds{data: git.data})
	if len(hidden) != len(want) {
		t.Fatalf("hidden %+v, want the %d files", hidden, len(want))
	}
	for _, h := range hidden {
		if !h.file || h.secret != ".env" {
			t.Errorf("%s hidden for %q (%s), want .env", h.objects, h.secret, h.why)
		}
	}
	// Kept while its stamp holds; read again once the file changes.
	s.parts[want[0]] = storePart{stamp: s.parts[want[0]].stamp, secret: "marked"}
	if h := s.hide(gitFinds{data: want[:1]}); len(h) != 1 || h[0].secret != "marked" {
		t.Fatalf("a kept bundle was read again: %+v", h)
	}
	if err := os.WriteFile(want[0], []byte("# v2 git bundle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if h := s.hide(gitFinds{data: want[:1]}); len(h) != 1 || h[0].secret != "" || !strings.Contains(h[0].why, "ends before its pack") {
		t.Fatalf("a bundle cut short: %+v", h)
	}
	if err := os.WriteFile(want[0], []byte("no longer a bundle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if h := s.hide(gitFinds{data: want[:1]}); len(h) != 0 {
		t.Fatalf("a file no longer a bundle: %+v", h)
	}

	// The home: a bundle in the home itself, one in a folder of it.
	home := filepath.Join(resolvedTemp(t), "home")
	writeIn(t, home, map[string]string{"backup.bundle": string(bundle), "src/p.pack": string(pack), "src/a.txt": "a\n"})
	var h homeIndex
	_, git, err = h.secretFiles(home, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(git.data)
	if want := []string{filepath.Join(home, "backup.bundle"), filepath.Join(home, "src", "p.pack")}; !slices.Equal(git.data, want) {
		t.Fatalf("found in the home %q, want %q", git.data, want)
	}
}

// TestReadGitDataReal: packs and bundles as git writes them, of SHA-1 and
// SHA-256 repositories: each found to name .env.
func TestReadGitDataReal(t *testing.T) {
	for _, format := range []string{"sha1", "sha256"} {
		repo := filepath.Join(resolvedTemp(t), "r")
		writeIn(t, repo, map[string]string{"a.txt": "a\n", "sub/.env": "TOKEN=x\n"})
		gitIn(t, repo, "init", "-q", "--object-format="+format)
		gitIn(t, repo, "add", ".")
		gitIn(t, repo, "commit", "-qm", "a")
		for i := range 3 { // deltas
			writeIn(t, repo, map[string]string{"sub/b.txt": strings.Repeat("b\n", i+1)})
			gitIn(t, repo, "add", ".")
			gitIn(t, repo, "commit", "-qm", "b")
		}
		out := resolvedTemp(t)
		gitIn(t, repo, "bundle", "create", "-q", filepath.Join(out, "v2.bundle"), "--all")
		gitIn(t, repo, "bundle", "create", "-q", "--version=3", filepath.Join(out, "v3"), "--all")
		gitIn(t, repo, "gc", "-q")
		packs, _ := filepath.Glob(filepath.Join(repo, ".git", "objects", "pack", "*.pack"))
		if len(packs) != 1 {
			t.Fatalf("packs %q", packs)
		}
		b, err := os.ReadFile(packs[0])
		if err != nil {
			t.Fatal(err)
		}
		writeIn(t, out, map[string]string{"lone.pack": string(b)})
		for _, f := range []string{"v2.bundle", "v3", "lone.pack"} {
			if got, err := readGitData(filepath.Join(out, f), partBudget(time.Time{})); got != ".env" || err != nil {
				t.Errorf("%s, %s: %q, %v; want .env", format, f, got, err)
			}
		}
	}
}

// FuzzSecretInBundle: any bytes read as a bundle, or as a pack without
// its index, give an answer or an error, within the bounds.
func FuzzSecretInBundle(f *testing.F) {
	for _, c := range lonePacks() {
		_, pack := buildPack(c.objs)
		f.Add(bundleOf(pack, strings.Repeat("ab", 20)+" refs/heads/main"))
		f.Add(pack)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		read := secretInLonePack
		if bytes.HasPrefix(b, []byte("# v")) {
			read = secretInBundle
		}
		name, err := read(bytes.NewReader(b), int64(len(b)), partBudget(time.Time{}))
		switch {
		case err != nil && !errors.Is(err, errGitObject) && !errors.Is(err, errStoreBounds):
			t.Fatalf("an error of no known kind: %v", err)
		case err != nil && name != "":
			t.Fatalf("both %q and %v", name, err)
		}
	})
}
