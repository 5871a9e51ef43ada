//go:build linux

package execute_test

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/execute"
)

// The class of TestRed5GitBundle: git's history kept in a file outside
// any repository's object store, which git reads back unasked (git
// bundle unbundle, git unpack-objects). Each case makes the file in the
// root ~/Documents of a home in a temporary folder, the repository it
// came from removed, and runs the payload that feeds every file of the
// root to git as a bundle and as a pack and prints every object.

// bundleMark is the content of a file no name says is secret, in the
// history of a bundle that must stay readable.
const bundleMark = "plainNotesInABundleReadable01"

// unbundleAll runs the payload in ~/Documents and returns what it printed,
// with the error's text.
func unbundleAll(t *testing.T, r *redRig) string {
	t.Helper()
	name := "every file of the folder unbundled or unpacked, every object printed"
	res, _, err := r.runArgv(t, name, payloadIn(t, "red5.json", name), "Documents")
	out := res.Output
	if err != nil {
		out += "\n" + err.Error()
	}
	return out
}

// bundleOf makes, in the root, a repository whose history held the file
// secretName (TOKEN=secret), runs git with args in it (a bundle made, a
// pack copied out), then removes the repository.
func bundleOf(t *testing.T, r *redRig, secretName, secret string, args ...[]string) {
	t.Helper()
	r.secretRepo(t, "Documents/proj", secretName, secret)
	for _, a := range args {
		r.git(t, "Documents/proj", a...)
	}
	if err := os.RemoveAll(r.p("Documents/proj")); err != nil {
		t.Fatal(err)
	}
}

// wantHiddenFile fails t unless out says git's objects in the file rel of
// the root were hidden, for why.
func wantHiddenFile(t *testing.T, out, rel, why string) {
	t.Helper()
	if !strings.Contains(out, "Airlock hid ~/Documents/"+rel+", a file holding git's objects") || !strings.Contains(out, why) {
		t.Errorf("the result does not say ~/Documents/%s was hidden for %q: %q", rel, why, out)
	}
}

// TestRedGitBundleRenamed: a bundle is known by its first line, not by
// its name: backup.dat is hidden as backup.bundle is.
func TestRedGitBundleRenamed(t *testing.T) {
	r := newRedRig(t, []string{"~/Documents"}, nil)
	const secret = "S3CRET-git-bundle-renamed-20"
	bundleOf(t, r, ".env", secret, []string{"bundle", "create", "-q", "../backup.dat", "--all"})
	out := unbundleAll(t, r)
	if strings.Contains(out, secret) {
		t.Errorf("HOLE: a bundle named backup.dat, unbundled unasked, printed the .env its history holds: %q", out)
	}
	wantHiddenFile(t, out, "backup.dat", "its history holds a file named .env")
}

// TestRedGitBundleV3: a bundle of version 3 ("# v3 git bundle", with
// capabilities), of a SHA-1 repository and of a SHA-256 one.
func TestRedGitBundleV3(t *testing.T) {
	for _, format := range []string{"sha1", "sha256"} {
		t.Run(format, func(t *testing.T) {
			r := newRedRig(t, []string{"~/Documents"}, nil)
			secret := "S3CRET-git-bundle-v3-" + format
			r.writeHome(t, "Documents/proj/README", "proj\n")
			r.git(t, "Documents/proj", "init", "-q", "--object-format="+format)
			bundleOf(t, r, "server.key", secret, []string{"bundle", "create", "-q", "--version=3", "../backup.bundle", "--all"})
			b, err := os.ReadFile(r.p("Documents/backup.bundle"))
			if err != nil || !strings.HasPrefix(string(b), "# v3 git bundle\n") {
				t.Fatalf("git made no bundle of version 3: %q, %v", b[:min(len(b), 40)], err)
			}
			out := unbundleAll(t, r)
			if strings.Contains(out, secret) {
				t.Errorf("HOLE: a bundle of version 3, unbundled unasked, printed the key its history holds: %q", out)
			}
			wantHiddenFile(t, out, "backup.bundle", "its history holds a file named server.key")
		})
	}
}

// TestRedGitStrayPack: a pack copied out of a repository's objects/pack
// into the root, with its index beside it or alone, is git's history
// too: git unpack-objects reads it.
func TestRedGitStrayPack(t *testing.T) {
	for _, withIndex := range []bool{true, false} {
		t.Run(map[bool]string{true: "with its index", false: "alone"}[withIndex], func(t *testing.T) {
			r := newRedRig(t, []string{"~/Documents"}, nil)
			const secret = "S3CRET-git-stray-pack-21"
			r.secretRepo(t, "Documents/proj", "deploy-key.pem", secret)
			r.git(t, "Documents/proj", "gc", "-q", "--prune=now")
			packs, err := filepath.Glob(r.p("Documents/proj/.git/objects/pack/pack-*.pack"))
			if err != nil || len(packs) != 1 {
				t.Fatalf("packs %q, %v", packs, err)
			}
			copyFile(t, packs[0], r.p("Documents/old.pack"))
			if withIndex {
				copyFile(t, strings.TrimSuffix(packs[0], ".pack")+".idx", r.p("Documents/old.idx"))
			}
			if err := os.RemoveAll(r.p("Documents/proj")); err != nil {
				t.Fatal(err)
			}
			out := unbundleAll(t, r)
			if strings.Contains(out, secret) {
				t.Errorf("HOLE: a pack copied out of a repository, unpacked unasked, printed the key its history holds: %q", out)
			}
			wantHiddenFile(t, out, "old.pack", "its history holds a file named deploy-key.pem")
		})
	}
}

// copyFile copies the file from to to.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// cleanBundle makes, in the root, the bundle backup.bundle of a
// repository whose history names no secret file: notes.md holds
// bundleMark, and big.bin size random bytes when size is not 0.
func cleanBundle(t *testing.T, r *redRig, size int) {
	t.Helper()
	r.writeHome(t, "Documents/proj/notes.md", bundleMark+"\n")
	if size > 0 {
		b := make([]byte, size)
		rand.Read(b)
		r.writeHome(t, "Documents/proj/big.bin", string(b))
	}
	r.git(t, "Documents/proj", "init", "-q")
	r.git(t, "Documents/proj", "add", ".")
	r.git(t, "Documents/proj", "commit", "-qm", "first")
	r.git(t, "Documents/proj", "bundle", "create", "-q", "../backup.bundle", "--all")
	if err := os.RemoveAll(r.p("Documents/proj")); err != nil {
		t.Fatal(err)
	}
}

// TestRedGitBundleClean: a bundle whose history names no secret file is
// the person's work: it stays readable unasked, and nothing is said of it.
func TestRedGitBundleClean(t *testing.T) {
	r := newRedRig(t, []string{"~/Documents"}, nil)
	cleanBundle(t, r, 0)
	out := unbundleAll(t, r)
	if !strings.Contains(out, bundleMark) {
		t.Errorf("a bundle without a secret file was not readable unasked: %q", out)
	}
	if strings.Contains(out, "Airlock hid") {
		t.Errorf("a bundle without a secret file was said to be hidden: %q", out)
	}
}

// TestRedGitBundleCorrupt: a bundle cut short (a copy interrupted) cannot
// be read through to tell what its history holds: it is hidden, and the
// result says why.
func TestRedGitBundleCorrupt(t *testing.T) {
	r := newRedRig(t, []string{"~/Documents"}, nil)
	const secret = "S3CRET-git-bundle-cut-22"
	bundleOf(t, r, ".env", secret, []string{"bundle", "create", "-q", "../backup.bundle", "--all"})
	b, err := os.ReadFile(r.p("Documents/backup.bundle"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(r.p("Documents/backup.bundle"), b[:len(b)*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	out := unbundleAll(t, r)
	if strings.Contains(out, secret) {
		t.Errorf("HOLE: a bundle cut short printed the .env its history holds: %q", out)
	}
	wantHiddenFile(t, out, "backup.bundle", "Airlock could not read it through")
}

// TestRedGitBundleTooLarge: a bundle past what the check reads (its
// bound lowered to 1 MiB, the bundle holding 3 MiB) is hidden unread,
// and the result says why.
func TestRedGitBundleTooLarge(t *testing.T) {
	r := newRedRig(t, []string{"~/Documents"}, nil)
	cleanBundle(t, r, 3<<20)
	execute.SetStoreBytes(r.ex, 1<<20)
	out := unbundleAll(t, r)
	if strings.Contains(out, bundleMark) {
		t.Errorf("a bundle past the bounds was read unasked: %q", out)
	}
	wantHiddenFile(t, out, "backup.bundle", "more than Airlock reads of a git object store: over 1048576 bytes of objects inflated")
}
