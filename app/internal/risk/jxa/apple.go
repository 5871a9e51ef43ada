package jxa

import (
	"strconv"
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
)

// What JXA reads of the Mac the way the AppleScript analyzer does: which
// applications Airlock knows, which are terminals, what a menu item or a key
// code means. The tables are package facts'; these are the look-ups over them
// (the AppleScript analyzer has its own, tuned for its lexer; the two are to
// be unified once both languages live in packages of their own).

// appKey reduces a lower-cased application name, bundle id or path to the
// key of facts.Apps: "/Applications/iTerm.app/" and
// "Macintosh HD:Applications:Warp.app:" name iterm and warp.
func appKey(low string) string {
	key := strings.TrimRight(low, "/:")
	key = strings.TrimSuffix(key, ".app")
	if i := strings.LastIndexByte(key, ':'); i >= 0 && i < len(key)-1 {
		key = strings.TrimSuffix(key[i+1:], ".app")
	}
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		key = key[i+1:]
	}
	return key
}

// appInfo finds an application by name, bundle id or path; nil when Airlock
// does not know it.
func appInfo(name string) *facts.App {
	key := appKey(strings.ToLower(strings.TrimSpace(name)))
	if info := facts.Apps[key]; info != nil {
		return info
	}
	if alias, ok := facts.AppIDs[key]; ok {
		return facts.Apps[alias]
	}
	return nil
}

// jsTerminal reports a terminal application, by name, bundle id or path.
func jsTerminal(name string) bool {
	low := strings.ToLower(strings.TrimSpace(name))
	key := strings.TrimRight(low, "/:")
	if i := strings.LastIndexAny(key, "/:"); i >= 0 {
		key = key[i+1:]
	}
	key = strings.TrimSuffix(key, ".app")
	if facts.Terminals[key] {
		return true
	}
	if info := appInfo(low); info != nil {
		return info.Title == "Terminal" || info.Title == "iTerm"
	}
	return false
}

// menuItemRisk rates a menu item or button chosen by UI scripting by what
// it is called.
func menuItemRisk(label string) (level.Level, string) {
	l := strings.ToLower(strings.TrimRight(strings.TrimSpace(label), ".…"))
	// A prefix of a dangerous label finds it too (whose name starts with "Empty").
	for _, full := range []string{"empty trash", "empty bin", "erase", "secure empty trash", "move to trash", "move to bin", "shut down", "restart", "log out"} {
		if len(l) >= 4 && strings.HasPrefix(full, l) {
			l = full
			break
		}
	}
	if l == "trash" || l == "bin" || strings.HasSuffix(l, " trash") || strings.HasSuffix(l, " bin") {
		// whose name ends with "Trash": Empty Trash or Move to Trash.
		if !strings.HasPrefix(l, "empty") && !strings.HasPrefix(l, "move") {
			return level.Dangerous, "empties the Trash or moves items to it"
		}
	}
	switch {
	case strings.Contains(l, "empty trash") || strings.Contains(l, "empty bin") || strings.Contains(l, "erase") || strings.Contains(l, "secure empty"):
		return level.Destructive, "permanently deletes"
	case strings.Contains(l, "delete") || strings.Contains(l, "move to trash") || strings.Contains(l, "move to bin") ||
		strings.Contains(l, "shut down") || strings.Contains(l, "restart") || strings.Contains(l, "log out") ||
		strings.Contains(l, "force quit") || strings.Contains(l, "reset") || strings.Contains(l, "clear history") ||
		strings.Contains(l, "remove all") || strings.Contains(l, "clear all"):
		return level.Dangerous, "deletes, resets or powers off"
	}
	return level.Safe, ""
}

// keyNames names the key codes (US layout) whose shortcuts mean something
// to the analyzer, and the letters and signs a typed command is made of.
var keyNames = map[int]string{
	0: "a", 1: "s", 2: "d", 3: "f", 4: "h", 5: "g", 6: "z", 7: "x", 8: "c", 9: "v", 11: "b", 12: "q",
	13: "w", 14: "e", 15: "r", 16: "y", 17: "t", 18: "1", 19: "2", 20: "3", 21: "4", 22: "6", 23: "5",
	24: "=", 25: "9", 26: "7", 27: "-", 28: "8", 29: "0", 30: "]", 31: "o", 32: "u", 33: "[", 34: "i",
	35: "p", 36: "\n", 37: "l", 38: "j", 39: "'", 40: "k", 41: ";", 42: "\\", 43: ",", 44: "/", 45: "n",
	46: "m", 47: ".", 49: " ", 50: "`", 51: "delete", 53: "escape", 76: "\n", 117: "delete",
}

// keyName reads a key value: "code:N" for key codes, else the typed text.
func keyName(v string) string {
	if c, ok := strings.CutPrefix(v, "code:"); ok {
		if n, err := strconv.Atoi(c); err == nil {
			if k, ok := keyNames[n]; ok {
				return k
			}
		}
		return v
	}
	switch v = strings.ToLower(v); v {
	case "\b", "\x7f":
		return "delete"
	case "\x1b":
		return "escape"
	case "\r":
		return "\n"
	}
	return v
}

// isWordByte reports a byte of an identifier: a letter, a digit or _.
func isWordByte(c byte) bool { return wordBytes[c] }

var wordBytes = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
	}
	return t
}()

func isUnicodeSpace(r rune) bool {
	switch r {
	case 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
		0x202f, 0x205f, 0x3000, 0xfeff, 0x200b, 0x2060, 0x85:
		return true
	}
	return false
}

// isUnicodeLetter reports a non-ASCII rune that may be part of a name.
func isUnicodeLetter(r rune) bool {
	return r >= 0xc0 && r != 0xd7 && r != 0xf7 && r != '¬' && r != '«' && r != '»' && !isUnicodeSpace(r) &&
		(r < 0x2000 || r > 0x2bff) && r != '“' && r != '”' && r != '≠' && r != '≤' && r != '≥' && r != '÷'
}
