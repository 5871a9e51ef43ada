//go:build linux

package history_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/secrets"
)

// TestRed9NoRoomNoRequest: even with outputs kept short, each request
// costs the history its plan (up to a MiB) and its actions' text, and the
// history is never pruned: an agent that submits without end filled the
// disk through it (on main a request was recorded with 2 MiB left of a
// 64 MiB disk, and would have been with none). While the disk that holds
// the history has less than its floor free (a twentieth of this one), a
// new request is refused with an error that says so; what a request
// recorded already did is still recorded; once there is room, requests
// are recorded again.
func TestRed9NoRoomNoRequest(t *testing.T) {
	dir := t.TempDir()
	if err := unix.Mount("tmpfs", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=64m"); err != nil {
		t.Skipf("cannot mount a small file system for the test: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(dir, unix.MNT_DETACH) })
	s, err := history.Open(filepath.Join(dir, "history.db"), secrets.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	must(t, s.AddRequest(ctx, history.Request{ID: "before", Time: t0, Client: "cli", Kind: "plan", Text: "NOTIFY \"a\" \"b\"\n"}))
	var st unix.Statfs_t
	must(t, unix.Statfs(dir, &st))
	filler := filepath.Join(dir, "filler")
	must(t, os.WriteFile(filler, make([]byte, int64(st.Bavail)*st.Bsize-2<<20), 0o600))
	err = s.AddRequest(ctx, history.Request{ID: "after", Time: t0, Client: "cli", Kind: "plan", Text: "NOTIFY \"a\" \"b\"\n"})
	if !errors.Is(err, history.ErrNoRoom) {
		t.Errorf("a request with 2 MiB left of 64 MiB: %v, want ErrNoRoom", err)
	}
	// The gate queues its requests (QueueRequest), and its decisions
	// behind them: the same floor holds there.
	err = s.QueueRequest(ctx, history.Request{ID: "queued", Time: t0, Client: "cli", Kind: "plan", Text: "NOTIFY \"a\" \"b\"\n"}).Wait(ctx)
	if !errors.Is(err, history.ErrNoRoom) {
		t.Errorf("a queued request with 2 MiB left of 64 MiB: %v, want ErrNoRoom", err)
	}
	must(t, s.AddDecision(ctx, decision("before", 0, "auto")))
	must(t, s.AddOutcome(ctx, history.Outcome{RequestID: "before", Index: 0, Time: t0, Status: "ok", Output: "shown"}))
	must(t, os.Remove(filler))
	must(t, s.AddRequest(ctx, history.Request{ID: "later", Time: t0, Client: "cli", Kind: "plan", Text: "NOTIFY \"a\" \"b\"\n"}))
}
