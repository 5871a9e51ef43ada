//go:build unix

package execute

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// The primitives every file operation goes through refuse a symbolic link
// in any element of a path: in the root's own path, in the folders beneath
// it, and at the entry's name.
func TestOpenRefusesLinks(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "root")
	for _, d := range []string{"root/a/b", "outside"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		"root/out":     filepath.Join(base, "outside"), // out of the root
		"root/in":      filepath.Join(root, "a"),       // within it
		"root/a/rel":   "b",                            // relative, within it
		"root/a/b/f":   filepath.Join(base, "outside"), // an entry's name
		"rootlink":     root,                           // the root's own path
		"root/a/up":    "../..",                        // climbing out
		"root/a/b/abs": "/",
	} {
		if err := os.Symlink(to, filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
	}
	if d, err := openFolder(root, "a/b"); err != nil {
		t.Fatalf("a plain path: %v", err)
	} else {
		d.Close()
	}
	for _, tt := range []struct{ root, rel string }{
		{root, "out"}, {root, "in"}, {root, "in/b"}, {root, "a/rel"}, {root, "a/up"}, {root, "a/b/abs"},
		{filepath.Join(base, "rootlink"), "."}, {filepath.Join(base, "rootlink"), "a"},
	} {
		if d, err := openFolder(tt.root, tt.rel); err == nil {
			d.Close()
			t.Errorf("openFolder(%s, %s) followed a link", tt.root, tt.rel)
		} else if !errors.Is(err, ErrSwapped) {
			t.Errorf("openFolder(%s, %s): %v, want ErrSwapped", tt.root, tt.rel, err)
		}
	}
	d, err := openFolder(root, "a/b")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if f, err := d.open("f", unix.O_RDONLY, 0); err == nil {
		f.Close()
		t.Error("open followed a link at the end")
	}
	if _, err := d.sub("f"); !errors.Is(err, ErrSwapped) {
		t.Errorf("sub of a link: %v, want ErrSwapped", err)
	}
	if info, err := d.lstat("f"); err != nil || info == nil || info.mode&os.ModeSymlink == 0 {
		t.Errorf("lstat of a link: %+v, %v", info, err)
	}
	for _, name := range []string{"", ".", "..", "a/b", "x\x00"} {
		if _, err := d.open(name, unix.O_RDONLY, 0); err == nil || errors.Is(err, ErrSwapped) {
			t.Errorf("open(%q): %v, want a refusal of the name", name, err)
		}
	}
}
