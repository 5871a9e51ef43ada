//go:build linux

package launcher

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// TestStillBound: a path that still leads to the file bound over it
// passes; one renamed over since, or removed, fails, naming it.
func TestStillBound(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "build.py")
	if err := os.WriteFile(p, []byte("checked"), 0o600); err != nil {
		t.Fatal(err)
	}
	var st unix.Stat_t
	if err := unix.Stat(p, &st); err != nil {
		t.Fatal(err)
	}
	b := []bound{{path: p, dev: st.Dev, ino: st.Ino}}
	if err := stillBound(b); err != nil {
		t.Fatalf("unchanged: %v", err)
	}
	if err := os.WriteFile(p+".new", []byte("swapped"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p+".new", p); err != nil {
		t.Fatal(err)
	}
	if err := stillBound(b); err == nil || !strings.Contains(err.Error(), p+" was replaced") {
		t.Fatalf("renamed over: %v", err)
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := stillBound(b); err == nil {
		t.Fatal("removed: passed")
	}
}
