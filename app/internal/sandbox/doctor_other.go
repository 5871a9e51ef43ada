//go:build !linux

package sandbox

// LandlockABI is the kernel's Landlock ABI: 0, Landlock is Linux's.
func LandlockABI() int { return 0 }
