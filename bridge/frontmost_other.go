//go:build !darwin

package bridge

// Frontmost reports the focused application. Outside macOS the bridge for
// the desktop arrives with the Linux bridge; until then there is none.
func Frontmost() (App, bool) { return App{}, false }
