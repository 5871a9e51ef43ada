package execute

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// secretTree makes files and folders (a name ending in / is a folder)
// under root.
func secretTree(t *testing.T, root string, entries ...string) {
	t.Helper()
	for _, e := range entries {
		p := filepath.Join(root, e)
		if strings.HasSuffix(e, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(e), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// relSecrets returns x's secret files under root, relative to it and
// sorted.
func relSecrets(t *testing.T, x *rootLinks, root string) []string {
	t.Helper()
	got, _, err := x.secretFiles([]string{root})
	if err != nil {
		t.Fatal(err)
	}
	var rel []string
	for _, p := range got {
		r, err := filepath.Rel(root, p)
		if err != nil || strings.HasPrefix(r, "..") {
			t.Fatalf("%s lies outside the root", p)
		}
		rel = append(rel, r)
	}
	slices.Sort(rel)
	return rel
}

// settled is a clock an hour ahead: every folder's last change is long
// past, so the index trusts what it listed (racyWindow).
func settled() time.Time { return time.Now().Add(time.Hour) }

// TestSecretFiles: the files rate.SecretFile names are found wherever they
// lie in a root, in a folder named like one too; links that lead to one,
// by any name, are found; templates, folders, and links to other files are
// not.
func TestSecretFiles(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	secretTree(t, root, ".env", ".env.example", "notes.txt", "app/config/master.key", "app/credentials.json",
		"infra/prod.tfstate", "deploy/.env/.env", "keys/id_rsa/id_rsa", "keys/id_rsa.pub", "certs/site.pem")
	secretTree(t, outside, "server.key", "plain.txt", "sub/")
	// outside/notes.txt → server.key; the root's hop → outside/sub, so
	// ../hop/../notes.txt from docs is outside/notes.txt, while a lexical
	// reading of it names the root's own notes.txt, a plain file.
	if err := os.Symlink("server.key", filepath.Join(outside, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"readme.md":       ".env",                                // a link in the root to a secret file of the root
		"docs/notes.txt":  filepath.Join(outside, "server.key"),  // to one outside the roots, by an innocent name
		"docs/other.txt":  filepath.Join(outside, "plain.txt"),   // to a file no name says is secret
		"docs/ssh.key":    filepath.Join(outside, "plain.txt"),   // a secret name leading to a plain file
		"docs/chain.txt":  "notes.txt",                           // a chain of two links
		"docs/keys":       "../keys",                             // a folder
		"docs/nowhere":    filepath.Join(outside, "missing.key"), // dangling
		"docs/example.md": "../.env.example",
		"hop":             filepath.Join(outside, "sub"),
		"docs/climb.txt":  "../hop/../notes.txt", // climbs out of where hop leads
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, link)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	var x rootLinks
	want := []string{".env", "app/config/master.key", "app/credentials.json", "deploy/.env/.env", "docs/chain.txt",
		"docs/climb.txt", "docs/notes.txt", "docs/ssh.key", "infra/prod.tfstate", "keys/id_rsa/id_rsa", "readme.md"}
	if got := relSecrets(t, &x, root); !slices.Equal(got, want) {
		t.Fatalf("secret files %q, want %q", got, want)
	}
}

// TestSecretFilesIndex: a walk after the first reads no folder that did
// not change; a secret file made later, in a folder the index has seen, is
// found; so is one in a folder put in place of another by a rename, with
// the old one's modification time; and one gone is no longer listed.
func TestSecretFilesIndex(t *testing.T) {
	root := t.TempDir()
	secretTree(t, root, "proj/src/main.go", "proj/sub/readme.txt", "proj/old/")
	x := rootLinks{now: settled}
	if got := relSecrets(t, &x, root); len(got) != 0 {
		t.Fatalf("secret files %q in a root without any", got)
	}
	first := x.listed
	relSecrets(t, &x, root)
	if again := x.listed - first; again != 0 {
		t.Fatalf("a walk with nothing changed read %d folders", again)
	}

	secretTree(t, root, "proj/src/.env")
	if got := relSecrets(t, &x, root); !slices.Equal(got, []string{"proj/src/.env"}) {
		t.Fatalf("after a .env was made: %q", got)
	}

	// proj/sub replaced by a folder made elsewhere, holding a key, whose
	// modification time is set to the old one's (cp -p, tar), and proj's
	// times set back too: only the inode and change time tell.
	sub := filepath.Join(root, "proj", "sub")
	fi, err := os.Stat(sub)
	if err != nil {
		t.Fatal(err)
	}
	pfi, err := os.Stat(filepath.Join(root, "proj"))
	if err != nil {
		t.Fatal(err)
	}
	secretTree(t, root, "new/readme.txt", "new/deploy.key")
	if err := os.Chtimes(filepath.Join(root, "new"), fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(sub); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(root, "new"), sub); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(filepath.Join(root, "proj"), pfi.ModTime(), pfi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if nfi, _ := os.Stat(sub); !nfi.ModTime().Equal(fi.ModTime()) {
		t.Fatalf("the new folder's time %v, want the old %v", nfi.ModTime(), fi.ModTime())
	}
	if got := relSecrets(t, &x, root); !slices.Equal(got, []string{"proj/src/.env", "proj/sub/deploy.key"}) {
		t.Fatalf("after proj/sub was replaced: %q", got)
	}

	if err := os.Remove(filepath.Join(root, "proj/src/.env")); err != nil {
		t.Fatal(err)
	}
	if got := relSecrets(t, &x, root); !slices.Equal(got, []string{"proj/sub/deploy.key"}) {
		t.Fatalf("after the .env was removed: %q", got)
	}
}

// TestSecretFilesRacy: a folder listed within racyWindow of its last change
// is listed again at the next walk, even when its stamp is what was listed
// (an entry made in the same tick of the file system's clock, just after
// the listing); one listed long after is not.
func TestSecretFilesRacy(t *testing.T) {
	root := t.TempDir()
	secretTree(t, root, "proj/readme.txt")
	proj := filepath.Join(root, "proj")
	for _, tc := range []struct {
		name string
		now  func() time.Time
		want []string
	}{
		{"listed just after a change", time.Now, []string{"proj/.env"}},
		{"listed long after", settled, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(filepath.Join(proj, ".env"))
			x := rootLinks{now: tc.now}
			relSecrets(t, &x, root)
			f := x.folders[proj]
			secretTree(t, root, "proj/.env")
			// As if the .env had been made in the tick of the listing:
			// the folder's stamp unchanged.
			var st unix.Stat_t
			if err := unix.Lstat(proj, &st); err != nil {
				t.Fatal(err)
			}
			f.stamp = stampOf(&st)
			x.folders[proj] = f
			if got := relSecrets(t, &x, root); !slices.Equal(got, tc.want) {
				t.Fatalf("secret files %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSecretFilesBounds: past the index's bounds (entries, depth, secret
// files) the list fails closed, naming the root.
func TestSecretFilesBounds(t *testing.T) {
	root := t.TempDir()
	secretTree(t, root, "a/b/c/.env", "a/x.txt", "a/y.txt")
	small := rootLinks{limit: 3}
	if _, _, err := small.secretFiles([]string{root}); !errors.Is(err, ErrSecretsUnhidden) || !strings.Contains(err.Error(), root) {
		t.Errorf("past the entry bound: %v", err)
	}

	deep := t.TempDir()
	p := deep
	for range maxIndexDepth + 1 {
		p = filepath.Join(p, "d")
	}
	if err := os.MkdirAll(p, 0o755); err != nil && !errors.Is(err, syscall.ENAMETOOLONG) {
		t.Fatal(err)
	}
	var x rootLinks
	if _, _, err := x.secretFiles([]string{deep}); !errors.Is(err, ErrSecretsUnhidden) || !strings.Contains(err.Error(), "nested") {
		t.Errorf("past the depth bound: %v", err)
	}

	many := t.TempDir()
	for i := range 4 {
		if err := os.WriteFile(filepath.Join(many, fmt.Sprintf("k%d.key", i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	few := rootLinks{secrets: 4}
	if _, _, err := few.secretFiles([]string{many}); err != nil {
		t.Errorf("at the secret files' bound: %v", err)
	}
	few.secrets = 3
	if _, _, err := few.secretFiles([]string{many}); !errors.Is(err, ErrSecretsUnhidden) || !strings.Contains(err.Error(), many) {
		t.Errorf("past the secret files' bound: %v", err)
	}
}
