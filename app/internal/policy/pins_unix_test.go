//go:build unix

package policy_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/policy"
	"github.com/airlockhq/airlock/app/internal/risk"
)

// TestGrantsFIFONeverBlocks: a script swapped for a named pipe, which
// nobody writes, must not hang the check (the gate decides under it): it
// lapses at once, and a pipe is never pinned.
func TestGrantsFIFONeverBlocks(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "build.py")
	write(t, script, "print('build')\n")
	runs := risk.Runs{Known: true, Files: []string{script}}
	g := policy.NewGrants(nil)
	if _, err := g.Allow(me, runText, runs, level.Dangerous, 0); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(script); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(script, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- g.Check(me, runText, runs, level.Dangerous) }()
	select {
	case err := <-done:
		if !errors.Is(err, policy.ErrLapsed) || !strings.Contains(err.Error(), "not a regular file") {
			t.Fatalf("Check = %v, want ErrLapsed: not a regular file", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Check blocked on a named pipe")
	}
	if err := g.Grantable(me, runs, level.Dangerous); !errors.Is(err, policy.ErrNotGrantable) {
		t.Fatalf("Grantable for a named pipe = %v", err)
	}
}
