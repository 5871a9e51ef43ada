package applescript

import (
	"slices"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
)

// Where a move or duplicate puts things. Finder and System Events name a
// folder by an object specifier as often as by a path:
//
//	duplicate file "x.plist" of desktop to folder "LaunchAgents" of folder "Library" of home
//	move f to ((path to library folder from user domain as text) & "LaunchAgents:")
//
// Copied or moved into a LaunchAgents folder or onto a start-up file, the
// item runs later unasked: persistence, whatever the verb. destination
// rates the place after to as a written path: the literal and anchored
// paths pathArgs folds, and the specifier chain finderPath reads.
func (an *asAn) destination(st []asToken, i int) {
	for j := i + 1; j < len(st); j++ {
		if st[j].kind != asWord || st[j].kw != kwTo {
			continue
		}
		dest := st[j+1:]
		an.pathArgs(dest, true)
		if p := an.finderPath(dest); p != "" {
			an.pathLit(p, tokSpan(st[j]), true, false)
		}
		// to d, where d was set to such a specifier.
		if len(dest) > 0 && (dest[0].kind == asWord || dest[0].kind == asVar) {
			for d := an.firstDef(an.name(dest[0])); d >= 0; d = an.defList[d].next {
				if p := an.finderPath(an.defList[d].expr); p != "" {
					an.pathLit(p, tokSpan(dest[0]), true, false)
				}
			}
		}
		return
	}
}

// finderPath reads an object specifier whose names are literal and whose
// base is the home, the desktop or a path to … folder: folder "LaunchAgents"
// of folder "Library" of home is ~/Library/LaunchAgents. Anything else
// (a variable, a disk, a computed name) is "".
func (an *asAn) finderPath(st []asToken) string {
	var names []string
	for k := 0; k < len(st); {
		for k < len(st) && (st[k].op == '(' || st[k].kw == kwThe) {
			k++
		}
		if k >= len(st) {
			return ""
		}
		t := st[k]
		switch {
		case t.kind == asWord && (t.kw == kwFolder || t.kw == kwFile || t.kw == kwItem || t.kw == kwAlias):
			if k+2 >= len(st) || st[k+1].kind != asString || st[k+2].kind != asWord || st[k+2].kw != kwOf {
				return ""
			}
			names = append(names, strings.Trim(an.str(st[k+1]), "/:"))
			k += 3
			continue
		case len(names) == 0:
			return ""
		case t.kind == asWord && t.kw == kwHome:
			return finderJoin("~", names)
		case t.kind == asWord && an.text(t) == "desktop":
			return finderJoin("~/Desktop", names)
		case t.kind == asWord && t.kw == kwPath && k+2 < len(st) && st[k+1].kw == kwTo:
			if a, ok := pathAnchors[an.text(st[k+2])]; ok && strings.HasPrefix(a, "~/") {
				return finderJoin(strings.TrimSuffix(a, "/"), names)
			}
		}
		return ""
	}
	return ""
}

// finderJoin is base/…: names, innermost first, reversed into a path.
func finderJoin(base string, names []string) string {
	rev := slices.Clone(names)
	slices.Reverse(rev)
	return base + "/" + strings.Join(rev, "/")
}

// setObject rates a property set on a file the Finder or System Events
// names: the name of a whole home folder (set name of folder "Documents"
// of home to "x" moves everything in it away from where apps and the
// system look for it, as a move does), and a value inside a property list
// file, written as that file is (in LaunchAgents, persistence).
func (an *asAn) setObject(target []asToken, app *asApp) {
	if app == nil || app.known == nil || app.known.Title != "Finder" && app.known.Title != "System Events" {
		return
	}
	if len(target) > 2 && target[0].kw == kwName && target[1].kw == kwOf {
		if home := an.homeFolder(target[2:]); home != "" {
			an.add(effect.Of(effect.Change, effect.Bulk), "as.move-home-folder", stmtSpan(target), "RENAME: renames %s, with everything in it", home)
		}
	}
	if hasWord(target, kwFile) && an.hasText(target, "list") {
		an.pathArgs(target, true) // … of property list file "~/Library/LaunchAgents/x.plist"
	}
}
