package shell

import (
	"path"
	"strings"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// writableProgram reports whether the command word w names its program by
// a path to a place actions may write: a sandbox root, a temporary
// folder, or a path relative to a working folder the analysis cannot place
// outside them. Such a file may be anything an earlier action wrote under
// any name (a script called git in ~/Documents), so it is judged as an
// unknown program, never by its name. A path in the system's folders or
// elsewhere in the home (~/.local/bin/black), where no action writes, is
// the program its name says. A name without a slash is a program on the
// PATH.
func (a *shellAn) writableProgram(w word) bool {
	if !strings.Contains(w.s, "/") || w.hole {
		return false
	}
	p, ok := a.pathOf(w)
	if !ok || a.env == nil || a.env.Paths == nil {
		return true // a path not known well enough may lie anywhere
	}
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
		return true // relative to a folder the analysis lost
	}
	abs, err := sanitize.ExpandHome(p, a.env.Paths.Home)
	if err != nil {
		return true
	}
	abs = path.Clean(abs)
	switch a.env.Paths.Classify(abs).Kind {
	case sanitize.ZoneSandbox, sanitize.ZoneTemp:
		return true
	}
	for _, r := range a.env.Paths.Roots {
		if abs == r || strings.HasPrefix(abs, strings.TrimSuffix(r, "/")+"/") {
			return true
		}
	}
	return false
}
