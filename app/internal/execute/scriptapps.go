package execute

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk"
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
// src (of kind) tells resolves (d.FileHandler, as the system resolves it)
// to none, or to one facts.AppEffect does not take for an installed app:
// in the home, outside the folders applications are installed in, or
// with no program. The names are the literals scriptApps reads and the
// ones the analyzer folds (rate.Env.AppAllowed is asked of each: a name
// in parentheses, by «class capp», joined, in a JXA variable or template,
// launched through NSWorkspace); an application the analyzer cannot name
// (a name computed at run time, Application taken as a value) fails too,
// as the system could answer it with any bundle (a red team's find,
// TestRed18ScriptTellsPlantedAppByAnotherForm). Where the platform
// resolves nothing (no desktop), it checks nothing: such a platform runs
// no script either.
func appsInstalled(ctx context.Context, d Desktop, kind, src string) error {
	unavailable := false
	check := func(name string) error {
		if unavailable {
			return nil
		}
		err := appInstalled(d, name)
		if errors.Is(err, bridge.ErrUnavailable) {
			unavailable = true
			return nil
		}
		return err
	}
	for _, name := range scriptApps(kind, src) {
		if err := check(name); err != nil || unavailable {
			return err
		}
	}
	var failed error
	env := &risk.Env{AppAllowed: func(name string) (bool, string) {
		if err := check(name); err != nil {
			if failed == nil {
				failed = err
			}
			return false, err.Error()
		}
		return true, ""
	}}
	k := risk.KindJXA
	if kind == KindAppleScript {
		k = risk.KindAppleScript
	}
	v, err := risk.AssessContext(ctx, k, src, env)
	switch {
	case err != nil:
		return fmt.Errorf("reading the applications it tells: %w", err)
	case unavailable:
		return nil
	case failed != nil:
		return failed
	}
	for _, r := range v.Reasons {
		if r.Rule != "as.app-not-allowed" && r.Rule != "jxa.app-not-allowed" {
			continue
		}
		// Named at run time: only where the platform resolves names.
		if _, err := d.FileHandler("", "Finder"); errors.Is(err, bridge.ErrUnavailable) {
			return nil
		}
		return fmt.Errorf("%w: it tells an application it names at run time, which the system could answer with one an action made (%s)", ErrAppNotInstalled, r.Text)
	}
	return nil
}

// appInstalled fails, wrapping ErrAppNotInstalled, when name resolves to
// no installed application; bridge.ErrUnavailable where the platform
// resolves nothing.
func appInstalled(d Desktop, name string) error {
	if strings.ContainsAny(name, "/:") {
		// application "/Users/me/X.app": the analyzer rates a path
		// (appAt); one outside the install folders is refused here too.
		if !facts.InstalledApp(strings.ToLower(name)) {
			return fmt.Errorf("%w: %s is not in the folders applications are installed in", ErrAppNotInstalled, name)
		}
		return nil
	}
	h, err := d.FileHandler("", name)
	switch {
	case errors.Is(err, bridge.ErrUnavailable):
		return err
	case err != nil:
		return fmt.Errorf("%w: %q was not found (%v); the system could answer the name with an application an action made", ErrAppNotInstalled, name, err)
	}
	if fx, why := facts.AppEffect(HandlerFacts(h)); fx.Mods&effect.Computed != 0 {
		// In the home, outside the install folders, or no program.
		return fmt.Errorf("%w: %s: %s", ErrAppNotInstalled, name, why)
	}
	return nil
}
