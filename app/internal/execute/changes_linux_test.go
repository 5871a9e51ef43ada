//go:build linux

package execute_test

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"golang.org/x/sys/unix"

	sbx "github.com/airlockhq/airlock/app/internal/sandbox"
)

// TestApplyNoSwap is issue 12's symlink race against the review of an
// unasked action's changes: while a racer swaps ~/Documents/real with
// ~/Documents/link, a link to ~/.ssh, changes under ~/Documents/real are
// applied one list after another. None may ever reach ~/.ssh.
func TestApplyNoSwap(t *testing.T) {
	s := newSandbox(t)
	l := newLayer(t, s)
	for _, f := range []string{".ssh/authorized_keys", ".ssh/id_ed25519", "Documents/real/id_ed25519", "Documents/real/authorized_keys"} {
		s.write(t, f, "original "+f+"\n")
	}
	if err := os.Symlink(s.p(".ssh"), s.p("Documents/link")); err != nil {
		t.Fatal(err)
	}
	lists := swapTries() / 4
	batches := make([][]sbx.Change, lists)
	for i := range batches {
		batches[i] = []sbx.Change{
			l.file(t, sbx.Changed, fmt.Sprintf("real/authorized_keys.%d", i), "ssh-ed25519 AAAA attacker\n", 0o644, 0o644),
			l.file(t, sbx.Created, fmt.Sprintf("real/new%d", i), "attacker\n", 0o600, 0),
			l.removed("real/id_ed25519", 0o644),
		}
		// The layer's name differs from the real one, so that each list
		// has its own new version; the path is the one raced for.
		batches[i][0].Path = l.doc("real/authorized_keys")
	}
	before := snapshot(t, s.p(".ssh"))

	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		real, link := s.p("Documents/real"), s.p("Documents/link")
		for {
			select {
			case <-stop:
				return
			default:
			}
			if err := unix.Renameat2(unix.AT_FDCWD, real, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE); err != nil {
				t.Errorf("swapping: %v", err)
				return
			}
		}
	})
	applied := 0
	for _, b := range batches {
		a, _, _ := s.ex.ApplyChanges(context.Background(), b, "race")
		for _, r := range a.Records {
			if r.Placed {
				applied++
			}
		}
	}
	close(stop)
	wg.Wait()

	after := snapshot(t, s.p(".ssh"))
	for name, was := range before {
		if after[name] != was {
			t.Errorf("~/.ssh/%s changed: %q, was %q", name, after[name], was)
		}
	}
	for name, now := range after {
		if _, ok := before[name]; !ok {
			t.Errorf("~/.ssh/%s appeared: %q", name, now)
		}
	}
	if applied == 0 {
		t.Errorf("no change was applied: the race was not run")
	}
	t.Logf("%d lists, %d new versions placed", lists, applied)
}
