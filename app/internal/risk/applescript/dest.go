package applescript

import (
	"path"
	"slices"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
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
	j := ownTo(st, i)
	if j < 0 {
		return
	}
	dest := st[j+1:]
	an.secretItems(st[i+1:j], tokSpan(st[i]), nil)
	an.pathArgs(dest, true)
	if p := an.finderPath(dest); p != "" {
		an.pathLit(p, tokSpan(st[j]), true, false)
	}
	an.intoFolder(st[i+1:j], dest, tokSpan(st[j]))
	an.copyOut(dest, tokSpan(st[j]))
	// to d, where d was set to such a specifier.
	if len(dest) > 0 && (dest[0].kind == asWord || dest[0].kind == asVar) {
		for d := an.firstDef(an.name(dest[0])); d >= 0; d = an.defList[d].next {
			if p := an.finderPath(an.defList[d].expr); p != "" {
				an.pathLit(p, tokSpan(dest[0]), true, false)
			}
		}
	}
}

// ownTo returns the index of the command's own to after st[i], or -1: the
// first to outside every bracket, not one inside what the command is given
// (duplicate f to POSIX path of (path to home folder) & "x").
func ownTo(st []asToken, i int) int {
	depth := 0
	for j := i + 1; j < len(st); j++ {
		switch {
		case st[j].isOp('(') || st[j].isOp('{'):
			depth++
		case st[j].isOp(')') || st[j].isOp('}'):
			depth--
		}
		if depth == 0 && st[j].kind == asWord && st[j].kw == kwTo {
			return j
		}
	}
	return -1
}

// intoFolder checks what a move or duplicate puts into its destination
// folder by the items' own names: duplicate POSIX file "/tmp/tasks.json"
// to POSIX file "/Users/me/p/.vscode" writes /Users/me/p/.vscode/tasks.json,
// which the folder's name alone does not say runs code (the shell's cp and
// mv, and JXA's Finder, are checked the same way). Only literal POSIX
// folders and specifiers finderPath reads; the items are literal paths or
// file "name" specifiers.
func (an *asAn) intoFolder(src, dest []asToken, sp Span) {
	var dirs []string
	for _, t := range dest {
		if t.kind == asString {
			if d := an.str(t); strings.HasPrefix(d, "/") || strings.HasPrefix(d, "~") {
				dirs = append(dirs, d)
			}
		}
	}
	if p := an.finderPath(dest); p != "" {
		dirs = append(dirs, p)
	}
	if rest := trimOpen(dest); len(rest) > 0 && rest[0].kind == asWord {
		switch { // to home, to desktop: the folder itself
		case rest[0].kw == kwHome:
			dirs = append(dirs, "~")
		case an.text(rest[0]) == "desktop":
			dirs = append(dirs, "~/Desktop")
		}
	}
	if len(dirs) == 0 {
		return
	}
	var bases []string
	for k, t := range src {
		if t.kind != asString {
			continue
		}
		name := an.str(t)
		named := k > 0 && src[k-1].kind == asWord && (src[k-1].kw == kwFile || src[k-1].kw == kwItem || src[k-1].kw == kwFolder || src[k-1].kw == kwAlias)
		if !named && !strings.Contains(name, "/") {
			continue // a name that is neither a path nor an item's
		}
		base := path.Base(strings.TrimRight(strings.TrimPrefix(name, "file://"), "/"))
		if hfs := strings.TrimRight(name, ":"); strings.Contains(name, ":") && !strings.Contains(name, "/") {
			base = hfs[strings.LastIndexByte(hfs, ':')+1:] // an HFS path
		}
		if base == "" || base == "." || base == ".." || base == "/" {
			continue
		}
		bases = append(bases, base)
	}
	for _, d := range dirs {
		for _, b := range bases {
			an.pathLit(strings.TrimRight(d, "/")+"/"+b, sp, true, false)
		}
	}
}

// trimOpen is st without its leading parentheses and "the".
func trimOpen(st []asToken) []asToken {
	for len(st) > 0 && (st[0].op == '(' || st[0].kw == kwThe) {
		st = st[1:]
	}
	return st
}

// finderPath reads an object specifier whose names are literal and whose
// base is the home, the desktop, the startup disk or a path to … folder
// (a Finder's or System Events' object: folder "LaunchAgents" of folder
// "Library" of home is ~/Library/LaunchAgents; disk item ".netrc" of home
// folder is ~/.netrc; file "id_rsa" of folder ".ssh" of folder "me" of
// folder "Users" of startup disk is /Users/me/.ssh/id_rsa), alone or as a
// reference to it. Anything else (a variable, another disk, a computed
// name) is "".
func (an *asAn) finderPath(st []asToken) string {
	st = trimOpen(st)
	if len(st) > 2 && st[0].kw == kwA && an.text(st[1]) == "reference" && st[2].kw == kwTo {
		st = st[3:] // a reference to file "…" of …
	}
	var names []string
	for k := 0; k < len(st); {
		for k < len(st) && (st[k].op == '(' || st[k].kw == kwThe) {
			k++
		}
		if k >= len(st) {
			return ""
		}
		t := st[k]
		if w := an.itemClass(st[k:]); w > 0 {
			k += w
			name, nw, ok := an.literalName(st[k:])
			if !ok || k+nw >= len(st) || st[k+nw].kind != asWord || st[k+nw].kw != kwOf {
				return ""
			}
			names = append(names, strings.Trim(name, "/:"))
			k += nw + 1
			continue
		}
		if base, ok := an.homeVar(t); ok && len(names) > 0 {
			return finderJoin(base, names) // set h to path to home folder … file ".netrc" of h
		}
		switch {
		case len(names) == 0 || t.kind != asWord:
			return ""
		case t.kw == kwHome:
			return finderJoin("~", names)
		case k+1 < len(st) && an.text(t) == "startup" && st[k+1].kw == kwDisk:
			return finderJoin("", names)
		case t.kw == kwDisk && k+1 < len(st) && st[k+1].kind == asString:
			// disk "Macintosh HD": the startup disk by its name (another
			// disk's /Volumes/… is taken for it: a path checked too
			// strictly, never too loosely).
			return finderJoin("", names)
		case t.kw == kwPath && k+2 < len(st) && st[k+1].kw == kwTo:
			if a, ok := pathAnchors[an.text(st[k+2])]; ok && strings.HasPrefix(a, "~/") {
				return finderJoin(strings.TrimSuffix(a, "/"), names)
			}
		case an.text(t) == "desktop" || k+1 < len(st) && st[k+1].kw == kwFolder && homeFolders[an.text(t)] && pathAnchors[an.text(t)] != "":
			// The Finder's desktop; System Events' desktop folder,
			// documents folder, downloads folder, library folder.
			return finderJoin(strings.TrimSuffix(pathAnchors[an.text(t)], "/"), names)
		}
		return ""
	}
	return ""
}

// homeVar is the folder a variable names when every definition of it is
// the home or a path to … folder of the home (set h to home, set h to
// path to home folder), as finderPath reads a base.
func (an *asAn) homeVar(t asToken) (string, bool) {
	if t.kind != asWord && t.kind != asVar || t.kw == kwHome || !an.isVar(an.name(t)) {
		return "", false
	}
	base := ""
	for d := an.firstDef(an.name(t)); d >= 0; d = an.defList[d].next {
		e := trimOpen(an.defList[d].expr)
		b := ""
		switch {
		case len(e) >= 1 && e[0].kind == asWord && e[0].kw == kwHome:
			b = "~"
		case len(e) >= 3 && e[0].kw == kwPath && e[1].kw == kwTo:
			if a, ok := pathAnchors[an.text(e[2])]; ok && strings.HasPrefix(a, "~/") {
				b = strings.TrimSuffix(a, "/")
			}
		}
		if b == "" || base != "" && b != base {
			return "", false
		}
		base = b
	}
	return base, base != ""
}

// literalName is the name an item's specifier gives at st when the script's
// text says it: a string, strings joined in parentheses (file ("." &
// "env")), or a variable all of whose definitions are the same such
// string (set n to ".netrc" … file n of home). It returns the name, how
// many tokens it spans, and whether it was one.
func (an *asAn) literalName(st []asToken) (string, int, bool) {
	if len(st) == 0 {
		return "", 0, false
	}
	if s, w, ok := an.foldStrings(st); ok {
		return s, w, true
	}
	t := st[0]
	if t.kind != asWord && t.kind != asVar || !an.isVar(an.name(t)) {
		return "", 0, false
	}
	val, found := "", false
	for d := an.firstDef(an.name(t)); d >= 0; d = an.defList[d].next {
		e := an.defList[d].expr
		s, w, ok := an.foldStrings(e)
		if !ok || w != len(e) || found && s != val {
			return "", 0, false
		}
		val, found = s, true
	}
	return val, 1, found
}

// itemClass is how many words at the start of st name the class of an item
// of the file system, as the Finder and System Events name them (folder,
// file, item, alias, disk item, document file), or 0.
func (an *asAn) itemClass(st []asToken) int {
	switch t := st[0]; {
	case t.kind != asWord:
		return 0
	case t.kw == kwFolder || t.kw == kwFile || t.kw == kwItem || t.kw == kwAlias:
		return 1
	case len(st) > 1 && (t.kw == kwDisk && st[1].kw == kwItem || an.text(t) == "document" && st[1].kw == kwFile):
		return 2
	}
	return 0
}

// secretItems rates handing the items obj names to the Finder or System
// Events to copy, move or rename: the app does it outside every sandbox,
// so a secret (a credential store's file, a hidden place of the home, a
// file whose name says secret) it puts under a name that says nothing is
// out of hiding for the next action to print, and one copied out of a
// credential store is a read of it. A copy or move that keeps a secret's
// name (rename nil) keeps it hidden: no read. rename gives an item's new
// last element from its old one.
func (an *asAn) secretItems(obj []asToken, sp Span, rename func(old string) string) {
	for _, p := range an.objPaths(obj) {
		z := an.pathVerdict(p, false, false).zone
		if _, ok := z.SecretRead(); !ok {
			continue
		}
		if z.Kind != rate.ZoneCredential && z.Hidden == "" {
			base := path.Base(strings.TrimRight(p, "/"))
			if rename != nil {
				base = rename(base)
			}
			if _, still := rate.SecretFile(base); still {
				continue // still a secret by its name, wherever it goes
			}
		}
		an.pathLit(p, sp, false, false)
	}
}

// objPaths are the paths of the items obj (a duplicate's or move's
// object) names: literal and joined paths, a Finder specifier, the folder
// whose items it names, and what a variable it is was set to.
func (an *asAn) objPaths(obj []asToken) []string {
	var paths []string
	for k, t := range obj {
		if t.kind == asString && (strings.HasPrefix(an.str(t), "/") || strings.HasPrefix(an.str(t), "~")) {
			paths = append(paths, an.str(t)) // POSIX file "…"
		}
		if t.isOp('(') {
			// disk item ("~/Documents/app/" & ".env"): strings joined.
			if s, _, ok := an.foldStrings(obj[k:]); ok && (strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~")) {
				paths = append(paths, s)
			}
		}
	}
	if p := an.foldPath(obj, 0); p != "" {
		paths = append(paths, p)
	} else if p := an.itemsIn(obj); p != "" {
		paths = append(paths, p)
	}
	if o := trimOpen(obj); len(o) > 0 && (o[0].kind == asWord || o[0].kind == asVar) {
		// set d to duplicate f to desktop, then set name of d to …: d is
		// a copy of f, under f's name.
		for d := an.firstDef(an.name(o[0])); d >= 0; d = an.defList[d].next {
			e := an.defList[d].expr
			// set f to file 1 of folder ".aws" of home, repeat with x in
			// (every file of folder ".ssh" of home): the items it holds.
			if te := trimOpen(e); len(o) == 1 && len(te) > 0 && an.text(te[0]) != "duplicate" && an.text(te[0]) != "move" {
				if p := an.finderPath(e); p != "" {
					paths = append(paths, p)
				} else if p := an.itemsIn(e); p != "" {
					paths = append(paths, p)
				}
			}
			if len(e) < 2 || e[0].kind != asWord || an.text(e[0]) != "duplicate" && an.text(e[0]) != "move" {
				continue
			}
			src := e[1:]
			for j, t := range src {
				if t.kind == asWord && t.kw == kwTo {
					src = src[:j]
					break
				}
			}
			if p := an.foldPath(src, 0); p != "" {
				paths = append(paths, p)
			}
		}
	}
	return paths
}

// itemsIn is the folder whose items obj names without naming one by a
// literal (every file of, items of, entire contents of, file 1 of, files
// of … whose …, each of folder ".ssh" of home): some items in it, so
// where the folder is a credential store or a hidden place, they are its
// secrets. "" when obj names no such folder.
func (an *asAn) itemsIn(obj []asToken) string {
	obj = trimOpen(obj)
	depth := 0
	for k, t := range obj {
		switch {
		case t.op == '(':
			depth++
		case t.op == ')':
			depth--
		case depth == 0 && t.kind == asWord && t.kw == kwOf && k > 0:
			rest := trimOpen(obj[k+1:])
			p := an.finderPath(rest)
			if p == "" {
				p = an.foldPath(rest, 0)
			}
			if len(rest) > 0 && p == "" {
				if b, ok := an.homeVar(rest[0]); ok {
					p = b // every file of h, h the home
				} else if rest[0].kind == asWord && rest[0].kw == kwHome {
					p = "~"
				}
			}
			if p == "~" || p == "~/" {
				// Some items of the home: its hidden ones among them.
				return "~/.…"
			}
			return p
		}
	}
	return ""
}

// newName is the literal new name a set … to gives, or "" when it is
// computed.
func (an *asAn) newName(value []asToken) string {
	if len(value) > 0 && value[0].kind == asString {
		return an.str(value[0])
	}
	return ""
}

// finderTerm is the path of a term of a path expression that is a Finder
// object specifier (finderPath), as a script names a file or folder to
// read or write it: (file ".env" of folder "app" of home) as alias, or
// folder "hooks" of … of home as text, whose text ends in a separator
// when more of the path follows (more: "pre-commit" is in that folder).
// ok is false for any other term.
func (an *asAn) finderTerm(term []asToken, more bool) (p string, ok bool) {
	p = an.finderPath(term)
	if p == "" {
		return "", false
	}
	if st := trimOpen(term); more && st[0].kw == kwFolder {
		p += "/"
	}
	return p, true
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
// file, written as that file is (in LaunchAgents, persistence); and a
// secret renamed to a name that no longer says so (secretItems). value is
// what follows to.
func (an *asAn) setObject(target, value []asToken, app *asApp) {
	if app == nil || app.known == nil || app.known.Title != "Finder" && app.known.Title != "System Events" {
		return
	}
	if len(target) > 2 && target[0].kw == kwName && target[1].kw == kwOf {
		if home := an.homeFolder(target[2:]); home != "" {
			an.add(effect.Of(effect.Change, effect.Bulk), "as.move-home-folder", stmtSpan(target), "RENAME: renames %s, with everything in it", home)
		}
		an.secretItems(target[2:], stmtSpan(target), func(string) string { return an.newName(value) })
		an.handed(target[2:], app)
	}
	if len(target) > 3 && target[0].kw == kwName && an.text(target[1]) == "extension" && target[2].kw == kwOf {
		an.handed(target[3:], app)
		an.secretItems(target[3:], stmtSpan(target), func(old string) string {
			stem := strings.TrimSuffix(old, path.Ext(old))
			if ext := an.newName(value); ext != "" {
				return stem + "." + ext
			}
			return stem
		})
	}
	if hasWord(target, kwFile) && an.hasText(target, "list") {
		an.pathArgs(target, true) // … of property list file "~/Library/LaunchAgents/x.plist"
	}
}
