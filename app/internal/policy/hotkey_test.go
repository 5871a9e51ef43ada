package policy_test

import (
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/policy"
)

func TestParseHotkey(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		want     policy.Hotkey
		str, sym string
		err      string
	}{
		{"the default", "ctrl+option+cmd+k", policy.DefaultKillHotkey, "ctrl+option+cmd+k", "⌃⌥⌘K", ""},
		{"any order, written in Apple's", "cmd+shift+ctrl+f12", policy.Hotkey{Ctrl: true, Shift: true, Cmd: true, Key: "F12"}, "ctrl+shift+cmd+f12", "⌃⇧⌘F12", ""},
		{"a digit", "option+cmd+0", policy.Hotkey{Option: true, Cmd: true, Key: "0"}, "option+cmd+0", "⌥⌘0", ""},
		{"key in capitals", "ctrl+cmd+K", policy.Hotkey{Ctrl: true, Cmd: true, Key: "K"}, "ctrl+cmd+k", "⌃⌘K", ""},
		{"none", "none", policy.Hotkey{}, "none", "", ""},
		{"one modifier", "cmd+k", policy.Hotkey{}, "", "", "two or more modifiers"},
		{"shift alone cannot guard", "shift+shift+k", policy.Hotkey{}, "", "", "named twice"},
		{"shift is not enough", "shift+f1+k", policy.Hotkey{}, "", "", `"f1" is not a modifier`},
		{"an alias", "control+option+k", policy.Hotkey{}, "", "", `"control" is not a modifier`},
		{"modifier in capitals", "Ctrl+option+k", policy.Hotkey{}, "", "", `"Ctrl" is not a modifier`},
		{"a space", "ctrl + option + k", policy.Hotkey{}, "", "", "is not a modifier"},
		{"no key", "ctrl+option+", policy.Hotkey{}, "", "", `"" is not a key`},
		{"a word for a key", "ctrl+option+return", policy.Hotkey{}, "", "", `"return" is not a key`},
		{"F21", "ctrl+option+f21", policy.Hotkey{}, "", "", "is not a key"},
		{"punctuation", "ctrl+option+;", policy.Hotkey{}, "", "", "is not a key"},
		{"empty", "", policy.Hotkey{}, "", "", "two or more modifiers"},
		{"two keys", "ctrl+option+k+j", policy.Hotkey{}, "", "", `"k" is not a modifier`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := policy.ParseHotkey(tc.in)
			if tc.err != "" {
				if !errors.Is(err, policy.ErrBadHotkey) || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseHotkey(%q) = %+v, %v; want an error saying %q", tc.in, h, err, tc.err)
				}
				return
			}
			if err != nil || h != tc.want {
				t.Fatalf("ParseHotkey(%q) = %+v, %v; want %+v", tc.in, h, err, tc.want)
			}
			if h.String() != tc.str || h.Symbols() != tc.sym || !h.Valid() {
				t.Errorf("String %q Symbols %q Valid %v; want %q %q true", h.String(), h.Symbols(), h.Valid(), tc.str, tc.sym)
			}
		})
	}
	for _, h := range []policy.Hotkey{{Shift: true, Ctrl: true}, {Cmd: true, Key: "K"}, {Ctrl: true, Cmd: true, Key: "k"}, {Ctrl: true, Cmd: true, Key: "ESC"}} {
		if h.Valid() {
			t.Errorf("%+v is valid", h)
		}
	}
}

func TestKillHotkeySetting(t *testing.T) {
	_, file := settingsDir(t)
	if s, err := policy.ParseSettings([]byte(`{}`)); err != nil || s.KillHotkey != policy.DefaultKillHotkey {
		t.Fatalf("default: %+v, %v", s.KillHotkey, err)
	}
	s, err := policy.ParseSettings([]byte(`{"killHotkey": "ctrl+shift+cmd+f9"}`))
	if err != nil || s.KillHotkey.String() != "ctrl+shift+cmd+f9" {
		t.Fatalf("ctrl+shift+cmd+f9: %+v, %v", s.KillHotkey, err)
	}
	if err := policy.SaveSettings(file, s); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(file)
	if !strings.Contains(string(b), `"killHotkey": "ctrl+shift+cmd+f9"`) {
		t.Errorf("saved file:\n%s", b)
	}
	for _, tc := range []struct{ in, want string }{
		{`{"killHotkey": "cmd+k"}`, "two or more modifiers"},
		{`{"killHotkey": ["ctrl", "k"]}`, "in quotes"},
		{"{\n\"killHotkey\": \"ctrl+alt+k\"}", `line 2: "killHotkey" is "ctrl+alt+k": "alt" is not a modifier`},
	} {
		_, err := policy.ParseSettings([]byte(tc.in))
		var se *policy.SettingsError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want a settings error saying %q", tc.in, err, tc.want)
		}
	}
	bad := policy.DefaultSettings()
	bad.KillHotkey = policy.Hotkey{Cmd: true, Key: "Q"}
	if err := policy.SaveSettings(file, bad); err == nil || !strings.Contains(err.Error(), "killHotkey") {
		t.Errorf("saving ⌘Q as the kill hotkey: %v", err)
	}
}

// FuzzParseHotkey checks that whatever the parser accepts is valid and
// writes back to the same combination.
func FuzzParseHotkey(f *testing.F) {
	for _, s := range []string{"ctrl+option+cmd+k", "none", "cmd+shift+f20", "ctrl++k", "+", "ctrl+option+é"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := policy.ParseHotkey(s)
		if err != nil {
			return
		}
		if !h.Valid() {
			t.Fatalf("accepted %q as %+v, which is not valid", s, h)
		}
		back, err := policy.ParseHotkey(h.String())
		if err != nil || back != h {
			t.Fatalf("%q: wrote %q, read back %+v, %v", s, h.String(), back, err)
		}
	})
}
