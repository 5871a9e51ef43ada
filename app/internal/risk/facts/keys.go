package facts

import (
	"strconv"
	"strings"
)

// KeyNames names the key codes (US layout) whose shortcuts mean something
// to the analyzer, and the letters and signs a typed command is made of.
var KeyNames = map[int]string{
	0: "a", 1: "s", 2: "d", 3: "f", 4: "h", 5: "g", 6: "z", 7: "x", 8: "c", 9: "v", 11: "b", 12: "q",
	13: "w", 14: "e", 15: "r", 16: "y", 17: "t", 18: "1", 19: "2", 20: "3", 21: "4", 22: "6", 23: "5",
	24: "=", 25: "9", 26: "7", 27: "-", 28: "8", 29: "0", 30: "]", 31: "o", 32: "u", 33: "[", 34: "i",
	35: "p", 36: "\n", 37: "l", 38: "j", 39: "'", 40: "k", 41: ";", 42: "\\", 43: ",", 44: "/", 45: "n",
	46: "m", 47: ".", 49: " ", 50: "`", 51: "delete", 53: "escape", 76: "\n", 117: "delete",
}

// Shifted is what a key types with Shift down.
var Shifted = map[string]string{"`": "~", "1": "!", "7": "&", "\\": "|", ";": ":", "'": "\"", ",": "<", ".": ">", "/": "?", "-": "_", "=": "+", "9": "(", "0": ")", "8": "*", "4": "$", "3": "#", "2": "@"}

// KeyName reads a key value: "code:N" for key codes, else the typed text.
func KeyName(v string) string {
	if c, ok := strings.CutPrefix(v, "code:"); ok {
		if n, err := strconv.Atoi(c); err == nil {
			if k, ok := KeyNames[n]; ok {
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
