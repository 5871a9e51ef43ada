package applescript

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// copyOut rates a move or duplicate whose destination dest lies outside
// the home and the sandbox roots: a disk (to disk "USB", folder "x" of
// disk "USB"), or a literal POSIX or HFS folder there (/Users/Shared,
// "Macintosh HD:Users:Shared"). The app copies outside every sandbox, and
// what it carries lies where no walk of the executor looks
// (rate.CopyOut). A destination computed at run time is not known to lie
// there and is left to the other checks.
func (an *asAn) copyOut(dest []asToken, sp Span) {
	var dirs []string
	if rest := trimOpen(dest); len(rest) > 1 && rest[0].kind == asWord && rest[0].kw == kwDisk && rest[1].kind == asString {
		dirs = append(dirs, "/Volumes/"+an.str(rest[1]))
	}
	if p := an.finderPath(dest); p != "" {
		dirs = append(dirs, p)
	}
	if p := an.foldPath(dest, 0); strings.HasPrefix(p, "/") {
		dirs = append(dirs, p) // (path to applications folder), a variable set to it
	}
	for k, t := range dest {
		if t.kind != asString || k > 0 && dest[k-1].isOp('&') || k+1 < len(dest) && dest[k+1].isOp('&') {
			continue // a piece of a path joined at run time ("LaunchAgents:"), no folder of its own
		}
		switch s := an.str(t); {
		case strings.HasPrefix(s, "/"):
			dirs = append(dirs, s)
		case strings.Contains(s, ":") && !strings.Contains(s, "/"):
			dirs = append(dirs, rate.HFSToPOSIX(s))
		}
	}
	for _, d := range dirs {
		if rate.OutsideWalks(d, an.env) {
			an.add(rate.CopyOut, "as.copy-out", sp, rate.CopyOutText, rate.Display(d))
			return
		}
	}
}
