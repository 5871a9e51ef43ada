package facts

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// MenuItemEffect says what choosing a menu item or button by UI scripting
// does, by what it is called, and why; ok is false for a label that names
// nothing risky.
func MenuItemEffect(label string) (e effect.Effect, why string, ok bool) {
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
			return effect.Of(effect.Trash), "empties the Trash or moves items to it", true
		}
	}
	const resets = "deletes, resets or powers off"
	switch {
	case strings.Contains(l, "empty trash") || strings.Contains(l, "empty bin") || strings.Contains(l, "erase") || strings.Contains(l, "secure empty"):
		return effect.Of(effect.Remove), "permanently deletes", true
	case strings.Contains(l, "shut down") || strings.Contains(l, "restart") || strings.Contains(l, "log out"):
		return effect.Of(effect.Power), resets, true
	case strings.Contains(l, "force quit"):
		return effect.Of(effect.Signal, effect.Forced), resets, true
	case strings.Contains(l, "reset"):
		return effect.Of(effect.Setting, effect.Session), resets, true
	case strings.Contains(l, "delete") || strings.Contains(l, "move to trash") || strings.Contains(l, "move to bin") ||
		strings.Contains(l, "clear history") || strings.Contains(l, "remove all") || strings.Contains(l, "clear all"):
		return effect.Of(effect.Trash), resets, true
	}
	return effect.Effect{}, "", false
}
