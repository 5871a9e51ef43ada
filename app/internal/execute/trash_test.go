package execute_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/execute"
)

func TestFreedesktopTrash(t *testing.T) {
	dir := tempDir(t)
	data := filepath.Join(dir, "data")
	tr := execute.FreedesktopTrash(data)
	tests := []struct {
		name     string
		make     string // file or folder to make, relative to dir
		folder   bool
		wantBase string // name in Trash/files
	}{
		{"a file", "a/report.pdf", false, "report.pdf"},
		{"same name again", "b/report.pdf", false, "report.2.pdf"},
		{"and again", "c/report.pdf", false, "report.3.pdf"},
		{"a folder", "a/photos", true, "photos"},
		{"a folder of the same name", "b/photos", true, "photos.2"},
		{"a dot file", "a/.profile", false, ".profile"},
		{"a dot file again", "b/.profile", false, ".profile.2"},
		{"spaces and percent", "a/my 100% file#?.txt", false, "my 100% file#?.txt"},
		{"not ASCII", "a/résumé ☃.md", false, "résumé ☃.md"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := filepath.Join(dir, tt.make)
			if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
				t.Fatal(err)
			}
			if tt.folder {
				if err := os.MkdirAll(filepath.Join(src, "inner"), 0o755); err != nil {
					t.Fatal(err)
				}
			} else if err := os.WriteFile(src, []byte(tt.make), 0o644); err != nil {
				t.Fatal(err)
			}
			before := time.Now().Truncate(time.Second)
			where, err := tr.Trash(context.Background(), src)
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(data, "Trash", "files", tt.wantBase); where != want {
				t.Fatalf("trashed to %s, want %s", where, want)
			}
			if _, err := os.Lstat(src); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("the original is still there: %v", err)
			}
			if tt.folder {
				if fi, err := os.Stat(filepath.Join(where, "inner")); err != nil || !fi.IsDir() {
					t.Fatalf("the folder's contents did not move with it: %v", err)
				}
			} else if got := readFile(t, where); got != tt.make {
				t.Fatalf("trashed content %q, want %q", got, tt.make)
			}
			orig, when := trashInfo(t, where)
			if orig != src {
				t.Fatalf("info Path %q, want %q", orig, src)
			}
			if when.Before(before) || when.After(time.Now()) {
				t.Fatalf("DeletionDate %v is not now", when)
			}
		})
	}
}

func TestTrashRefuses(t *testing.T) {
	dir := tempDir(t)
	tr := execute.FreedesktopTrash(filepath.Join(dir, "data"))
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		ctx  context.Context
		path string
	}{
		{"relative path", context.Background(), "f"},
		{"missing file", context.Background(), filepath.Join(dir, "missing")},
		{"cancelled", cancelled, file},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if where, err := tr.Trash(tt.ctx, tt.path); err == nil {
				t.Fatalf("Trash(%q) = %q, want an error", tt.path, where)
			}
		})
	}
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("a refused trash moved the file: %v", err)
	}
}

// A symbolic link goes to the Trash as the link; what it points to stays.
func TestTrashLink(t *testing.T) {
	dir := tempDir(t)
	target := filepath.Join(dir, "target")
	link := filepath.Join(dir, "link")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	where, err := execute.FreedesktopTrash(filepath.Join(dir, "data")).Trash(context.Background(), link)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(where); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the trashed item is not the link: %v", err)
	}
	if readFile(t, target) != "keep" {
		t.Fatal("the link's target changed")
	}
}

// Concurrent trashing of items with one name never loses one.
func TestTrashConcurrentNames(t *testing.T) {
	dir := tempDir(t)
	tr := execute.FreedesktopTrash(filepath.Join(dir, "data"))
	const n = 16
	var wg sync.WaitGroup
	wheres := make([]string, n)
	errs := make([]error, n)
	for i := range n {
		src := filepath.Join(dir, "d"+string(rune('a'+i)), "same.txt")
		if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(src, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		wg.Go(func() { wheres[i], errs[i] = tr.Trash(context.Background(), src) })
	}
	wg.Wait()
	seen := map[string]bool{}
	for i := range n {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if seen[wheres[i]] {
			t.Fatalf("two items trashed to %s", wheres[i])
		}
		seen[wheres[i]] = true
		orig, _ := trashInfo(t, wheres[i])
		if readFile(t, wheres[i]) != orig {
			t.Fatalf("%s holds another item's content", wheres[i])
		}
	}
}

// An item on another file system is refused, not copied.
func TestTrashCrossDevice(t *testing.T) {
	dir := tempDir(t)
	other, err := os.MkdirTemp("/dev/shm", "execute-test-")
	if err != nil {
		t.Skipf("no second file system to try: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(other) })
	var a, b syscall.Stat_t
	if syscall.Stat(dir, &a) != nil || syscall.Stat(other, &b) != nil || a.Dev == b.Dev {
		t.Skip("/dev/shm is on the same file system as the test folder")
	}
	src := filepath.Join(other, "f")
	if err := os.WriteFile(src, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = execute.FreedesktopTrash(filepath.Join(dir, "data")).Trash(context.Background(), src)
	if !errors.Is(err, execute.ErrCrossDevice) {
		t.Fatalf("Trash across file systems: %v, want ErrCrossDevice", err)
	}
	if readFile(t, src) != "x" {
		t.Fatal("the refused item changed")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "data", "Trash", "info", "*")); len(m) != 0 {
		t.Fatalf("a refused trash left info files: %v", m)
	}
}

func FuzzTrashPath(f *testing.F) {
	for _, s := range []string{"/a b/c", "/100%/x", "/résumé", "/a\nb", "/\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		enc := execute.EscapeTrashPath(p)
		for i := 0; i < len(enc); i++ {
			if enc[i] >= 0x80 || enc[i] <= ' ' {
				t.Fatalf("escaped %q holds byte %#x", enc, enc[i])
			}
		}
		if dec, err := url.PathUnescape(enc); err != nil || dec != p {
			t.Fatalf("PathUnescape(%q) = %q, %v; want %q", enc, dec, err, p)
		}
	})
}

// HomeTrash (macOS's ~/.Trash) takes items as they are, without records,
// and never replaces one already there.
func TestHomeTrash(t *testing.T) {
	dir := t.TempDir()
	trash := filepath.Join(dir, ".Trash")
	tr := execute.HomeTrash(trash)
	var wheres []string
	for i := range 3 {
		src := filepath.Join(dir, "report.txt")
		if err := os.WriteFile(src, []byte(fmt.Sprint(i)), 0o644); err != nil {
			t.Fatal(err)
		}
		where, err := tr.Trash(context.Background(), src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Lstat(src); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("%s is still there: %v", src, err)
		}
		wheres = append(wheres, where)
	}
	want := []string{"report.txt", "report.2.txt", "report.3.txt"}
	for i, w := range wheres {
		if w != filepath.Join(trash, want[i]) {
			t.Errorf("item %d went to %s, want %s", i, w, want[i])
		}
		if b, err := os.ReadFile(w); err != nil || string(b) != fmt.Sprint(i) {
			t.Errorf("item %d in the Trash: %q, %v", i, b, err)
		}
	}
	entries, err := os.ReadDir(trash)
	if err != nil || len(entries) != 3 {
		t.Fatalf("the Trash holds %v, %v; want the 3 items and nothing else", entries, err)
	}
}
