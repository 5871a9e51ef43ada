package jxa

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// jsDef is one value a variable is given.
type jsDef struct {
	at    int32       // byte offset of the name
	idx   int         // token index of the name
	expr  []jsToken   // the value
	plus  [][]jsToken // text appended by x += … in straight-line code after it
	push  [][]jsToken // elements appended by x.push(…)
	self  bool        // x += … in a loop or branch: any value before, then plus
	elems bool        // for (x of expr): an element of expr
	hole  bool        // a value the analyzer cannot know
}

type jsParam struct {
	name string
	def  []jsToken // default value
	hole bool      // a rest parameter or a destructuring pattern
}

// jsFunc is a function (declaration, expression, arrow, method, catch
// clause): its parameters hide variables of the same name in its body.
type jsFunc struct {
	name       string // what calls it, "" when unknown
	params     []jsParam
	start, end int32 // byte range of the body
	from, to   int   // token range of the body
	decl       int   // token index of the name that is not a call (-1)
	head       int   // token index where a function expression starts (-1)
	entry      bool  // run(argv): called from outside the script
}

type jsKey struct {
	fn   int32 // function whose parameter it is, -1 for other variables
	name string
}

type jsFrame struct {
	key jsKey
	idx int // the definition being resolved
	dep int // the lowest frame whose state the result depends on
}

type jsMemoKey struct {
	key jsKey
	idx int
}

type jsSite struct {
	args    [][]jsToken
	escaped bool // the function is used other than by a plain call
}

type jsLoop struct {
	span     rate.Span
	from, to int
}

type jsAn struct {
	terminal    bool     // the script drives a terminal: typed text runs
	focus       *jsFocus // where applications are brought to the front (focus.go), found on first use
	loops       []jsLoop // loop bodies (and functions they call)
	src         string
	lx          *jsLex
	v           *rate.Verdict
	env         *rate.Env
	depth       int
	defs        map[string][]jsDef // every value assigned to a name
	alias       map[string]string  // var f = app.doShellScript: f stands for doShellScript
	funcs       []jsFunc
	funcByName  map[string][]int
	looped      map[int]bool     // functions whose bodies are loop bodies
	paramOf     map[string][]int // parameter name → functions that have it
	keyDefs     map[jsKey][]jsDef
	sites       map[string][]jsSite
	patternKeys map[int]bool // keys of destructuring patterns: not references
	frames      []jsFrame
	memo        map[jsMemoKey]jsVal
	work        int
	exhausted   bool
	with        bool // sloppy-mode with: bare names may be methods
	hasNSTask   bool
	nstaskAt    rate.Span
	userTask    bool
	argsSeen    map[string]bool // arguments of computed calls analysed
	argBytes    int
	arrowEnds   map[int]int // arrowEnd, remembered

	// items: what a variable names as a Finder item (outside.go), remembered
	items map[jsKey]*jsItems
}

// Rate rates the JavaScript for Automation src, a script nested depth deep
// (0: the input itself) in the assessment env is bound to (rate.Env.Begin).
// It finds what the script calls — however it is spelled:
// `app.doShellScript(…)`, `app['do'+'ShellScript']`, `var f =
// app.doShellScript; f(…)`, `Reflect.get(app, …)`, `.call`, `.apply`,
// unicode escapes in names — and rates it by the rows of methods (rules.go):
// shell commands parsed, code evaluated from strings analysed or, when
// computed, Destructive.
func Rate(src string, env *rate.Env, depth int) rate.Verdict {
	var v rate.Verdict
	if rule, why, ok := env.Bounds().Enter(src, depth, "scripts"); !ok {
		if rule != "" {
			v.Found(effect.Of(effect.Unknown, effect.Computed), "jxa."+rule, rate.Span{}, "%s", why)
		}
		return v
	}
	if rate.Nesting(src, false) > rate.MaxNesting {
		v.Found(effect.Of(effect.Unknown, effect.Computed), "jxa.too-deep", rate.Span{}, "brackets nested more than %d deep: %s", rate.MaxNesting, rate.TooDeep)
		return v
	}
	if !utf8.ValidString(src) {
		v.Found(effect.Of(effect.Unknown), "jxa.invalid-utf8", rate.Span{}, "script is not valid UTF-8: not fully analysed")
	}
	lx := lexJS(src)
	if lx.tooMany {
		v.Found(effect.Of(effect.Unknown, effect.Computed), "jxa.too-much", rate.Span{}, "more than %d tokens: %s", jsMaxTokens, "too much to analyse")
		return v
	}
	an := &jsAn{src: src, lx: lx, v: &v, env: env, depth: depth, defs: map[string][]jsDef{}, alias: map[string]string{}}
	if lx.tooDeep {
		an.add(effect.Of(effect.Unknown, effect.Computed), "jxa.too-deep", rate.Span{}, "template literals nested more than %d deep: not analysed", jsMaxTemplateNest)
	}
	if lx.unterminated != "" {
		an.add(effect.Of(effect.Unknown), "jxa.unterminated", rate.Span{}, "unterminated %s: the script cannot be analysed reliably", lx.unterminated)
	} else if lx.unbalanced {
		an.add(effect.Of(effect.Unknown), "jxa.unbalanced", rate.Span{}, "unbalanced brackets: the script cannot be analysed reliably")
	}
	an.collect()
	an.findLoops()
	an.scan()
	an.propertySets()
	an.outside()
	an.apps()
	an.literals()
	an.guard()
	if an.hasNSTask {
		an.nstask()
	}
	if an.exhausted {
		an.add(effect.Of(effect.Unknown), "jxa.fold-budget", rate.Span{}, "string expressions too large or self-referencing to fold: parts are treated as computed at run time")
	}
	for _, sp := range lx.subs {
		inner := Rate(src[sp.Start:sp.End], env, depth+1)
		at := sp
		v.Merge(inner, &at)
	}
	return v
}

// add adds a reason: effect e, at the level the calibration table gives it
// (effect.Calibrate), found by rule at sp.
func (an *jsAn) add(e effect.Effect, rule string, sp rate.Span, format string, args ...any) {
	an.v.Found(e, rule, sp, format, args...)
}

// guardFinding adds a finding of the path guard (rate.GuardScriptPath) with
// its effect.
func (an *jsAn) guardFinding(f rate.Finding, sp rate.Span) {
	an.v.FoundText(f.Effect, "jxa."+f.Rule, sp, f.Text)
}

func jsSpan(t jsToken) rate.Span { return rate.Span{Start: int(t.start), End: int(t.end)} }

func jsSpanOf(ts []jsToken) rate.Span {
	if len(ts) == 0 {
		return rate.Span{}
	}
	return rate.Span{Start: int(ts[0].start), End: int(ts[len(ts)-1].end)}
}

// jsKeywords cannot name a function or a variable.
var jsKeywords = map[string]bool{"if": true, "for": true, "while": true, "switch": true, "catch": true, "function": true,
	"with": true, "return": true, "typeof": true, "var": true, "let": true, "const": true, "new": true, "delete": true,
	"void": true, "in": true, "of": true, "instanceof": true, "do": true, "else": true, "case": true, "throw": true,
	"yield": true, "await": true, "class": true, "try": true, "finally": true, "default": true, "this": true, "super": true}

// findLoops records loop bodies — for, for…of, while, do…while, and the
// callbacks of forEach, map and the like — and the bodies of functions
// called from them. A delete or send inside one is a bulk action. It also
// notes a script that drives a terminal.
func (an *jsAn) findLoops() {
	toks := an.lx.toks
	for i, t := range toks {
		if t.kind != jsIdent {
			continue
		}
		switch t.text {
		case "forEach", "map", "every", "some", "filter", "reduce", "reduceRight", "flatMap", "find", "findIndex", "findLast", "findLastIndex":
			an.callbackLoop(toks, i)
		case "for", "while":
			o := i + 1
			if o < len(toks) && toks[o].text == "await" {
				o++
			}
			if o < len(toks) && toks[o].text == "(" {
				if c := jsMatch(toks, o); c > 0 {
					an.loopBody(c + 1)
				}
			}
		case "do":
			an.loopBody(i + 1)
		case "Application":
			an.applicationCall(toks, i)
			an.applicationValue(toks, i)
		}
	}
	an.loopCallees(toks)
	an.mergeLoops()
}

// callbackLoop records the callback of the array method at toks[i]
// (.forEach(…), .map(…) …) as a loop body, and a function it names.
func (an *jsAn) callbackLoop(toks []jsToken, i int) {
	if i == 0 || toks[i-1].text != "." || i+1 >= len(toks) || toks[i+1].text != "(" {
		return
	}
	c := jsMatch(toks, i+1)
	if c < 0 {
		c = len(toks)
	}
	if c > i+2 {
		an.addLoop(i+2, c-1)
		if args := jsSplitArgs(toks[i+2 : c]); len(args) > 0 && len(args[0]) == 1 && args[0][0].kind == jsIdent {
			an.loopFunc(args[0][0].text)
		}
	}
}

// applicationCall checks the name Application(…) at toks[i] is given, and
// notes a terminal among the applications it names.
func (an *jsAn) applicationCall(toks []jsToken, i int) {
	if i+1 >= len(toks) || toks[i+1].text != "(" || i > 0 && toks[i-1].text == "." {
		return
	}
	c := jsMatch(toks, i+1)
	if c < 0 {
		return
	}
	args := toks[i+2 : c]
	an.appAllowed(args, jsSpan(toks[i]))
	if len(args) == 1 && args[0].kind == jsString {
		if err := sanitize.Strict("app", args[0].val); err != nil {
			an.add(effect.Of(effect.Refused), "jxa.app-name", jsSpan(args[0]), "%s", err.Error())
		}
	}
	for _, n := range an.appNames(args) {
		if facts.IsTerminal(n) {
			an.terminal = true
		}
	}
}

// loopCallees records the functions called from a loop body as running in
// the loop too. Each token is looked at once however deeply loops nest.
func (an *jsAn) loopCallees(toks []jsToken) {
	var seen []bool
	for done := 0; done < len(an.loops); done++ {
		if seen == nil {
			seen = make([]bool, len(toks))
		}
		lp := an.loops[done]
		for k := lp.from; k <= lp.to && k+1 < len(toks); k++ {
			if seen[k] {
				continue
			}
			seen[k] = true
			if toks[k].kind == jsIdent && toks[k+1].text == "(" && (k == 0 || toks[k-1].text != ".") {
				an.loopFunc(toks[k].text)
			}
		}
	}
}

// mergeLoops turns the loop bodies into sorted disjoint spans for inLoop.
func (an *jsAn) mergeLoops() {
	if len(an.loops) < 2 {
		return
	}
	sort.Slice(an.loops, func(a, b int) bool { return an.loops[a].span.Start < an.loops[b].span.Start })
	out := an.loops[:1]
	for _, lp := range an.loops[1:] {
		last := &out[len(out)-1]
		if lp.span.Start <= last.span.End {
			last.span.End = max(last.span.End, lp.span.End)
			last.to = max(last.to, lp.to)
			continue
		}
		out = append(out, lp)
	}
	an.loops = out
}

func (an *jsAn) addLoop(from, to int) {
	toks := an.lx.toks
	if from > to || to >= len(toks) {
		return
	}
	an.loops = append(an.loops, jsLoop{span: rate.Span{Start: int(toks[from].start), End: int(toks[to].end)}, from: from, to: to})
}

// loopBody records the statement or block at toks[k] as a loop body.
func (an *jsAn) loopBody(k int) {
	toks := an.lx.toks
	if k >= len(toks) {
		return
	}
	if toks[k].text == "{" {
		if m := jsMatch(toks, k); m > 0 {
			an.addLoop(k, m)
		} else {
			an.addLoop(k, len(toks)-1)
		}
		return
	}
	if e := jsExprEnd(toks, k); e > k {
		an.addLoop(k, e-1)
	}
}

// loopFunc records the body of the functions named name as loop bodies.
func (an *jsAn) loopFunc(name string) {
	fs := an.funcByName[name]
	if len(fs) == 0 || an.looped[-1-fs[0]] {
		return
	}
	if an.looped == nil {
		an.looped = map[int]bool{}
	}
	an.looped[-1-fs[0]] = true // the name is done
	for _, fi := range fs {
		f := &an.funcs[fi]
		if f.entry || an.looped[fi] {
			continue
		}
		an.looped[fi] = true
		an.addLoop(f.from, f.to)
	}
}

func (an *jsAn) inLoop(t jsToken) bool {
	k := sort.Search(len(an.loops), func(k int) bool { return an.loops[k].span.End >= int(t.end) })
	return k < len(an.loops) && an.loops[k].span.Start <= int(t.start)
}

// appNames folds the argument of Application(…).
func (an *jsAn) appNames(args []jsToken) []string {
	if len(args) == 1 && args[0].kind == jsString {
		return []string{args[0].val}
	}
	v := an.evalExpr(args, 0)
	if !v.lit {
		return nil
	}
	var out []string
	for _, s := range an.strs(v) {
		if !strings.Contains(s, "__AIRLOCK_") {
			out = append(out, s)
		}
	}
	return out
}

// apps rates the commands made on a chain rooted at an application —
// Application('X').documents[0].upload(…), or through variables holding it
// or a part of it: to an application Airlock does not know, by walkChain;
// to one it knows, by commandChain (commands.go).
func (an *jsAn) apps() {
	toks := an.lx.toks
	var roots map[string]jsRoot
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.kind != jsIdent || t.text != "Application" || toks[i+1].text != "(" || i > 0 && toks[i-1].text == "." {
			continue
		}
		c := jsMatch(toks, i+1)
		if c < 0 || c == i+2 {
			continue
		}
		an.appPath(toks[i+2:c], jsSpan(t))
		var root jsRoot
		if name, unknown := an.unknownAppName(toks[i+2 : c]); unknown {
			root.unknown = name
		} else if root.info = an.knownApp(toks[i+2 : c]); root.info == nil {
			continue
		}
		an.walkRoot(toks, c, root)
		if i >= 2 && toks[i-1].text == "=" && toks[i-2].kind == jsIdent {
			if roots == nil {
				roots = map[string]jsRoot{}
			}
			roots[toks[i-2].text] = root
		}
	}
	if len(roots) == 0 {
		return
	}
	// Variables holding a part of one: var d = t.documents[0]
	for round := 0; round < 4; round++ {
		added := false
		for name, defs := range an.defs {
			if _, ok := roots[name]; ok {
				continue
			}
			for _, d := range defs {
				if len(d.expr) > 0 && d.expr[0].kind == jsIdent {
					if r, ok := roots[d.expr[0].text]; ok {
						roots[name] = r
						added = true
						break
					}
				}
			}
		}
		if !added {
			break
		}
	}
	for k, t := range toks {
		if t.kind != jsIdent {
			continue
		}
		root, ok := roots[t.text]
		if !ok || k > 0 && toks[k-1].text == "." || an.definedAt(toks, k) {
			continue
		}
		an.walkRoot(toks, k, root)
	}
}

// appPath rates Application(path) of an application outside the folders
// applications are installed in: talking to it launches it, and it runs
// code Airlock knows nothing of.
func (an *jsAn) appPath(args []jsToken, sp rate.Span) {
	for _, n := range an.appNames(args) {
		low := strings.ToLower(strings.TrimSpace(n))
		if !strings.Contains(low, "/") && !strings.Contains(low, ":") {
			continue // a name LaunchServices finds among installed applications
		}
		if facts.InstalledApp(low) {
			continue
		}
		an.add(effect.Of(effect.RunUnseen), "jxa.app-path", sp, "launches the application at %s, outside /Applications: code Airlock knows nothing of", rate.Display(n))
		return
	}
}

// jsRoot is the application a chain is rooted at: one Airlock does not
// know (by the name to show), or one it knows.
type jsRoot struct {
	unknown string
	info    *facts.App
}

func (an *jsAn) walkRoot(toks []jsToken, k int, r jsRoot) {
	if r.info != nil {
		an.commandChain(toks, k, r.info)
		return
	}
	an.walkChain(toks, k, r.unknown)
}

// unknownAppName folds the name given to Application(…): unknown when
// Airlock does not know it or cannot tell it.
func (an *jsAn) unknownAppName(args []jsToken) (string, bool) {
	names := an.appNames(args)
	if len(names) == 0 {
		return "(an application named at run time)", true
	}
	for _, n := range names {
		if strings.TrimSpace(n) != "" && facts.AppInfo(n) == nil {
			return n, true
		}
	}
	return "", false
}

// walkChain rates the calls in the chain after toks[k], made on an
// application Airlock does not know.
func (an *jsAn) walkChain(toks []jsToken, k int, app string) {
	var prev []string
	for steps := 0; steps < 64 && k+1 < len(toks); steps++ {
		var names []string
		switch {
		case toks[k+1].text == "." && k+2 < len(toks) && toks[k+2].kind == jsIdent:
			names = []string{toks[k+2].text}
			k += 2
		case toks[k+1].text == "[":
			m := jsMatch(toks, k+1)
			if m < 0 {
				return
			}
			names = an.memberNames(toks[k+2 : m])
			k = m
		default:
			return
		}
		if k+1 < len(toks) && toks[k+1].kind == jsPunct && toks[k+1].text == "=" && len(names) > 0 {
			// app.rules[0].enabled = false: a property of an application
			// Airlock does not model, whose effect it cannot tell.
			an.add(effect.Of(effect.Unknown), "jxa.unknown-app", jsSpan(toks[k]), "sets %q of %q, an application Airlock does not know", names[0], app)
			return
		}
		if k+1 < len(toks) && toks[k+1].text == "(" {
			called := names
			if len(names) == 1 && (names[0] == "call" || names[0] == "apply" || names[0] == "bind") {
				called = prev
			}
			for _, n := range called {
				if n != jsComputed && !jsUnknownAppRead(n) {
					an.add(effect.Of(effect.Unknown), "jxa.unknown-app", jsSpan(toks[k]), "command %q to %q, an application Airlock does not know", n, app)
				}
			}
			m := jsMatch(toks, k+1)
			if m < 0 {
				return
			}
			k = m
		}
		prev = names
	}
}

// jsSelectors pick elements or work on the JavaScript values a command
// returns: they do nothing to the application.
var jsSelectors = map[string]bool{"whose": true, "where": true, "byName": true, "byId": true, "at": true, "map": true, "forEach": true,
	"filter": true, "find": true, "some": true, "every": true, "join": true, "slice": true, "concat": true, "indexOf": true,
	"includes": true, "toString": true, "split": true, "trim": true, "replace": true, "reduce": true, "sort": true,
	"reverse": true, "valueOf": true, "toLowerCase": true, "toUpperCase": true, "startsWith": true, "endsWith": true,
	"push": true, "length": true}

func jsAppRead(n string) bool {
	return facts.GenericVerbs[strings.ToLower(n)] || jsReads(n) || jsSelectors[n]
}

// jsUnknownAppRead reports a call that does the same to every application,
// which a script may make to one Airlock does not model: a read, a
// selector, or one of the Standard Suite's commands that start, quit,
// bring forward or read (make, open, save, delete, move, duplicate, print,
// close, set do what that application makes of them).
func jsUnknownAppRead(n string) bool {
	switch strings.ToLower(n) {
	case "activate", "launch", "run", "reopen", "quit", "get", "count", "exists", "select", "reveal":
		return true
	}
	return jsReads(n) || jsSelectors[n]
}

// jsReads: JXA property reads are calls too (app.name(), app.windows()).
func jsReads(verb string) bool {
	if verb == "" {
		return true
	}
	c := verb[0]
	if c >= 'A' && c <= 'Z' {
		return false
	}
	low := strings.ToLower(verb)
	for _, p := range []string{"get", "is", "count", "exists", "name", "id", "windows", "documents", "properties", "version", "frontmost", "running", "activate", "launch", "includestandardadditions"} {
		if strings.HasPrefix(low, p) {
			return true
		}
	}
	return false
}

// jsBulk reports a collection among the tokens: items, files(), notes …
// referenced whole (no [index], .byName, .at), or filtered with whose.
func jsBulk(all []jsToken) bool {
	for k, x := range all {
		if x.kind != jsIdent {
			continue
		}
		switch x.text {
		case "whose", "where", "every", "entireContents": // where is JXA's other name for whose
			return true
		case "items", "files", "folders", "documents", "notes", "events", "reminders", "contacts", "people",
			"messages", "diskItems", "aliasFiles", "applicationProcesses", "processes", "windows", "tabs", "tracks", "photos", "mediaItems":
			next := ""
			if k+1 < len(all) {
				next = all[k+1].text
			}
			switch next {
			case "(":
				if k+2 < len(all) && all[k+2].text == ")" {
					return true // items(): every item
				}
			case "[", ".":
				if next == "." && k+2 < len(all) && (all[k+2].text == "length" || all[k+2].text == "forEach") {
					return true
				}
			default:
				return true // the collection itself, passed as a value
			}
		}
	}
	return false
}

// shell rates a shell command given as a JavaScript expression.
func (an *jsAn) shell(expr []jsToken, sp rate.Span) {
	before := an.exhausted
	vs, whole := an.template(expr, 0)
	if whole {
		an.add(effect.Of(effect.Shell, effect.Computed), "jxa.shell-computed", sp, "SHELL COMMAND computed at run time: cannot tell what it runs")
		return
	}
	if an.exhausted && !before {
		an.add(effect.Of(effect.Shell, effect.Computed), "jxa.shell-computed", sp, "SHELL COMMAND too large or self-referencing to fold: cannot tell all it runs")
	}
	for _, c := range vs {
		if name, e, ok := seedWord(c); ok {
			an.add(e, "jxa.shell-seed", sp, "DANGEROUS SHELL COMMAND: runs %s (seed 000: critical)", rate.Display(name))
		}
		an.env.Languages().Shell(an.v, c, an.env, &sp, an.depth+1)
	}
}

// evalCode rates code run from a string: literal code is analysed, code
// computed at run time is Destructive.
func (an *jsAn) evalCode(name string, first []jsToken, c jsCall, sp rate.Span) {
	vs, whole := an.template(first, 0)
	if whole || len(vs) == 0 {
		an.add(effect.Of(effect.RunComputed), "jxa.eval-computed", sp, "%s runs code computed at run time (downloaded, decoded or built): cannot tell what it does", name)
		return
	}
	if an.depth+1 > rate.MaxDepth {
		an.add(effect.Of(effect.Unknown, effect.Computed), "jxa.too-deep", sp, "scripts nested more than %d deep: %s", rate.MaxDepth, rate.TooDeep)
		return
	}
	appleScript, js := false, true
	switch name {
	case "initWithSource", "initWithSourceError":
		appleScript, js = true, false
	case "runScript":
		appleScript, js = true, false
		for k := 0; k+2 < len(c.all); k++ {
			if c.all[k].text == "in" && c.all[k+1].text == ":" && c.all[k+2].kind == jsString && strings.EqualFold(c.all[k+2].val, "javascript") {
				appleScript, js = false, true
			}
		}
	case "initWithSourceLanguage":
		// OSAScript: the language is named in the other arguments.
		appleScript, js = true, true
		for _, a := range c.args[min(1, len(c.args)):] {
			for _, x := range a {
				switch strings.ToLower(x.val) {
				case "javascript":
					appleScript, js = false, true
				case "applescript":
					appleScript, js = true, false
				}
			}
		}
	}
	an.add(effect.Of(effect.Run), "jxa.eval", sp, "%s runs code from a string", name)
	for _, code := range vs {
		if strings.Contains(code, "__AIRLOCK_") {
			an.add(effect.Of(effect.RunComputed), "jxa.eval-computed", sp, "%s runs code partly computed at run time", name)
		}
		if appleScript {
			inner := an.env.Languages().AppleScript(code, an.env, an.depth+1)
			an.v.Merge(inner, &sp)
		}
		if js {
			inner := Rate(code, an.env, an.depth+1)
			an.v.Merge(inner, &sp)
		}
	}
}

// nstask rates NSTask: the launch path and argument list, folded, are
// analysed as a command; otherwise the program is unknown.
func (an *jsAn) nstask() {
	toks := an.lx.toks
	sp := an.nstaskAt
	var paths, argvs []jsVal
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.kind != jsIdent {
			continue
		}
		value := func() []jsToken {
			if toks[i+1].text == "=" && i+2 < len(toks) && toks[i+2].text != "=" {
				return toks[i+2 : jsExprEnd(toks, i+2)]
			}
			if c := an.invocation(toks, i); c.ok {
				return c.first
			}
			return nil
		}
		switch t.text {
		case "launchPath", "executableURL", "setLaunchPath", "setExecutableURL":
			if e := value(); e != nil {
				paths = append(paths, an.evalExpr(e, 0))
				sp = jsSpan(t)
			}
		case "arguments", "setArguments":
			if e := value(); e != nil {
				argvs = append(argvs, an.evalExpr(e, 0))
			}
		case "launchedTaskWithLaunchPathArguments", "launchedTaskWithExecutableURLArgumentsErrorTerminationHandler":
			if c := an.invocation(toks, i); c.ok {
				sp = jsSpan(t)
				if len(c.args) > 0 {
					paths = append(paths, an.evalExpr(c.args[0], 0))
				}
				if len(c.args) > 1 {
					argvs = append(argvs, an.evalExpr(c.args[1], 0))
				}
			}
		}
	}
	an.add(effect.Of(effect.Shell), "jxa.nstask", sp, "NSTask: runs a program")
	computed := len(paths) == 0
	if len(argvs) == 0 {
		argvs = []jsVal{{arr: true, lit: true}}
	}
	runs := 0
	for _, p := range paths {
		if !p.lit {
			computed = true
			continue
		}
		for _, ps := range an.strs(p) {
			if ps == "" || strings.Contains(ps, "__AIRLOCK_") {
				computed = true
				continue
			}
			for _, a := range argvs {
				if !a.arr {
					computed = true
					continue
				}
				argv := []string{ps}
				for _, e := range a.elems {
					if len(e) == 0 || jsIsHole(e[0]) {
						computed = true
						continue
					}
					argv = append(argv, e[0])
				}
				if runs < 8 {
					runs++
					w := an.argv(argv)
					an.v.Merge(w, &sp)
				}
			}
		}
	}
	if computed {
		an.add(effect.Of(effect.RunComputed), "jxa.nstask-computed", sp, "NSTask runs a program or arguments computed at run time: cannot tell what runs")
	}
}

// jsLiteralNames are methods whose name in a string, used other than as a
// constant key or shown text, can be called by a computed name.
var jsLiteralNames = map[string]bool{"doShellScript": true, "doScript": true, "doJavaScript": true, "runScript": true,
	"eval": true, "empty": true, "emptyTrash": true, "delete": true, "send": true, "execute": true, "shutDown": true,
	"restart": true, "logOut": true, "removeItemAtPathError": true, "removeItemAtURLError": true, "removeItemAtPath": true,
	"removeItemAtURL": true, "NSTask": true, "NSAppleScript": true, "OSAScript": true, "NSUserUnixTask": true,
	"NSUserAppleScriptTask": true, "hiddenAnswer": true, "administratorPrivileges": true, "system": true,
	"launchedTaskWithLaunchPathArguments": true}

// jsTextCalls take text to show or say.
var jsTextCalls = map[string]bool{"displayDialog": true, "displayAlert": true, "displayNotification": true, "chooseFromList": true,
	"say": true, "log": true, "setTheClipboardTo": true}

// literals rates strings that name a rated method, in a script that can
// call a method by a computed name (x[expr](…), Reflect, call/apply of a
// lookup): there the string may become the call. Elsewhere it is text.
func (an *jsAn) literals() {
	toks := an.lx.toks
	if !jsCallsByName(toks) {
		return
	}
	for i, t := range toks {
		if t.kind != jsString || !jsLiteralNames[t.val] {
			continue
		}
		if i+1 < len(toks) && toks[i+1].text == ":" && i > 0 && (toks[i-1].text == "{" || toks[i-1].text == ",") {
			continue // an object key
		}
		if i > 1 && toks[i-1].text == "[" && i+1 < len(toks) && toks[i+1].text == "]" && jsOperand(toks[i-2]) {
			continue // a constant member key: rated as the member
		}
		if an.textArg(toks, i) {
			continue
		}
		an.add(effect.Of(effect.Unknown), "jxa.method-name", jsSpan(t), "names the method %q in a string: it can be called by a computed name", t.val)
	}
}

// textArg: toks[i] is inside the arguments of a call that shows text.
func (an *jsAn) textArg(toks []jsToken, i int) bool {
	for k, steps := i-1, 0; k >= 0 && steps < 64; k, steps = k-1, steps+1 {
		x := toks[k]
		if x.kind != jsPunct {
			continue
		}
		switch x.text {
		case ")", "]", "}":
			if o := jsMatch(toks, k); o >= 0 {
				k = o
			}
		case "(":
			return k > 0 && jsTextCalls[toks[k-1].text]
		case ";":
			return false
		}
	}
	return false
}

func tokensText(ts []jsToken) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.text)
		b.WriteByte(' ')
	}
	return b.String()
}

// jsCallsByName reports a computed member access (obj[expr] where expr is
// not a single literal) or a reflective call (Reflect, Function.prototype
// call/apply/bind on a looked-up name, ObjC.bindFunction).
func jsCallsByName(toks []jsToken) bool {
	for i, t := range toks {
		switch {
		case t.kind == jsIdent && (t.text == "Reflect" || t.text == "bindFunction" || t.text == "NSClassFromString" || t.text == "NSSelectorFromString"):
			return true
		case t.text == "[" && i > 0 && jsOperand(toks[i-1]):
			// obj[ … ]: a literal or number index alone is not computed.
			if i+2 < len(toks) && toks[i+2].text == "]" && (toks[i+1].kind == jsString || toks[i+1].kind == jsNumber) {
				continue
			}
			return true
		}
	}
	return false
}
