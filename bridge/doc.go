// Package bridge is Airlock's platform layer: it does what it is told and
// holds no policy. It imports nothing from app/. Darwin code lives in
// *_darwin.go files (darwinkit), Linux code in *_linux.go, and the portable
// API uses plain Go types. bridge/darwincheck type-checks the darwin files
// on any OS.
package bridge

// App identifies a running application, as the context lock records it.
type App struct {
	BundleID string // "com.apple.Safari"; on Linux the desktop file id
	Name     string // the localized name shown to the user
	PID      int
}
