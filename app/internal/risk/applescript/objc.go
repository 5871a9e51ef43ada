package applescript

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// AppleScriptObjC: `current application's NSFileManager's
// defaultManager()'s removeItemAtPath:p |error|:(missing value)`, or
// `fm's removeItemAtPath_error_(p, missing value)`. A method call is a
// word after 's followed by : or (; the classes it can be called on are
// those its statement names before it, directly or through the variables
// it uses (set fm to current application's NSFileManager's …). What the
// methods and classes do is in facts/objc.go, shared with JXA's bridge;
// a method Airlock does not model, on a class that acts, is Dangerous.

// objcOn reports whether the script uses the bridge at all (it names
// current application, or loads a framework): only then is x's y(…) a
// method call rather than a script object's handler.
func (an *asAn) objcOn() bool {
	if an.objc == 0 {
		an.objc = -1
		toks := an.lx.toks
		for i := 0; i+1 < len(toks); i++ {
			t := toks[i]
			if t.kind == asWord && (toks[i+1].kw == kwApplication && an.text(t) == "current" ||
				an.text(t) == "use" && an.text(toks[i+1]) == "framework") {
				an.objc = 1
				break
			}
		}
	}
	return an.objc > 0
}

// objcScope is what a method call can be called on.
type objcScope struct {
	value    bool     // a value class (NSString …)
	acting   []string // classes that act (NSFileManager …), and classes Airlock does not know
	values   []string // the value classes
	computed bool     // a class looked up by a name computed at run time
	strs     []string // the string literals the receiver is built from (a suite name, a path)
	words    []string // the words it is built from (constants: NSURLQuarantinePropertiesKey)
}

// hasAny reports one of the space-separated classes.
func (s *objcScope) hasAny(classes string) bool {
	for _, c := range strings.Fields(classes) {
		if s.has(c) {
			return true
		}
	}
	return false
}

func (s *objcScope) has(class string) bool {
	for _, c := range s.acting {
		if c == class {
			return true
		}
	}
	for _, c := range s.values {
		if c == class {
			return true
		}
	}
	return false
}

// note adds a class the scope names.
func (s *objcScope) note(name string, c facts.ObjCClass) {
	switch {
	case s.has(name):
	case c.Value:
		s.value = true
		if len(s.values) < 16 {
			s.values = append(s.values, name)
		}
	default:
		s.acting = append(s.acting, name)
	}
}

// scope adds what toks name to s, following variables (depth: how many
// assignments deep; bounded, as the folding of text is).
func (an *asAn) scope(s *objcScope, toks []asToken, depth int) {
	for i, t := range toks {
		switch t.kind {
		case asString:
			if len(s.strs) < 16 {
				s.strs = append(s.strs, an.str(t))
			}
			continue
		case asWord, asVar:
		default:
			continue
		}
		w := an.text(t)
		if len(s.words) < 32 {
			s.words = append(s.words, w)
		}
		if name, c, ok := facts.LookupObjCClass(w); ok {
			s.note(name, c)
			continue
		}
		if ret, ok := facts.ObjCReturnOf(w); ok && i > 0 && toks[i-1].isOp(opPoss) {
			// x's frontmostApplication(): what follows is called on what
			// it returns.
			_, c, _ := facts.LookupObjCClass(ret)
			*s = objcScope{strs: s.strs, words: s.words, computed: s.computed}
			s.note(ret, c)
			continue
		}
		if w == "nsclassfromstring" {
			vs, whole := an.template(objcArg(toks, i+1), depth+1)
			if whole || len(vs) != 1 {
				s.computed = true
				continue
			}
			if name, c, ok := facts.LookupObjCClass(vs[0]); ok {
				s.note(name, c)
			} else if !s.has(vs[0]) {
				s.acting = append(s.acting, vs[0])
			}
			continue
		}
		if i >= 3 && toks[i-1].isOp(opPoss) && toks[i-2].kw == kwApplication && an.text(toks[i-3]) == "current" &&
			i+1 < len(toks) && toks[i+1].isOp(opPoss) {
			// current application's NSSomething's …: a class Airlock does not know.
			display := an.lx.src[t.start:t.end]
			if !s.has(display) {
				s.acting = append(s.acting, display)
			}
			continue
		}
		name := an.name(t)
		if depth >= 3 || !an.isVar(name) || an.lookup(name).resolving {
			continue
		}
		an.foldWork++
		if an.foldWork > maxFoldWork {
			s.computed = true
			continue
		}
		an.lookup(name).resolving = true
		for d := an.firstDef(name); d >= 0; d = an.defList[d].next {
			an.scope(s, an.defList[d].expr, depth+1)
		}
		an.lookup(name).resolving = false
	}
}

// objcArg returns the argument that starts at toks[from]: after sel: up to
// the next label (a word followed by :) or the end of the call; after
// sel_( its first argument.
func objcArg(toks []asToken, from int) []asToken {
	if from < len(toks) && toks[from].isOp(':') {
		from++
	}
	if from < len(toks) && toks[from].isOp('(') {
		args := listElems(toks[from:])
		if len(args) > 0 {
			return args[0]
		}
		return nil
	}
	depth := 0
	for j := from; j < len(toks); j++ {
		t := toks[j]
		switch {
		case t.kind == asOp && (t.op == '(' || t.op == '{'):
			depth++
		case t.kind == asOp && (t.op == ')' || t.op == '}'):
			if depth == 0 {
				return toks[from:j]
			}
			depth--
		case depth == 0 && j > from && (t.kind == asWord || t.kind == asVar) && j+1 < len(toks) && toks[j+1].isOp(':'):
			return toks[from:j]
		}
	}
	return toks[from:]
}

// objcPlainSelectors are NSObject's methods every class has, which change
// nothing.
var objcPlainSelectors = set(`alloc init new description class copy mutablecopy isequal isequalto hash self
	respondstoselector iskindofclass ismemberofclass retain release autorelease debugdescription conformstoprotocol`)

// objcCall rates the method call whose selector is st[k] (st[k-1] is 's).
func (an *asAn) objcCall(st []asToken, k int, app *asApp) {
	sel := an.text(st[k])
	first := sel
	if i := strings.IndexByte(first, '_'); i > 0 {
		first = first[:i]
	}
	display := rate.Display(an.lx.src[st[k].start:st[k].end])
	sp := tokSpan(st[k])
	var s objcScope
	an.scope(&s, st[receiverStart(st, k-1):k], 0)
	args := st[k+1:]
	if strings.HasPrefix(first, "performselector") {
		// performSelector:"removeItemAtPath:error:" withObject:p …: the
		// method its first argument names.
		sel := objcArg(args, 0)
		vs, whole := an.template(sel, 0)
		if whole || len(vs) != 1 {
			an.add(effect.Of(effect.Unknown), "as.objc-unknown", sp, "OBJC: %s calls a method named at run time", display)
			return
		}
		first, display = vs[0], rate.Display(vs[0])
		if i := strings.IndexAny(first, ":_"); i > 0 {
			first = first[:i]
		}
		first = strings.ToLower(first)
		args = args[min(len(args), len(sel)+1):]
	}
	key, m, known := facts.LookupObjCMethod(first)
	if known && m.On != "" && !s.hasAny(m.On) {
		known = false // setObject:forKey: of a dictionary, not of the defaults
	}
	if !known {
		switch {
		case objcPlainSelectors[first]:
		case s.computed:
			an.add(effect.Of(effect.Unknown), "as.objc-unknown", sp, "OBJC: calls %s on a class looked up by a name computed at run time", display)
		case len(s.acting) > 0:
			an.add(effect.Of(effect.Unknown), "as.objc-unknown", sp, "OBJC: calls %s on %s, which Airlock does not model (%s)", display, s.acting[0], objcWhat(s.acting[0]))
		case !s.value:
			an.add(effect.Of(effect.Unknown), "as.objc-unknown", sp, "OBJC: calls %s on an object Airlock cannot trace", display)
		}
		return
	}
	an.objcEffect(key, m, &s, st, k, args, sp)
}

// receiverStart returns where the receiver of the call whose 's is st[end]
// starts: after the bracket or argument label it is written in
// (ws's openURL:(current application's NSURL's URLWithString:"…") calls
// URLWithString: on NSURL, not on NSWorkspace), or at the statement's start.
func receiverStart(st []asToken, end int) int {
	depth := 0
	for j := end - 1; j >= 0; j-- {
		t := st[j]
		switch {
		case t.kind == asOp && (t.op == ')' || t.op == '}'):
			depth++
		case t.kind == asOp && (t.op == '(' || t.op == '{'):
			if depth == 0 {
				return j + 1
			}
			depth--
		case depth == 0 && t.isOp(':'):
			return j + 1
		}
	}
	return 0
}

// objcWhat says what a class does.
func objcWhat(class string) string {
	if _, c, ok := facts.LookupObjCClass(class); ok && c.What != "" {
		return "it " + c.What
	}
	return "a class Airlock does not know"
}

// objcEffect rates a call of a method facts.ObjCMethods holds.
func (an *asAn) objcEffect(key string, m facts.ObjCMethod, s *objcScope, st []asToken, k int, args []asToken, sp Span) {
	switch m.Effect {
	case facts.ObjCInert:
	case facts.ObjCRemove:
		an.deletes++
		an.add(m.Does, "as.objc-remove", sp, "DELETE: %s %s", key, m.What)
		an.pathArgs(args, true)
	case facts.ObjCWrite, facts.ObjCAttributes:
		an.add(m.Does, "as.objc-write", sp, "WRITE: %s %s", key, m.What)
		an.pathArgs(args, true)
	case facts.ObjCCopy, facts.ObjCMove:
		an.add(m.Does, "as.objc-"+map[bool]string{true: "move", false: "copy"}[m.Effect == facts.ObjCMove], sp, "FILES: %s %s", key, m.What)
		src := objcArg(args, 0)
		an.pathArgs(src, m.Effect == facts.ObjCMove)
		an.pathArgs(args[min(len(src)+1, len(args)):], true)
	case facts.ObjCRead:
		an.pathArgs(args, false)
		for _, v := range an.objcStrings(objcArg(args, 0)) {
			if scheme, ok := facts.URLScheme(strings.ToLower(v)); ok && scheme != "file" {
				an.add(effect.Of(effect.Fetch), "egress.as.network", sp, "NETWORK: %s fetches %s", key, rate.Display(v))
			}
		}
	case facts.ObjCTask:
		an.objcTask = true
		an.add(m.Does, "as.objc-task", sp, "NSTask: %s", m.What)
	case facts.ObjCScript:
		if !strings.HasPrefix(strings.ToLower(key), "initwithsource") {
			an.add(m.Does, "as.objc-script", sp, "SCRIPT: %s %s", key, m.What)
			return
		}
		an.objcSource(st, args, sp)
	case facts.ObjCOpen:
		an.objcOpen(key, an.text(st[k]), m, args, sp)
	case facts.ObjCClipboard:
		an.add(m.Does, "egress.as.clipboard", sp, "CLIPBOARD: %s %s", key, m.What)
	case facts.ObjCDefaults:
		an.objcDefaults(key, m, s, args, sp)
	case facts.ObjCResource:
		for _, w := range append(an.objcWords(args), an.objcStrings(args)...) {
			if strings.Contains(strings.ToLower(w), "quarantine") {
				an.add(effect.Of(effect.SecurityOff), "as.objc-quarantine", sp, "SECURITY: %s changes a file's quarantine, which makes Gatekeeper check it", key)
				return
			}
		}
		an.add(m.Does, "as.objc-resource", sp, "FILES: %s %s", key, m.What)
	case facts.ObjCClassLookup:
		if vs, whole := an.template(objcArg(args, 0), 0); whole || len(vs) != 1 {
			an.add(effect.Of(effect.Unknown), "as.objc-class", sp, "OBJC: looks up a class by a name computed at run time")
		}
	default: // load code, script files, raw events, secrets, sending, quitting, the network
		an.add(m.Does, objcEffectRules[m.Effect], sp, "OBJC: %s %s", key, m.What)
	}
}

// objcEffectRules are the rules of the effects objcEffect rates alike: a
// secret read starts secret., a way out egress. (the facade combines them).
var objcEffectRules = map[facts.ObjCEffect]string{
	facts.ObjCScriptFile: "as.objc-script-file", facts.ObjCLoadCode: "as.objc-load-code", facts.ObjCNetwork: "egress.as.network",
	facts.ObjCQuit: "as.objc-quit", facts.ObjCSecret: "secret.as.cookies", facts.ObjCEvent: "as.objc-event", facts.ObjCSend: "egress.as.share",
	facts.ObjCTrash: "as.objc-trash",
}

// objcStrings returns the texts an argument can hold: its string literals
// and those of the variables it names.
func (an *asAn) objcStrings(arg []asToken) []string {
	var s objcScope
	an.scope(&s, arg, 0)
	return s.strs
}

// objcWords returns the words an argument is built from.
func (an *asAn) objcWords(arg []asToken) []string {
	var s objcScope
	an.scope(&s, arg, 0)
	return s.words
}

// objcSource rates initWithSource: the script text, folded, is analysed
// as AppleScript (or JavaScript for an OSAScript of that language).
func (an *asAn) objcSource(st []asToken, args []asToken, sp Span) {
	src := objcArg(args, 0)
	js := false
	for _, w := range append(an.objcWords(st), an.objcStrings(args)...) {
		if strings.Contains(strings.ToLower(w), "javascript") {
			js = true
		}
	}
	variants, whole := an.template(src, 0)
	if whole {
		an.add(effect.Of(effect.RunComputed), "as.objc-script-computed", sp, "SCRIPT: runs script text computed at run time: cannot tell what it does")
		return
	}
	an.add(effect.Of(effect.Run), "as.objc-script", sp, "SCRIPT: runs script text")
	for _, v := range variants {
		if an.depth+1 > rate.MaxDepth {
			an.add(effect.Of(effect.Unknown, effect.Computed), "as.too-deep", sp, "scripts nested more than %d deep: %s", rate.MaxDepth, rate.TooDeep)
			return
		}
		var inner Verdict
		if js {
			inner = an.env.Languages().JXA(v, an.env, an.depth+1)
		} else {
			inner = appleScriptAt(v, an.env, an.depth+1)
		}
		an.v.Merge(inner, &sp)
	}
}

// objcDefaults rates a write through NSUserDefaults: to a security
// setting Destructive, to another application's preferences Dangerous.
func (an *asAn) objcDefaults(key string, m facts.ObjCMethod, s *objcScope, args []asToken, sp Span) {
	keys := an.objcStrings(args)
	for _, domain := range s.strs {
		for _, k := range append(keys, "") {
			if facts.ObjCSecuritySetting(domain, k) {
				an.add(effect.Of(effect.SecurityOff), "as.objc-security", sp, "SECURITY: %s changes %s %s, a security setting", key, rate.Display(domain), rate.Display(k))
				return
			}
		}
	}
	if len(s.strs) > 0 {
		// Another application's preferences: its preference file is
		// written anew.
		e := m.Does
		if o := effect.Of(effect.Overwrite); o.Level() > e.Level() {
			e = o
		}
		an.add(e, "as.objc-defaults", sp, "PREFERENCES: %s changes the preferences of %s", key, rate.Display(s.strs[0]))
		return
	}
	an.add(m.Does, "as.objc-defaults", sp, "PREFERENCES: %s %s", key, m.What)
}

// objcTasks rates what the script's NSTasks run: their launch paths and
// arguments, folded, are a command for the shell analyzer; a program or
// argument computed at run time is Destructive.
func (an *asAn) objcTasks() {
	var paths, argvs [][]string
	computed := false
	sp := Span{}
	an.statements(func(st []asToken) {
		for k := 0; k+1 < len(st); k++ {
			t := st[k]
			if t.kind != asWord && t.kind != asVar || !st[k+1].isOp(':') && !st[k+1].isOp('(') {
				continue
			}
			w := an.text(t)
			if i := strings.IndexByte(w, '_'); i > 0 {
				w = w[:i]
			}
			switch w {
			case "launchedtaskwithlaunchpath", "launchedtaskwithexecutableurl", "setlaunchpath", "setexecutableurl", "launchpath", "executableurl":
				sp = tokSpan(t)
				vs, ok := an.objcPath(objcArg(st, k+1))
				computed = computed || !ok
				paths = append(paths, vs)
				if w == "launchedtaskwithlaunchpath" || w == "launchedtaskwithexecutableurl" {
					if st[k+1].isOp('(') {
						if args := listElems(st[k+1:]); len(args) > 1 {
							a, ok := an.objcList(args[1])
							computed = computed || !ok
							argvs = append(argvs, a)
						}
					}
				}
			case "setarguments", "arguments":
				a, ok := an.objcList(objcArg(st, k+1))
				computed = computed || !ok
				argvs = append(argvs, a)
			}
		}
	})
	if len(paths) == 0 {
		computed = true
	}
	if len(argvs) == 0 {
		argvs = [][]string{nil}
	}
	runs := 0
	for _, ps := range paths {
		for _, p := range ps {
			for _, argv := range argvs {
				if runs == 8 {
					break
				}
				runs++
				cmd := shellQuote(p)
				for _, a := range argv {
					cmd += " " + shellQuote(a)
				}
				an.shellInto(an.v, cmd, sp)
				if why, fx := shellFloorHit(cmd); why != "" {
					an.add(fx, "as.objc-task-destructive", sp, "DANGEROUS SHELL COMMAND: NSTask runs destructive shell commands (%s)", why)
				}
			}
		}
	}
	if computed {
		an.add(effect.Of(effect.RunComputed), "as.objc-task-computed", sp, "NSTask runs a program or arguments computed at run time: cannot tell what runs")
	}
}

// objcPath folds a launch path: a text, or NSURL's fileURLWithPath: of one.
func (an *asAn) objcPath(e []asToken) ([]string, bool) {
	for len(e) > 1 && e[0].isOp('(') && e[len(e)-1].isOp(')') {
		e = e[1 : len(e)-1]
	}
	for j := 0; j+1 < len(e); j++ {
		if w := an.text(e[j]); (w == "fileurlwithpath" || strings.HasPrefix(w, "fileurlwithpath_")) && (e[j+1].isOp(':') || e[j+1].isOp('(')) {
			return an.objcPath(objcArg(e, j+1))
		}
	}
	vs, whole := an.template(e, 0)
	for _, v := range vs {
		if strings.Contains(v, "__AIRLOCK_") {
			whole = true
		}
	}
	return vs, !whole
}

// objcList folds an argument list: {"-c", "…"}, or a variable set to one.
func (an *asAn) objcList(e []asToken) ([]string, bool) {
	for depth := 0; len(e) == 1 && (e[0].kind == asWord || e[0].kind == asVar) || len(e) > 1 && e[0].isOp('(') && e[len(e)-1].isOp(')'); depth++ {
		if depth > 4 {
			return nil, false // set a to b, set b to a …
		}
		if e[0].isOp('(') {
			e = e[1 : len(e)-1]
			continue
		}
		d := an.firstDef(an.name(e[0]))
		if d < 0 || an.defList[d].next >= 0 {
			return nil, false
		}
		e = an.defList[d].expr
	}
	if len(e) < 2 || !e[0].isOp('{') || !e[len(e)-1].isOp('}') {
		return nil, false
	}
	var out []string
	for _, el := range listElems(e) {
		vs, whole := an.template(el, 0)
		if whole || len(vs) != 1 || strings.Contains(vs[0], "__AIRLOCK_") {
			return out, false
		}
		out = append(out, vs[0])
	}
	return out, true
}

// use rates a use statement: AppleScript's version and the scripting
// additions change nothing; a framework Airlock knows gives the bridge
// its classes; a script library, or a framework it does not know, is code
// that is not analysed.
func (an *asAn) use(st []asToken) {
	rest := st[1:]
	if len(rest) > 2 && (rest[0].kind == asWord || rest[0].kind == asVar) && rest[1].isOp(':') {
		rest = rest[2:] // use lib : script "Lib"
	}
	sp := stmtSpan(st)
	if len(rest) == 0 {
		an.add(effect.Of(effect.Unknown), "as.use", sp, "USE: a use statement Airlock cannot read")
		return
	}
	what := an.text(rest[0])
	name := ""
	if len(rest) > 1 && rest[1].kind == asString {
		name = an.str(rest[1])
	}
	switch {
	case what == "applescript" || what == "scripting" && len(rest) > 1 && an.text(rest[1]) == "additions":
	case what == "framework" && facts.ObjCFrameworks[strings.TrimSuffix(strings.ToLower(name), ".framework")]:
	case what == "framework":
		an.add(effect.Of(effect.LoadCode), "as.use-framework", sp, "USE: loads the framework %s, which Airlock does not know", rate.Display(name))
	case what == "application" || what == "app":
		if name == "" {
			an.add(effect.Of(effect.Unknown), "as.use", sp, "USE: names an application computed at run time")
			return
		}
		an.appAllowed(name, sp)
	case what == "script":
		an.add(effect.Of(effect.RunUnseen), "as.use-script", sp, "USE: loads the script library %s, whose code is not analysed", rate.Display(name))
	default:
		an.add(effect.Of(effect.Unknown), "as.use", sp, "USE: a use statement Airlock cannot read")
	}
}
