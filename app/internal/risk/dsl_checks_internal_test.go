package risk

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// TestPathChecksOnce: within one assessment a path is checked once for
// each use: the second check of it answers what the first found, even
// after the disk changed, and another use of it is checked anew.
func TestPathChecksOnce(t *testing.T) {
	home := t.TempDir()
	cfg, err := sanitize.NewConfig(home, nil)
	if err != nil {
		t.Fatal(err)
	}
	doc := filepath.Join(home, "Documents", "a.txt")
	if err := os.MkdirAll(filepath.Dir(doc), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(doc, []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	checks := pathChecks{}
	first, err := checks.path(cfg, "~/Documents/a.txt", sanitize.OpWrite)
	if err != nil || !first.Exists {
		t.Fatalf("first check: %+v %v", first, err)
	}
	if err := os.Remove(doc); err != nil {
		t.Fatal(err)
	}
	again, err := checks.path(cfg, "~/Documents/a.txt", sanitize.OpWrite)
	if err != nil || !again.Exists {
		t.Fatalf("the second check of the same path and use went to the disk again: %+v %v", again, err)
	}
	other, err := checks.path(cfg, "~/Documents/a.txt", sanitize.OpRead)
	if err != nil || other.Exists {
		t.Fatalf("another use of the path was answered from the first: %+v %v", other, err)
	}
	var none pathChecks
	if p, err := none.path(cfg, "~/Documents/a.txt", sanitize.OpWrite); err != nil || p.Exists {
		t.Fatalf("a nil pathChecks remembered: %+v %v", p, err)
	}
	if _, err := checks.path(cfg, "~/../etc/passwd", sanitize.OpWrite); err == nil {
		t.Fatal("a refused path was not refused")
	} else if _, err2 := checks.path(cfg, "~/../etc/passwd", sanitize.OpWrite); err2 == nil || err2.Error() != err.Error() {
		t.Fatalf("the refusal was not remembered: %v then %v", err, err2)
	}
}
