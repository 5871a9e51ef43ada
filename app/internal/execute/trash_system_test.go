//go:build unix

package execute

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// systemRig is a folder with a file in it, opened as the executor opens
// folders, and a Trash the fake system moves items into by path, as
// NSFileManager would.
type systemRig struct {
	dir, trash string
	from       *folder
	calls      []string
	t          *freedesktop
}

func newSystemRig(t *testing.T) *systemRig {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := &systemRig{dir: filepath.Join(base, "Documents"), trash: filepath.Join(base, "Trash")}
	for _, d := range []string{r.dir, r.trash} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(r.dir, "thesis.docx"), []byte("the person's thesis"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := openRoot(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	r.from = &folder{f: f, path: r.dir}
	t.Cleanup(func() { r.from.Close() })
	r.t = &freedesktop{files: r.trash, system: func(path string) (string, error) {
		r.calls = append(r.calls, path)
		where := filepath.Join(r.trash, filepath.Base(path))
		return where, os.Rename(path, where)
	}}
	return r
}

// TestViaSystem: where the Trash's folder cannot be opened, the item moves
// through the system by path, once the path is checked to name what the
// open folder holds; a path that names something else now is refused
// before the system is asked, and nothing is lost either way.
func TestViaSystem(t *testing.T) {
	ctx := context.Background()

	r := newSystemRig(t)
	where, err := r.t.viaSystem(ctx, r.from, "thesis.docx", filepath.Join(r.dir, "thesis.docx"))
	if err != nil || where != filepath.Join(r.trash, "thesis.docx") {
		t.Fatalf("moved: %q, %v", where, err)
	}
	if b, err := os.ReadFile(where); err != nil || string(b) != "the person's thesis" {
		t.Errorf("the Trash holds %q, %v", b, err)
	}

	// The path names another folder than the open one.
	r = newSystemRig(t)
	other := filepath.Join(filepath.Dir(r.dir), "Other")
	if err := os.Mkdir(other, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "thesis.docx"), []byte("not this one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := r.t.viaSystem(ctx, r.from, "thesis.docx", filepath.Join(other, "thesis.docx")); !errors.Is(err, ErrSwapped) || len(r.calls) != 0 {
		t.Errorf("another folder: %v, the system asked %d times", err, len(r.calls))
	}

	// A hard link to the same file, in another folder: the entry is the
	// same file, the place is not.
	r = newSystemRig(t)
	linked := filepath.Join(filepath.Dir(r.dir), "Linked")
	if err := os.Mkdir(linked, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(r.dir, "thesis.docx"), filepath.Join(linked, "thesis.docx")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.t.viaSystem(ctx, r.from, "thesis.docx", filepath.Join(linked, "thesis.docx")); !errors.Is(err, ErrSwapped) || len(r.calls) != 0 {
		t.Errorf("a hard link elsewhere: %v, the system asked %d times", err, len(r.calls))
	}

	// The folder was swapped for another after it was opened.
	r = newSystemRig(t)
	if err := os.Rename(r.dir, r.dir+".old"); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(r.dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.dir, "thesis.docx"), []byte("planted"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := r.t.viaSystem(ctx, r.from, "thesis.docx", filepath.Join(r.dir, "thesis.docx")); !errors.Is(err, ErrSwapped) || len(r.calls) != 0 {
		t.Errorf("a swapped folder: %v, the system asked %d times", err, len(r.calls))
	}

	// A link in the path.
	r = newSystemRig(t)
	link := filepath.Join(filepath.Dir(r.dir), "link")
	if err := os.Symlink(r.dir, link); err != nil {
		t.Fatal(err)
	}
	if _, err := r.t.viaSystem(ctx, r.from, "thesis.docx", filepath.Join(link, "thesis.docx")); err == nil || len(r.calls) != 0 {
		t.Errorf("a link in the path: %v, the system asked %d times", err, len(r.calls))
	}

	// The system moved something else: reported, both kept.
	r = newSystemRig(t)
	r.t.system = func(path string) (string, error) {
		decoy := filepath.Join(r.dir, "decoy")
		if err := os.WriteFile(decoy, []byte("decoy"), 0o600); err != nil {
			return "", err
		}
		where := filepath.Join(r.trash, "decoy")
		return where, os.Rename(decoy, where)
	}
	where, err = r.t.viaSystem(ctx, r.from, "thesis.docx", filepath.Join(r.dir, "thesis.docx"))
	if !errors.Is(err, ErrSwapped) || where == "" {
		t.Errorf("another item moved: %q, %v", where, err)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "thesis.docx")); err != nil {
		t.Errorf("the checked item is gone: %v", err)
	}

	// What the system refuses, and a path that does not end in the name.
	r = newSystemRig(t)
	r.t.system = func(string) (string, error) { return "", errors.New("no") }
	if _, err := r.t.viaSystem(ctx, r.from, "thesis.docx", filepath.Join(r.dir, "thesis.docx")); err == nil {
		t.Error("the system's refusal is not an error")
	}
	if _, err := r.t.viaSystem(ctx, r.from, "thesis.docx", filepath.Join(r.dir, "other.docx")); err == nil {
		t.Error("a path that names another entry is accepted")
	}
	r.t.system = func(string) (string, error) { return "", nil }
	if where, err := r.t.viaSystem(ctx, r.from, "thesis.docx", filepath.Join(r.dir, "thesis.docx")); err != nil || where != r.trash {
		t.Errorf("moved without saying where: %q, %v", where, err)
	}
}

func TestTrashDirRefused(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("opening the Trash: %w", &fs.PathError{Op: "open", Path: "/Users/ann/.Trash", Err: syscall.EPERM}), true},
		{fmt.Errorf("opening the Trash: %w", &fs.PathError{Op: "open", Path: "/Users/ann/.Trash", Err: syscall.EACCES}), true},
		{fmt.Errorf("making the Trash: %w", &fs.PathError{Op: "mkdir", Path: "/x", Err: syscall.ENOTDIR}), false},
		{fmt.Errorf("opening the Trash: %w", fs.ErrNotExist), false},
	} {
		if got := trashDirRefused(tc.err); got != tc.want {
			t.Errorf("%v: %v", tc.err, got)
		}
	}
}
