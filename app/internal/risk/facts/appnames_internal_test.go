package facts

import (
	"bytes"
	"strings"
	"testing"
)

// TestTerminalAppPlainNames checks IsTerminal's short way for plain
// names (one look-up in terminalKeys) against the long way every other
// name takes, for every name the tables hold, in several spellings.
func TestTerminalAppPlainNames(t *testing.T) {
	long := func(name string) bool {
		low := LowerName(nil, name)
		key := bytes.TrimRight(low, "/:")
		if i := bytes.LastIndexAny(key, "/:"); i >= 0 {
			key = key[i+1:]
		}
		key = bytes.TrimSuffix(key, []byte(".app"))
		if Terminals[string(key)] {
			return true
		}
		info := AppInfoLower(low)
		return info != nil && (info.Title == "Terminal" || info.Title == "iTerm")
	}
	var names []string
	for k := range Apps {
		names = append(names, k)
	}
	for k := range AppIDs {
		names = append(names, k)
	}
	for k := range Terminals {
		names = append(names, k)
	}
	names = append(names, "Notes", "TextEdit", "Unknown App", "")
	terminals := 0
	for _, n := range names {
		for _, s := range []string{n, strings.ToUpper(n), " " + n + " ", capitalize(n), "/Applications/" + capitalize(n) + ".app/"} {
			if got, want := IsTerminal(s), long(s); got != want {
				t.Errorf("IsTerminal(%q) = %v, want %v", s, got, want)
			}
			if IsTerminal(s) {
				terminals++
			}
		}
	}
	if terminals == 0 {
		t.Error("no name was a terminal: the tables are not what this test expects")
	}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
