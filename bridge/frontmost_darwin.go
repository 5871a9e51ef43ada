//go:build darwin

package bridge

import (
	"github.com/progrium/darwinkit/macos/appkit"
	"github.com/progrium/darwinkit/objc"
)

// Frontmost reports the application that owns the menu bar. NSWorkspace's
// frontmostApplication is documented as safe to read from any thread.
func Frontmost() (App, bool) {
	var app App
	ok := false
	objc.WithAutoreleasePool(func() {
		ws := appkit.Workspace_SharedWorkspace()
		ra := ws.FrontmostApplication()
		if ra.IsNil() {
			return
		}
		app = App{BundleID: ra.BundleIdentifier(), Name: ra.LocalizedName(), PID: int(ra.ProcessIdentifier())}
		ok = true
	})
	return app, ok
}
