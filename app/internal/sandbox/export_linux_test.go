//go:build linux

package sandbox

// ReadLayerWithin is ReadLayer with bounds of the test's choosing.
var ReadLayerWithin = readLayer

// WarmClaimed is how many of b's actions started through a warm launcher.
func WarmClaimed(b *Box) int {
	b.warm.mu.Lock()
	defer b.warm.mu.Unlock()
	return b.warm.claimed
}

// WarmIdle is how many warm launchers b has waiting or being started.
func WarmIdle(b *Box) int {
	b.warm.mu.Lock()
	defer b.warm.mu.Unlock()
	return len(b.warm.idle) + len(b.warm.starting)
}

// SpawnerPid is the process id of b's spawner, or 0 when it has none.
func SpawnerPid(b *Box) int {
	b.warm.spMu.Lock()
	defer b.warm.spMu.Unlock()
	if b.warm.sp == nil {
		return 0
	}
	return b.warm.sp.Pid()
}
