//go:build !darwin

package bridge

// interpret answers that AppleScript needs macOS.
func interpret(string, []string, bool) (string, error) {
	return "", needsMacOS("run AppleScript")
}
