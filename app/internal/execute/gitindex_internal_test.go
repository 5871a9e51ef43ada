package execute

import (
	"bytes"
	"compress/zlib"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The readers of git's index and loose objects, checked against real git:
// what they read must be what git ls-files, cat-file and write-tree say.

// testRepo is a repository made by real git in a temporary folder, with a
// home of its own.
type testRepo struct {
	dir, home string
	h         gitHash
}

func newTestRepo(t *testing.T, initArgs ...string) *testRepo {
	t.Helper()
	if _, err := os.Stat("/usr/bin/git"); err != nil {
		t.Skip("git is not installed")
	}
	base := t.TempDir()
	r := &testRepo{dir: filepath.Join(base, "repo"), home: filepath.Join(base, "home"), h: gitSHA1}
	if err := os.MkdirAll(r.home, 0o755); err != nil {
		t.Fatal(err)
	}
	r.git(t, append([]string{"init", "-q", "-b", "main", r.dir}, initArgs...)...)
	if strings.Contains(strings.Join(initArgs, " "), "sha256") {
		r.h = gitSHA256
	}
	return r
}

func (r *testRepo) git(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command("/usr/bin/git", args...)
	if args[0] != "init" {
		cmd.Args = append([]string{"/usr/bin/git", "-C", r.dir}, args...)
	}
	cmd.Env = gitTestEnv(r.home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *testRepo) write(t *testing.T, rel, content string, mode os.FileMode) {
	t.Helper()
	p := filepath.Join(r.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// files puts a work tree with folders whose names sort across "/" (a.c,
// a/, a-b), an executable, a link and a long name.
func (r *testRepo) files(t *testing.T) {
	t.Helper()
	r.write(t, "a.c", "c\n", 0o644)
	r.write(t, "a/b/x.go", "x\n", 0o644)
	r.write(t, "a-b", "dash\n", 0o644)
	r.write(t, "a0", "zero\n", 0o644)
	r.write(t, "run.sh", "#!/bin/sh\n", 0o755)
	r.write(t, strings.Repeat("n", 200)+"/"+strings.Repeat("m", 200), "long\n", 0o644)
	if err := os.Symlink("a.c", filepath.Join(r.dir, "link")); err != nil {
		t.Fatal(err)
	}
}

func (r *testRepo) index(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// lsFiles renders entries as git ls-files --stage does.
func lsFiles(entries []indexEntry) string {
	var b strings.Builder
	for i, e := range entries {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(strings.Join([]string{strconv.FormatUint(uint64(e.mode), 8), hex.EncodeToString(e.id), strconv.Itoa(int(e.stage))}, " "))
		b.WriteString("\t" + e.path)
	}
	return b.String()
}

// TestParseIndexAsGitReadsIt: every index version, in SHA-1 and SHA-256
// repositories, reads as git ls-files --stage says; the tree computed from
// it is git write-tree's, and after a commit the cache tree's root is the
// commit's tree.
func TestParseIndexAsGitReadsIt(t *testing.T) {
	for _, format := range []string{"sha1", "sha256"} {
		for _, version := range []string{"2", "3", "4"} {
			t.Run(format+"/v"+version, func(t *testing.T) {
				r := newTestRepo(t, "--object-format="+format)
				r.files(t)
				r.git(t, "add", "-A")
				r.git(t, "update-index", "--index-version", version)
				if version == "3" {
					r.git(t, "update-index", "--skip-worktree", "a.c") // extended flags keep version 3
				}
				ix, err := parseIndex(r.index(t), r.h)
				if err != nil {
					t.Fatalf("parseIndex: %v", err)
				}
				if got := ix.version; got != uint32(version[0]-'0') {
					t.Errorf("version %d, want %s", got, version)
				}
				if got, want := lsFiles(ix.entries), r.git(t, "ls-files", "--stage"); got != want {
					t.Errorf("entries:\n%s\nwant:\n%s", got, want)
				}
				tree, err := ix.treeID(r.h)
				if err != nil {
					t.Fatalf("treeID: %v", err)
				}
				if got, want := hex.EncodeToString(tree), r.git(t, "write-tree"); got != want {
					t.Errorf("tree %s, git write-tree %s", got, want)
				}
				r.git(t, "commit", "-q", "-m", "files")
				ix, err = parseIndex(r.index(t), r.h)
				if err != nil {
					t.Fatalf("parseIndex after the commit: %v", err)
				}
				if got, want := hex.EncodeToString(ix.treeRoot), r.git(t, "rev-parse", "HEAD^{tree}"); got != want {
					t.Errorf("cache tree root %s, HEAD's tree %s", got, want)
				}
			})
		}
	}
}

// TestParseIndexRefuses: an index git would refuse, or whose meaning
// lies partly elsewhere, is an error that says what is wrong.
func TestParseIndexRefuses(t *testing.T) {
	r := newTestRepo(t)
	r.files(t)
	r.git(t, "add", "-A")
	good := r.index(t)
	resum := func(b []byte) []byte {
		body := b[:len(b)-r.h.size]
		w := r.h.new()
		w.Write(body)
		return append(append([]byte{}, body...), w.Sum(nil)...)
	}
	corrupt := append([]byte{}, good...)
	corrupt[20] ^= 1
	body := good[:len(good)-r.h.size]
	// withExt is the index with an empty extension sig added.
	withExt := func(sig string) []byte {
		b := append(append([]byte{}, body...), []byte(sig)...)
		b = append(b, 0, 0, 0, 0)
		return resum(append(b, make([]byte, r.h.size)...))
	}
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"a byte changed", corrupt, "checksum"},
		{"cut short", resum(good[:len(good)/2]), "entry"},
		{"no header", []byte("DIRX"), "header"},
		{"version 5", func() []byte { b := append([]byte{}, good...); b[7] = 5; return resum(b) }(), "version 5"},
		{"a split index", withExt("link"), "split index"},
		{"a sparse index", withExt("sdir"), "sparse index"},
		{"an unknown required extension", withExt("abcd"), "must understand"},
		{"too many entries", func() []byte { b := append([]byte{}, good...); b[8] = 0x7f; return resum(b) }(), "entries"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseIndex(tc.b, r.h)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("parseIndex: %v, want an error saying %q", err, tc.want)
			}
		})
	}
	if _, err := parseIndex(withExt("ABCD"), r.h); err != nil {
		t.Errorf("an optional extension git skips: %v", err)
	}
	// git's own split index: its entries replacing the shared index's
	// have no name, refused before the link extension is reached.
	r.git(t, "update-index", "--split-index")
	if _, err := parseIndex(r.index(t), r.h); err == nil {
		t.Errorf("git's split index read without an error")
	}
}

// TestReadLooseAsGitWroteIt: a commit git wrote reads as git cat-file
// says, and every loose object hashes to its name.
func TestReadLooseAsGitWroteIt(t *testing.T) {
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			r := newTestRepo(t, "--object-format="+format)
			r.files(t)
			r.git(t, "add", "-A")
			r.git(t, "commit", "-q", "-m", "one")
			r.write(t, "a.c", "c2\n", 0o644)
			r.git(t, "commit", "-q", "-am", "two")
			head := r.git(t, "rev-parse", "HEAD")
			kind, body, err := readLoose(bytes.NewReader(r.object(t, head)))
			if err != nil || kind != "commit" {
				t.Fatalf("readLoose: %s, %v", kind, err)
			}
			if got, want := string(body), r.git(t, "cat-file", "commit", head)+"\n"; got != want {
				t.Errorf("content %q, want %q", got, want)
			}
			c, err := r.h.parseCommit(body)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := hex.EncodeToString(c.tree), r.git(t, "rev-parse", "HEAD^{tree}"); got != want {
				t.Errorf("tree %s, want %s", got, want)
			}
			if len(c.parents) != 1 || hex.EncodeToString(c.parents[0]) != r.git(t, "rev-parse", "HEAD~1") {
				t.Errorf("parents %x, want HEAD~1", c.parents)
			}
			n := 0
			filepath.WalkDir(filepath.Join(r.dir, ".git", "objects"), func(p string, d os.DirEntry, err error) error {
				if err != nil || d.IsDir() || len(filepath.Base(filepath.Dir(p))) != 2 {
					return err
				}
				f, err := os.Open(p)
				if err != nil {
					return err
				}
				defer f.Close()
				id, err := r.h.looseID(f)
				if name := filepath.Base(filepath.Dir(p)) + filepath.Base(p); err != nil || hex.EncodeToString(id) != name {
					t.Errorf("%s hashes to %x (%v)", name, id, err)
				}
				n++
				return nil
			})
			if n < 10 {
				t.Errorf("only %d loose objects looked at", n)
			}
		})
	}
}

func (r *testRepo) object(t *testing.T, id string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.dir, ".git", "objects", id[:2], id[2:]))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// deflate is zlib of b, as git stores a loose object.
func deflate(b []byte) []byte {
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// TestReadLooseRefuses: a loose object whose header or length is not one
// git writes is an error.
func TestReadLooseRefuses(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"not zlib", []byte("commit 0\x00"), "zlib"},
		{"unknown kind", deflate([]byte("bob 1\x00x")), "unknown kind"},
		{"a size with a leading zero", deflate([]byte("blob 01\x00x")), "bad size"},
		{"shorter than its header says", deflate([]byte("blob 5\x00x")), "ends before"},
		{"longer than its header says", deflate([]byte("blob 1\x00xy")), "more content"},
		{"over the size read", deflate([]byte("commit 99999999999\x00")), "over"},
		{"a header with no end", deflate([]byte(strings.Repeat("blob ", 20))), "header"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := readLoose(bytes.NewReader(tc.b))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("readLoose: %v, want an error saying %q", err, tc.want)
			}
		})
	}
	for _, body := range []string{"parent 00\n", "tree xyz\n", "tree " + strings.Repeat("0", 40) + "\nparent " + strings.Repeat("A", 40) + "\n"} {
		if _, err := gitSHA1.parseCommit([]byte(body)); err == nil {
			t.Errorf("parseCommit(%q) took it for a commit", body)
		}
	}
}

// FuzzParseIndex: any bytes either read as an index whose entries are in
// git's order, or give an error; nothing panics.
func FuzzParseIndex(f *testing.F) {
	if _, err := os.Stat("/usr/bin/git"); err == nil {
		for _, v := range []string{"2", "3", "4"} {
			func() {
				dir, err := os.MkdirTemp("", "fuzzindex")
				if err != nil {
					return
				}
				defer os.RemoveAll(dir)
				cmd := func(args ...string) {
					c := exec.Command("/usr/bin/git", append([]string{"-C", dir}, args...)...)
					c.Env = []string{"HOME=" + dir, "PATH=/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1"}
					c.Run()
				}
				cmd("init", "-q")
				os.MkdirAll(filepath.Join(dir, "a/b"), 0o755)
				os.WriteFile(filepath.Join(dir, "a/b/x"), []byte("x"), 0o644)
				os.WriteFile(filepath.Join(dir, "a.c"), []byte("c"), 0o755)
				cmd("add", "-A")
				cmd("update-index", "--index-version", v)
				if v == "3" {
					cmd("update-index", "--skip-worktree", "a.c")
				}
				if b, err := os.ReadFile(filepath.Join(dir, ".git", "index")); err == nil {
					f.Add(b)
				}
			}()
		}
	}
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, h := range []gitHash{gitSHA1, gitSHA256} {
			// As given, and with its checksum made to hold, so that the
			// fuzzer reaches past it.
			parseIndex(b, h)
			if len(b) < h.size {
				continue
			}
			body := b[:len(b)-h.size]
			w := h.new()
			w.Write(body)
			ix, err := parseIndex(append(append([]byte{}, body...), w.Sum(nil)...), h)
			if err != nil {
				continue
			}
			for i := 1; i < len(ix.entries); i++ {
				if !entryBefore(ix.entries[i-1], ix.entries[i]) {
					t.Fatalf("entries %d and %d out of order", i-1, i)
				}
			}
			ix.treeID(h)
		}
	})
}

// FuzzReadLoose: any bytes either read as a loose object no larger than
// maxObject whose id looseID agrees on, or give an error.
func FuzzReadLoose(f *testing.F) {
	f.Add(deflate([]byte("commit 52\x00tree " + strings.Repeat("a", 40) + "\nauthor x\n\nm")))
	f.Add(deflate([]byte("blob 1\x00x")))
	f.Add(deflate([]byte("tree 0\x00")))
	f.Fuzz(func(t *testing.T, b []byte) {
		kind, body, err := readLoose(bytes.NewReader(b))
		id, idErr := gitSHA1.looseID(bytes.NewReader(b))
		if err != nil {
			return
		}
		if len(body) > maxObject {
			t.Fatalf("read %d bytes, over maxObject", len(body))
		}
		if idErr != nil || !bytes.Equal(id, gitSHA1.objectID(kind, body)) {
			t.Fatalf("looseID %x (%v), want the id of what readLoose read", id, idErr)
		}
		if kind == "commit" {
			gitSHA1.parseCommit(body)
		}
	})
}

// buildIndex writes a version 2 index of n files in folders of 100, as
// git would: sorted, padded, with its checksum.
func buildIndex(n int, h gitHash) []byte {
	var b bytes.Buffer
	b.WriteString("DIRC\x00\x00\x00\x02")
	b.Write([]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)})
	for i := range n {
		path := fmt.Sprintf("src/d%05d/file%03d.go", i/100, i%100)
		start := b.Len()
		b.Write(make([]byte, 24))
		b.Write([]byte{0, 0, 0x81, 0xa4}) // 0100644
		b.Write(make([]byte, 12))
		b.Write(h.objectID("blob", []byte(path)))
		b.Write([]byte{byte(len(path) >> 8), byte(len(path))})
		b.WriteString(path)
		for pad := (b.Len() - start + 8) &^ 7; b.Len()-start < pad; {
			b.WriteByte(0)
		}
	}
	w := h.new()
	w.Write(b.Bytes())
	b.Write(w.Sum(nil))
	return b.Bytes()
}

// BenchmarkIndexCheck: reading an index of 100,000 files and computing
// the tree git commit would make of it, what a commit's check costs
// beyond hashing the files it added.
func BenchmarkIndexCheck(b *testing.B) {
	ix := buildIndex(100_000, gitSHA1)
	b.SetBytes(int64(len(ix)))
	for b.Loop() {
		parsed, err := parseIndex(ix, gitSHA1)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := parsed.treeID(gitSHA1); err != nil {
			b.Fatal(err)
		}
	}
}
