package applescript

import "strings"

// What a script hands an application to copy, move, attach or send is
// read by the app outside every sandbox; rate.Env.Handed is told each
// such item as the path objPaths folds it to, or "" for one it cannot
// name (a Finder listing's item, a path joined from the clipboard), so
// the executor can check them against the files it hides, which the
// analyzer cannot know (a private key known by its content). Ratings do
// not depend on it.

// handed tells env.Handed the items obj names, told to app (nil: the
// current application). Only the Finder's and System Events' (or an
// application named at run time) items are files when obj names none:
// Music's duplicate copies a track.
func (an *asAn) handed(obj []asToken, app *asApp) {
	if an.env == nil || an.env.Handed == nil {
		return
	}
	if an.tellHanded(an.objPaths(obj)) {
		return
	}
	if app == nil || app.dynamic || filesApp(app.name) {
		an.env.Handed("")
	}
}

// handedFile tells env.Handed the file val (an attachment's file name)
// names, as objPaths reads it, or "" when it names none.
func (an *asAn) handedFile(val []asToken) {
	if an.env == nil || an.env.Handed == nil {
		return
	}
	if !an.tellHanded(an.objPaths(val)) {
		an.env.Handed("")
	}
}

// tellHanded tells env.Handed each whole path of paths, and whether there
// was one.
func (an *asAn) tellHanded(paths []string) bool {
	told := false
	for _, p := range paths {
		if p == "" || strings.Contains(p, "__AIRLOCK_") || strings.Contains(p, "\x00") {
			continue
		}
		an.env.Handed(p)
		told = true
	}
	return told
}

// filesApp reports the applications whose items are files: the Finder's
// and System Events'.
func filesApp(name string) bool {
	n := strings.ToLower(name)
	return n == "finder" || n == "system events" || n == "com.apple.finder" || n == "com.apple.systemevents"
}

// verbObject is the object of the verb at st[i]: what lies before its
// own to, or the rest of the statement.
func verbObject(st []asToken, i int) []asToken {
	if j := ownTo(st, i); j > i {
		return st[i+1 : j]
	}
	return st[i+1:]
}

// handedData tells env.Handed the file a make at st[i] is given as the new
// element's data (Notes' make new attachment with data (POSIX file p)):
// the app reads it. Text given as data is no file.
func (an *asAn) handedData(st []asToken, i int) {
	for k := i + 1; k+2 < len(st); k++ {
		if st[k].kw != kwWith || an.text(st[k+1]) != "data" {
			continue
		}
		val := st[k+2:]
		val = val[:exprEnd(val)]
		for _, t := range val {
			if t.kw == kwFile || t.kw == kwPosix || t.kw == kwAlias {
				an.handedFile(val)
				return
			}
		}
	}
}

// printed tells env.Handed the file a print is given (print (POSIX file
// p) without print dialog): the app reads it to print it, to a network
// printer or a PDF printer's folder. A document or window of the app's
// own (print document 1) is no file.
func (an *asAn) printed(obj []asToken) {
	if an.env == nil || an.env.Handed == nil {
		return
	}
	obj = obj[:exprEnd(obj)]
	for _, t := range obj {
		if t.kw == kwFile || t.kw == kwPosix || t.kw == kwAlias {
			an.handedFile(obj)
			return
		}
	}
	if o := trimOpen(obj); len(o) == 1 && (o[0].kind == asWord || o[0].kind == asVar) {
		// print f, where f was set to a file: what it was set to.
		for d := an.firstDef(an.name(o[0])); d >= 0; d = an.defList[d].next {
			for _, t := range an.defList[d].expr {
				if t.kw == kwFile || t.kw == kwPosix || t.kw == kwAlias {
					an.handedFile(obj)
					return
				}
			}
		}
	}
}

// handedPath tells env.Handed the path val (text: property list file p)
// folds to, or "" when it folds to none.
func (an *asAn) handedPath(val []asToken) {
	if an.env == nil || an.env.Handed == nil {
		return
	}
	p := an.foldPath(val, 0)
	if o := trimOpen(val); p == "" && len(o) == 1 && o[0].kind == asString {
		p = an.str(o[0])
	}
	if !an.tellHanded([]string{p}) {
		an.env.Handed("")
	}
}
