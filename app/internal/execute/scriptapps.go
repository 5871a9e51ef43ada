package execute

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/bridge"
)

// ErrAppNotInstalled is wrapped by the error of an unasked script that
// tells an application by a name that is no installed application's.
// Launch Services answers a name with the bundle it finds: one an
// earlier unasked action made (~/Applications/Notes Helper.app, a
// Safari.app in a project of the roots, one on a disk image), which the
// system starts outside every sandbox to receive the script's events.
var ErrAppNotInstalled = errors.New("it tells an application that is not installed where applications are installed")

// The applications a script names by a literal: AppleScript's
// application "X", app "X", application id "X" (and what those lines hold
// in comments: checking more is never less safe), and JXA's
// Application('X'). A name computed at run time is the analyzer's to rate
// (an application named at run time).
var (
	asAppName  = regexp.MustCompile(`(?i)\b(?:application|app)\s+(?:id\s+)?"((?:[^"\\]|\\.)*)"`)
	jxaAppName = regexp.MustCompile("\\bApplication\\s*\\(\\s*(?:'((?:[^'\\\\]|\\\\.)*)'|\"((?:[^\"\\\\]|\\\\.)*)\"|`([^`$]*)`)\\s*\\)")
)

// scriptApps returns the application names src (of kind) tells by a
// literal, each once, in order; at most maxScriptApps.
func scriptApps(kind, src string) []string {
	re := asAppName
	if kind == KindJXA {
		re = jxaAppName
	}
	var out []string
	for _, m := range re.FindAllStringSubmatch(src, -1) {
		name := ""
		for _, g := range m[1:] {
			if g != "" {
				name = unescape(g)
				break
			}
		}
		if name == "" || containsFold(out, name) {
			continue
		}
		out = append(out, name)
		if len(out) == maxScriptApps {
			break
		}
	}
	return out
}

// maxScriptApps bounds the names resolved for one script.
const maxScriptApps = 32

func containsFold(list []string, s string) bool {
	for _, x := range list {
		if strings.EqualFold(x, s) {
			return true
		}
	}
	return false
}

// appsInstalled fails, wrapping ErrAppNotInstalled, when an application
// src tells by name resolves (d.FileHandler, as the system resolves it)
// to none, or to one facts.AppEffect does not take for an installed app:
// in the home, outside the folders applications are installed in, or
// with no program. Where the platform resolves nothing (no desktop), it
// checks nothing: such a platform runs no script either.
func appsInstalled(d Desktop, kind, src string) error {
	for _, name := range scriptApps(kind, src) {
		if strings.ContainsAny(name, "/:") {
			// application "/Users/me/X.app": the analyzer rates a path
			// (appAt); one outside the install folders is refused here too.
			if !facts.InstalledApp(strings.ToLower(name)) {
				return fmt.Errorf("%w: %s is not in the folders applications are installed in", ErrAppNotInstalled, name)
			}
			continue
		}
		h, err := d.FileHandler("", name)
		switch {
		case errors.Is(err, bridge.ErrUnavailable):
			return nil
		case err != nil:
			return fmt.Errorf("%w: %q was not found (%v); the system could answer the name with an application an action made", ErrAppNotInstalled, name, err)
		}
		if fx, why := facts.AppEffect(HandlerFacts(h)); fx.Mods&effect.Computed != 0 {
			// In the home, outside the install folders, or no program.
			return fmt.Errorf("%w: %s: %s", ErrAppNotInstalled, name, why)
		}
	}
	return nil
}
