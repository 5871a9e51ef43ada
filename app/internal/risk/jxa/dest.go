package jxa

import (
	"path"
	"slices"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// Where an application's move or duplicate puts things: the to: of its
// options object, a path (Path('/Users/me/Library/LaunchAgents')) or a
// Finder chain (F.home.folders['Library'].folders['LaunchAgents']).
// Copied or moved into a LaunchAgents folder, the item runs later unasked:
// persistence, whatever the verb. destination rates the place as a path
// written, as pathArgs rates a write's path.
func (an *jsAn) destination(c jsCall) {
	val := jsOptionValue(c.all, "to")
	if len(val) == 0 {
		return
	}
	an.pathArgs(jsCall{ok: true, args: [][]jsToken{val}}, true, 0)
	if p := finderChainPath(val); p != "" {
		lit := jsToken{kind: jsString, start: val[0].start, end: val[len(val)-1].end, val: p}
		an.pathArgs(jsCall{ok: true, args: [][]jsToken{{lit}}}, true, 0)
	}
	an.intoFolder(c, val)
	an.copyOut(val)
}

// intoFolder checks what a Finder command puts into its destination
// folder by the items' own names: duplicate(Path('/tmp/tasks.json'),
// {to: Path('~/p/.vscode')}) writes ~/p/.vscode/tasks.json, which the
// folder's name alone does not say runs code (cp and mv into a folder,
// in the shell, are checked the same way). Either may be a Finder item
// (argPaths).
func (an *jsAn) intoFolder(c jsCall, val []jsToken) {
	if len(c.args) == 0 || len(c.args[0]) == 0 {
		return
	}
	for _, d := range an.argPaths(val) {
		for _, s := range an.argPaths(c.args[0]) {
			if strings.Contains(d, rate.HoleUnquoted) || strings.Contains(s, rate.HoleUnquoted) {
				continue
			}
			base := path.Base(strings.TrimRight(strings.TrimPrefix(s, "file://"), "/"))
			if base == "" || base == "." || base == "/" || base == ".." {
				continue
			}
			lit := jsToken{kind: jsString, start: val[0].start, end: val[len(val)-1].end, val: strings.TrimRight(d, "/") + "/" + base}
			an.pathArgs(jsCall{ok: true, args: [][]jsToken{{lit}}}, true, 0)
		}
	}
}

// jsOptionValue is the value of key in the options object among args
// ({to: x, replacing: true}): its tokens up to the next comma or the
// object's end at its own depth.
func jsOptionValue(args []jsToken, key string) []jsToken {
	for k := 0; k+2 < len(args); k++ {
		if args[k].kind != jsIdent || args[k].text != key || args[k+1].text != ":" || k > 0 && args[k-1].text == "." {
			continue
		}
		depth := 0
		for j := k + 2; j < len(args); j++ {
			switch args[j].text {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth == 0 {
					return args[k+2 : j]
				}
				depth--
			case ",":
				if depth == 0 {
					return args[k+2 : j]
				}
			}
		}
		return args[k+2:]
	}
	return nil
}

// finderChainPath reads a Finder chain rooted at the home or the desktop
// whose folder names are literal: F.home.folders['Library'].folders.byName('LaunchAgents')
// is ~/Library/LaunchAgents. Anything else is "".
func finderChainPath(val []jsToken) string {
	k := slices.IndexFunc(val, func(t jsToken) bool { return t.kind == jsIdent && (t.text == "home" || t.text == "desktop") })
	if k < 0 {
		return ""
	}
	base := "~"
	if val[k].text == "desktop" {
		base = "~/Desktop"
	}
	var names []string
	for k++; k+3 < len(val) && val[k].text == "."; {
		switch coll := val[k+1]; {
		case coll.kind != jsIdent || !finderCollections[coll.text]:
			return ""
		case val[k+2].text == "[" && val[k+3].kind == jsString && k+4 < len(val) && val[k+4].text == "]":
			names = append(names, strings.Trim(val[k+3].val, "/"))
			k += 5
		case val[k+2].text == "." && k+6 < len(val) && val[k+3].text == "byName" && val[k+4].text == "(" && val[k+5].kind == jsString && val[k+6].text == ")":
			names = append(names, strings.Trim(val[k+5].val, "/"))
			k += 7
		default:
			return ""
		}
	}
	if k != len(val) || len(names) == 0 {
		return "" // more follows (a call, a property): not a folder named in full
	}
	return base + "/" + strings.Join(names, "/")
}

// finderCollections are the Finder's element collections whose items are
// folders or files by name.
var finderCollections = map[string]bool{"folders": true, "items": true, "containers": true, "files": true, "diskItems": true}
