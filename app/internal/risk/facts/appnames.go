package facts

import (
	"bytes"
	"strings"
	"sync"
)

// Applications are named in scripts by name, bundle id, creator code or
// path ("Finder", "com.apple.finder", "/System/…/Finder.app/",
// "Macintosh HD:System:…:Finder.app:"); these read every spelling the same
// way, for every language.

// AppInfo finds an application by any of its spellings in Apps; nil when
// it is not known.
func AppInfo(name string) *App {
	var buf [64]byte
	return AppInfoLower(LowerName(buf[:0], name))
}

// AppInfoLower is AppInfo for a name LowerName has lower-cased.
func AppInfoLower(low []byte) *App {
	key := AppKey(low)
	if info := Apps[string(key)]; info != nil {
		return info
	}
	if alias, ok := AppIDs[string(key)]; ok {
		return Apps[alias]
	}
	return nil
}

// AppKey reduces a lower-cased application name to the key of Apps:
// "…:finder.app:", "/system/…/finder.app/" and "finder" are "finder".
func AppKey(key []byte) []byte {
	key = bytes.TrimRight(key, "/:")
	key = bytes.TrimSuffix(key, []byte(".app"))
	if i := bytes.LastIndexByte(key, ':'); i >= 0 && i < len(key)-1 {
		key = bytes.TrimSuffix(key[i+1:], []byte(".app")) // "Macintosh HD:System:…:Finder.app"
	}
	if i := bytes.LastIndexByte(key, '/'); i >= 0 {
		key = key[i+1:]
	}
	return key
}

// LowerName appends name, without surrounding blanks and lower-cased (as
// strings.ToLower does), to buf.
func LowerName(buf []byte, name string) []byte {
	name = strings.TrimSpace(name)
	for i := 0; i < len(name); i++ {
		if name[i] >= 0x80 {
			return append(buf, strings.ToLower(name)...)
		}
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return buf
}

// IsTerminal reports a terminal application (Terminals, or an App titled
// Terminal or iTerm) by name, bundle id, creator code or path
// ("/Applications/iTerm.app/", "Macintosh HD:Applications:Warp.app:").
func IsTerminal(name string) bool {
	var buf [64]byte
	low := LowerName(buf[:0], name)
	if plainAppName(low) {
		// Both spellings of the key below are low itself.
		return terminalKeys()[string(low)]
	}
	key := bytes.TrimRight(low, "/:")
	if i := bytes.LastIndexAny(key, "/:"); i >= 0 {
		key = key[i+1:]
	}
	key = bytes.TrimSuffix(key, []byte(".app"))
	if Terminals[string(key)] {
		return true
	}
	if info := AppInfoLower(low); info != nil {
		return info.Title == "Terminal" || info.Title == "iTerm"
	}
	return false
}

// plainAppName reports a lower-cased name that is its own key: no path,
// no .app.
func plainAppName(low []byte) bool {
	for _, c := range low {
		if c == '/' || c == ':' {
			return false
		}
	}
	return !bytes.HasSuffix(low, []byte(".app"))
}

// terminalKeys is IsTerminal for plain names: every key of Terminals,
// Apps and AppIDs that names a terminal.
var terminalKeys = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for key := range Terminals {
		m[key] = true
	}
	for key, info := range Apps {
		if info.Title == "Terminal" || info.Title == "iTerm" {
			m[key] = true
		}
	}
	for key, alias := range AppIDs {
		if info := Apps[alias]; info != nil && Apps[key] == nil && (info.Title == "Terminal" || info.Title == "iTerm") {
			m[key] = true
		}
	}
	return m
})
