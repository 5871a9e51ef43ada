package execute

import (
	"context"
	"errors"
	"runtime"
	"testing"
	"time"
)

// TestReserves: the floors are 2 GiB (100,000 inodes) or a twentieth of
// the file system, never more than half of what was free at the start.
func TestReserves(t *testing.T) {
	const gib = uint64(1 << 30)
	for _, c := range []struct{ size, free, want uint64 }{
		{256 * gib, 70 * gib, 12*gib + gib*8/10},
		{20 * gib, 10 * gib, 2 * gib},
		{20 * gib, 1 * gib, gib / 2},
		{1 * gib, 1 * gib, gib / 2},
		{100 * gib, 0, 0},
	} {
		if got := diskReserve(c.size, c.free); got != c.want {
			t.Errorf("diskReserve(%d GiB, %d GiB) = %d, want %d", c.size>>30, c.free>>30, got, c.want)
		}
	}
	for _, c := range []struct{ inodes, free, want uint64 }{
		{16_000_000, 15_000_000, 800_000},
		{1_000_000, 900_000, 100_000},
		{20_000, 19_990, 9995},
		{0, 0, 0},
	} {
		if got := inodeReserve(c.inodes, c.free); got != c.want {
			t.Errorf("inodeReserve(%d, %d) = %d, want %d", c.inodes, c.free, got, c.want)
		}
	}
	for _, c := range []struct{ total, available, want uint64 }{
		{64 * gib, 40 * gib, 64 * gib / 20},
		{16 * gib, 12 * gib, gib},
		{4 * gib, gib, gib / 2},
	} {
		if got := memoryReserve(c.total, c.available); got != c.want {
			t.Errorf("memoryReserve(%d GiB, %d GiB) = %d, want %d", c.total>>30, c.available>>30, got, c.want)
		}
	}
	if runtime.GOOS == "linux" {
		total, available, ok := memory()
		if !ok || total == 0 || available == 0 || available > total {
			t.Errorf("memory() = %d, %d, %v", total, available, ok)
		}
	}
}

// TestWatchRoomStops: a watch whose floor lies above what is free stops
// the action within a few looks, with a cause that says so; one whose
// floor is 0 never does, and its stop returns at once.
func TestWatchRoomStops(t *testing.T) {
	dir := t.TempDir()
	old := reserveOf
	t.Cleanup(func() { reserveOf = old })
	reserveOf = func(size, free uint64) uint64 { return free + 1<<30 }
	ctx, stop := watchRoom(context.Background(), []disk{{dir, "a"}, {dir, "b"}})
	select {
	case <-ctx.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the watch did not stop the action")
	}
	stop()
	if err := stoppedAtFloor(ctx, true); err == nil || !errors.As(err, new(*floorError)) {
		t.Errorf("stoppedAtFloor = %v", err)
	}
	reserveOf = func(size, free uint64) uint64 { return 0 }
	ctx, stop = watchRoom(context.Background(), []disk{{dir, "a"}, {"/no/such/folder", "b"}, {"", "c"}})
	time.Sleep(3 * diskEvery)
	stop()
	if err := stoppedAtFloor(ctx, true); err != nil {
		t.Errorf("a watch above its floor stopped the action: %v", err)
	}
}
