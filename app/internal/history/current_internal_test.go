package history

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/secrets"
)

// TestAdoptsOlderHistory: a history made before the key store named the
// database kept at its path is adopted at its first Open; from then on,
// moving it aside is noticed.
func TestAdoptsOlderHistory(t *testing.T) {
	ks := secrets.NewMemory()
	path := filepath.Join(t.TempDir(), "history.db")
	s, err := Open(path, ks)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.AddRequest(context.Background(), Request{ID: "a", Time: time.Unix(1, 0), Client: "cli", Kind: "plan", Text: "x"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	abs, err := canonical(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := ks.Delete(currentName(abs)); err != nil { // as before the item existed
		t.Fatal(err)
	}
	if err := VerifyFile(path, ks); err != nil {
		t.Fatalf("an older history: %v", err)
	}
	if s, err = Open(path, ks); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if c, ok, err := readCurrent(ks, abs); err != nil || !ok || c.dbID != s.dbID || c.replaced != "" {
		t.Fatalf("after Open the key store names %+v, %v, %v; want %s", c, ok, err, s.dbID)
	}
	if err := os.Rename(path, path+".aside"); err != nil {
		t.Fatal(err)
	}
	if err := VerifyFile(path, ks); !errors.Is(err, ErrTampered) {
		t.Fatalf("an adopted history moved aside: %v, want ErrTampered", err)
	}
}

func TestCurrentEncoding(t *testing.T) {
	id := randomHex(16)
	for _, c := range []current{{dbID: id}, {dbID: id, replaced: randomHex(16)}} {
		if got, ok := decodeCurrent(c.encode()); !ok || got != c {
			t.Errorf("round trip of %+v: %+v, %v", c, got, ok)
		}
	}
	for _, bad := range []string{"", "v1", "v1\nxyz\n", "v2\n" + id + "\n", "v1\n" + id + "\nnothex", "v1\n" + id + "\n\n"} {
		if _, ok := decodeCurrent([]byte(bad)); ok {
			t.Errorf("decodeCurrent(%q) accepted it", bad)
		}
	}
}
