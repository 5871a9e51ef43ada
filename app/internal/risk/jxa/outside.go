package jxa

import (
	"path"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// What an application does for a script happens outside every sandbox.
// The Finder, System Events, Mail, Messages and TextEdit act on Apple
// events in their own processes: the sandbox's hiding of secrets (hidden
// places of the home, credential stores, files whose name says secret)
// does not stop them, so the analyzer checks what the script hands them:
// a Finder or System Events item is a path wherever a path is checked
// (itemPaths), a file an app opens, attaches or sends is read by it, an
// item it renames, copies or moves under a name that no longer says secret
// is out of hiding, and a property list or XML file System Events reads is
// read.

// maxItemPaths bounds the paths one expression may name through the
// variables it is built from.
const maxItemPaths = 16

// finderBases are the members of the Finder and System Events that name a
// folder of the home (or the startup disk, ""), where a chain of items
// starts: Application('Finder').home, se.documentsFolder.
var finderBases = map[string]string{"home": "~", "homeFolder": "~", "desktop": "~/Desktop", "desktopFolder": "~/Desktop",
	"documentsFolder": "~/Documents", "downloadsFolder": "~/Downloads", "libraryFolder": "~/Library",
	"picturesFolder": "~/Pictures", "moviesFolder": "~/Movies", "musicFolder": "~/Music", "publicFolder": "~/Public",
	"startupDisk": ""}

// itemCollections are the Finder's and System Events' element collections
// whose items are files or folders by name.
var itemCollections = map[string]bool{"folders": true, "items": true, "containers": true, "files": true, "diskItems": true,
	"aliases": true, "documentFiles": true, "filePackages": true, "aliasFiles": true, "applicationFiles": true}

// argPaths are the paths an argument where a path is expected names: the
// strings it folds to, and the Finder or System Events item it is.
func (an *jsAn) argPaths(a []jsToken) []string {
	var ps []string
	if v := an.evalExpr(a, 0); v.lit {
		ps = an.strs(v)
	}
	return append(ps, an.itemPaths(a, 0)...)
}

// itemPaths are the paths of the file system items expr names as the
// Finder and System Events name them, with literal names:
// F.home.folders['Library'].files.byName('x.plist') is ~/Library/x.plist;
// se.diskItems['~/.netrc'] is ~/.netrc; a variable holding one, or a part
// of one more names are added to, is that path; so is a copy or a moved
// item (F.duplicate(item, {to: …})), which keeps the item's name. Anything
// else (an index, a computed name, another application's objects) names
// none.
func (an *jsAn) itemPaths(expr []jsToken, depth int) []string {
	expr = jsStripParens(expr)
	if len(expr) == 0 || depth > 4 || !an.spend() {
		return nil
	}
	if expr[0].text == "[" && jsMatch(expr, 0) == len(expr)-1 {
		// [item, item]: the items of an array the command is given.
		var out []string
		for _, e := range jsSplitArgs(expr[1 : len(expr)-1]) {
			out = append(out, an.itemPaths(e, depth+1)...)
		}
		return out[:min(len(out), maxItemPaths)]
	}
	if expr[0].kind != jsIdent {
		return nil
	}
	// The root: an application, or a variable holding one or an item.
	var bases []string // paths named so far; nil at an application
	isApp := false
	k := 1
	switch {
	case expr[0].text == "Application" && len(expr) > 1 && expr[1].text == "(":
		m := jsMatch(expr, 1)
		if m < 0 {
			return nil
		}
		isApp, k = true, m+1
	default:
		v := an.varItems(an.scopeOf(expr[0].text, expr[0].start), depth)
		if len(v.paths) == 0 && !v.app {
			return nil
		}
		bases, isApp = v.paths, v.app && len(v.paths) == 0
	}
	for k < len(expr) {
		switch {
		case expr[k].text == "(" && k+1 < len(expr) && expr[k+1].text == ")":
			k += 2 // F.home(): the reference's value, the same item
		case expr[k].text == "." && k+1 < len(expr) && expr[k+1].kind == jsIdent,
			expr[k].text == "[" && k+2 < len(expr) && expr[k+1].kind == jsString && expr[k+2].text == "]":
			// .home, or ['home']
			m := expr[k+1].text
			if expr[k].text == "[" {
				m = expr[k+1].val
				k++
			}
			k += 2
			if b, ok := finderBases[m]; ok && isApp {
				bases, isApp = []string{b}, false
				continue
			}
			if (m == "duplicate" || m == "move") && k < len(expr) && expr[k].text == "(" && jsMatch(expr, k) == len(expr)-1 {
				// A copy or a moved item keeps the item's name.
				c := jsCallOf(expr[k+1 : len(expr)-1])
				if len(c.first) > 0 && c.first[0].text != "{" {
					return an.itemPaths(c.first, depth+1)
				}
				if isApp {
					return nil
				}
				return bases
			}
			if m == "disks" && isApp {
				// F.disks['Macintosh HD'], F.disks[0]: the startup disk by
				// its name or place (another disk's /Volumes/… is taken
				// for it: a path checked too strictly, never too loosely).
				switch {
				case k < len(expr) && expr[k].text == "[":
					c := jsMatch(expr, k)
					if c < 0 {
						return nil
					}
					k = c + 1
				case k+2 < len(expr) && expr[k].text == "." && expr[k+1].text == "byName" && expr[k+2].text == "(":
					c := jsMatch(expr, k+2)
					if c < 0 {
						return nil
					}
					k = c + 1
				default:
					return nil
				}
				bases, isApp = []string{""}, false
				continue
			}
			if m == "entireContents" && !isApp {
				// Everything in the folder, at any depth: some items in it.
				next := make([]string, len(bases))
				for n, b := range bases {
					next[n] = b + "/" + rate.HoleUnquoted
				}
				bases = next
				continue
			}
			if !itemCollections[m] {
				return nil // a property or a command: not an item named in full
			}
			var name []jsToken
			switch {
			case k < len(expr) && expr[k].text == "[":
				c := jsMatch(expr, k)
				if c < 0 {
					return nil
				}
				name, k = expr[k+1:c], c+1
			case k+2 < len(expr) && expr[k].text == "." && expr[k+2].text == "(" && (expr[k+1].text == "byName" || expr[k+1].text == "whose" || expr[k+1].text == "byId"):
				c := jsMatch(expr, k+2)
				if c < 0 {
					return nil
				}
				if expr[k+1].text == "byName" {
					name = expr[k+3 : c]
				}
				k = c + 1
			}
			// An item not named by a literal (an index, a whose clause, a
			// computed name, the whole collection) is some item in the
			// folder: a hole in its path.
			v := jsHole()
			if len(name) > 0 && !(len(name) == 1 && name[0].kind == jsNumber) {
				v = an.evalExpr(name, depth+1)
			}
			if !v.lit {
				v = jsHole()
			}
			var next []string
			for _, s := range an.strs(v) {
				if isApp {
					// System Events' diskItems['Macintosh HD:Users:…'], and
					// byName(h + '/.aws/credentials') with h computed: a
					// folder taken for the home, as pathArgs takes it.
					if rest, ok := strings.CutPrefix(s, rate.HoleUnquoted+"/"); ok {
						s = "~/" + rest
					} else if !strings.Contains(s, "/") && strings.Contains(s, ":") {
						s = rate.HFSToPOSIX(s)
					}
				}
				if s == "" || strings.Contains(s, rate.HoleUnquoted) {
					if isApp {
						return nil
					}
					s = rate.HoleUnquoted
				}
				abs := strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~")
				switch {
				case isApp && abs:
					next = append(next, strings.TrimRight(s, "/")) // System Events: diskItems['~/.netrc']
				case isApp || abs:
					return nil
				default:
					for _, b := range bases {
						name := strings.Trim(s, "/")
						if s == rate.HoleUnquoted && b == "~" {
							name = "." + s // some items of the home: its hidden ones among them
						}
						next = append(next, b+"/"+name)
					}
				}
			}
			if len(next) > maxItemPaths {
				next = next[:maxItemPaths]
			}
			bases, isApp = next, false
		default:
			return nil
		}
	}
	if isApp {
		return nil
	}
	for n, b := range bases {
		if b == "" {
			bases[n] = "/" // the startup disk itself
		}
	}
	return bases
}

// jsItems is what a variable holds, for itemPaths: the items it names,
// or an application.
type jsItems struct {
	paths []string
	app   bool
}

// varItems is what the variable (or a function's parameter: the
// arguments of its calls) key holds, by its first definitions, found once
// per analysis; while it is being found, a variable defined by itself
// (a = a.folders['x']) names what is found so far.
func (an *jsAn) varItems(key jsKey, depth int) jsItems {
	if v, ok := an.items[key]; ok {
		return *v
	}
	if an.items == nil {
		an.items = map[jsKey]*jsItems{}
	}
	v := &jsItems{}
	an.items[key] = v
	for n, d := range an.defsFor(key) {
		if n >= 8 {
			break
		}
		e := jsStripParens(d.expr)
		// for (x of items): x is one of the items, some item where they lie.
		if d.hole || d.self || len(d.plus) > 0 || len(e) == 0 {
			continue
		}
		if e[0].kind == jsIdent && e[0].text == "Application" && len(e) > 1 && e[1].text == "(" && jsMatch(e, 1) == len(e)-1 {
			v.app = true
			continue
		}
		v.paths = append(v.paths, an.itemPaths(e, depth+1)...)
	}
	v.paths = v.paths[:min(len(v.paths), maxItemPaths)]
	return *v
}

// outside rates what the script hands applications to do outside every
// sandbox, in the chains it writes out: items renamed (item.name = …),
// copied or moved (duplicate, move), files attached to a Mail message or
// sent by Messages, property list and XML files System Events reads.
func (an *jsAn) outside() {
	toks := an.lx.toks
	for i := 1; i+1 < len(toks); i++ {
		name, end, ok := propAt(toks, i)
		if !ok || end+1 >= len(toks) {
			continue
		}
		next := toks[end+1].text
		switch {
		case (name == "name" || name == "nameExtension") && next == "=" && (end+2 >= len(toks) || toks[end+2].text != "=" && toks[end+2].text != ">"):
			an.renamed(toks, end, name)
		case name == "Attachment" && next == "(":
			// mail.Attachment({fileName: Path(…)}): Mail reads the file
			// and sends it with the message.
			c := an.invocation(toks, end)
			if v := jsObjectValue(c.first, "fileName"); v != nil {
				an.pathArgs(jsCall{ok: true, args: [][]jsToken{v}}, false, 0)
				an.handedFile(v)
			}
		case name == "make" && next == "(":
			// mail.make({new: 'attachment', withProperties: {fileName: …}})
			c := an.invocation(toks, end)
			if nv := an.evalExpr(jsObjectValue(c.first, "new"), 0); nv.lit && len(nv.strs) == 1 && strings.EqualFold(nv.strs[0], "attachment") {
				if v := jsObjectValue(jsObjectValue(c.first, "withProperties"), "fileName"); v != nil {
					an.pathArgs(jsCall{ok: true, args: [][]jsToken{v}}, false, 0)
					an.handedFile(v)
				}
			}
			// notes.make({new: 'attachment', at: note, withData: Path(…)}):
			// the app reads the file it is given as the new element's data,
			// as AppleScript's make … with data is checked.
			if v := jsObjectValue(c.first, "withData"); v != nil && an.fileValue(v, 0) {
				an.checkPaths(an.fileArgPaths(v), jsSpanOf(v))
				an.handedFile(v)
			}
		case (name == "save" || name == "export" || name == "close" || name == "quit") && next == "(" && !an.objectVar(toks[jsChainStart(toks, end)]):
			// Not the script's own object ({save() {…}}.save()).
			an.saved(name, toks, end)
		case name == "propertyListFiles" || name == "xmlFiles":
			// se.propertyListFiles.byName('~/.config/app/credentials.plist'):
			// System Events reads it for the script.
			var file []jsToken
			switch {
			case next == "[":
				if c := jsMatch(toks, end+1); c > 0 {
					file = toks[end+2 : c]
				}
			case end+3 < len(toks) && next == "." && toks[end+2].text == "byName" && toks[end+3].text == "(":
				if c := jsMatch(toks, end+3); c > 0 {
					file = toks[end+4 : c]
				}
			}
			if len(file) > 0 {
				an.pathArgs(jsCall{ok: true, args: [][]jsToken{file}}, false, 0)
				an.handedFile(file) // System Events reads it (handed.go)
			}
		}
	}
}

// savedIn is the option naming where each command that writes a document
// writes it: save({in: …}), export({to: …}), close({savingIn: …}) and
// quit({savingIn: …}).
var savedIn = map[string]string{"save": "in", "export": "to", "close": "savingIn", "quit": "savingIn"}

// saved rates an application's save, export, or close or quit that saves
// (name, called at toks[end]): the application writes the document,
// outside every sandbox, over the file it came from or at the path its
// options name (a path or a Finder chain), which is checked as a write, as
// AppleScript's save and export are. A close or quit that does not save
// (no saving option, or saving: 'no' or 'ask') writes nothing, and an
// export, a copy, nothing but where it is sent.
func (an *jsAn) saved(name string, toks []jsToken, end int) {
	c := an.invocation(toks, end)
	if !c.ok {
		return
	}
	sp := jsSpan(toks[end])
	if val := jsOptionValue(c.all, savedIn[name]); len(val) > 0 {
		an.add(effect.Of(effect.Overwrite), "jxa.save", sp, "%s: the application writes a document to a file, outside every sandbox", strings.ToUpper(name))
		an.pathArgs(jsCall{ok: true, args: [][]jsToken{val}}, true, 0)
		if p := finderChainPath(val); p != "" {
			lit := jsToken{kind: jsString, start: val[0].start, end: val[len(val)-1].end, val: p}
			an.pathArgs(jsCall{ok: true, args: [][]jsToken{{lit}}}, true, 0)
		}
		return
	}
	switch name {
	case "export":
		return
	case "close", "quit":
		v := jsOptionValue(c.all, "saving")
		if len(v) == 0 || jsFalsy(v) {
			return
		}
		if x := an.evalExpr(v, 0); x.lit && len(x.strs) == 1 && (strings.EqualFold(x.strs[0], "no") || strings.EqualFold(x.strs[0], "ask")) {
			return
		}
	}
	an.add(effect.Of(effect.Overwrite), "jxa.save", sp, "%s: the application writes documents over the files they came from, outside every sandbox", strings.ToUpper(name))
}

// propAt reads a member reference at toks[i]: .name, or ['name'] (toks[i]
// the string); end is the token that ends it (the name, or ]). A bare
// Attachment (a constructor taken from Mail) counts as one.
func propAt(toks []jsToken, i int) (name string, end int, ok bool) {
	switch t := toks[i]; {
	case t.kind == jsIdent && toks[i-1].text == ".":
		return t.text, i, true
	case t.kind == jsIdent && t.text == "Attachment":
		return t.text, i, true
	case t.kind == jsString && i >= 2 && toks[i-1].text == "[" && i+1 < len(toks) && toks[i+1].text == "]" && jsOperand(toks[i-2]):
		return t.val, i + 1, true
	}
	return "", 0, false
}

// moved rates an application's duplicate or move (u, called with c) of
// the items its first argument or its receiver names (F.duplicate(item,
// {to: …}), item.duplicate({to: …})): the items keep their names, unless
// the options give the copy a new one (withProperties: {name: …}).
func (an *jsAn) moved(u use, c jsCall) {
	var paths []string
	if len(c.first) > 0 && c.first[0].text != "{" {
		paths = an.fileArgPaths(c.first)
	}
	paths = append(paths, an.itemPaths(receiver(u.toks, u.r.i), 0)...)
	var rename func(string) string
	for _, a := range c.args {
		if v := jsObjectValue(jsObjectValue(a, "withProperties"), "name"); v != nil {
			name := ""
			if x := an.evalExpr(v, 0); x.lit && len(x.strs) == 1 && !strings.Contains(x.strs[0], rate.HoleUnquoted) {
				name = x.strs[0]
			}
			rename = func(string) string { return name }
		}
	}
	an.unhidden(paths, u.sp, rename)
	an.handedItems(u, paths)
}

// sentFile rates the file an application's send is given (u):
// Messages.send(Path(…), {to: buddy}) reads the file and sends it. Text
// is sent as text.
func (an *jsAn) sentFile(u use) {
	if c := an.invocation(u.toks, u.r.i); len(c.first) > 0 {
		an.checkPaths(an.fileArgPaths(c.first), jsSpanOf(c.first))
		if an.fileValue(c.first, 0) || len(an.itemPaths(c.first, 0)) > 0 {
			an.handedFile(c.first)
		}
	}
}

// receiver is the chain a member reference ending at toks[i] (.name or
// ['name']) is made on, or nil.
func receiver(toks []jsToken, i int) []jsToken {
	s := jsChainStart(toks, i)
	switch {
	case toks[i].text == "]":
		if o := jsMatch(toks, i); o > s {
			return toks[s:o]
		}
	case i > s+1 && toks[i-1].text == ".":
		return toks[s : i-1]
	}
	return nil
}

// renamed rates item.name = … and item.nameExtension = … (prop) on an
// item the Finder or System Events names (toks[end] ends the property).
func (an *jsAn) renamed(toks []jsToken, end int, prop string) {
	paths := an.itemPaths(receiver(toks, end), 0)
	an.handedAt(toks, end, paths)
	if len(paths) == 0 {
		return
	}
	name := ""
	if e := jsExprEnd(toks, end+2); e > end+2 {
		if v := an.evalExpr(toks[end+2:e], 0); v.lit && len(v.strs) == 1 && !strings.Contains(v.strs[0], rate.HoleUnquoted) {
			name = v.strs[0]
		}
	}
	rename := func(string) string { return name }
	if prop == "nameExtension" {
		rename = func(old string) string {
			stem := strings.TrimSuffix(old, path.Ext(old))
			if name != "" {
				return stem + "." + name
			}
			return stem
		}
	}
	an.unhidden(paths, jsSpan(toks[end]), rename)
}

// fileArgPaths are the paths of an argument that is a file, not text:
// Path('…'), an NSURL of a file, a Finder or System Events item, or a
// variable holding one.
func (an *jsAn) fileArgPaths(a []jsToken) []string {
	ps := an.itemPaths(a, 0)
	if an.fileValue(a, 0) {
		if v := an.evalExpr(a, 0); v.lit {
			ps = append(ps, an.strs(v)...)
		}
	}
	return ps
}

// fileValue reports an expression that is a file: Path(…), $.NSURL's
// fileURLWithPath(…), or a variable whose values are one.
func (an *jsAn) fileValue(a []jsToken, depth int) bool {
	a = jsStripParens(a)
	switch {
	case len(a) == 0 || depth > 4 || a[0].kind != jsIdent:
		return false
	case a[0].text == "Path" && len(a) > 1 && a[1].text == "(" && jsMatch(a, 1) == len(a)-1:
		return true
	case a[0].text == "$":
		for _, t := range a {
			if t.kind == jsIdent && strings.HasPrefix(t.text, "fileURLWithPath") {
				return true
			}
		}
		return false
	case len(a) == 1:
		for _, d := range an.defs[a[0].text] {
			if !d.hole && an.fileValue(d.expr, depth+1) {
				return true
			}
		}
	}
	return false
}

// checkPaths checks paths an application reads for the script, at sp.
func (an *jsAn) checkPaths(paths []string, sp rate.Span) {
	for _, p := range paths {
		lit := jsToken{kind: jsString, start: int32(sp.Start), end: int32(sp.End), val: p}
		an.pathArgs(jsCall{ok: true, args: [][]jsToken{{lit}}}, false, 0)
	}
}

// unhidden rates handing the items at paths to the Finder or System Events
// to copy, move or rename: the app does it outside every sandbox, so a
// secret (a credential store's file, a hidden place of the home, a file
// whose name says secret) it puts under a name that says nothing is out of
// hiding for the next action to print, and one copied out of a credential
// store or a hidden place is a read of it. A copy or move that keeps a
// secret's name (rename nil) keeps it hidden: no read. rename gives an
// item's new last element from its old one.
func (an *jsAn) unhidden(paths []string, sp rate.Span, rename func(old string) string) {
	for _, p := range paths {
		p = strings.TrimPrefix(p, "file://")
		z := rate.ClassifyPath(an.env, p)
		if _, ok := z.SecretRead(); !ok {
			continue
		}
		if z.Kind != rate.ZoneCredential && z.Hidden == "" {
			if strings.Contains(p, rate.HoleUnquoted) {
				continue // some item, by a name not known: only where it is says secret
			}
			base := path.Base(strings.TrimRight(p, "/"))
			if rename != nil {
				base = rename(base)
			}
			if _, still := rate.SecretFile(base); still {
				continue // still a secret by its name, wherever it goes
			}
		}
		an.checkPaths([]string{p}, sp)
	}
}

// openRead rates an application's open of the file c names: the app reads
// it outside every sandbox, and the script may ask it for what it read
// (documents[0].text()), so a secret opened is a secret read. Keynote is
// the exception (by its bundle id, or by its name as an installed
// application): it opens only presentations, so what it reads back of a
// *.key is a deck's slides, never a key. hs are the handlers the file goes
// to (nil: the one the system chooses).
func (an *jsAn) openRead(c jsCall, hs []*facts.Handler) {
	if !facts.AllKeynote(hs, true) {
		an.pathArgs(c, false, 0)
	}
}
