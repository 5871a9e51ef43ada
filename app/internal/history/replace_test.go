package history_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/secrets"
)

// moveAside moves a history file and its -wal and -shm to dir, as
// `mv history.db* elsewhere` does.
func moveAside(t *testing.T, path, dir string) {
	t.Helper()
	must(t, os.MkdirAll(dir, 0o700))
	for _, suffix := range []string{"", "-wal", "-shm"} {
		err := os.Rename(path+suffix, filepath.Join(dir, filepath.Base(path)+suffix))
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
	}
}

// TestMovedAside: the attack of issue 12. An action moves the history
// aside; `audit verify` must not call what is left intact, neither before
// the gate opens a new history nor after.
func TestMovedAside(t *testing.T) {
	s, path, ks := open(t)
	for i := range 3 {
		action(t, s, fmt.Sprint("a", i))
	}
	must(t, s.Close())
	must(t, history.VerifyFile(path, ks))

	moveAside(t, path, filepath.Join(t.TempDir(), "elsewhere"))

	// Before the gate restarts: the file the key store names is gone.
	err := history.VerifyFile(path, ks)
	if !errors.Is(err, history.ErrTampered) || !strings.Contains(err.Error(), "missing") || !strings.Contains(err.Error(), "anchored at seq 9") {
		t.Fatalf("VerifyFile of a moved history: %v, want ErrTampered naming the missing history", err)
	}

	// The gate restarts: a new history, so it can record, which says it
	// started over.
	s2, err := history.Open(path, ks)
	must(t, err)
	action(t, s2, "b")
	if err := s2.Verify(context.Background()); !errors.Is(err, history.ErrTampered) || !strings.Contains(err.Error(), "started over") {
		t.Fatalf("Verify of the new history: %v, want ErrTampered saying it started over", err)
	}
	must(t, s2.Close())
	err = history.VerifyFile(path, ks)
	te := tamperErrors(err)
	if len(te) != 1 || te[0].Table != "file" || !strings.Contains(te[0].Problem, "went missing") || !strings.Contains(te[0].Problem, "anchored at seq 9") {
		t.Fatalf("VerifyFile of the new history: %v", err)
	}
	t.Logf("audit verify says: %v", err)
}

// TestReplacedByAnother: putting another history (with keys in the same
// key store) in the place of the one kept there is refused by Open and
// reported by Verify.
func TestReplacedByAnother(t *testing.T) {
	ks := secrets.NewMemory()
	dir := t.TempDir()
	kept, other := filepath.Join(dir, "history.db"), filepath.Join(dir, "other", "history.db")
	must(t, os.MkdirAll(filepath.Dir(other), 0o700))
	for _, p := range []string{kept, other} {
		s, err := history.Open(p, ks)
		must(t, err)
		action(t, s, "x")
		must(t, s.Close())
	}
	must(t, os.Rename(other, kept))

	err := history.VerifyFile(kept, ks)
	te := tamperErrors(err)
	if len(te) != 1 || te[0].Table != "file" || !strings.Contains(te[0].Problem, "replaced") {
		t.Fatalf("VerifyFile of a replaced history: %v", err)
	}
	if _, err := history.Open(kept, ks); !errors.Is(err, history.ErrTampered) || !strings.Contains(err.Error(), "replaced") {
		t.Fatalf("Open of a replaced history: %v, want ErrTampered", err)
	}
}

// recordingKeys is a key store that remembers the names set, tells of
// each anchor written, and can be made to refuse every Set (a gate killed
// before its Close anchors).
type recordingKeys struct {
	secrets.KeyStore
	mu      sync.Mutex
	sets    []string
	refuse  bool
	anchors chan struct{} // one per anchor written, when not nil
}

func (r *recordingKeys) Set(name string, b []byte) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.refuse {
		return fmt.Errorf("%w: refusing for the test", secrets.ErrUnavailable)
	}
	r.sets = append(r.sets, name)
	err := r.KeyStore.Set(name, b)
	if r.anchors != nil && strings.HasPrefix(name, "history-anchor-") {
		select {
		case r.anchors <- struct{}{}:
		default:
		}
	}
	return err
}

// TestAnchorKeptUpToDate: the anchor follows the head while rows are
// written, not only at Close. A gate killed before it closes (its last
// anchor never written) and a file rolled back to a copy from before most
// of its rows: Open and Verify still see the rollback.
func TestAnchorKeptUpToDate(t *testing.T) {
	ks := &recordingKeys{KeyStore: secrets.NewMemory()}
	path := filepath.Join(t.TempDir(), "history.db")
	s, err := history.Open(path, ks)
	must(t, err)
	action(t, s, "first")
	must(t, s.Close())
	snapshot, err := os.ReadFile(path)
	must(t, err)

	ks.mu.Lock()
	ks.anchors = make(chan struct{}, 64)
	ks.mu.Unlock()
	s, err = history.Open(path, ks)
	must(t, err)
	for i := range 30 { // 90 rows: past two anchor intervals
		action(t, s, fmt.Sprint("r", i))
	}
	// The anchorer writes in the background: wait for its first anchor
	// past the snapshot (a row count the snapshot cannot reach).
	select {
	case <-ks.anchors:
	case <-time.After(30 * time.Second):
		t.Fatal("no anchor was written during 90 rows")
	}
	ks.mu.Lock()
	ks.refuse = true // the gate dies: Close cannot anchor the end
	ks.mu.Unlock()
	if err := s.Close(); err == nil {
		t.Fatal("Close anchored through a refusing key store")
	}
	ks.mu.Lock()
	ks.refuse = false
	ks.mu.Unlock()

	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(path + suffix)
	}
	must(t, os.WriteFile(path, snapshot, 0o600))
	if err := history.VerifyFile(path, ks); !errors.Is(err, history.ErrTampered) || !strings.Contains(err.Error(), "rolled back") {
		t.Fatalf("VerifyFile of a rolled-back file: %v, want ErrTampered", err)
	}
	if _, err := history.Open(path, ks); !errors.Is(err, history.ErrTampered) {
		t.Fatalf("Open of a rolled-back file: %v, want ErrTampered", err)
	}
}
