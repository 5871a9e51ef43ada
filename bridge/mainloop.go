package bridge

import "sync/atomic"

// mainLoopRunning says whether the process runs the main run loop (the
// menu-bar app, under systray). Some macOS state (the frontmost app) is kept
// current only while it runs.
var mainLoopRunning atomic.Bool

// SetMainLoopRunning tells the bridge that the main run loop runs, or no
// longer does. The menu-bar app calls it once its menu is ready.
func SetMainLoopRunning(on bool) { mainLoopRunning.Store(on) }
