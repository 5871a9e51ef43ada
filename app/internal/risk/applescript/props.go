package applescript

import "strings"

// recordProperties are the properties of the records standard additions'
// system info and info for return, whose names are several words
// ("short user name of (system info)"): a statement that starts with one
// and goes on with "of" reads it, no command. Checked only where the first
// word would otherwise be rated an unknown command.
var recordProperties = [][]string{
	{"short", "user", "name"}, {"long", "user", "name"}, {"user", "id"}, {"user", "locale"},
	{"home", "directory"}, {"boot", "volume"}, {"computer", "name"}, {"host", "name"},
	{"ipv4", "address"}, {"primary", "ethernet", "address"}, {"cpu", "type"}, {"cpu", "speed"},
	{"physical", "memory"}, {"system", "version"}, {"applescript", "version"}, {"applescript", "studio", "version"},
	{"creation", "date"}, {"modification", "date"}, {"displayed", "name"}, {"name", "extension"},
	{"short", "version"}, {"long", "version"}, {"bundle", "identifier"}, {"file", "creator"}, {"file", "type"},
	{"default", "application"}, {"package", "folder"},
}

// recordProperty reports a statement whose words from st[i] name one of
// recordProperties followed by of.
func (an *asAn) recordProperty(st []asToken, i int) bool {
	for _, p := range recordProperties {
		if i+len(p) >= len(st) || st[i+len(p)].kw != kwOf {
			continue
		}
		match := true
		for j, w := range p {
			if t := st[i+j]; t.kind != asWord || !strings.EqualFold(an.text(t), w) {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}
