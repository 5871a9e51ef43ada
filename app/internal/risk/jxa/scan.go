package jxa

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// The scan: every reference to a method of the table, however it is
// spelled or called, and what its arguments name (paths, URLs, labels).

// jsRef is a reference to a method the scan found.
type jsRef struct {
	i      int    // the token that ends it: the name, ] or the ) of Reflect.get(…)
	name   string // the method
	member bool   // reached by member access (.x, ['x'], Reflect.get) or a variable holding one
	dollar bool   // on $, the ObjC bridge
	alias  bool   // through a variable
}

// scan walks the tokens looking for calls and flags.
func (an *jsAn) scan() {
	toks := an.lx.toks
	b := an.env.Bounds()
	for i := 0; i < len(toks); i++ {
		if !b.Live() {
			return // stopped: end says so
		}
		t := toks[i]
		switch t.kind {
		case jsIdent:
			if an.patternKeys[i] {
				continue
			}
			if t.text == "NSTask" {
				an.noteNSTask(t)
			}
			if i > 0 && toks[i-1].text == "." {
				an.member(toks, jsRef{i: i, name: t.text, member: true, dollar: i > 1 && jsDollarAt(toks, i-2)})
				if rowOf(t.text).rate == rNone {
					an.bridgeMember(toks, i)
				}
				continue
			}
			if a, ok := an.alias[t.text]; ok && !an.definedAt(toks, i) {
				if a == jsComputed {
					if c := an.invocation(toks, i); c.ok {
						an.computedCall(toks, i, c)
					}
					continue
				}
				an.member(toks, jsRef{i: i, name: a, member: true, dollar: true, alias: true})
				continue
			}
			if t.text == "Reflect" && i+3 < len(toks) && toks[i+1].text == "." && toks[i+2].text == "get" && toks[i+3].text == "(" {
				an.reflectGet(toks, i)
			}
			if i+1 < len(toks) && toks[i+1].text == ":" && i > 0 && (toks[i-1].text == "{" || toks[i-1].text == ",") {
				// An object key: only the dialog and shell options matter.
				if t.text == "hiddenAnswer" || t.text == "administratorPrivileges" {
					an.member(toks, jsRef{i: i, name: t.text})
				}
				continue
			}
			an.member(toks, jsRef{i: i, name: t.text, member: an.with})
		case jsPunct:
			if t.text != "]" {
				continue
			}
			names, computed, dollar, ok := an.memberAt(toks, i)
			if !ok {
				// A computed key: {['hidden' + 'Answer']: true}
				if o := jsMatch(toks, i); o > 0 && i+1 < len(toks) && toks[i+1].text == ":" && (toks[o-1].text == "{" || toks[o-1].text == ",") {
					for _, n := range an.memberNames(toks[o+1 : i]) {
						if n == "hiddenAnswer" || n == "administratorPrivileges" {
							an.member(toks, jsRef{i: i, name: n})
						}
					}
				}
				continue
			}
			if computed {
				if c := an.invocation(toks, i); c.ok {
					an.computedCall(toks, i, c)
				}
				continue
			}
			for _, n := range names {
				an.member(toks, jsRef{i: i, name: n, member: true, dollar: dollar})
			}
		case jsString:
			if (t.val == "administratorPrivileges" || t.val == "hiddenAnswer") && i+1 < len(toks) && toks[i+1].text == ":" {
				an.member(toks, jsRef{i: i, name: t.val})
			}
		}
	}
}

// definedAt: toks[i] is the name being assigned, not a use of it.
func (an *jsAn) definedAt(toks []jsToken, i int) bool {
	if i > 0 && (toks[i-1].text == "var" || toks[i-1].text == "let" || toks[i-1].text == "const" || toks[i-1].text == "function") {
		return true
	}
	return i+2 < len(toks) && toks[i+1].text == "=" && toks[i+2].text != "=" && toks[i+2].text != ">"
}

// reflectGet treats Reflect.get(x, 'name') as member access.
func (an *jsAn) reflectGet(toks []jsToken, i int) {
	c := jsMatch(toks, i+3)
	if c < 0 {
		return
	}
	args := jsSplitArgs(toks[i+4 : c])
	if len(args) < 2 {
		return
	}
	dollar := len(args[0]) == 1 && args[0][0].text == "$"
	for _, n := range an.memberNames(args[1]) {
		if n == jsComputed {
			if inv := an.invocation(toks, c); inv.ok {
				an.computedCall(toks, c, inv)
			}
			return
		}
		an.member(toks, jsRef{i: c, name: n, member: true, dollar: dollar})
	}
}

func (an *jsAn) noteNSTask(t jsToken) {
	if !an.hasNSTask {
		an.hasNSTask = true
		an.nstaskAt = jsSpan(t)
	}
}

// jsCall is how a reference is called, if it is.
type jsCall struct {
	ok    bool
	first []jsToken // the first argument
	all   []jsToken // the arguments
	args  [][]jsToken
	known bool // the arguments are written out, not an array built at run time
}

func jsCallOf(args []jsToken) jsCall {
	c := jsCall{ok: true, all: args, args: jsSplitArgs(args), known: true}
	if len(c.args) > 0 {
		c.first = c.args[0]
	}
	return c
}

// invocation finds how the reference ending at toks[i] is called:
// directly, with .call, .apply or .bind(…)(…), or by Reflect.apply.
func (an *jsAn) invocation(toks []jsToken, i int) jsCall {
	n := len(toks)
	switch {
	case i+1 < n && toks[i+1].text == "(":
		if c := jsMatch(toks, i+1); c > 0 {
			return jsCallOf(toks[i+2 : c])
		}
		return jsCallOf(toks[i+2:])
	case i+3 < n && toks[i+1].text == "." && toks[i+3].text == "(":
		return jsCallVia(toks, i)
	}
	// Reflect.apply(ref, this, [args])
	s := jsChainStart(toks, i)
	if i+1 < n && toks[i+1].text == "," && s >= 4 && toks[s-1].text == "(" && toks[s-2].text == "apply" && toks[s-3].text == "." && toks[s-4].text == "Reflect" {
		c := jsMatch(toks, s-1)
		if c < 0 {
			c = n
		}
		args := jsSplitArgs(toks[s:c])
		if len(args) < 3 {
			return jsCall{ok: true, known: true}
		}
		return jsCallOfArray(args[2])
	}
	return jsCall{}
}

// jsCallVia reads ref.call(this, …), ref.apply(this, [args]) and
// ref.bind(this, …)(…), the reference ending at toks[i].
func jsCallVia(toks []jsToken, i int) jsCall {
	n := len(toks)
	c := jsMatch(toks, i+3)
	if c < 0 {
		c = n
	}
	args := jsSplitArgs(toks[i+4 : c])
	switch toks[i+2].text {
	case "call":
		if len(args) <= 1 {
			return jsCall{ok: true, known: true}
		}
		return jsCallOf(toks[i+4+len(args[0])+1 : c])
	case "apply":
		if len(args) < 2 {
			return jsCall{ok: true, known: true}
		}
		return jsCallOfArray(args[1])
	case "bind":
		if c < n-1 && toks[c+1].text == "(" {
			if c2 := jsMatch(toks, c+1); c2 > 0 {
				if len(args) > 1 {
					return jsCallOf(toks[i+4+len(args[0])+1 : c])
				}
				return jsCallOf(toks[c+2 : c2])
			}
		}
	}
	return jsCall{}
}

// jsCallOfArray is the call whose arguments are the array a (apply's): its
// elements when a is an array literal, else a itself, computed.
func jsCallOfArray(a []jsToken) jsCall {
	a = jsStripParens(a)
	if len(a) >= 2 && a[0].text == "[" && jsMatch(a, 0) == len(a)-1 {
		return jsCallOf(a[1 : len(a)-1])
	}
	return jsCall{ok: true, first: a, all: a, args: [][]jsToken{a}}
}

// jsChainStart walks back from toks[i] over a member chain (a.b[c](d).e)
// to its first token.
func jsChainStart(toks []jsToken, i int) int {
	k := i
	for steps := 0; k > 0 && steps < 256; steps++ {
		t := toks[k]
		switch {
		case t.text == "]" || t.text == ")":
			o := jsMatch(toks, k)
			if o <= 0 || !jsOperand(toks[o-1]) {
				return max(o, 0)
			}
			k = o - 1
		case t.kind == jsIdent || t.kind == jsString:
			if k >= 2 && toks[k-1].text == "." && jsOperand(toks[k-2]) {
				k -= 2
				continue
			}
			if k >= 3 && toks[k-1].text == "." && toks[k-2].text == "?" && jsOperand(toks[k-3]) {
				k -= 3
				continue
			}
			return k
		default:
			return k
		}
	}
	return k
}

// aliasedAt reports that the reference at toks[i] is the value of an
// assignment the analyzer follows (var f = app.doShellScript).
func (an *jsAn) aliasedAt(toks []jsToken, i int) bool {
	s := jsChainStart(toks, i)
	return s >= 2 && toks[s-1].text == "=" && toks[s-2].kind == jsIdent && an.alias[toks[s-2].text] != ""
}

// computedCall rates a call of a method whose name is not known: at least
// Dangerous, and what its arguments would do if they are commands or code.
func (an *jsAn) computedCall(toks []jsToken, i int, c jsCall) {
	sp := jsSpan(toks[i])
	an.add(effect.Of(effect.Unknown), "jxa.computed-call", sp, "calls a method whose name is computed at run time")
	if an.depth+1 > rate.MaxDepth {
		return
	}
	for _, a := range c.args {
		v := an.evalExpr(a, 0)
		if !v.lit {
			continue
		}
		for _, s := range an.strs(v) {
			if strings.Trim(s, " ") == "" || an.argsSeen[s] {
				continue
			}
			if an.argBytes += len(s); an.argBytes > jsMaxArgBytes {
				an.add(effect.Of(effect.Unknown, effect.Computed), "jxa.computed-call-arg", sp, "calls methods whose names are computed at run time with more text than Airlock analyses")
				return
			}
			if an.argsSeen == nil {
				an.argsSeen = map[string]bool{}
			}
			an.argsSeen[s] = true
			var w rate.Verdict
			an.env.Languages().Shell(&w, s, an.env, nil, an.depth+1)
			js := Rate(s, an.env, an.depth+1)
			as := an.env.Languages().AppleScript(s, an.env, an.depth+1)
			for _, x := range []rate.Verdict{w, js, as} {
				if x.Level >= level.Destructive {
					an.add(effect.Of(effect.Unknown, effect.Computed), "jxa.computed-call-arg", sp, "calls a method whose name is computed at run time with %s, which %s", jsQuote(s), jsTop(x))
					break
				}
			}
		}
	}
}

func jsQuote(s string) string {
	s = strings.ReplaceAll(s, rate.HoleUnquoted, "…")
	if len(s) > 60 {
		cut := 60
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strconv.Quote(s)
}

func jsTop(v rate.Verdict) string {
	best := ""
	var l level.Level
	for _, r := range v.Reasons {
		if r.Level > l || best == "" {
			best, l = r.Text, r.Level
		}
	}
	if best == "" {
		return "is " + v.Level.String()
	}
	return "would be: " + best
}

// unfollowed rates a reference to a method that is not called where it is
// taken nor stored in a variable the analyzer follows.
func (an *jsAn) unfollowed(toks []jsToken, r jsRef, sp rate.Span) {
	e := rowOf(r.name).ref
	if e.Kind == 0 || !(r.member || r.alias) || an.aliasedAt(toks, r.i) {
		return
	}
	an.add(e, "jxa.method-ref", sp, "takes a reference to %s that is not followed: cannot tell what it runs or does", r.name)
}

// calledMember reports a member reference (.x, ['x']) that is called here;
// a member reference that is not followed to a call is reported as such.
func (an *jsAn) calledMember(toks []jsToken, i int, r jsRef, sp rate.Span) bool {
	if !r.member {
		return false
	}
	if c := an.invocation(toks, i); !c.ok {
		an.unfollowed(toks, r, sp)
		return false
	}
	return true
}

// arrayVar: t is a variable only ever given array literals.
func (an *jsAn) arrayVar(t jsToken) bool {
	ds := an.defs[t.text]
	if t.kind != jsIdent || len(ds) == 0 {
		return false
	}
	for _, d := range ds {
		if len(d.expr) == 0 || d.expr[0].text != "[" || jsMatch(d.expr, 0) != len(d.expr)-1 {
			return false
		}
	}
	return true
}

// jsFalsy: a value written as false, 0, null, undefined or ”.
func jsFalsy(v []jsToken) bool {
	if len(v) != 1 {
		return false
	}
	switch t := v[0]; {
	case t.kind == jsIdent:
		return t.text == "false" || t.text == "null" || t.text == "undefined"
	case t.kind == jsNumber:
		return t.text == "0"
	case t.kind == jsString:
		return t.val == ""
	}
	return false
}

// jsObjectValue returns the value of key in an object literal.
func jsObjectValue(obj []jsToken, key string) []jsToken {
	obj = jsStripParens(obj)
	if len(obj) < 2 || obj[0].text != "{" {
		return nil
	}
	inner := obj[1:]
	if m := jsMatch(obj, 0); m > 0 {
		inner = obj[1:m]
	}
	for _, e := range jsSplitArgs(inner) {
		if len(e) > 2 && e[1].text == ":" && (e[0].kind == jsIdent && e[0].text == key || e[0].kind == jsString && e[0].val == key) {
			return e[2:]
		}
	}
	return nil
}

// makesLoginItem: make({new: 'loginItem', …}) or make(…, at: loginItems).
func (an *jsAn) makesLoginItem(all []jsToken) bool {
	for _, x := range all {
		if x.kind == jsIdent && x.text == "loginItems" {
			return true
		}
	}
	for _, a := range jsSplitArgs(all) {
		if v := jsObjectValue(a, "new"); v != nil {
			for _, s := range an.strs(an.evalExpr(v, 0)) {
				if strings.ReplaceAll(strings.ToLower(s), " ", "") == "loginitem" {
					return true
				}
			}
		}
	}
	return false
}

// nextMembers lists the member names that follow toks[i] in its chain.
func (an *jsAn) nextMembers(toks []jsToken, i, n int) []string {
	var out []string
	k := i
	for steps := 0; steps < n && k+1 < len(toks); steps++ {
		switch {
		case toks[k+1].text == "." && k+2 < len(toks) && toks[k+2].kind == jsIdent:
			out = append(out, toks[k+2].text)
			k += 2
		case toks[k+1].text == "[":
			m := jsMatch(toks, k+1)
			if m < 0 {
				return out
			}
			out = append(out, an.memberNames(toks[k+2:m])...)
			k = m
		case toks[k+1].text == "(":
			m := jsMatch(toks, k+1)
			if m < 0 {
				return out
			}
			k = m
		default:
			return out
		}
	}
	return out
}

// bulkArgs: a call's arguments are a whole collection, directly or through
// a variable (var xs = F.desktop.items(); F.delete(xs)).
func (an *jsAn) bulkArgs(all []jsToken) bool {
	if jsBulk(all) {
		return true
	}
	for k, x := range all {
		if x.kind != jsIdent || k > 0 && all[k-1].text == "." {
			continue
		}
		for _, d := range an.defs[x.text] {
			if jsBulk(d.expr) {
				return true
			}
		}
	}
	return false
}

// labels finds the most dangerous label (menu item, button) named in the
// chain a click is made on, or in its arguments, following variables once.
func (an *jsAn) labels(toks []jsToken, i int, c jsCall) (effect.Effect, string, string, bool) {
	var best effect.Effect
	label, why, found := "", "", false
	consider := func(s string) {
		if strings.Contains(s, "__AIRLOCK_") {
			return
		}
		if e, w, ok := facts.MenuItemEffect(s); ok && (!found || e.Level() > best.Level()) {
			best, label, why, found = e, s, w, true
		}
	}
	var walk func(ts []jsToken, follow bool)
	walk = func(ts []jsToken, follow bool) {
		for k := 0; k < len(ts); k++ {
			x := ts[k]
			switch {
			case x.kind == jsString:
				consider(x.val)
			case x.kind == jsPunct && (x.text == "[" || x.text == "("):
				if m := jsMatch(ts, k); m > k+1 {
					if v := an.evalExpr(ts[k+1:m], 0); v.lit {
						for _, s := range an.strs(v) {
							consider(s)
						}
					}
				}
			case follow && x.kind == jsIdent && (k == 0 || ts[k-1].text != "."):
				for _, d := range an.defs[x.text] {
					walk(d.expr, false)
				}
			}
		}
	}
	walk(toks[jsChainStart(toks, i):i], true)
	walk(c.all, true)
	return best, label, why, found
}

// jsRunsWhenOpened: files that run something when opened.
var jsRunsWhenOpened = []string{".command", ".tool", ".app", ".sh", ".pkg", ".mpkg", ".mobileconfig", ".shortcut", ".workflow", ".terminal"}

func jsOpensProgram(p string) bool {
	p = strings.TrimRight(strings.ToLower(strings.TrimSpace(p)), "/")
	for _, ext := range jsRunsWhenOpened {
		if strings.HasSuffix(p, ext) {
			if ext == ".app" && facts.InstalledApp(p) {
				return false // an installed application: launching it
			}
			return true
		}
	}
	return false
}

// What opening a target does: an item (a file, folder, application or
// page) is launched; a file that runs when opened runs code Airlock
// cannot see. A URL's scheme does what facts says (SchemeEffect).
var (
	opensItem    = effect.Of(effect.Launch)
	opensProgram = effect.Of(effect.RunUnseen)
)

// openTarget rates opening a URL or a file: by its scheme, and Dangerous
// for a file that runs when opened (setup.command, a .pkg, a profile).
func (an *jsAn) openTarget(c jsCall, sp rate.Span, location bool) {
	var worst effect.Effect // the heaviest target's; its warning is the first target's that has one
	why, program := "", false
	if v := an.evalExpr(c.first, 0); v.lit {
		for _, s := range an.strs(v) {
			low := strings.ToLower(strings.TrimSpace(s))
			e, w, p := opensItem, "", false
			if scheme, ok := facts.URLScheme(low); ok && !strings.HasPrefix(low, "/") && !strings.HasPrefix(low, "~") {
				e, w = facts.SchemeEffect(scheme)
			}
			if jsOpensProgram(low) {
				e, w, p = opensProgram, "opens "+rate.Display(strings.ReplaceAll(s, rate.HoleUnquoted, "…"))+", a file that runs a program or installs something when opened", true
			}
			heavier := worst.Kind == 0 || e.Level() > worst.Level()
			if heavier || why == "" && w != "" {
				if heavier {
					worst = e
				}
				why, program = w, p
			}
		}
	}
	switch {
	case program:
		an.add(worst, "jxa.open-program", sp, "OPEN: %s", why)
	case why != "":
		an.add(worst, "egress.jxa.open-url", sp, "OPEN: %s", why)
	case location:
		an.add(effect.Of(effect.Egress), "egress.jxa.open-url", sp, "OPEN URL: opens a web page")
	default:
		an.add(effect.Of(effect.Launch), "jxa.open", sp, "OPEN: opens a file, folder, application or page")
	}
}

// pathArgs classifies the paths given as the arguments which (folded; a
// computed start of a path is taken to be the home folder).
func (an *jsAn) pathArgs(c jsCall, write bool, which ...int) {
	for _, n := range which {
		if n >= len(c.args) || len(c.args[n]) == 0 {
			continue
		}
		a := c.args[n]
		sp := jsSpanOf(a)
		for _, p := range an.argPaths(a) {
			p = strings.TrimPrefix(p, "file://")
			if strings.HasPrefix(p, rate.HoleUnquoted+"/") {
				p = "~" + p[len(rate.HoleUnquoted):]
			}
			z := rate.ClassifyPath(an.env, p)
			shown := rate.Display(strings.ReplaceAll(p, rate.HoleUnquoted, "…"))
			if !strings.Contains(p, rate.HoleUnquoted) {
				u := rate.UseRead
				if write {
					u = rate.UseWrite
				}
				for _, f := range rate.GuardScriptPath(an.env, p, u, true) {
					an.guardFinding(f, sp)
				}
			}
			switch {
			case write && z.Kind == rate.ZonePersistence:
				an.add(effect.Of(effect.Overwrite, effect.Planted), "jxa.persistence", sp, "writes %s: %s runs code automatically (persistence)", shown, z.Detail)
			case write && (z.Kind == rate.ZoneSystem || z.Kind == rate.ZoneCredential):
				an.add(effect.Of(effect.Overwrite, effect.Session), "jxa.protected-write", sp, "writes %s, inside %s", shown, z.Detail)
			case !write:
				if what, ok := z.SecretRead(); ok {
					what = strings.ReplaceAll(what, rate.HoleUnquoted, "…")
					an.add(effect.Of(effect.ReadSecret), "secret.jxa.read", sp, "reads %s, inside %s", shown, what)
				}
			}
		}
	}
}

// chainApps returns the applications the chain ending at toks[i] is rooted
// at, by name: Application('X')…, or a variable holding such a chain (var
// se = Application('System Events'); se.files['x']), followed a few
// assignments deep. Nil when the chain is not rooted at one it can name.
func (an *jsAn) chainApps(toks []jsToken, i int) []string {
	s := jsChainStart(toks, i)
	return an.rootApps(toks[s:i+1], 0)
}

func (an *jsAn) rootApps(chain []jsToken, depth int) []string {
	if len(chain) == 0 || depth > 4 {
		return nil
	}
	head := chain[0]
	if head.kind != jsIdent {
		return nil
	}
	if head.text == "Application" && len(chain) > 2 && chain[1].text == "(" {
		if c := jsMatch(chain, 1); c > 2 {
			return an.appNames(chain[2:c])
		}
		return nil
	}
	var out []string
	for _, d := range an.defs[head.text] {
		out = append(out, an.rootApps(d.expr, depth+1)...)
	}
	return out
}
