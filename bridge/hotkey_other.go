//go:build !darwin

package bridge

// RegisterHotkey returns ErrNoHotkey outside macOS: golang.design/x/hotkey's
// X11 backend panics at init without $DISPLAY, so it is never imported
// here, and the desktop's own shortcut settings bind `airlock kill` better.
func RegisterHotkey(h Hotkey, fn func()) (stop func(), err error) { return nil, ErrNoHotkey }
