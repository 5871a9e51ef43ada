package policy

import (
	"errors"
	"fmt"
	"strings"
)

// Hotkey is a global key combination, as the settings file spells it:
// "ctrl+option+cmd+k". Its fields mirror bridge.Hotkey, so a value converts
// with bridge.Hotkey(h). The zero value is no hotkey at all ("none").
type Hotkey struct {
	Ctrl, Option, Shift, Cmd bool
	Key                      string // "K", "7", "F5"; "" only in the zero value
}

// DefaultKillHotkey is ⌃⌥⌘K, the kill switch's combination unless the
// settings name another.
var DefaultKillHotkey = Hotkey{Ctrl: true, Option: true, Cmd: true, Key: "K"}

// ErrBadHotkey is wrapped by ParseHotkey's errors.
var ErrBadHotkey = errors.New("not a hotkey")

// ParseHotkey reads a combination written as modifiers and one key joined by
// "+": the modifiers ctrl, option, shift and cmd, each at most once, in any
// order, and one key, a letter, a digit or F1 to F20, last. It is strict:
// no spaces, no other names, at least two modifiers of which at least one is
// ctrl, option or cmd (a combination of shift and a letter would steal
// ordinary typing). "none" is the zero Hotkey: no global hotkey.
func ParseHotkey(s string) (Hotkey, error) {
	if s == "none" {
		return Hotkey{}, nil
	}
	bad := func(reason string) (Hotkey, error) {
		return Hotkey{}, fmt.Errorf("%w: %s", ErrBadHotkey, reason)
	}
	parts := strings.Split(s, "+")
	if len(parts) < 3 {
		return bad(`write two or more modifiers and a key, like "ctrl+option+cmd+k"`)
	}
	var h Hotkey
	for _, p := range parts[:len(parts)-1] {
		var m *bool
		switch p {
		case "ctrl":
			m = &h.Ctrl
		case "option":
			m = &h.Option
		case "shift":
			m = &h.Shift
		case "cmd":
			m = &h.Cmd
		default:
			return bad(fmt.Sprintf("%q is not a modifier (ctrl, option, shift, cmd)", p))
		}
		if *m {
			return bad(fmt.Sprintf("%q is named twice", p))
		}
		*m = true
	}
	if !h.Ctrl && !h.Option && !h.Cmd {
		return bad("needs ctrl, option or cmd")
	}
	key := strings.ToUpper(parts[len(parts)-1])
	if !validKey(key) {
		return bad(fmt.Sprintf("%q is not a key (a letter, a digit, or f1 to f20)", parts[len(parts)-1]))
	}
	h.Key = key
	return h, nil
}

func validKey(k string) bool {
	if len(k) == 1 {
		return k[0] >= 'A' && k[0] <= 'Z' || k[0] >= '0' && k[0] <= '9'
	}
	for n := 1; n <= 20; n++ {
		if k == fmt.Sprintf("F%d", n) {
			return true
		}
	}
	return false
}

// Valid reports whether h is a combination ParseHotkey accepts, or none.
func (h Hotkey) Valid() bool {
	if h == (Hotkey{}) {
		return true
	}
	back, err := ParseHotkey(h.String())
	return err == nil && back == h
}

// String writes h as the settings file holds it, modifiers in Apple's order:
// "ctrl+option+shift+cmd+k", or "none".
func (h Hotkey) String() string {
	if h.Key == "" {
		return "none"
	}
	var b strings.Builder
	for _, m := range []struct {
		on   bool
		name string
	}{{h.Ctrl, "ctrl"}, {h.Option, "option"}, {h.Shift, "shift"}, {h.Cmd, "cmd"}} {
		if m.on {
			b.WriteString(m.name + "+")
		}
	}
	b.WriteString(strings.ToLower(h.Key))
	return b.String()
}

// Symbols writes h as a Mac menu shows it: "⌃⌥⌘K"; "" for none.
func (h Hotkey) Symbols() string {
	if h.Key == "" {
		return ""
	}
	var b strings.Builder
	for _, m := range []struct {
		on  bool
		sym string
	}{{h.Ctrl, "⌃"}, {h.Option, "⌥"}, {h.Shift, "⇧"}, {h.Cmd, "⌘"}} {
		if m.on {
			b.WriteString(m.sym)
		}
	}
	b.WriteString(h.Key)
	return b.String()
}
