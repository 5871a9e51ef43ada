package llm

// maxKeyName bounds an API key's name, in bytes.
const maxKeyName = 64

// ValidKeyName reports whether name can name an API key: 1 to 64 bytes of
// letters, digits and . _ -.
func ValidKeyName(name string) bool {
	if name == "" || len(name) > maxKeyName {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// KeyStoreName is the key store item an API key named name is kept under.
// The prefix keeps API keys apart from Airlock's own keys (the history's),
// so `airlock key set` can never overwrite one of those.
func KeyStoreName(name string) string { return "llm-api-key-" + name }
