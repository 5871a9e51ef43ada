package facts

import "strings"

// RunnableExt returns the extension of a file that runs code when opened.
func RunnableExt(p string) string {
	low := strings.ToLower(strings.TrimRight(strings.TrimSpace(p), "/"))
	for _, ext := range RunnableExts {
		if strings.HasSuffix(low, ext) {
			return ext
		}
	}
	return ""
}
