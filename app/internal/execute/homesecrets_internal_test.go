package execute

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// homeTree makes the files (relative to a new home, resolved) with the
// given names.
func homeTree(t *testing.T, files ...string) string {
	t.Helper()
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		p := filepath.Join(home, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

// TestHomeSecretFiles: the secret files of the home's folders outside the
// roots are listed, with the top of the home's and a link leading to one;
// the roots (walked by rootsecrets.go), the hidden entries and what is no
// secret are not.
func TestHomeSecretFiles(t *testing.T) {
	home := homeTree(t,
		"src/app/.env", "src/app/main.go", "src/app/.env.example",
		"work/deploy.key", "deploy.key", "notes.txt",
		"Documents/proj/.env", "Documents/other/server.key",
		".config/tool/.env", "snap/firefox/.env")
	if err := os.Symlink(filepath.Join(home, "work", "deploy.key"), filepath.Join(home, "src", "notes.txt")); err != nil {
		t.Fatal(err)
	}
	roots := []string{filepath.Join(home, "Documents", "proj")}
	var h homeIndex
	got, _, err := h.secretFiles(home, roots, false)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{
		filepath.Join(home, "Documents/other/server.key"),
		filepath.Join(home, "deploy.key"),
		filepath.Join(home, "src/app/.env"),
		filepath.Join(home, "src/notes.txt"),
		filepath.Join(home, "work/deploy.key"),
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	// Again, from the index; then with a file added.
	if err := os.WriteFile(filepath.Join(home, "work", "id_rsa"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	h.folders[filepath.Join(home, "work")].now = settled
	got, _, err = h.secretFiles(home, roots, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(got, filepath.Join(home, "work", "id_rsa")) || len(got) != len(want)+1 {
		t.Errorf("after adding work/id_rsa: %q", got)
	}
	// A home inside a root is the roots' walk.
	if got, _, err := h.secretFiles(home, []string{home}, false); err != nil || len(got) != 0 {
		t.Errorf("home as a root: %q, %v", got, err)
	}
}

// TestHomeSecretFilesBounds: a folder past the bounds (entries, secret
// files, or the home's folders spent) is hidden whole; one that holds a
// root cannot be, and the action is refused.
func TestHomeSecretFilesBounds(t *testing.T) {
	home := homeTree(t, "big/a/1", "big/a/2", "big/b/3", "big/c/4",
		"keys/a.key", "keys/b.key", "keys/c.key", "small/x.key",
		"Documents/proj/.env", "Documents/a/b/c/d")
	roots := []string{filepath.Join(home, "Documents", "proj")}
	h := homeIndex{folderLimit: 6, secrets: 2}
	got, _, err := h.secretFiles(home, roots, false)
	if !errors.Is(err, ErrSecretsUnhidden) {
		t.Fatalf("Documents past the bound holds a root: got %q, %v", got, err)
	}
	// The same through a link to the home: the roots are resolved, and
	// so is the home, or Documents would be taken for no root's folder.
	link := filepath.Join(t.TempDir(), "home")
	if err := os.Symlink(home, link); err != nil {
		t.Fatal(err)
	}
	h = homeIndex{folderLimit: 6, secrets: 2}
	if got, _, err := h.secretFiles(link, roots, false); !errors.Is(err, ErrSecretsUnhidden) {
		t.Errorf("through a link to the home, Documents past the bound holds a root: got %q, %v", got, err)
	}
	// Where the sandbox refuses secret files by name (macOS), the folder
	// holding a root refuses nothing: its files are refused by name, and
	// it is not hidden whole; the other folders past the bounds still are.
	h = homeIndex{folderLimit: 6, secrets: 2}
	got, _, err = h.secretFiles(home, roots, true)
	if err != nil {
		t.Fatalf("by name, Documents past the bound holding a root: %v", err)
	}
	slices.Sort(got)
	if want := []string{filepath.Join(home, "big"), filepath.Join(home, "keys"), filepath.Join(home, "small/x.key")}; !slices.Equal(got, want) {
		t.Errorf("by name: got %q, want %q", got, want)
	}
	h = homeIndex{folderLimit: 6, secrets: 2}
	got, _, err = h.secretFiles(home, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(got)
	want := []string{filepath.Join(home, "Documents"), filepath.Join(home, "big"), filepath.Join(home, "keys"), filepath.Join(home, "small/x.key")}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	// The home's folder budget spent after the first folders: the rest
	// are hidden whole.
	h = homeIndex{limit: 2}
	got, _, err = h.secretFiles(home, nil, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(got, filepath.Join(home, "small")) || slices.Contains(got, filepath.Join(home, "small", "x.key")) {
		t.Errorf("with the home's budget spent, small is not hidden whole: %q", got)
	}
}

// BenchmarkHomeSecrets measures one unasked action's look at a home of
// /usr's size (a stand-in for a developer's home outside the roots): the
// first walk, and then each action's, from the index.
func BenchmarkHomeSecrets(b *testing.B) {
	home := "/usr"
	b.Run("first", func(b *testing.B) {
		for b.Loop() {
			h := homeIndex{}
			if _, _, err := h.secretFiles(home, nil, false); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("again", func(b *testing.B) {
		h := homeIndex{}
		if _, _, err := h.secretFiles(home, nil, false); err != nil {
			b.Fatal(err)
		}
		for _, x := range h.folders {
			x.now = settled
		}
		n := 0
		for _, x := range h.folders {
			n += len(x.folders)
		}
		b.ReportMetric(float64(n), "folders")
		b.ResetTimer()
		for b.Loop() {
			if _, _, err := h.secretFiles(home, nil, false); err != nil {
				b.Fatal(err)
			}
		}
	})
}
