package applescript

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// A launch hands a file or URL to a program Airlock does not confine:
// open told to the Finder or System Events (which hand it to the app
// Launch Services chooses, or to the one `using` names), open told to any
// other application (which opens it itself), open location, and
// NSWorkspace's open methods through the Objective-C bridge. Nothing checks
// a script's launch again when it happens, so facts.ScriptOpen rates each
// file by what the script names: the handler and the path. A web page is
// Caution, another URL what its scheme says; folders, an application's own
// objects (a message, a document) and installed applications are what they
// were.

// launchVal is a path or URL as far as the script's text tells: whole
// says it is all of it.
type launchVal struct {
	s     string
	whole bool
}

// objKind is what the object of open is.
type objKind uint8

const (
	objOther   objKind = iota // an application's own object: a document, a message, a window
	objFile                   // a file (POSIX file, file, alias, a path, a Finder item)
	objFolder                 // a folder, a disk, the home folder
	objApp                    // an application file
	objUnknown                // computed at run time: it may be a file
)

// forwarderApps are the applications whose open hands its object to the
// app Launch Services chooses, or to the one `using` names.
var forwarderApps = map[string]bool{"Finder": true, "System Events": true}

// runningScript is the handler of open told to no application: the one
// running the script (osascript, Script Editor), which opens the file as
// it sees fit.
var runningScript = facts.Handler{Platform: facts.Darwin, Name: "the application running the script"}

// computedApp is the handler of an application named at run time.
var computedApp = facts.Handler{Platform: facts.Darwin, Name: "an application named at run time"}

// verbOpen rates open: what it opens (openObject) handed to the handler
// the statement names.
func verbOpen(an *asAn, st []asToken, i, n int, app *asApp) {
	if i+1 < len(st) && st[i+1].kw == kwLocation || i+2 < len(st) && st[i+1].kw == kwFor && st[i+2].kw == kwAccess {
		return
	}
	if !isHead(st, i) || i+1 >= len(st) {
		return // make new open file alarm …: a word of another command
	}
	sp := span2(st, i, 1)
	rest := st[i+1:]
	obj := rest[:exprEnd(rest)]
	// using …: the application the Finder hands the object to.
	var using []*facts.Handler
	for j := len(obj); j < len(rest); j++ {
		if rest[j].kind == asWord && rest[j].kw == kwUsing {
			u := rest[j+1:]
			using = an.appRef(u[:exprEnd(u)])
			break
		}
	}
	var hs []*facts.Handler
	forward := false
	switch {
	case using != nil:
		hs, forward = using, true
	case app == nil:
		hs = []*facts.Handler{&runningScript}
	case app.dynamic:
		hs = []*facts.Handler{&computedApp}
	case app.known != nil && forwarderApps[app.known.Title]:
		hs, forward = []*facts.Handler{nil}, true
	case app.known != nil:
		h := facts.NamedHandler(app.known.Title, false)
		hs = []*facts.Handler{&h}
	default:
		h := facts.NamedHandler(app.name, looksLikeID(app.name))
		hs = []*facts.Handler{&h}
	}
	// The app opens the file outside every sandbox, and the script may ask
	// it for what it read (text of document 1): opening a secret is
	// reading it. Keynote is the exception: it opens only presentations,
	// so what it reads back of a *.key is a deck's slides, never a key.
	keynote := facts.AllKeynote(hs, false)
	if !keynote {
		an.pathArgs(obj, false)
	}
	kind, vals := an.openObject(obj, 0)
	if !keynote && (kind == objFile || kind == objApp) {
		// The path as the launch sees it, folded from the variables and
		// the & joins it is built of ("/Users/me/." & "netrc"), whose
		// pieces pathArgs checks only one by one.
		for _, v := range vals {
			if v.whole {
				an.pathLit(v.s, sp, false, false)
			}
		}
	}
	if kind == objOther && forward {
		kind = objUnknown // the Finder's objects are files and folders: one it cannot tell may be a file
	}
	for _, h := range hs {
		switch kind {
		case objFile:
			for _, v := range vals {
				an.launchPath(sp, h, v)
			}
		case objApp:
			for _, v := range vals {
				if h == nil && facts.OpenPath(v.s) == facts.TargetApp {
					an.add(effect.Of(effect.Launch), "as.launch-app", sp, "OPEN: launches the installed application %s", rate.Display(v.s))
					continue
				}
				an.launchPath(sp, h, v)
			}
		case objUnknown:
			switch {
			case h != nil && forward:
				an.launchPath(sp, h, launchVal{s: "…"})
			case h == nil:
				an.add(effect.Of(effect.Launch, effect.Computed), "as.launch-computed", sp, "OPEN: opens what is computed at run time, which may be a file for the app the system chooses")
			}
		}
	}
	if kind == objOther || kind == objUnknown && !forward {
		// An application's own object: a runnable file named in it still runs.
		for _, t := range obj {
			if t.kind == asString {
				if ext := facts.RunnableExt(an.str(t)); ext != "" {
					an.add(effect.Of(effect.RunUnseen), "as.open-executable", sp, "OPEN: opens %s, which runs code (%s)", rate.Display(an.str(t)), ext)
				}
			}
		}
	}
}

// looksLikeID reports an application name that is a bundle identifier
// (tell application id "com.apple.Terminal" keeps the id as its name).
func looksLikeID(s string) bool {
	return strings.Count(s, ".") >= 2 && !strings.ContainsAny(s, "/: ") && !strings.HasSuffix(strings.ToLower(s), ".app")
}

// launchPath rates handing the path or URL v to h (nil: the app the
// system chooses) by facts.ScriptOpen.
func (an *asAn) launchPath(sp Span, h *facts.Handler, v launchVal) {
	p, whole := v.s, v.whole
	if strings.Contains(p, rate.HoleUnquoted) || strings.Contains(p, rate.HoleQuoted) {
		whole = false
		p = strings.NewReplacer(rate.HoleUnquoted, "…", rate.HoleQuoted, "…").Replace(p)
	}
	if t, fp, ok := facts.OpenURL(p); ok && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && !strings.Contains(p, " ") {
		if t != facts.TargetFile {
			an.launchURL(sp, h, p, t)
			return
		}
		p = fp
	}
	handler, rule := facts.DefaultHandler(facts.Darwin), "as.launch-default"
	if h != nil {
		handler = *h
	}
	e, k, why := facts.ScriptOpen{Handler: handler, Path: p, Whole: whole, Shown: "it"}.Effect()
	if h != nil {
		rule = "as.launch-" + k.String()
	}
	an.add(e, rule, sp, "OPEN %s: %s", rate.Display(p), why)
}

// launchURL rates handing a URL that is not a file's to h: by its scheme,
// a file: URL of a folder or an application as file: URLs were, and a
// runner given it runs it.
func (an *asAn) launchURL(sp Span, h *facts.Handler, u string, t facts.Target) {
	if h != nil {
		if k, why := facts.Classify(*h, facts.InputWeb); k == facts.HandlerRunner {
			e, why := facts.LaunchEffect(rate.Display(u), k, why, nil)
			an.add(e, "as.launch-runner", sp, "OPEN %s: %s", rate.Display(u), why)
			return
		}
	}
	scheme := "file"
	if t != facts.TargetFolder && t != facts.TargetApp {
		scheme, _ = facts.URLScheme(strings.ToLower(strings.TrimSpace(u)))
	}
	e, why := facts.SchemeEffect(scheme)
	an.add(e, "egress.as.open-url", sp, "OPEN URL: %s", why)
}

// appRef reads the application a reference names (after using, or
// withApplication:): path to application "X", application "X",
// application id "…", application file "X.app" of …, POSIX file "/…/X.app",
// a name or path; one for each spelling a variable can hold, and one
// Airlock cannot know when it is computed at run time.
func (an *asAn) appRef(st []asToken) []*facts.Handler {
	st = trimParens(st)
	byID, finderRef := false, false
	k := 0
	for k < len(st) && st[k].kind == asWord {
		switch {
		case st[k].kw == kwPath && k+1 < len(st) && st[k+1].kw == kwTo:
			k += 2
			continue
		case st[k].kw == kwApplication || st[k].kw == kwApp || st[k].kw == kwPosix || st[k].kw == kwAlias || st[k].kw == kwThe:
			k++
			continue
		case st[k].kw == kwFile:
			finderRef = k > 0 && (st[k-1].kw == kwApplication || st[k-1].kw == kwApp)
			k++
			continue
		case st[k].kw == kwId:
			byID = true
			k++
			continue
		}
		break
	}
	name := st[k:]
	if len(name) == 0 {
		return []*facts.Handler{&computedApp}
	}
	userOwned := false
	if finderRef && !byID {
		// application file "X.app" of folder "Utilities" of folder "Applications" of startup disk
		end := 1
		for end < len(name) && name[end].kw != kwOf {
			end++
		}
		userOwned = !an.inAppFolders(name[end:])
		name = name[:end]
	}
	variants, whole := an.template(name, 0)
	if whole || len(variants) == 0 {
		return []*facts.Handler{&computedApp}
	}
	var out []*facts.Handler
	for _, v := range variants {
		if strings.Contains(v, rate.HoleUnquoted) || strings.Contains(v, rate.HoleQuoted) {
			out = append(out, &computedApp)
			continue
		}
		h := facts.NamedHandler(v, byID)
		h.UserOwned = h.UserOwned || userOwned
		out = append(out, &h)
	}
	return out
}

// inAppFolders reports a Finder container (of folder "Utilities" of folder
// "Applications" of startup disk) inside the folders applications are
// installed in.
func (an *asAn) inAppFolders(st []asToken) bool {
	apps := false
	for _, t := range st {
		switch {
		case t.kind == asString:
			switch strings.ToLower(an.str(t)) {
			case "applications":
				apps = true
			case "utilities", "system", "library", "coreservices":
			default:
				return false
			}
		case t.kind == asWord && (t.kw == kwHome || an.text(t) == "desktop" || t.kw == kwUser):
			return false
		}
	}
	return apps
}

// trimParens strips the brackets around a whole expression, a leading
// "the" and a trailing coercion (as alias, as text).
func trimParens(st []asToken) []asToken {
	for {
		switch {
		case len(st) > 1 && st[0].isOp('(') && matchClose(st) == len(st)-1:
			st = st[1 : len(st)-1]
		case len(st) > 2 && st[len(st)-2].kind == asWord && st[len(st)-2].kw == kwAs:
			st = st[:len(st)-2]
		case len(st) > 0 && st[0].kind == asWord && st[0].kw == kwThe:
			st = st[1:]
		default:
			return st
		}
	}
}

// matchClose returns the index of the bracket that closes st[0].
func matchClose(st []asToken) int {
	depth := 0
	for j, t := range st {
		switch {
		case t.kind == asOp && (t.op == '(' || t.op == '{'):
			depth++
		case t.kind == asOp && (t.op == ')' || t.op == '}'):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return -1
}

// maxObjectDepth bounds the variables openObject follows.
const maxObjectDepth = 3

// objectLead are the words that may come before what a reference names:
// ordinals, get, a reference to, my.
var objectLead = set(`first second third fourth fifth sixth seventh eighth ninth tenth last middle some front back
	get my a reference to every`)

// openObject says what the object of open is, and for a file the paths it
// can be (a Finder item: its name).
func (an *asAn) openObject(obj []asToken, depth int) (objKind, []launchVal) {
	t := trimParens(obj)
	if len(t) == 0 {
		return objUnknown, nil
	}
	if t[0].isOp('{') {
		// A list: each item is opened; the worst of them counts.
		kind := objKind(255)
		var vals []launchVal
		for _, e := range listElems(t) {
			k, vs := objUnknown, []launchVal(nil)
			if depth < maxObjectDepth {
				k, vs = an.openObject(e, depth+1)
			}
			kind = worseObject(kind, k)
			vals = append(vals, vs...)
		}
		if kind == 255 {
			return objOther, nil
		}
		return kind, vals
	}
	every := false
	for len(t) > 1 && t[0].kind == asWord && objectLead[an.text(t[0])] {
		every = every || an.text(t[0]) == "every"
		t = trimParens(t[1:])
	}
	if len(t) == 0 {
		return objUnknown, nil
	}
	word := func(k int) string {
		if k < len(t) && t[k].kind == asWord {
			return an.text(t[k])
		}
		return ""
	}
	switch w := word(0); {
	case t[0].kind == asString:
		return an.pathObject(t)
	case w == "posix" && word(1) == "file" && !every, (w == "file" || w == "alias") && pathArg(t) && !every:
		k := 1
		if w == "posix" {
			k = 2
		}
		return an.pathObject(t[k:])
	case w == "file" || w == "alias" || w == "item" || w == "document" && word(1) == "file" ||
		w == "files" || w == "items" || w == "document" && word(1) == "files" || w == "disk" && word(1) == "item" ||
		w == "disk" && word(1) == "items":
		if w == "item" && !every && len(t) > 2 && t[1].kind == asNumber && !an.finderItems(t) {
			if len(t) > 3 && t[2].kw == kwOf && an.text(t[3]) == "argv" {
				// item 1 of argv: text the agent gives, which an app's open
				// takes as a path ("/Users/me/.ssh/id_rsa").
				return objFile, []launchVal{{s: "…"}}
			}
			return objUnknown, nil // item 1 of a list
		}
		return objFile, an.itemName(t)
	case w == "application" && word(1) == "file":
		of := 2
		for of < len(t) && t[of].kw != kwOf {
			of++
		}
		if of < len(t) && an.inAppFolders(t[of:]) {
			return objApp, []launchVal{{s: "/Applications/" + firstString(an, t), whole: true}}
		}
		return objFile, an.itemName(t)
	case w == "path" && word(1) == "to":
		if word(2) == "application" || word(2) == "app" {
			return objApp, []launchVal{{s: "/Applications/x.app", whole: true}}
		}
		return objFolder, nil
	case w == "folder" || w == "folders" || w == "disk" || w == "disks" || w == "home" || w == "desktop" || w == "trash" ||
		w == "startup" || w == "container" || w == "make" && hasWord(t, kwFolder) || w == "choose" && word(1) == "folder":
		return objFolder, nil
	case w == "choose" && word(1) == "file":
		return objFile, []launchVal{{s: "…"}}
	case (t[0].kind == asWord || t[0].kind == asVar) && len(t) == 1 && an.isVar(an.name(t[0])):
		if depth >= maxObjectDepth {
			return objUnknown, nil
		}
		kind := objKind(255)
		var vals []launchVal
		for d := an.firstDef(an.name(t[0])); d >= 0; d = an.defList[d].next {
			if an.foldWork++; an.foldWork > maxFoldWork {
				return objUnknown, nil // past the budget: what it holds is computed
			}
			expr := an.defList[d].expr
			k, vs := objUnknown, []launchVal(nil)
			if expr != nil {
				k, vs = an.openObject(expr, depth+1)
			}
			kind = worseObject(kind, k)
			vals = append(vals, vs...)
		}
		if kind == 255 {
			return objUnknown, nil
		}
		return kind, vals
	case (t[0].kind == asWord || t[0].kind == asVar) && len(t) == 1:
		return objUnknown, nil // a handler's parameter, a repeat variable
	case w == "selection" || w == "item":
		return objUnknown, nil
	}
	return objOther, nil
}

// worseObject is the kind that counts of two a reference can be: a file
// over anything, what cannot be told over a folder or an app's object.
func worseObject(a, b objKind) objKind {
	switch {
	case a == 255, b == objFile, b == objUnknown && a != objFile, b == objApp && (a == objFolder || a == objOther):
		return b
	}
	return a
}

// pathArg reports file X or alias X whose X is a path (a string, a
// variable, an expression), not a Finder item (file "x" of …, file 1 of …).
func pathArg(st []asToken) bool {
	if len(st) < 2 {
		return false
	}
	if st[1].kind == asString || st[1].kind == asNumber {
		return len(st) == 2 || st[2].kw != kwOf
	}
	return true
}

// finderItems reports item N of a Finder container (of folder …, of
// desktop, of home), not of a list.
func (an *asAn) finderItems(st []asToken) bool {
	for _, t := range st[2:] {
		if t.kind == asWord && (t.kw == kwFolder || t.kw == kwHome || t.kw == kwDisk || an.text(t) == "desktop" || an.text(t) == "container" || t.kw == kwPath) {
			return true
		}
	}
	return false
}

func firstString(an *asAn, st []asToken) string {
	for _, t := range st {
		if t.kind == asString {
			return an.str(t)
		}
	}
	return ""
}

// pathObject reads a path expression: each spelling it can have.
func (an *asAn) pathObject(st []asToken) (objKind, []launchVal) {
	variants, whole := an.template(st, 0)
	if whole || len(variants) == 0 {
		return objFile, []launchVal{{s: "…"}}
	}
	kind := objKind(255)
	var vals []launchVal
	for _, v := range variants {
		p := v
		if strings.Contains(p, ":") && !strings.Contains(p, "/") {
			p = rate.HFSToPOSIX(p) // Macintosh HD:Users:me:notes
		}
		k := objFile
		switch facts.OpenPath(strings.NewReplacer(rate.HoleUnquoted, "…", rate.HoleQuoted, "…").Replace(p)) {
		case facts.TargetFolder:
			k = objFolder
		case facts.TargetApp:
			k = objApp
		}
		if kind == 255 || k == objFile || k == objApp && kind == objFolder {
			kind = k
		}
		if k != objFolder {
			vals = append(vals, launchVal{s: p, whole: true})
		}
	}
	return kind, vals
}

// itemName is the name a Finder reference gives its item (file "a.txt" of
// desktop): the file's name is known, its folder may not be.
func (an *asAn) itemName(st []asToken) []launchVal {
	for k, t := range st {
		if t.kind == asString {
			return []launchVal{{s: an.str(t), whole: k+1 < len(st) && st[k+1].kw == kwOf || k+1 == len(st)}}
		}
		if t.kind == asWord && t.kw == kwOf {
			break
		}
	}
	return []launchVal{{s: "…"}}
}

// verbOpenLocation rates open location, OpenURL and GetURL: a file: URL
// is a file for the app told (the one Launch Services chooses when none
// is), any other URL is what its scheme says. A URL computed at run time
// whole is taken to be a web page.
func verbOpenLocation(an *asAn, st []asToken, i, n int, app *asApp) {
	sp := span2(st, i, n)
	rest := st[i+n:]
	variants, whole := an.template(rest[:exprEnd(rest)], 0)
	if whole {
		an.add(effect.Of(effect.Egress), "egress.as.open-url", sp, "OPEN URL: opens a web page")
		return
	}
	var h *facts.Handler
	switch {
	case app == nil || app.known != nil && forwarderApps[app.known.Title]:
	case app.dynamic:
		h = &computedApp
	case app.known != nil:
		named := facts.NamedHandler(app.known.Title, false)
		h = &named
	default:
		named := facts.NamedHandler(app.name, looksLikeID(app.name))
		h = &named
	}
	for _, v := range variants {
		if _, ok := facts.URLScheme(strings.ToLower(strings.TrimSpace(v))); !ok {
			an.add(effect.Of(effect.Egress), "egress.as.open-url", sp, "OPEN URL: opens a web page")
			continue
		}
		an.launchPath(sp, h, launchVal{s: strings.TrimSpace(v), whole: true})
	}
}

// objcOpen rates NSWorkspace's open methods: openFile:, openURL: and
// openURLs: hand their files and URLs to the app withApplication:,
// withApplicationAtURL: or withAppBundleIdentifier: names, or to the one
// Launch Services chooses; the methods that launch an application with
// nothing to open rate it as before (an installed one is Caution).
func (an *asAn) objcOpen(key string, sel string, m facts.ObjCMethod, args []asToken, sp Span) {
	switch key {
	case "openFile", "openURL", "openURLs":
	default:
		for _, v := range an.objcStrings(objcArg(args, 0)) {
			if facts.OpenPath(strings.TrimPrefix(v, "file://")) == facts.TargetApp {
				an.add(effect.Of(effect.Launch), "as.launch-app", sp, "OPEN: %s launches the installed application %s", key, rate.Display(v))
				return
			}
			if ext := facts.RunnableExt(v); ext != "" {
				an.add(effect.Of(effect.RunUnseen), "as.open-executable", sp, "OPEN: %s opens %s, which runs code (%s)", key, rate.Display(v), ext)
				return
			}
		}
		an.add(m.Does, "as.objc-open", sp, "OPEN: %s %s", key, m.What)
		return
	}
	an.add(m.Does, "as.objc-open", sp, "OPEN: %s %s", key, m.What)
	var h *facts.Handler
	target := objcArg(args, 0)
	if len(args) > 0 && args[0].isOp('(') {
		// openFile_withApplication_(p, app): the parts of the selector name the arguments.
		parts := strings.Split(strings.ToLower(sel), "_")
		elems := listElems(args)
		for n, part := range parts {
			if n < len(elems) && strings.HasPrefix(part, "with") && strings.Contains(part, "app") {
				h = an.objcApp(part, elems[n])
			}
		}
	} else {
		for j := 0; j+1 < len(args); j++ {
			t := args[j]
			if (t.kind == asWord || t.kind == asVar) && args[j+1].isOp(':') && j > 0 {
				if label := strings.ToLower(an.text(t)); strings.HasPrefix(label, "with") && strings.Contains(label, "app") {
					h = an.objcApp(label, objcArg(args, j+1))
				}
			}
		}
	}
	vals := an.objcValues(target, 0)
	for _, v := range vals {
		if v.s == "…" && !v.whole && h == nil && key != "openFile" {
			an.add(effect.Of(effect.Launch, effect.Computed), "as.launch-computed", sp, "OPEN: %s opens what is computed at run time, which may be a file for the app the system chooses", key)
			continue
		}
		an.launchPath(sp, h, v)
	}
}

// objcApp is the handler a withApplication…: argument names.
func (an *asAn) objcApp(label string, arg []asToken) *facts.Handler {
	vals := an.objcValues(arg, 0)
	if len(vals) != 1 || !vals[0].whole || strings.Contains(vals[0].s, rate.HoleUnquoted) || strings.Contains(vals[0].s, rate.HoleQuoted) {
		return &computedApp
	}
	s := vals[0].s
	if _, p, ok := facts.OpenURL(s); ok && p != "" {
		s = p
	}
	h := facts.NamedHandler(s, strings.Contains(label, "bundleidentifier"))
	return &h
}

// objcConstructors are the methods whose value is their argument's text:
// a path or URL made into an NSURL or NSString.
var objcConstructors = set(`fileurlwithpath urlwithstring initfileurlwithpath initwithstring stringwithstring
	fileurlwithpath_isdirectory_ fileurlwithpath_ urlwithstring_ initfileurlwithpath_ initwithstring_ stringwithstring_`)

// objcValues returns what an argument of NSWorkspace's can hold: the
// texts made into NSURLs and NSStrings, a list's elements, a variable's
// definitions; "…" for what is computed at run time.
func (an *asAn) objcValues(arg []asToken, depth int) []launchVal {
	arg = trimParens(arg)
	computed := []launchVal{{s: "…"}}
	if len(arg) == 0 || depth > maxObjectDepth {
		return computed
	}
	for j := 0; j+1 < len(arg); j++ {
		if (arg[j].kind == asWord || arg[j].kind == asVar) && (arg[j+1].isOp(':') || arg[j+1].isOp('(')) {
			w := an.text(arg[j])
			if objcConstructors[w] || objcConstructors[strings.SplitAfter(w, "_")[0]] {
				return an.objcValues(objcArg(arg, j+1), depth+1)
			}
		}
	}
	if arg[0].isOp('{') {
		var out []launchVal
		for _, e := range listElems(arg) {
			out = append(out, an.objcValues(e, depth+1)...)
		}
		if len(out) == 0 {
			return computed
		}
		return out
	}
	if len(arg) == 1 && (arg[0].kind == asWord || arg[0].kind == asVar) && an.isVar(an.name(arg[0])) {
		var out []launchVal
		for d := an.firstDef(an.name(arg[0])); d >= 0; d = an.defList[d].next {
			if an.foldWork++; an.foldWork > maxFoldWork {
				return append(out, computed...)
			}
			if expr := an.defList[d].expr; expr != nil {
				out = append(out, an.objcValues(expr, depth+1)...)
			} else {
				out = append(out, computed...)
			}
		}
		if len(out) == 0 {
			return computed
		}
		return out
	}
	variants, whole := an.template(arg, 0)
	if whole {
		return computed
	}
	out := make([]launchVal, 0, len(variants))
	for _, v := range variants {
		out = append(out, launchVal{s: v, whole: true})
	}
	return out
}
