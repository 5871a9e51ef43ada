package facts

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
)

// MenuItemRisk rates a menu item or button chosen by UI scripting by what
// it is called.
func MenuItemRisk(label string) (level.Level, string) {
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
