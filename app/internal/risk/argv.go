package risk

import (
	"net/url"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// ScriptArgs adds to v, the verdict of an AppleScript or JXA script, what
// the values of its argv (on run argv, function run(argv)) name as paths.
// They are the agent's text, which the script's apps take as paths (an
// app's open, the Finder's duplicate, Mail's attachment) outside every
// sandbox, and the analyzer never sees them: a value that names a secret
// (a credential store, a hidden place of the home, a file whose name says
// secret) is a read of it, and one that names a place whose files run
// later (LaunchAgents, a shell start-up file) a write there, as the same
// path in the script's text is rated (a red team's find,
// TestRed14ScriptArgvNamesASecret).
func ScriptArgs(v *Verdict, argv []string, env *Env) {
	for i, a := range argv {
		p, ok := argPath(a)
		if !ok {
			continue
		}
		z := rate.ClassifyPath(env, p)
		switch {
		case z.Kind == rate.ZonePersistence:
			v.Found(effect.Of(effect.Overwrite, effect.Planted).On(p), "script.argv-persistence", Span{},
				"argument %d names %s, %s: the script's apps may write there, outside every sandbox", i+1, rate.Display(p), z.Detail)
		default:
			if what, ok := z.SecretRead(); ok {
				v.Found(effect.Of(effect.ReadSecret).On(p), "secret.script.argv", Span{},
					"argument %d names %s, inside %s: the script's apps may read it outside every sandbox", i+1, rate.Display(p), what)
			}
		}
	}
}

// argPath is the path an argument's text names, if it reads as one: a
// POSIX path, ~/…, a file: URL or an HFS path (Macintosh HD:Users:…).
func argPath(a string) (string, bool) {
	s := strings.TrimSpace(a)
	if rest, ok := strings.CutPrefix(s, "file://"); ok {
		u, err := url.PathUnescape(rest)
		if err != nil {
			return "", false
		}
		s = u
	}
	switch {
	case strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~"):
		return s, true
	case !strings.Contains(s, "/") && strings.Count(s, ":") >= 1 && !strings.ContainsAny(s, " \t") || strings.HasPrefix(s, "Macintosh HD:"):
		if i := strings.IndexByte(s, ':'); i > 0 && i < len(s)-1 {
			return rate.HFSToPOSIX(s), true
		}
	}
	return "", false
}
