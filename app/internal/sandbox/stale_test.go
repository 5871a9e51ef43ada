package sandbox_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// TestRemoveStale checks that the layers a stopped gate left are removed,
// folders of mode 000 in them too, and that nothing else in the staging
// folder is, nor anything a link in a layer points at.
func TestRemoveStale(t *testing.T) {
	staging := t.TempDir()
	outside := filepath.Join(t.TempDir(), "keep.txt")
	if err := os.WriteFile(outside, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(staging, "airlock-layers-123", "0")
	for _, d := range []string{filepath.Join(stale, "upper", "sub"), filepath.Join(stale, "work", "work")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(stale, "upper", "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(stale, "work", "work"), 0); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(staging, "not-a-layer")
	if err := os.Mkdir(other, 0o700); err != nil {
		t.Fatal(err)
	}
	// A layer made after the gate started is this gate's: kept.
	fresh := filepath.Join(staging, "airlock-layers-456")
	if err := os.Mkdir(fresh, 0o700); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(filepath.Join(staging, "airlock-layers-123"), old, old); err != nil {
		t.Fatal(err)
	}
	n, err := sandbox.RemoveStale(staging, time.Now().Add(-time.Minute))
	if err != nil || n != 1 {
		t.Fatalf("RemoveStale: %d, %v", n, err)
	}
	if _, err := os.Lstat(filepath.Join(staging, "airlock-layers-123")); err == nil {
		t.Error("the stale layer is still there")
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("a layer of this gate was removed: %v", err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Errorf("another folder was removed: %v", err)
	}
	if b, err := os.ReadFile(outside); err != nil || string(b) != "keep" {
		t.Errorf("what a link pointed at: %q, %v", b, err)
	}
	if n, err := sandbox.RemoveStale(filepath.Join(staging, "missing"), time.Now()); err != nil || n != 0 {
		t.Errorf("a missing staging folder: %d, %v", n, err)
	}
}
