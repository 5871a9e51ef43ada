package bridge

import "errors"

// Hotkey is a global key combination: modifiers and one key, a letter
// ("K"), a digit ("7") or a function key ("F5"). policy.Hotkey has the same
// fields, so a setting converts with bridge.Hotkey(h).
type Hotkey struct {
	Ctrl, Option, Shift, Cmd bool
	Key                      string
}

// ErrNoHotkey is returned by RegisterHotkey where the bridge cannot listen
// for a global hotkey (outside macOS: bind `airlock kill` in the desktop's
// shortcut settings instead).
var ErrNoHotkey = errors.New("no global hotkey on this platform: bind `airlock kill` in the desktop's keyboard shortcut settings")
