package jxa

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// A launch hands a file or URL to a program Airlock does not confine:
// Application('Finder').open(…), an application's own open, NSWorkspace's
// openFile, openURL and their withApplication forms, openLocation. Nothing
// checks a script's launch again when it happens, so facts.ScriptOpen
// rates each file by what the script names: the handler (the application
// told, the one using: or withApplication names, none for the Finder,
// System Events and NSWorkspace alone) and the path. A web page is
// Caution, another URL what its scheme says; folders and installed
// applications are what they were.

// launchTarget is what a launch is given, by the method's kind.
type launchTarget uint8

const (
	targetFile   launchTarget = iota // a path, or a Finder or System Events reference
	targetURL                        // an NSURL: a file: URL or another
	targetObject                     // an application's own object when not a path (Mail.open(message))
)

// forwarders are the applications whose open hands the file to the app
// Launch Services chooses, or to the one using: names.
var forwarders = map[string]bool{"finder": true, "system events": true}

// launchCall rates a launch found at u: an NSWorkspace method or
// openLocation (openCall), or an application's open (appCommand).
func (an *jsAn) launchCall(u use, c jsCall) {
	arg := func(n int) []jsToken {
		if n < len(c.args) {
			return c.args[n]
		}
		return nil
	}
	switch u.r.name {
	case "openLocation":
		an.launch(u.sp, u.m.rule, nil, c.first, targetURL, true)
	case "openFile":
		an.launch(u.sp, u.m.rule, nil, c.first, targetFile, false)
	case "openURL", "openURLConfigurationCompletionHandler":
		an.launch(u.sp, u.m.rule, nil, c.first, targetURL, false)
	case "openFileWithApplication", "openFileWithApplicationAndDeactivate":
		an.launch(u.sp, u.m.rule, an.handlerOf(arg(1), false), c.first, targetFile, false)
	case "openURLsWithApplicationAtURLConfigurationCompletionHandler", "openURLsWithApplicationAtURLOptionsConfigurationError":
		an.launch(u.sp, u.m.rule, an.handlerOf(arg(1), false), c.first, targetURL, false)
	case "openURLWithAppBundleIdentifierOptionsAdditionalEventParamDescriptorLaunchIdentifier",
		"openURLsWithAppBundleIdentifierOptionsAdditionalEventParamDescriptorLaunchIdentifiers":
		an.launch(u.sp, u.m.rule, an.handlerOf(arg(1), true), c.first, targetURL, false)
	case "open":
		an.appOpen(u, c)
	case "launchApplication", "launchApplicationShowIconAutolaunch", "launchAppWithBundleIdentifierOptionsAdditionalEventParamDescriptorLaunchIdentifier":
		an.appAllowed(c.first, u.sp) // an application by its name or identifier
		an.openTarget(c, u.sp, false)
	default: // openApplicationAtURL …: an application with nothing to open
		an.openTarget(c, u.sp, false)
	}
}

// appOpen rates app.open(x): the Finder and System Events hand x to the
// app Launch Services chooses, or to the one using: names; any other
// application opens x itself, and what is not a path is its own object.
func (an *jsAn) appOpen(u use, c jsCall) {
	apps := an.chainApps(u.toks, u.r.i)
	var hs []*facts.Handler
	forward := false
	for _, a := range apps {
		key := facts.AppKey(facts.LowerName(nil, a))
		if forwarders[string(key)] || forwarders[facts.AppIDs[string(key)]] {
			forward = true
			continue
		}
		hs = append(hs, appHandler(a))
	}
	if len(apps) == 0 {
		hs = append(hs, &facts.Handler{Platform: facts.Darwin, Name: "an application named at run time"})
	}
	for _, h := range hs {
		an.launch(u.sp, u.m.rule, h, c.first, targetObject, false)
	}
	if forward {
		var h *facts.Handler
		if len(c.args) > 1 {
			if v := jsObjectValue(c.args[1], "using"); v != nil {
				h = an.handlerOf(v, false)
			}
		}
		an.launch(u.sp, u.m.rule, h, c.first, targetFile, false)
		hs = append(hs, h) // the app the Finder hands it to
	}
	an.openRead(c, hs)
}

// appHandler is the handler an application's name in Application(…)
// names: a bundle identifier when it reads as one.
func appHandler(name string) *facts.Handler {
	s := strings.TrimSpace(name)
	byID := strings.Count(s, ".") >= 2 && !strings.ContainsAny(s, "/: ") && !strings.HasSuffix(strings.ToLower(s), ".app")
	h := facts.NamedHandler(s, byID)
	return &h
}

// handlerOf is the handler an argument names: an application's name or
// path (Path(…), an NSURL of one) or, with byID, its bundle identifier;
// computed at run time, one Airlock cannot know.
func (an *jsAn) handlerOf(arg []jsToken, byID bool) *facts.Handler {
	v := an.evalExpr(arg, 0)
	if v.lit && !v.arr && len(v.strs) == 1 && !strings.Contains(v.strs[0], "__AIRLOCK_") {
		s := v.strs[0]
		if _, p, ok := facts.OpenURL(s); ok && p != "" {
			s = p // file:///Applications/…
		}
		h := facts.NamedHandler(s, byID)
		return &h
	}
	return &facts.Handler{Platform: facts.Darwin, Name: "an application named at run time"}
}

// fileSpecs and folderSpecs are the Finder's and System Events' element
// names that make a reference a file or a folder.
var (
	fileSpecs = map[string]bool{"files": true, "file": true, "documentFiles": true, "documentFile": true, "items": true,
		"item": true, "aliasFiles": true, "aliasFile": true, "applicationFiles": true, "applicationFile": true, "selection": true}
	folderSpecs = map[string]bool{"folders": true, "folder": true, "home": true, "desktop": true, "startupDisk": true,
		"disks": true, "disk": true, "trash": true, "containerWindow": true}
)

// launch rates handing what target evaluates to to h (nil: the app the
// system chooses). rule is the method's row's, which every launch adds at
// Caution; location says a URL computed at run time is taken to be a web
// page (openLocation).
func (an *jsAn) launch(sp rate.Span, rule string, h *facts.Handler, target []jsToken, kind launchTarget, location bool) {
	if location {
		an.add(effect.Of(effect.Egress), rule, sp, "OPEN URL: opens a web page")
	} else {
		an.add(effect.Of(effect.Launch), rule, sp, "OPEN: opens a file, folder, application or page")
	}
	v := an.evalExpr(target, 0)
	var vals []string
	switch {
	case v.arr:
		for _, e := range v.elems {
			vals = append(vals, e...)
		}
	case v.lit:
		vals = an.strs(v)
	}
	if len(vals) == 0 {
		an.launchComputed(sp, h, target, kind, location)
		return
	}
	for _, s := range vals {
		an.launchOne(sp, h, s, kind)
	}
}

// launchComputed rates a launch whose target is computed at run time, or
// is a reference: a path the script builds is a file; a Finder reference
// is a file or a folder by its last element; a URL stays what it was for
// openLocation, and is Dangerous otherwise, since it may be a file's.
func (an *jsAn) launchComputed(sp rate.Span, h *facts.Handler, target []jsToken, kind launchTarget, location bool) {
	isFile, isFolder, isPath := false, false, false
	for k, t := range target {
		if t.kind != jsIdent {
			continue
		}
		switch {
		case t.text == "Path" && k+1 < len(target) && target[k+1].text == "(":
			isPath = true
		case t.text == "argv":
			// argv[0]: text the agent gives, which an app's open takes
			// as a path ('/Users/me/.ssh/id_rsa').
			isPath = true
		case fileSpecs[t.text]:
			isFile, isFolder = true, false
		case folderSpecs[t.text]:
			isFolder, isFile = true, false
		}
	}
	switch {
	case isFolder && !isPath:
		return
	case kind == targetObject && !isPath && !isFile:
		an.heldItems(sp, target)
		return // the application's own object: a document, a message
	case isPath || isFile || kind == targetFile && h != nil:
		an.launchFile(sp, h, "…", false)
	case kind == targetURL && location:
	case h != nil:
		an.launchFile(sp, h, "…", false)
	default:
		an.add(effect.Of(effect.Launch, effect.Computed), "jxa.launch-computed", sp, "OPEN: opens what is computed at run time, which may be a file for the app the system chooses")
	}
}

// launchOne rates handing the path or URL s to h.
func (an *jsAn) launchOne(sp rate.Span, h *facts.Handler, s string, kind launchTarget) {
	shown := rate.Display(strings.ReplaceAll(s, rate.HoleUnquoted, "…"))
	if t, p, ok := facts.OpenURL(s); ok && !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "~") {
		if t == facts.TargetFile {
			an.launchFile(sp, h, p, true)
			return
		}
		if t == facts.TargetFolder || t == facts.TargetApp {
			e, why := facts.SchemeEffect("file")
			an.add(e, "egress.jxa.open-url", sp, "OPEN: %s", why)
			return
		}
		if h != nil {
			if k, why := facts.Classify(*h, facts.InputWeb); k == facts.HandlerRunner {
				e, why := facts.LaunchEffect(shown, k, why, nil)
				an.add(e, "jxa.launch-runner", sp, "OPEN %s: %s", shown, why)
				return
			}
		}
		scheme, _ := facts.URLScheme(strings.ToLower(strings.TrimSpace(s)))
		e, why := facts.SchemeEffect(scheme)
		an.add(e, "egress.jxa.open-url", sp, "OPEN: %s", why)
		return
	}
	switch facts.OpenPath(strings.ReplaceAll(s, rate.HoleUnquoted, "…")) {
	case facts.TargetFolder:
		return
	case facts.TargetApp:
		if h == nil {
			return // launching an installed application
		}
	}
	an.launchFile(sp, h, s, true)
}

// launchFile rates handing the file at p to h (nil: the app the system
// chooses) by facts.ScriptOpen; whole says p is all of its path.
func (an *jsAn) launchFile(sp rate.Span, h *facts.Handler, p string, whole bool) {
	if strings.Contains(p, rate.HoleUnquoted) || strings.Contains(p, "__AIRLOCK_") {
		whole = false
	}
	p = strings.ReplaceAll(p, rate.HoleUnquoted, "…")
	handler, rule := facts.DefaultHandler(facts.Darwin), "jxa.launch-default"
	if h != nil {
		handler = *h
	}
	e, k, why := facts.ScriptOpen{Handler: handler, Path: p, Whole: whole, Shown: "it"}.Effect()
	if h != nil {
		rule = "jxa.launch-" + k.String()
	}
	an.add(e, rule, sp, "OPEN %s: %s", rate.Display(p), why)
}

// heldItems notes the folder whose items a variable handed to an app's
// open holds (x = F.home.folders['Downloads'].files[0]; for (x of
// F.home.folders['Documents'].files())): a Launch effect whose Target is
// the folder and "/…", at the level an open of the app's own object has.
// Which item is not known, but where: the executor does not start an
// unasked script that hands an app an item of a folder holding a file
// the sandbox hides (execute.handedHidden).
func (an *jsAn) heldItems(sp rate.Span, target []jsToken) {
	t := jsStripParens(target)
	if len(t) != 1 || t[0].kind != jsIdent {
		return
	}
	for n, d := range an.defsFor(an.scopeOf(t[0].text, t[0].start)) {
		if n >= 8 {
			break
		}
		e := d.expr
		k := len(e) - 1
		for ; k > 0; k-- {
			if e[k].kind == jsIdent && fileSpecs[e[k].text] && e[k-1].text == "." {
				break
			}
		}
		if k <= 0 {
			continue
		}
		for _, p := range an.itemPaths(e[:k-1], 0) {
			if p == "" || strings.Contains(p, rate.HoleUnquoted) {
				continue
			}
			an.add(effect.Of(effect.Launch).On(strings.TrimRight(p, "/")+"/…"), "jxa.open-item", sp, "OPEN: hands the application an item of %s, which it reads outside every sandbox", rate.Display(p))
		}
	}
}
