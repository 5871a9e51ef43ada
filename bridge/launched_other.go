//go:build !linux && !darwin

package bridge

// killLaunched has nothing to kill: Launch is not available here.
func killLaunched() int { return 0 }
