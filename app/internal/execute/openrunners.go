package execute

import (
	"io/fs"
	"path/filepath"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// A file that runs code when the person opens it (sanitize.RunsWhenOpened:
// a .terminal, a .command, a Finder or web location, a jar, an app
// bundle's program) runs an unasked action's code at the person's next
// double-click, with no executable bit and no question first (a sixteenth
// red team's find, TestRed16DoubleClickRunners). Such a change is held
// like one that gains an executable bit. As with that bit, a DSL move or
// copy of what already was such a file (a downloaded app copied to the
// Documents) is the person's own moved, not one made: only a file that
// becomes one by the move or copy (notes.txt copied to Invoice.terminal)
// is refused.

// openedWhy says why c leaves a file that runs code when opened ("" when it
// does not, or when c is a folder: what it holds is judged by itself).
func (l *plantLook) openedWhy(c sandbox.Change, mode fs.FileMode) string {
	if mode.IsDir() {
		return ""
	}
	what, ok := sanitize.RunsWhenOpened(c.Path)
	if !ok {
		return ""
	}
	if l.movedFrom != nil {
		if src, ok := l.movedFrom(c.Path); ok {
			if _, was := sanitize.RunsWhenOpened(src); was {
				return ""
			}
		}
	}
	return what
}

// sourceOf returns, for a move or copy of from to to, the source of what
// lands at p (to or a path below it).
func sourceOf(from, to string) func(p string) (string, bool) {
	return func(p string) (string, bool) {
		if p == to {
			return from, true
		}
		rel, err := filepath.Rel(to, p)
		if err != nil || !filepath.IsLocal(rel) {
			return "", false
		}
		return filepath.Join(from, rel), true
	}
}
