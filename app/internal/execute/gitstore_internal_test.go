package execute

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// gitIn runs git in dir with a home of its own and no system
// configuration, failing the test when it fails; it returns its output.
func gitIn(t testing.TB, dir string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	cmd := exec.Command("git", append([]string{"-c", "user.name=p", "-c", "user.email=p@example.invalid",
		"-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always"}, args...)...)
	cmd.Dir = dir
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v: %s", args, dir, err, out)
	}
	return string(out)
}

// resolvedTemp is a temporary folder, its links resolved (the stores
// found are).
func resolvedTemp(t testing.TB) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// committedRepo makes a repository in a new temporary folder, with one
// commit of a.txt, and returns its folder.
func committedRepo(t testing.TB) string {
	t.Helper()
	repo := filepath.Join(resolvedTemp(t), "r")
	if err := os.MkdirAll(repo, 0o755); err != nil {
		t.Fatal(err)
	}
	gitIn(t, repo, "init", "-q")
	writeIn(t, repo, map[string]string{"a.txt": "a\n"})
	gitIn(t, repo, "add", ".")
	gitIn(t, repo, "commit", "-qm", "a")
	return repo
}

// writeIn writes files (path relative to dir: content) into dir.
func writeIn(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// secretHistory makes a repository in dir (made) whose first commit holds
// a .env, which the second untracks and ignores, as people do.
func secretHistory(t testing.TB, dir string, initArgs ...string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	gitIn(t, dir, append([]string{"init", "-q"}, initArgs...)...)
	writeIn(t, dir, map[string]string{".env": "TOKEN=secret\n", "main.go": "package main\n"})
	gitIn(t, dir, "add", ".")
	gitIn(t, dir, "commit", "-qm", "first")
	gitIn(t, dir, "rm", "-q", "--cached", ".env")
	writeIn(t, dir, map[string]string{".gitignore": ".env\n"})
	gitIn(t, dir, "add", ".gitignore")
	gitIn(t, dir, "commit", "-qm", "ignore the env file")
}

// hiddenOf returns the objects folders of hidden and what each says.
func hiddenOf(hidden []hiddenStore) (objects []string, why []string) {
	for _, h := range hidden {
		objects = append(objects, h.objects)
		why = append(why, h.secret+h.why)
	}
	return objects, why
}

// wantHidden fails the test unless hidden is exactly the objects folders
// want (resolved), each found with a secret named like secret ("" for
// unreadable).
func wantHidden(t *testing.T, hidden []hiddenStore, secret string, want ...string) {
	t.Helper()
	got, why := hiddenOf(hidden)
	for i := range want {
		r, err := filepath.EvalSymlinks(want[i])
		if err != nil {
			t.Fatal(err)
		}
		want[i] = r
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Fatalf("hidden %q (%q), want %q", got, why, want)
	}
	for _, h := range hidden {
		if secret != "" && h.secret != secret {
			t.Errorf("%s hidden for %q%s, want the secret file %s", h.objects, h.secret, h.why, secret)
		}
		if secret == "" && (h.secret != "" || h.why == "") {
			t.Errorf("%s hidden for %q, want it unreadable", h.objects, h.secret)
		}
	}
}

// TestGitStoresFindSecretHistory: a secret file committed once is found in
// loose objects, in a pack (git gc), in a SHA-256 repository's pack, and
// in a tree no commit reaches any more, loose or packed; a history that
// never held one (a .env.example does not count) is not hidden.
func TestGitStoresFindSecretHistory(t *testing.T) {
	dir := resolvedTemp(t)
	loose := filepath.Join(dir, "loose")
	secretHistory(t, loose)
	packed := filepath.Join(dir, "packed")
	secretHistory(t, packed)
	gitIn(t, packed, "gc", "-q", "--prune=now")
	sha256 := filepath.Join(dir, "sha256")
	secretHistory(t, sha256, "--object-format=sha256")
	gitIn(t, sha256, "gc", "-q", "--prune=now")
	clean := filepath.Join(dir, "clean")
	os.MkdirAll(clean, 0o755)
	gitIn(t, clean, "init", "-q")
	writeIn(t, clean, map[string]string{".env.example": "TOKEN=\n", "a.txt": "a\n"})
	gitIn(t, clean, "add", ".")
	gitIn(t, clean, "commit", "-qm", "c")
	gitIn(t, clean, "gc", "-q")
	writeIn(t, clean, map[string]string{"b.txt": "b\n"})
	gitIn(t, clean, "add", ".")
	gitIn(t, clean, "commit", "-qm", "d") // loose objects beside the pack

	for _, packIt := range []bool{false, true} {
		dangling := filepath.Join(dir, "dangling", map[bool]string{false: "loose", true: "packed"}[packIt])
		os.MkdirAll(dangling, 0o755)
		gitIn(t, dangling, "init", "-q")
		writeIn(t, dangling, map[string]string{"id_rsa": "KEY\n", "a.txt": "a\n"})
		gitIn(t, dangling, "add", ".")
		gitIn(t, dangling, "commit", "-qm", "oops")
		if packIt {
			gitIn(t, dangling, "gc", "-q")
		}
		gitIn(t, dangling, "rm", "-q", "--cached", "id_rsa")
		gitIn(t, dangling, "commit", "-q", "--amend", "-m", "no key")
		gitIn(t, dangling, "reflog", "expire", "--expire=now", "--all")
		if packIt {
			gitIn(t, dangling, "repack", "-q", "-a", "-d", "--keep-unreachable")
		}
		if out := gitIn(t, dangling, "log", "--all", "--stat"); strings.Contains(out, "id_rsa") {
			t.Fatalf("the key is still reachable: %s", out)
		}
		var s gitStores
		wantHidden(t, s.hide(gitFinds{repos: []string{filepath.Join(dangling, ".git")}}), "id_rsa", filepath.Join(dangling, ".git", "objects"))
	}

	var s gitStores
	for _, r := range []string{loose, packed, sha256} {
		if _, err := os.Stat(filepath.Join(r, ".git", "objects", "pack")); err != nil {
			t.Fatal(err)
		}
		wantHidden(t, s.hide(gitFinds{repos: []string{filepath.Join(r, ".git")}}), ".env", filepath.Join(r, ".git", "objects"))
	}
	if h := s.hide(gitFinds{repos: []string{filepath.Join(clean, ".git")}}); len(h) != 0 {
		t.Errorf("a history without a secret file hidden: %+v", h)
	}
}

// TestGitStoresAlternatesAndGitFiles: a store an alternates file leads to
// is hidden with the store whose trees name a secret (its blob may lie
// there), and a .git file (a linked worktree) or a bare repository leads
// to the store it names.
func TestGitStoresAlternatesAndGitFiles(t *testing.T) {
	dir := resolvedTemp(t)
	// vault holds the .env's blob alone; proj's tree names it, its
	// objects borrowing vault's.
	vault := filepath.Join(dir, "vault.git")
	os.MkdirAll(vault, 0o755)
	gitIn(t, vault, "init", "-q", "--bare")
	writeIn(t, dir, map[string]string{"env": "TOKEN=secret\n"})
	gitIn(t, vault, "hash-object", "-w", filepath.Join(dir, "env"))
	proj := filepath.Join(dir, "proj")
	os.MkdirAll(proj, 0o755)
	gitIn(t, proj, "init", "-q")
	writeIn(t, proj, map[string]string{".git/objects/info/alternates": filepath.Join(vault, "objects") + "\n", ".env": "TOKEN=secret\n"})
	gitIn(t, proj, "add", ".env")
	gitIn(t, proj, "commit", "-qm", "env")
	var s gitStores
	wantHidden(t, s.hide(gitFinds{repos: []string{filepath.Join(proj, ".git")}}), ".env", filepath.Join(proj, ".git", "objects"), filepath.Join(vault, "objects"))
	// Found through vault alone: its own objects name no file.
	if h := s.hide(gitFinds{repos: []string{vault}}); len(h) != 0 {
		t.Errorf("a store of blobs alone hidden: %+v", h)
	}

	// A worktree's .git file leads to the main repository's store, far
	// from the roots.
	main := filepath.Join(dir, "main")
	secretHistory(t, main)
	wt := filepath.Join(dir, "roots", "wt")
	gitIn(t, main, "worktree", "add", "-q", wt)
	if fi, err := os.Lstat(filepath.Join(wt, ".git")); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("the worktree's .git: %v %v", fi, err)
	}
	wantHidden(t, s.hide(gitFinds{repos: []string{filepath.Join(wt, ".git")}}), ".env", filepath.Join(main, ".git", "objects"))

	// The roots' walk finds the .git file.
	var x rootLinks
	_, repos, err := x.secretFiles([]string{filepath.Join(dir, "roots")})
	if err != nil || !slices.Equal(repos.repos, []string{filepath.Join(wt, ".git")}) {
		t.Errorf("the walk found %q (%v), want the worktree's .git", repos, err)
	}
	// And a git folder by what it holds: the main repository's .git,
	// its worktree's folder in it, and a bare one.
	_, repos, err = x.secretFiles([]string{dir})
	for _, want := range []string{filepath.Join(main, ".git"), filepath.Join(main, ".git", "worktrees", "wt"), vault, filepath.Join(wt, ".git")} {
		if err != nil || !slices.Contains(repos.repos, want) {
			t.Errorf("the walk found %q (%v), want %s among them", repos, err, want)
		}
	}
}

// TestGitStoresFailClosed: what cannot be read as git writes it counts as
// a secret found: a pack cut short, a pack without its index, a file git
// does not write among the objects, an alternates file in quotes.
func TestGitStoresFailClosed(t *testing.T) {
	for name, spoil := range map[string]func(t *testing.T, objects string){
		"pack cut short": func(t *testing.T, objects string) {
			packs, _ := filepath.Glob(filepath.Join(objects, "pack", "*.pack"))
			fi, err := os.Stat(packs[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(packs[0], fi.Size()/2); err != nil {
				t.Fatal(err)
			}
		},
		"pack without its index": func(t *testing.T, objects string) {
			idx, _ := filepath.Glob(filepath.Join(objects, "pack", "*.idx"))
			os.Remove(idx[0])
		},
		"pack being received": func(t *testing.T, objects string) {
			writeIn(t, objects, map[string]string{"pack/tmp_pack_AbCd": "PACK"})
		},
		"a stray file": func(t *testing.T, objects string) {
			writeIn(t, objects, map[string]string{"ab/notes": "x"})
		},
		"alternates in quotes": func(t *testing.T, objects string) {
			writeIn(t, objects, map[string]string{"info/alternates": "\"/x\\040y\"\n"})
		},
		"a corrupt loose object": func(t *testing.T, objects string) {
			writeIn(t, objects, map[string]string{"ab/" + strings.Repeat("c", 38): "not zlib"})
		},
	} {
		t.Run(name, func(t *testing.T) {
			repo := committedRepo(t)
			gitIn(t, repo, "gc", "-q")
			objects := filepath.Join(repo, ".git", "objects")
			var s gitStores
			if h := s.hide(gitFinds{repos: []string{filepath.Join(repo, ".git")}}); len(h) != 0 {
				t.Fatalf("hidden before it was spoilt: %+v", h)
			}
			spoil(t, objects)
			wantHidden(t, s.hide(gitFinds{repos: []string{filepath.Join(repo, ".git")}}), "", objects)
		})
	}
}

// TestGitStoresKept: a store's parts are read once and kept while their
// stamps hold; a secret committed after (a new loose folder, a new pack, a
// new object in a folder already read) is found at the next start; a
// part read past the time given is not kept.
func TestGitStoresKept(t *testing.T) {
	repo := committedRepo(t)
	gitIn(t, repo, "gc", "-q")
	writeIn(t, repo, map[string]string{"b.txt": "b\n"})
	gitIn(t, repo, "add", ".")
	gitIn(t, repo, "commit", "-qm", "b")
	found := []string{filepath.Join(repo, ".git")}
	later := time.Now().Add(time.Hour) // no part is racy
	s := gitStores{now: func() time.Time { return later }}
	if h := s.hide(gitFinds{repos: found}); len(h) != 0 {
		t.Fatalf("hidden: %+v", h)
	}
	kept := len(s.parts)
	if kept < 2 {
		t.Fatalf("%d parts kept, want the pack and the loose folders", kept)
	}
	// Kept parts are not read again: spoil one in place, keeping its stamp.
	var loose string
	for p := range s.parts {
		if !strings.HasSuffix(p, ".pack") {
			loose = p
		}
	}
	s.parts[loose] = storePart{stamp: s.parts[loose].stamp, secret: "marked"}
	if h := s.hide(gitFinds{repos: found}); len(h) != 1 || h[0].secret != "marked" {
		t.Fatalf("a kept part was read again: %+v", h)
	}
	delete(s.parts, loose)

	// A secret added as loose objects, then packed: found each time.
	writeIn(t, repo, map[string]string{"deploy/credentials.json": "{}"})
	gitIn(t, repo, "add", ".")
	gitIn(t, repo, "commit", "-qm", "c")
	wantHidden(t, s.hide(gitFinds{repos: found}), "credentials.json", filepath.Join(repo, ".git", "objects"))
	gitIn(t, repo, "gc", "-q", "--prune=now")
	wantHidden(t, s.hide(gitFinds{repos: found}), "credentials.json", filepath.Join(repo, ".git", "objects"))

	// Out of time: unreadable, not kept.
	s2 := gitStores{time: -time.Second}
	h := s2.hide(gitFinds{repos: found})
	if len(h) != 1 || !strings.Contains(h[0].why, "time") {
		t.Fatalf("out of time: %+v", h)
	}
	for p, part := range s2.parts {
		if errors.Is(part.err, errStoreTime) {
			t.Errorf("%s kept although read past the time", p)
		}
	}
}

// TestSecretInTree: names rate.SecretFile knows are found in files and
// links, not in folders or submodules; a malformed tree is an error.
func TestSecretInTree(t *testing.T) {
	id := string(bytes.Repeat([]byte{1}, 20))
	for _, c := range []struct {
		body, want string
		err        bool
	}{
		{"100644 a.txt\x00" + id + "100644 .env\x00" + id, ".env", false},
		{"120000 server.key\x00" + id, "server.key", false},
		{"40000 .env\x00" + id + "160000 id_rsa\x00" + id, "", false},
		{"100644 .env.example\x00" + id, "", false},
		{"", "", false},
		{"100644 .env\x00" + id[:19], "", true},
		{"10064x .env\x00" + id, "", true},
		{"100644 \x00" + id, "", true},
		{"100644.env\x00" + id, "", true},
	} {
		got, err := secretInTree([]byte(c.body), 20)
		if got != c.want || (err != nil) != c.err {
			t.Errorf("secretInTree(%q) = %q, %v; want %q, error %v", c.body, got, err, c.want, c.err)
		}
	}
}

// TestApplyDelta: copies and inserts build the result; a delta that
// copies past its base, names another base size or result size, or uses
// the reserved instruction is an error.
func TestApplyDelta(t *testing.T) {
	base := []byte("hello, world")
	for _, c := range []struct {
		delta []byte
		want  string
		err   bool
	}{
		{[]byte{12, 9, 0x91, 7, 5, 4, 'h', 'i', ',', ' '}, "worldhi, ", false},
		{[]byte{12, 9, 3, 'h', 'i', ' ', 0x91, 7, 5, 1, '!'}, "hi world!", false},
		{[]byte{11, 1, 1, 'x'}, "", true},                    // base of another size
		{[]byte{12, 2, 1, 'x'}, "", true},                    // result shorter than said
		{[]byte{12, 1, 0}, "", true},                         // reserved
		{[]byte{12, 5, 0x91, 10, 5}, "", true},               // copies past the base
		{[]byte{12, 12, 0x90, 12}, "hello, world", false},    // a size byte alone: from offset 0
		{[]byte{12, 12, 0x80}, "", true},                     // 0x10000 bytes: past the base
		{[]byte{12, 3, 0x91, 0, 3}, "hel", false},            // offset 0
		{[]byte{12, 0x80, 0x80, 0x80, 0x80, 0x7f}, "", true}, // a result past the bound
	} {
		got, err := applyDelta(base, c.delta)
		if (err != nil) != c.err || (err == nil && string(got) != c.want) {
			t.Errorf("applyDelta(%v) = %q, %v; want %q, error %v", c.delta, got, err, c.want, c.err)
		}
	}
}

// TestGitStoresDeltas: a secret file named only in a tree stored as a
// delta against another tree (by offset, and by id) is found.
func TestGitStoresDeltas(t *testing.T) {
	for _, byOffset := range []string{"true", "false"} {
		repo := filepath.Join(resolvedTemp(t), "r")
		os.MkdirAll(repo, 0o755)
		gitIn(t, repo, "init", "-q")
		files := map[string]string{}
		for i := range 300 {
			files[filepath.Join("src", strings.Repeat("f", 1+i%7)+string(rune('a'+i%26))+strings.Repeat("x", i/26)+".go")] = "package src\n"
		}
		writeIn(t, repo, files)
		gitIn(t, repo, "add", ".")
		gitIn(t, repo, "commit", "-qm", "base")
		for i := range 20 {
			change := map[string]string{filepath.Join("src", "n"+strings.Repeat("y", i)+".go"): "package src\n"}
			if i == 10 {
				change[filepath.Join("src", "service-account-prod.json")] = "{}"
			}
			writeIn(t, repo, change)
			if i == 11 {
				gitIn(t, repo, "rm", "-q", filepath.Join("src", "service-account-prod.json"))
			}
			gitIn(t, repo, "add", ".")
			gitIn(t, repo, "commit", "-qm", "more")
		}
		gitIn(t, repo, "-c", "repack.useDeltaBaseOffset="+byOffset, "gc", "-q", "--aggressive", "--prune=now")
		packs, _ := filepath.Glob(filepath.Join(repo, ".git", "objects", "pack", "*.pack"))
		if len(packs) != 1 {
			t.Fatalf("packs %q", packs)
		}
		verify := gitIn(t, repo, "verify-pack", "-v", packs[0])
		deltaTrees := 0
		for _, line := range strings.Split(verify, "\n") {
			if f := strings.Fields(line); len(f) >= 7 && f[1] == "tree" {
				deltaTrees++
			}
		}
		if deltaTrees < 5 {
			t.Fatalf("%d trees stored as deltas: the test does not test deltas", deltaTrees)
		}
		want := map[string]int{"true": packOfsDelta, "false": packRefDelta}[byOffset]
		if n := packKinds(t, packs[0])[want]; n < 5 {
			t.Fatalf("%d entries of kind %d: the test does not test them", n, want)
		}
		var s gitStores
		wantHidden(t, s.hide(gitFinds{repos: []string{filepath.Join(repo, ".git")}}), "service-account-prod.json", filepath.Join(repo, ".git", "objects"))
	}
}

// packKinds counts the entries of the pack p by their kind as stored.
func packKinds(t *testing.T, p string) map[int]int {
	t.Helper()
	pack, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := os.ReadFile(strings.TrimSuffix(p, ".pack") + ".idx")
	if err != nil {
		t.Fatal(err)
	}
	x, err := parsePackIndex(idx, 20, int64(len(pack)), partBudget(time.Time{}))
	if err != nil {
		t.Fatal(err)
	}
	r := &packReader{r: bytes.NewReader(pack), size: int64(len(pack)), idSize: 20, budget: partBudget(time.Time{})}
	if err := r.index(x); err != nil {
		t.Fatal(err)
	}
	kinds := map[int]int{}
	for _, e := range r.entries {
		kinds[int(e.kind)]++
	}
	return kinds
}

// TestGitStoresFoundAlone: the roots' walk finds an object store kept
// without its repository (a folder objects holding a folder pack: git
// reads it through GIT_OBJECT_DIRECTORY), and a git folder whose objects
// is a link to a store elsewhere.
func TestGitStoresFoundAlone(t *testing.T) {
	dir := resolvedTemp(t)
	src := filepath.Join(dir, "src")
	secretHistory(t, src)
	gitIn(t, src, "gc", "-q")
	root := filepath.Join(dir, "root")
	copied := filepath.Join(root, "backup", "objects")
	if err := os.MkdirAll(filepath.Dir(copied), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-r", filepath.Join(src, ".git", "objects"), copied).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	linked := filepath.Join(root, "linked")
	os.MkdirAll(linked, 0o755)
	gitIn(t, linked, "init", "-q", "--bare")
	os.RemoveAll(filepath.Join(linked, "objects"))
	if err := os.Symlink(filepath.Join(src, ".git", "objects"), filepath.Join(linked, "objects")); err != nil {
		t.Fatal(err)
	}
	var x rootLinks
	_, repos, err := x.secretFiles([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(repos.repos)
	if want := []string{copied, linked}; !slices.Equal(repos.repos, want) {
		t.Fatalf("the walk found %q, want %q", repos, want)
	}
	var s gitStores
	wantHidden(t, s.hide(repos), ".env", copied, filepath.Join(src, ".git", "objects"))
}

// TestGitStoresKnownFiles: what git writes beside its objects (a
// multi-pack index and its bitmap, a pack's reverse index, a kept pack,
// the commit graph) and Finder's .DS_Store are no reason to hide a store.
func TestGitStoresKnownFiles(t *testing.T) {
	repo := committedRepo(t)
	gitIn(t, repo, "-c", "pack.writeReverseIndex=true", "repack", "-q", "-a", "-d", "--write-midx", "--write-bitmap-index")
	gitIn(t, repo, "commit-graph", "write", "--reachable")
	objects := filepath.Join(repo, ".git", "objects")
	packs, _ := filepath.Glob(filepath.Join(objects, "pack", "pack-*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs %q", packs)
	}
	writeIn(t, objects, map[string]string{".DS_Store": "Bud1", "pack/.DS_Store": "Bud1",
		"pack/" + strings.TrimSuffix(filepath.Base(packs[0]), ".pack") + ".keep": ""})
	names, _ := filepath.Glob(filepath.Join(objects, "pack", "*"))
	t.Logf("%q", names)
	var s gitStores
	if h := s.hide(gitFinds{repos: []string{filepath.Join(repo, ".git")}}); len(h) != 0 {
		t.Errorf("hidden: %+v", h)
	}
}
