//go:build !linux && !darwin

package launcher

// launch confines nothing where there is no OS sandbox: it refuses.
func launch(Spec) int { return ExitSetup }
