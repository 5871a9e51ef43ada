package jxa

import (
	"slices"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// The functions rows of methods (rules.go) name: each reads one kind of
// call and adds what it finds, at the row's level and rule where the call
// has one finding.

// use is a reference to a method of the table, as the scan met it.
type use struct {
	toks []jsToken
	r    jsRef
	m    *method
	sp   rate.Span
}

// tok is the token that ends the reference.
func (u use) tok() jsToken { return u.toks[u.r.i] }

// member rates the reference r by its row, if it has one.
func (an *jsAn) member(toks []jsToken, r jsRef) {
	m := rowOf(r.name)
	if m.rate == rNone || m.cfunc && !r.dollar {
		return // not a row; or a C function's name on anything but the ObjC bridge
	}
	if !r.member && !r.alias && an.methodDef(toks, r.i) {
		return // class Job { constructor(…) {…} eval(…) {…} }: a definition, not a call
	}
	u := use{toks: toks, r: r, m: m, sp: jsSpan(toks[r.i])}
	an.options(u)
	m.rate.run(an, u)
}

// options rates the options records a call gives: a key the row does not
// model (or one computed, spread or defined as a method) is Dangerous, by
// the auto-run contract.
func (an *jsAn) options(u use) {
	c := an.invocation(u.toks, u.r.i)
	if !c.ok || u.m.elems {
		return
	}
	for _, a := range c.args {
		a = jsStripParens(a)
		if len(a) < 2 || a[0].text != "{" || jsMatch(a, 0) != len(a)-1 {
			continue
		}
		for _, e := range jsSplitArgs(a[1 : len(a)-1]) {
			if len(e) == 0 {
				continue
			}
			key := "(computed)"
			switch {
			case e[0].kind == jsIdent && (len(e) == 1 || e[1].text == ":"):
				key = e[0].text
			case e[0].kind == jsString && len(e) > 1 && e[1].text == ":":
				key = e[0].val
			case e[0].kind == jsNumber && len(e) > 1 && e[1].text == ":":
				key = e[0].text
			}
			if !slices.Contains(u.m.opts, key) {
				an.add(effect.Of(effect.Unknown), "jxa.option-unmodelled", u.sp, "%s is given the option %s, which Airlock does not model", u.r.name, jsQuote(key))
			}
		}
	}
}

// methodDef reports that the bare name at toks[i] defines a method of a
// class body or an object literal — name(…) { … } — rather than calling
// the function of that name. Outside those, name(…) followed by a block is
// a call (ASI ends the statement), so it is rated.
func (an *jsAn) methodDef(toks []jsToken, i int) bool {
	if i+1 >= len(toks) || toks[i+1].text != "(" {
		return false
	}
	c := jsMatch(toks, i+1)
	if c < 0 || c+1 >= len(toks) || toks[c+1].text != "{" {
		return false
	}
	o := jsEnclosing(toks, i)
	if o < 0 {
		return false
	}
	if o > 0 {
		switch toks[o-1].text {
		case "=", "(", ",", "[", "return":
			return true // an object literal (after : or ? a { may be a block: it is not trusted)
		}
	}
	return jsClassBody(toks, o)
}

// jsEnclosing returns the index of the { that encloses toks[i], or -1 when
// none is found near enough (or toks[i] is inside parentheses or brackets).
func jsEnclosing(toks []jsToken, i int) int {
	for k, steps := i-1, 0; k >= 0 && steps < 4096; k, steps = k-1, steps+1 {
		switch toks[k].text {
		case "}", ")", "]":
			o := jsMatch(toks, k)
			if o < 0 {
				return -1
			}
			k = o
		case "{":
			return k
		case "(", "[":
			return -1
		}
	}
	return -1
}

// jsClassBody reports that the { at toks[o] opens a class body: class Name
// [extends Expr] {.
func jsClassBody(toks []jsToken, o int) bool {
	for k, steps := o-1, 0; k >= 0 && steps < 32; k, steps = k-1, steps+1 {
		switch t := toks[k]; {
		case t.kind == jsIdent && t.text == "class":
			return true
		case t.text == ")" || t.text == "]":
			m := jsMatch(toks, k)
			if m < 0 {
				return false
			}
			k = m
		case t.text == ";" || t.text == "{" || t.text == "}":
			return false
		}
	}
	return false
}

// jsCollection reports that the call at toks[i] is made directly on a
// variable only ever given a JavaScript collection (new Map(), new Set(),
// an array literal): map.delete(key) is not an application's delete.
func (an *jsAn) jsCollection(toks []jsToken, i int) bool {
	if i < 2 || toks[i-1].text != "." || toks[i-2].kind != jsIdent || i > 2 && toks[i-3].text == "." {
		return false
	}
	ds := an.defs[toks[i-2].text]
	if len(ds) == 0 {
		return false
	}
	for _, d := range ds {
		e := d.expr
		switch {
		case d.hole || d.elems || len(e) == 0:
			return false
		case e[0].text == "[" && jsMatch(e, 0) == len(e)-1:
		case len(e) >= 4 && e[0].text == "new" && jsCollections[e[1].text] && e[2].text == "(" && jsMatch(e, 2) == len(e)-1:
		default:
			return false
		}
	}
	return true
}

// jsCollections are JavaScript's own collections, whose delete, clear and
// the like change nothing outside the script.
var jsCollections = map[string]bool{"Map": true, "Set": true, "WeakMap": true, "WeakSet": true, "Array": true,
	"URLSearchParams": true, "Headers": true, "FormData": true}

// finding adds the row's own finding.
func (an *jsAn) finding(u use) {
	if strings.Contains(u.m.text, "%s") {
		an.add(u.m.fx, u.m.rule, u.sp, u.m.text, u.r.name)
		return
	}
	an.add(u.m.fx, u.m.rule, u.sp, "%s", u.m.text)
}

// always: the row's finding wherever the name is met.
func (an *jsAn) always(u use) { an.finding(u) }

// called: the row's finding where the method is called; a reference to it
// not followed to a call is rated by the row's ref.
func (an *jsAn) called(u use) {
	if an.calledMember(u.toks, u.r.i, u.r, u.sp) {
		an.finding(u)
	}
}

func (an *jsAn) doShellScript(u use) {
	toks, i, sp := u.toks, u.r.i, u.sp
	an.add(effect.Of(effect.Shell), "jxa.shell", sp, "SHELL COMMAND: doShellScript runs a shell command")
	c := an.invocation(toks, i)
	if !c.ok {
		if an.aliasedAt(toks, i) {
			return
		}
		an.add(effect.Of(effect.Shell, effect.Computed), "jxa.shell-ref", sp, "takes a reference to doShellScript that is not followed: cannot tell what it runs")
		return
	}
	if !c.known {
		an.add(effect.Of(effect.Shell, effect.Computed), "jxa.shell-computed", sp, "SHELL COMMAND computed at run time: cannot tell what it runs")
		return
	}
	an.shell(c.first, sp)
}

func (an *jsAn) doScript(u use) {
	sp := u.sp
	c := an.invocation(u.toks, u.r.i)
	if !c.ok {
		an.unfollowed(u.toks, u.r, sp)
		return
	}
	if apps := an.chainApps(u.toks, u.r.i); len(apps) > 0 && !slices.ContainsFunc(apps, facts.IsTerminal) {
		// InDesign, Script Editor …: a script in the application's own
		// language, run where Airlock cannot see.
		an.add(effect.Of(effect.RunUnseen), "jxa.app-script", sp, "SCRIPT: doScript runs a script inside %s, which Airlock does not analyse", rate.Display(apps[0]))
		return
	}
	an.add(effect.Of(effect.Run), "jxa.terminal", sp, "TERMINAL: doScript runs a command in a live Terminal shell")
	vs, whole := an.template(c.first, 0)
	if whole || !c.known {
		an.add(effect.Of(effect.RunUnseen), "jxa.terminal-computed", sp, "TERMINAL: runs a command computed at run time")
		return
	}
	for _, s := range vs {
		an.env.Languages().Shell(an.v, s, an.env, &sp, an.depth+1)
	}
}

// writeText: iTerm's session.write({text: …}) types a command; Standard
// Additions' app.write(text, {to: file}) writes a file.
func (an *jsAn) writeText(u use) {
	sp := u.sp
	c := an.invocation(u.toks, u.r.i)
	if !c.ok {
		return
	}
	first := jsStripParens(c.first)
	if len(first) > 2 && first[0].text == "{" {
		for j := 1; j+2 < len(first); j++ {
			if first[j].text == "text" && first[j+1].text == ":" {
				an.add(effect.Of(effect.Run), "jxa.terminal", sp, "TERMINAL: write runs a command in a live iTerm shell")
				vs, whole := an.template(first[j+2:jsExprEnd(first, j+2)], 0)
				if whole {
					an.add(effect.Of(effect.RunUnseen), "jxa.terminal-computed", sp, "TERMINAL: runs a command computed at run time")
				}
				for _, s := range vs {
					an.env.Languages().Shell(an.v, s, an.env, &sp, an.depth+1)
				}
			}
		}
		return
	}
	for _, a := range c.args[min(1, len(c.args)):] {
		if v := jsObjectValue(a, "to"); v != nil {
			an.add(effect.Of(effect.Overwrite), "jxa.write", sp, "WRITE: write writes a file")
			an.pathArgs(jsCall{ok: true, args: [][]jsToken{v}}, true, 0)
		}
	}
}

// cShell: system, popen and the exec family, called on $.
func (an *jsAn) cShell(u use) {
	sp := u.sp
	c := an.invocation(u.toks, u.r.i)
	if !c.ok {
		an.unfollowed(u.toks, u.r, sp)
		return
	}
	an.add(effect.Of(effect.Shell), "jxa.system", sp, "SHELL COMMAND: %s runs a program", u.r.name)
	if !c.known {
		an.add(effect.Of(effect.Shell, effect.Computed), "jxa.shell-computed", sp, "SHELL COMMAND computed at run time: cannot tell what it runs")
		return
	}
	an.shell(c.first, sp)
}

// cDelete: unlink, remove, rmdir and truncate, called on $.
func (an *jsAn) cDelete(u use) {
	sp := u.sp
	c := an.invocation(u.toks, u.r.i)
	if !c.ok {
		an.unfollowed(u.toks, u.r, sp)
		return
	}
	what := "a file"
	if v := an.evalExpr(c.first, 0); v.lit {
		what = rate.Display(strings.ReplaceAll(an.strs(v)[0], rate.HoleUnquoted, "…"))
	}
	if u.r.name == "truncate" {
		an.add(effect.Of(effect.Remove), "jxa.truncate", sp, "TRUNCATE: truncate cuts %s short, destroying its contents", what)
		return
	}
	an.add(effect.Of(effect.Remove), "jxa.unlink", sp, "DELETE: %s permanently deletes %s (not to the Trash)", u.r.name, what)
}

// envRead: StandardAdditions' systemAttribute(NAME) and libc's getenv
// read an environment variable: one whose name says it holds a secret, or
// one named at run time, is a secret read, as the shell's printenv NAME.
func (an *jsAn) envRead(u use) {
	c := an.invocation(u.toks, u.r.i)
	if !c.ok || len(c.first) == 0 {
		return // systemAttribute(): the names only
	}
	v := an.evalExpr(c.first, 0)
	if !v.lit {
		an.add(effect.Of(effect.ReadNamedSecret), "secret.jxa.environment", u.sp, "SECRET: %s reads an environment variable named at run time, which may hold a token or key", u.r.name)
		return
	}
	for _, name := range an.strs(v) {
		switch {
		case rate.SecretVariable(name) && !strings.Contains(name, rate.HoleUnquoted):
			// Its value is all it gives back: the secret itself, as the
			// shell's printenv NAME prints it (ReadSecret there too).
			an.add(effect.Of(effect.ReadSecret).On(name), "secret.jxa.environment", u.sp, "SECRET: %s(%s) reads a variable that by its name holds a secret", u.r.name, jsQuote(name))
		case strings.Contains(name, rate.HoleUnquoted) || rate.SecretVariable(name):
			an.add(effect.Of(effect.ReadNamedSecret).On(name), "secret.jxa.environment", u.sp, "SECRET: %s(%s) reads a variable that by its name holds a secret", u.r.name, jsQuote(name))
		}
	}
}

// holdsProcessInfo reports a variable some value of which is
// NSProcessInfo's processInfo (var p = $.NSProcessInfo.processInfo;
// p.environment).
func (an *jsAn) holdsProcessInfo(t jsToken) bool {
	if t.kind != jsIdent {
		return false
	}
	for _, d := range an.defs[t.text] {
		if n := len(d.expr); n > 0 && d.expr[n-1].text == "processInfo" ||
			n > 2 && d.expr[n-1].text == ")" && d.expr[n-2].text == "(" && d.expr[n-3].text == "processInfo" {
			return true
		}
	}
	return false
}

// processEnv: $.NSProcessInfo.processInfo.environment is the whole
// environment, as the shell's env prints it (another object's environment
// property is not).
func (an *jsAn) processEnv(u use) {
	i := u.r.i
	if i < 2 || u.toks[i-1].text != "." || u.toks[i-2].text != "processInfo" && !an.holdsProcessInfo(u.toks[i-2]) {
		return
	}
	// environment.objectForKey('HOME'): one variable, by its name.
	if t := u.toks[i+1:]; len(t) > 4 && t[0].text == "." && (t[1].text == "objectForKey" || t[1].text == "valueForKey") &&
		t[2].text == "(" && t[3].kind == jsString && t[4].text == ")" {
		if rate.SecretVariable(t[3].val) {
			an.add(effect.Of(effect.ReadSecret).On(t[3].val), "secret.jxa.environment", u.sp, "SECRET: NSProcessInfo's environment %s holds a secret by its name", jsQuote(t[3].val))
		}
		return
	}
	// Its values, every token among them, are what it gives the script
	// (and the agent, as its result): a secret read, as the shell's env
	// printed back is.
	an.add(effect.Of(effect.ReadSecret), "secret.jxa.environment", u.sp, "SECRET: NSProcessInfo's environment is the whole environment, with every token and key in it")
}

// evalCall: eval, Function, runScript, NSAppleScript's initWithSource and
// the timers given a string run code from a string.
func (an *jsAn) evalCall(u use) {
	toks, i, sp, name := u.toks, u.r.i, u.sp, u.r.name
	if name == "constructor" {
		name = "Function"
	}
	c := an.invocation(toks, i)
	if !c.ok {
		if (name == "eval" || name == "Function") && u.tok().text != "constructor" && !an.aliasedAt(toks, i) {
			an.add(effect.Of(effect.Run, effect.Computed), "jxa.eval-ref", sp, "takes a reference to %s that is not followed: cannot tell what it runs", name)
		}
		return
	}
	first := c.first
	if name == "Function" && len(c.args) > 0 {
		// new Function('a', 'b', body): the body is the last argument.
		first = c.args[len(c.args)-1]
	}
	if (name == "setTimeout" || name == "setInterval") && !an.timerCode(first) {
		return // a function to call, not code to run
	}
	if !c.known {
		an.add(effect.Of(effect.RunComputed), "jxa.eval-computed", sp, "%s runs code computed at run time (downloaded, decoded or built): cannot tell what it does", name)
		return
	}
	an.evalCode(name, first, c, sp)
}

// timerCode reports that the first argument of setTimeout or setInterval is
// code (a string, however built) and not a function: a function or arrow
// expression, or a name or member that does not hold a string, is a
// function.
func (an *jsAn) timerCode(first []jsToken) bool {
	first = jsStripParens(first)
	if len(first) == 0 || first[0].text == "function" || first[0].text == "async" {
		return false
	}
	for k := 0; k < len(first); k++ {
		x := first[k]
		switch {
		case x.kind == jsString || x.kind == jsTemplate:
			return true
		case x.text == "=>":
			return false
		case x.text == "(" || x.text == "[" || x.text == "{":
			if m := jsMatch(first, k); m > k {
				k = m
			}
		}
	}
	if v := an.evalExpr(first, 0); v.lit {
		return true // a variable holding a string
	}
	// A computed value with an operator (a + b, f() + g) is a string.
	for _, x := range first {
		if x.kind == jsPunct && x.text == "+" {
			return true
		}
	}
	return false
}

// fileOp: an NSFileManager or NSString/NSData method that writes files;
// the row names the arguments that are paths read and written.
func (an *jsAn) fileOp(u use) {
	if u.m.text != "" {
		an.add(u.m.fx, u.m.rule, u.sp, u.m.text, u.r.name) // createDirectory…: a new folder, as mkdir
	} else {
		an.add(u.m.fx, "jxa.write", u.sp, "WRITE: %s writes files", u.r.name)
	}
	c := an.invocation(u.toks, u.r.i)
	an.pathArgs(c, false, u.m.reads...)
	an.pathArgs(c, true, u.m.writes...)
	if replacesFile[u.r.name] {
		an.replacesExisting(c, u.sp, u.r.name, u.m.writes...)
	}
}

// replacesFile are the Foundation writes that put new contents in place of
// a file that exists (NSFileManager's copy and move refuse one instead).
var replacesFile = map[string]bool{
	"writeToFileAtomicallyEncodingError": true, "writeToFileAtomically": true, "writeToFileOptionsError": true,
	"writeToURLAtomicallyEncodingError": true, "writeToURLAtomically": true, "writeToURLOptionsError": true,
	"createFileAtPathContentsAttributes": true,
}

// replacesExisting rates a write onto a file that exists on the disk now
// as the shell rates > onto it: what the file held is lost, not moved to
// the Trash (DESIGN.md: "> onto an existing file" is permanent removal).
func (an *jsAn) replacesExisting(c jsCall, sp rate.Span, name string, which ...int) {
	if an.env == nil {
		return
	}
	for _, n := range which {
		if n >= len(c.args) || len(c.args[n]) == 0 {
			continue
		}
		v := an.evalExpr(c.args[n], 0)
		if !v.lit {
			continue
		}
		for _, p := range an.strs(v) {
			p = strings.TrimPrefix(p, "file://")
			if strings.Contains(p, rate.HoleUnquoted) || an.env.Presence(p) != rate.PresentFile {
				continue
			}
			an.add(effect.Of(effect.Remove).On(p), "jxa.overwrite", sp, "WRITE: %s replaces %s, a file that exists; what it held is lost, not moved to the Trash", name, rate.Display(p))
		}
	}
}

// openForAccess: Standard Additions' open for access, writing when asked.
func (an *jsAn) openForAccess(u use) {
	c := an.invocation(u.toks, u.r.i)
	if len(c.args) > 1 {
		if v := jsObjectValue(c.args[1], "writePermission"); v != nil && !jsFalsy(v) {
			an.add(effect.Of(effect.Overwrite), "jxa.write", u.sp, "WRITE: openForAccess opens a file for writing")
			an.pathArgs(c, true, 0)
			return
		}
	}
	an.pathArgs(c, false, 0)
}

// fileRead: a method that reads a file, or a URL (the network, unless the
// URL is a file's).
func (an *jsAn) fileRead(u use) {
	c := an.invocation(u.toks, u.r.i)
	if u.m.fx.Kind == effect.Fetch {
		if v := an.evalExpr(c.first, 0); !v.lit || !strings.HasPrefix(strings.ToLower(an.strs(v)[0]), "file:") && !strings.HasPrefix(an.strs(v)[0], "/") && !strings.HasPrefix(an.strs(v)[0], "~") {
			an.add(effect.Of(effect.Fetch), "egress.jxa.network", u.sp, "NETWORK: fetches from the network")
		}
	}
	an.pathArgs(c, false, u.m.reads...)
}

// deleteItems: an application's delete: to the Trash (the Finder), bulk
// when given a collection or called in a loop.
func (an *jsAn) deleteItems(u use) {
	c := an.invocation(u.toks, u.r.i)
	if !u.r.member || an.jsCollection(u.toks, u.r.i) {
		return
	}
	if !c.ok {
		an.unfollowed(u.toks, u.r, u.sp)
		return
	}
	if an.bulkArgs(c.all) || an.inLoop(u.tok()) {
		an.add(effect.Of(effect.Trash, effect.Bulk), "jxa.bulk-delete", u.sp, "BULK DELETE: This will delete multiple files/folders. This action may be irreversible.")
		return
	}
	if an.diskItems(u.toks, u.r.i, c) {
		an.add(effect.Of(effect.Remove), "jxa.delete-permanent", u.sp, "DELETE: System Events deletes files and folders at once, not to the Trash")
		return
	}
	an.add(effect.Of(effect.Trash), "jxa.delete", u.sp, "DELETE: Will delete a file or folder (goes to Trash)")
}

// seDiskItems are System Events' classes of disk items, whose delete does
// not use the Trash.
var seDiskItems = map[string]bool{"files": true, "folders": true, "diskItems": true, "aliases": true,
	"file": true, "folder": true, "diskItem": true, "alias": true, "disks": true, "disk": true, "filePackages": true}

// diskItems: a delete made by System Events on its disk items (the
// receiver's chain, or the argument's, names one), which is permanent. A
// delete by System Events whose object cannot be told counts as one.
func (an *jsAn) diskItems(toks []jsToken, i int, c jsCall) bool {
	se := false
	for _, app := range append(an.chainApps(toks, i), an.argApps(c)...) {
		se = se || strings.EqualFold(strings.TrimSpace(app), "System Events") || strings.EqualFold(app, "com.apple.systemevents")
	}
	if !se {
		return false
	}
	elems := toks[jsChainStart(toks, i):i]
	elems = append(elems[:len(elems):len(elems)], c.all...)
	for _, x := range elems {
		if x.kind == jsIdent && seDiskItems[x.text] {
			return true
		}
		if x.kind == jsIdent {
			for _, d := range an.defs[x.text] {
				for _, y := range d.expr {
					if y.kind == jsIdent && seDiskItems[y.text] {
						return true
					}
				}
			}
		}
	}
	// System Events deletes UI elements and login items too; an object it
	// cannot tell is taken to be a file.
	for _, x := range elems {
		if x.kind == jsIdent && (x.text == "loginItems" || x.text == "processes" || x.text == "uiElements" || x.text == "windows") {
			return false
		}
	}
	return true
}

// argApps returns the applications the arguments' chains are rooted at.
func (an *jsAn) argApps(c jsCall) []string {
	var out []string
	for _, a := range c.args {
		if len(a) > 0 {
			out = append(out, an.rootApps(a, 0)...)
		}
	}
	return out
}

// moveItems: an application's move, to the Trash or elsewhere.
func (an *jsAn) moveItems(u use) {
	c := an.invocation(u.toks, u.r.i)
	if !c.ok || !u.r.member {
		return
	}
	an.destination(c)
	an.moved(u, c)
	an.replacing(u, c)
	trash := false
	for _, x := range c.all {
		if x.kind == jsIdent && x.text == "trash" {
			trash = true
		}
	}
	switch bulk := an.bulkArgs(c.all) || an.inLoop(u.tok()); {
	case bulk && trash:
		an.add(effect.Of(effect.Trash, effect.Bulk), "jxa.bulk-trash", u.sp, "BULK DELETE: moves multiple items to the Trash")
	case trash:
		an.add(effect.Of(effect.Trash), "jxa.trash", u.sp, "DELETE: moves items to the Trash")
	case bulk:
		an.add(effect.Of(effect.Change, effect.Bulk), "jxa.bulk-move", u.sp, "BULK MOVE: Will move multiple files/folders")
	default:
		an.add(effect.Of(effect.Change), "jxa.move", u.sp, "MOVE: moves files or objects")
	}
}

func (an *jsAn) quitApp(u use) {
	if c := an.invocation(u.toks, u.r.i); !c.ok || !u.r.member {
		return
	}
	if an.inLoop(u.tok()) {
		an.add(effect.Of(effect.Quit, effect.Bulk), "jxa.quit-all", u.sp, "QUIT ALL: quits applications in a loop (unsaved work can be lost)")
		return
	}
	an.add(effect.Of(effect.Quit), "jxa.quit", u.sp, "QUIT: quits an application")
}

// keystroke: System Events types text; into a terminal it is a command.
func (an *jsAn) keystroke(u use) {
	toks, i, sp := u.toks, u.r.i, u.sp
	an.add(effect.Of(effect.Input), "jxa.keystroke", sp, "KEYSTROKE: Simulates keyboard input")
	an.keys(toks, i, false, sp)
	c := an.invocation(toks, i)
	if !c.ok || strings.Contains(tokensText(c.all), "using") {
		return
	}
	if an.typesIntoTerminal(toks, i) {
		an.add(effect.Of(effect.Input, effect.Terminal), "jxa.typed-command", sp, "TERMINAL: types text into a terminal window, where it runs as a command")
		vs, whole := an.template(c.first, 0)
		if !whole {
			for _, s := range vs {
				an.env.Languages().Shell(an.v, s, an.env, &sp, an.depth+1)
			}
		}
		return
	}
	if !an.frontKnown(toks, i) {
		an.typedUnknown(c.first, sp)
	}
}

// frontKnown reports that the script brought an application to the front
// before toks[i]: keys typed there go to it.
func (an *jsAn) frontKnown(toks []jsToken, i int) bool {
	for _, e := range an.focuses(toks).events {
		if e.at < i {
			return true
		}
	}
	return false
}

// typedUnknown rates text typed where the script says nothing of which
// application is in front, as AppleScript's keystroke does: whatever is
// in front may be a terminal the person left open, so text that reads as
// a destructive command is Dangerous (prose is not shell, and counts for
// nothing).
func (an *jsAn) typedUnknown(arg []jsToken, sp rate.Span) {
	vs, whole := an.template(arg, 0)
	if whole {
		return
	}
	for _, s := range vs {
		var w rate.Verdict
		an.env.Languages().Shell(&w, s, an.env, &sp, an.depth+1)
		if w.Level >= level.Destructive {
			an.add(effect.Of(effect.Input, effect.Terminal), "jxa.typed-command", sp, "KEYSTROKE: types what reads as a destructive shell command (%s)", rate.Display(s))
		}
	}
}

func (an *jsAn) keyCode(u use) {
	an.add(effect.Of(effect.Input), "jxa.keycode", u.sp, "KEY CODE: Simulates key presses")
	an.keys(u.toks, u.r.i, true, u.sp)
}

// click: a click on a UI element, rated by the menu item or button it
// chooses.
func (an *jsAn) click(u use) {
	toks, i, sp := u.toks, u.r.i, u.sp
	c := an.invocation(toks, i)
	if !c.ok {
		return
	}
	an.add(effect.Of(effect.Input), "jxa.click", sp, "CLICK: Simulates a mouse click")
	if an.menuByPosition(toks, i) {
		an.add(effect.Of(effect.Unknown), "jxa.menu-position", sp, "CLICK: chooses a menu item by its position: cannot tell which command it is")
	}
	if e, label, why, ok := an.labels(toks, i, c); ok && e.Level() >= level.Dangerous {
		an.add(e, "jxa.menu-item", sp, "CLICK: chooses %s, which %s", jsQuote(label), why)
	}
}

func (an *jsAn) sendMessage(u use) {
	if !an.calledMember(u.toks, u.r.i, u.r, u.sp) {
		return
	}
	an.sentFile(u)
	if an.inLoop(u.tok()) {
		an.add(effect.Of(effect.Send, effect.Bulk), "egress.jxa.bulk-email", u.sp, "BULK EMAIL: sends messages in a loop over many items")
		return
	}
	an.add(effect.Of(effect.Send), "egress.jxa.send", u.sp, "SEND: sends an email or message as you")
}

// option: an option key set to a true value ({administratorPrivileges:
// true}, x.hiddenAnswer = true).
func (an *jsAn) option(u use) {
	toks, i := u.toks, u.r.i
	if i+2 >= len(toks) || jsFalsy(toks[i+2:i+3]) {
		return
	}
	if op := toks[i+1].text; op != ":" && !(op == "=" && toks[i+2].text != "=") {
		return
	}
	an.finding(u)
}

func (an *jsAn) openCall(u use) {
	c := an.invocation(u.toks, u.r.i)
	if !c.ok {
		return
	}
	an.launchCall(u, c)
}

// appCommand: the Standard Suite's make, duplicate, open … and media
// commands change an application's state; make can add a login item.
func (an *jsAn) appCommand(u use) {
	toks, i, name := u.toks, u.r.i, u.r.name
	c := an.invocation(toks, i)
	if !c.ok || !u.r.member {
		return
	}
	if name == "make" && an.makesLoginItem(c.all) {
		an.add(effect.Of(effect.Persist), "jxa.login-item", u.sp, "PERSISTENCE: adds a login item that starts at every login")
		return
	}
	if name == "make" && jsOptionIs(c.all, "new", "openFileAlarm") {
		an.add(effect.Of(effect.Persist), "jxa.file-alarm", u.sp, "ALARM: makes a calendar alarm that opens a file (runs it) when the event fires, after this action is over (persistence)")
		return
	}
	if name == "open" {
		an.appOpen(u, c)
		return
	}
	switch name {
	case "duplicate":
		an.destination(c)
		an.moved(u, c)
		an.replacing(u, c)
	case "print":
		an.printed(c) // the file an app prints it reads (handed.go)
	case "save":
		if !an.objectVar(toks[jsChainStart(toks, i)]) {
			// AppleScript's save: the document is written over its file.
			an.add(effect.Of(effect.Overwrite), u.m.rule, u.sp, "SAVE: writes the document over its file")
			return
		}
	case "close":
		if jsOptionIs(c.all, "saving", "yes") && !an.objectVar(toks[jsChainStart(toks, i)]) {
			an.add(effect.Of(effect.Overwrite), "jxa.save", u.sp, "SAVE: saves the documents it closes")
		}
	}
	if name == "push" && an.arrayVar(toks[jsChainStart(toks, i)]) {
		return // a JavaScript array, not an application's elements
	}
	an.add(effect.Of(effect.AppState), u.m.rule, u.sp, "%s: changes application state", strings.ToUpper(name))
}

func (an *jsAn) loginItems(u use) {
	for _, m := range an.nextMembers(u.toks, u.r.i, 4) {
		if m == "push" || m == "make" || m == "unshift" || m == "splice" {
			an.finding(u)
			return
		}
	}
}

// loginItem: System Events' LoginItem({…}) made (.make()) or pushed onto
// its login items, in the same chain, nearby, or through the variable
// holding it.
func (an *jsAn) loginItem(u use) {
	toks, i := u.toks, u.r.i
	made := false
	for _, x := range toks[i:min(len(toks), i+12)] {
		made = made || x.text == "push" || x.text == "make"
	}
	if c := jsMatch(toks, i+1); !made && c > 0 {
		made = slices.Contains(an.nextMembers(toks, c, 2), "make")
	}
	if s := jsChainStart(toks, i); !made && s >= 2 && toks[s-1].text == "=" && toks[s-2].kind == jsIdent {
		v := toks[s-2].text
		for k := s; k < len(toks) && !made; k++ {
			// push(v) may end the script: no token need follow it.
			made = toks[k].text == v && (k+2 < len(toks) && toks[k+1].text == "." && toks[k+2].text == "make" ||
				k >= 2 && toks[k-1].text == "(" && toks[k-2].text == "push")
		}
	}
	if made {
		an.finding(u)
	}
}

func (an *jsAn) nstaskRef(u use) { an.noteNSTask(u.tok()) }

// classFromString: NSClassFromString('NSTask') is NSTask.
func (an *jsAn) classFromString(u use) {
	toks, i := u.toks, u.r.i
	c := an.invocation(toks, i)
	if !c.ok {
		return
	}
	end := i + 1
	if m := jsMatch(toks, i+1); m > 0 {
		end = m
	}
	for _, n := range an.memberNames(c.first) {
		if n == jsComputed {
			an.add(effect.Of(effect.Unknown), "jxa.objc-class", u.sp, "looks up an Objective-C class by a name computed at run time")
			return
		}
		switch n {
		case "NSTask":
			an.noteNSTask(toks[end])
		case "NSUserUnixTask", "NSUserAppleScriptTask", "NSUserAutomatorTask":
			an.userTaskRef(use{toks: toks, r: jsRef{i: end, name: n, member: true}, sp: jsSpan(toks[end])})
		}
	}
}

func (an *jsAn) userTaskRef(u use) {
	an.userTask = true
	an.add(effect.Of(effect.RunUnseen), "jxa.user-task", u.sp, "SCRIPT: %s runs a script file from ~/Library/Application Scripts", u.r.name)
}

// scriptFile: NSAppleScript or a user task made from a script file.
func (an *jsAn) scriptFile(u use) {
	c := an.invocation(u.toks, u.r.i)
	name := u.r.name
	if !c.ok || name == "initWithURLError" && !an.userTask {
		return
	}
	if name == "initWithContentsOfURLError" {
		an.add(effect.Of(effect.RunUnseen), "jxa.script-file", u.sp, "SCRIPT: runs the script in a file")
	}
	if v := an.evalExpr(c.first, 0); !v.lit {
		an.add(effect.Of(effect.RunUnseen, effect.Computed), "jxa.script-file-computed", u.sp, "SCRIPT: runs a script file whose path is computed at run time")
	}
}

// bindFunction: ObjC.bindFunction makes a C function callable on $.
func (an *jsAn) bindFunction(u use) {
	c := an.invocation(u.toks, u.r.i)
	if !c.ok {
		return
	}
	for _, n := range an.memberNames(c.first) {
		switch {
		case n == jsComputed:
			an.add(effect.Of(effect.Unknown), "jxa.bind-function", u.sp, "binds a C function whose name is computed at run time")
		case rowOf(n).cfunc:
			an.add(effect.Of(effect.Unknown), "jxa.bind-function", u.sp, "binds the C function %s, which runs programs, deletes files or reads secrets", n)
		default:
			an.add(effect.Of(effect.Run), "jxa.bind-function", u.sp, "binds the C function %s", jsQuote(n))
		}
	}
}

// bundleLoad: NSBundle's load (a property access in JXA's bridge) runs the
// bundle's code. Another object's load is rated only when the chain it is
// made on, or the variable it starts from, reaches NSBundle.
func (an *jsAn) bundleLoad(u use) {
	if !u.r.member {
		return
	}
	toks, i := u.toks, u.r.i
	chain := toks[jsChainStart(toks, i):i]
	bundle := func(ts []jsToken) bool {
		for _, x := range ts {
			if x.kind == jsIdent && (x.text == "NSBundle" || strings.HasPrefix(x.text, "bundleWith")) {
				return true
			}
		}
		return false
	}
	found := bundle(chain)
	if !found && len(chain) > 0 && chain[0].kind == jsIdent {
		for _, d := range an.defs[chain[0].text] {
			found = found || d.hole || bundle(d.expr)
		}
	}
	if found {
		an.add(effect.Of(effect.RunUnseen), "jxa.bundle-load", u.sp, "CODE: load loads a bundle's code into the script, which Airlock does not analyse")
	}
}
