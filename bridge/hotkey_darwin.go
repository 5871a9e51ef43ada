//go:build darwin

package bridge

import (
	"fmt"
	"sync"

	"github.com/progrium/darwinkit/dispatch"
	"golang.design/x/hotkey"
)

// hotkeyKeys maps the keys a Hotkey may name to their virtual key codes.
var hotkeyKeys = map[string]hotkey.Key{
	"A": hotkey.KeyA, "B": hotkey.KeyB, "C": hotkey.KeyC, "D": hotkey.KeyD, "E": hotkey.KeyE, "F": hotkey.KeyF,
	"G": hotkey.KeyG, "H": hotkey.KeyH, "I": hotkey.KeyI, "J": hotkey.KeyJ, "K": hotkey.KeyK, "L": hotkey.KeyL,
	"M": hotkey.KeyM, "N": hotkey.KeyN, "O": hotkey.KeyO, "P": hotkey.KeyP, "Q": hotkey.KeyQ, "R": hotkey.KeyR,
	"S": hotkey.KeyS, "T": hotkey.KeyT, "U": hotkey.KeyU, "V": hotkey.KeyV, "W": hotkey.KeyW, "X": hotkey.KeyX,
	"Y": hotkey.KeyY, "Z": hotkey.KeyZ,
	"0": hotkey.Key0, "1": hotkey.Key1, "2": hotkey.Key2, "3": hotkey.Key3, "4": hotkey.Key4,
	"5": hotkey.Key5, "6": hotkey.Key6, "7": hotkey.Key7, "8": hotkey.Key8, "9": hotkey.Key9,
	"F1": hotkey.KeyF1, "F2": hotkey.KeyF2, "F3": hotkey.KeyF3, "F4": hotkey.KeyF4, "F5": hotkey.KeyF5,
	"F6": hotkey.KeyF6, "F7": hotkey.KeyF7, "F8": hotkey.KeyF8, "F9": hotkey.KeyF9, "F10": hotkey.KeyF10,
	"F11": hotkey.KeyF11, "F12": hotkey.KeyF12, "F13": hotkey.KeyF13, "F14": hotkey.KeyF14, "F15": hotkey.KeyF15,
	"F16": hotkey.KeyF16, "F17": hotkey.KeyF17, "F18": hotkey.KeyF18, "F19": hotkey.KeyF19, "F20": hotkey.KeyF20,
}

// RegisterHotkey listens for h system-wide (Carbon's RegisterEventHotKey
// through golang.design/x/hotkey v0.5.0: no Accessibility permission) and
// calls fn on its own goroutine each time it is pressed, until stop is
// called. Call it from a goroutine other than the main one once the app's
// run loop is running (systray's onReady): the package hands the
// registration to the main queue itself. fn must not block for long.
func RegisterHotkey(h Hotkey, fn func()) (stop func(), err error) {
	key, ok := hotkeyKeys[h.Key]
	if !ok {
		return nil, fmt.Errorf("registering the hotkey: %q is not a key the bridge knows", h.Key)
	}
	var mods []hotkey.Modifier
	if h.Ctrl {
		mods = append(mods, hotkey.ModCtrl)
	}
	if h.Option {
		mods = append(mods, hotkey.ModOption)
	}
	if h.Shift {
		mods = append(mods, hotkey.ModShift)
	}
	if h.Cmd {
		mods = append(mods, hotkey.ModCmd)
	}
	if len(mods) == 0 {
		return nil, fmt.Errorf("registering the hotkey: %s needs a modifier", h.Key)
	}
	hk := hotkey.New(mods, key)
	if err := hk.Register(); err != nil {
		return nil, fmt.Errorf("registering the hotkey: %w", err)
	}
	done := make(chan struct{})
	keydown := hk.Keydown()
	go func() {
		for {
			select {
			case _, ok := <-keydown:
				if !ok {
					return
				}
				fn()
			case <-done:
				return
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(done)
			// Carbon's hot keys belong to the main thread, where their
			// callback runs; unregistering there cannot race it.
			dispatch.MainQueue().DispatchAsync(func() { hk.Unregister() })
		})
	}, nil
}
