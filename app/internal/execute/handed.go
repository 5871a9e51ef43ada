package execute

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// errHandedUnknown is why an unasked script that hands an app a path named
// at run time is not started while the sandbox hides a file.
var errHandedUnknown = errors.New("it hands an application a path named at run time, which the application reads outside every sandbox and which cannot be checked against the files unasked actions do not see")

// handedPaths returns the paths an AppleScript or JXA script hands the
// apps it drives to open, as the analyzer reads them (a Launch effect's
// Target: strings joined, an array's join, escapes and the home folded;
// "dir/…" for an item of dir a variable holds, jxa's heldItems),
// and whether it hands one the analyzer cannot name (a Launch effect
// Computed: a Finder listing's item, argv, a date). A name computed at run
// time is in no literal, so namedIn cannot see it; the analyzer's folding
// can, and what it cannot fold nothing can check (a red team's find,
// TestRed15bScriptComputesHiddenKeysName).
//
// The items it hands an app to copy, move, attach or send (the Finder's
// duplicate of a folder, Mail's attachment, a file Messages sends), which
// the app reads outside every sandbox as well, are told by env.Handed
// (items: "" for one the analyzer cannot name, which makes unknown true).
// They were not checked: the Finder copied a folder holding a hidden key
// into the roots, Mail attached a key by a name joined at run time (a red
// team's find, TestRed18ScriptHandsAppItemToCopyOrAttach).
func handedPaths(ctx context.Context, kind, src string, env *risk.Env) (paths, items []string, unknown bool, err error) {
	k := risk.KindJXA
	if kind == KindAppleScript {
		k = risk.KindAppleScript
	}
	e := *env
	e.Handed = func(p string) {
		if p == "" {
			unknown = true
			return
		}
		if len(items) < maxHandedItems {
			items = append(items, p)
		}
	}
	v, err := risk.AssessContext(ctx, k, src, &e)
	if err != nil {
		return nil, nil, false, err
	}
	for _, r := range v.Reasons {
		if r.Effect.Kind != effect.Launch {
			continue
		}
		if r.Effect.Target != "" {
			paths = append(paths, r.Effect.Target)
		}
		if r.Effect.Mods&effect.Computed != 0 {
			unknown = true
		}
	}
	return paths, items, unknown, nil
}

// maxHandedItems bounds the items of one script checked.
const maxHandedItems = 64

// handedHidden fails, wrapping ErrShowsSecret, when an unasked script
// hands an app one of hs (by the path the analyzer folds), or a path named
// at run time while hs is not empty.
func (e *Executor) handedHidden(ctx context.Context, kind, src string, hs hiddenSet) error {
	if len(hs.paths) == 0 {
		return nil
	}
	env := &risk.Env{Paths: e.Paths}
	paths, items, unknown, err := handedPaths(ctx, kind, src, env)
	if err != nil {
		return fmt.Errorf("reading the paths it hands applications: %w", err)
	}
	for _, p := range items {
		// An item to copy, move, attach or send: a file, or a folder
		// with all it holds.
		h := hs.named(p, e.Paths)
		if h == "" {
			h = hs.within(p, e.Paths)
		}
		if h != "" {
			return fmt.Errorf("%w: it hands an application %s to copy, move, attach or send, and %s is or lies in it, which unasked actions do not see; the application reads it outside every sandbox", ErrShowsSecret, e.short(p), e.short(h))
		}
	}
	for _, p := range paths {
		if dir, ok := strings.CutSuffix(p, "/…"); ok {
			// An item of dir, which one not known (a Finder listing's).
			if h := hs.within(dir, e.Paths); h != "" {
				return fmt.Errorf("%w: it hands an application an item of %s, where %s lies, which unasked actions do not see; the application reads it outside every sandbox", ErrShowsSecret, e.short(dir), e.short(h))
			}
			continue
		}
		if h := hs.named(p, e.Paths); h != "" {
			return fmt.Errorf("%w: it hands an application %s, which unasked actions do not see; the application reads it outside every sandbox", ErrShowsSecret, e.short(h))
		}
	}
	if unknown {
		return fmt.Errorf("%w: %w", ErrShowsSecret, errHandedUnknown)
	}
	return nil
}

// within returns the first of hs that lies in the folder dir (POSIX or
// "~/…"), or where its links lead, compared as APFS compares names; ""
// for none.
func (hs hiddenSet) within(dir string, paths *sanitize.Config) string {
	p, raw := literalPath(dir, paths)
	if p == "" {
		return ""
	}
	dirs := []string{fold(p)}
	if real, err := filepath.EvalSymlinks(raw); err == nil {
		dirs = append(dirs, fold(real))
	}
	for i, h := range hs.folded {
		for _, d := range dirs {
			if inside(h, d) {
				return hs.paths[i]
			}
		}
	}
	return ""
}
