package applescript

import (
	"strings"
	"sync"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// Rate rates the AppleScript src, nested depth deep (0: the input itself)
// in the assessment env is bound to (rate.Env.Begin). Seed 000's pattern
// table is the floor; it is matched on the normalised token stream, so
// comments, string contents, case, continuations and raw «event» codes
// neither hide nor fake a verb. On top: shell commands in `do shell script`
// are parsed and rated, scripts run from strings are analysed
// recursively, and commands the analyzer does not know are Dangerous.
func Rate(src string, env *Env, depth int) Verdict {
	return appleScriptAt(src, env, depth)
}

func appleScriptAt(src string, env *Env, depth int) Verdict {
	var v Verdict
	if rule, why, ok := env.Bounds().Enter(src, depth, "scripts"); !ok {
		if rule != "" {
			v.Found(effect.Of(effect.Unknown, effect.Computed), "as."+rule, Span{}, "%s", why)
		}
		return v
	}
	lx := lexAppleScript(src)
	an := newAsAn(lx, &v, env, depth)
	if lx.badUTF8 {
		an.add(effect.Of(effect.Unknown), "as.invalid-utf8", Span{}, "script is not valid UTF-8: not fully analysed")
	}
	if lx.unterminated != "" {
		an.add(effect.Of(effect.Unknown), "as.unterminated", Span{}, "unterminated %s: the script cannot be analysed reliably", lx.unterminated)
	}
	an.collect()
	an.run()
	if an.objcTask {
		an.objcTasks()
	}
	an.guard()
	an.repeatedEffects()
	if an.deletes > bulkCount {
		an.add(effect.Of(effect.Trash, effect.Bulk), "as.bulk-delete", Span{}, "BULK DELETE: deletes in %d places", an.deletes)
	}
	if an.sends > bulkCount {
		an.add(effect.Of(effect.Send, effect.Bulk), "egress.as.bulk-email", Span{}, "BULK EMAIL: sends %d messages", an.sends)
	}
	an.release()
	lx.release()
	return v
}

// bulkCount is how many single deletes or sends make a bulk one.
const bulkCount = rate.BulkCount

type asFrame struct {
	kind string // "tell", "block", "handler", "terms"
	app  *asApp // for tell frames: the target (nil: not an application)
	bulk bool   // a repeat over a collection
	// for handler frames: the handler's name; for if blocks and one-line
	// ifs: the condition, which can choose what the body acts on.
	handler asName
	cond    []asToken
	// for tell frames of a process (tell process "Terminal"): its name.
	proc string
}

type asApp struct {
	name    string // lower-case name as written, or bundle id
	known   *facts.App
	dynamic bool // tell application someVariable
}

type asAn struct {
	lx      *asLex
	v       *Verdict
	env     *Env
	depth   int
	stack   []asFrame
	symOf   []int32 // variables and handlers the script declares, by name: 1 + index into symList (0: none)
	symList []asSym
	defList []asDef
	// terminal: the script drives Terminal or iTerm, so typed text runs.
	terminal  bool
	selectAll bool                            // a Select All was typed: what follows acts on everything
	zones     map[string]rate.Zone            // classifyPath results, by path
	paths     map[pathVerdictKey]*pathVerdict // pathVerdict results
	// The guard's answers, in a script of many literals (guardStringMemo):
	// what each literal's text is, and the path guard's findings.
	literals   map[string]litGuard
	pathGuards map[guardKey][]rate.Finding
	mentioned  map[string]bool // mentions results, by word
	writes     int8            // writesFile: 0 not yet known, 1 yes, -1 no
	spotlight  bool            // Command-Space was typed: the next text launches an app
	// deletes and sends seen, and recipients added in a loop: many single
	// actions are one bulk action.
	deletes, sends int
	bulkRecipients bool
	clipboard      string // literal text the script put on the clipboard
	// Folding: work spent (the variables being resolved are marked in
	// their asSym).
	foldWork int
	apps     map[string]*asApp // resolved application names
	shells   map[string]int32  // shell commands analysed (shell.go): their index in shellFx
	shellFx  []shellEffect
	anchor   Span // the span shellInto anchors a command's reasons at
	// Handlers (ashandlers.go): those with positional parameters and the
	// calls collect saw; the calls and one-item effects run saw.
	handlers []asHandler
	params   []asName // the handlers' parameters, which asHandler.params slice
	calls    []asCall
	runCalls []asRunCall
	effects  []asEffect
	returns  []asReturn
	hasSubs  bool
	// The Objective-C bridge (objc.go): whether the script uses it (0 not
	// yet known, 1 yes, -1 no), and whether it starts an NSTask.
	objc     int8
	objcTask bool
	// front is the application the script last brought to the front
	// ("": none seen), frontTerminal whether it is a terminal.
	front         string
	frontTerminal bool
	// settingsUI: the script drives the settings app's window (process
	// "System Settings"): its clicks and keys change settings.
	settingsUI bool
	// uses[name]: how the script mentions the name, for bindCalls
	// (ashandlers.go): its calls name(…), counted up to maxDefs+1, and
	// usedBare.
	uses []uint8
	// binds: the names of the handlers with positional parameters
	// (markHandlers), a bit per name; only their uses are noted.
	binds    []uint64
	allBound bool
}

// asPool keeps analysers, with the room their tables have grown, between
// scripts: a script's analysis then allocates few of them anew.
var asPool = sync.Pool{New: func() any {
	return &asAn{
		symList: make([]asSym, 0, 32),
		defList: make([]asDef, 0, 32),
	}
}}

// maxPooled bounds the entries a pooled table keeps room for: a table a
// large script grew is dropped rather than cleared for every small one.
const maxPooled = 1024

// newAsAn returns an analyser for one script, its tables empty.
func newAsAn(lx *asLex, v *Verdict, env *Env, depth int) *asAn {
	an := asPool.Get().(*asAn)
	an.reset()
	an.lx, an.v, an.env, an.depth = lx, v, env, depth
	return an
}

// reset empties the analyser, keeping the room its tables have (release
// has cleared them).
func (an *asAn) reset() {
	*an = asAn{
		stack: an.stack[:0], symOf: an.symOf, symList: an.symList[:0], defList: an.defList[:0],
		zones: an.zones, paths: an.paths, literals: an.literals, pathGuards: an.pathGuards, mentioned: an.mentioned, apps: an.apps, shells: an.shells, shellFx: an.shellFx[:0],
		handlers: an.handlers[:0], params: an.params[:0], calls: an.calls[:0],
		runCalls: an.runCalls[:0], effects: an.effects[:0], returns: an.returns[:0], uses: an.uses, binds: an.binds,
	}
}

// release empties the analyser's tables and returns it to the pool; an
// must not be used after.
func (an *asAn) release() {
	if len(an.symOf) > maxKW+maxPooled || cap(an.defList) > maxPooled || cap(an.symList) > maxPooled ||
		len(an.uses) > maxKW+maxPooled || len(an.binds) > (maxKW+maxPooled)/64 || cap(an.calls) > maxPooled || cap(an.returns) > maxPooled ||
		cap(an.handlers) > maxPooled || cap(an.params) > maxPooled || cap(an.runCalls) > maxPooled || cap(an.effects) > maxPooled {
		return // the garbage collector takes it
	}
	for _, s := range an.symList {
		an.symOf[s.name] = 0
	}
	clear(an.zones)
	if len(an.paths) > maxPooled {
		an.paths = nil // a map that large is not kept for every small script
	}
	clear(an.paths)
	if len(an.literals) > maxPooled || len(an.pathGuards) > maxPooled {
		an.literals, an.pathGuards = nil, nil
	}
	clear(an.literals) // their keys are texts of the script
	clear(an.pathGuards)
	clear(an.mentioned)
	clear(an.apps)
	clear(an.shells)
	clear(an.shellFx) // the recorded reasons hold texts of the script
	clear(an.stack[:cap(an.stack)])
	clear(an.defList[:cap(an.defList)]) // the definitions point into the script's tokens
	// So do the calls, returns and handlers; uses is indexed by this
	// script's names.
	clear(an.calls)
	clear(an.returns)
	clear(an.handlers)
	clear(an.uses)
	clear(an.binds)
	an.reset()
	asPool.Put(an)
}

// add adds a reason: the effect e, found by rule at sp, whose warning is
// format with args. A one-item effect inside a handler is noted, for
// when the handler runs many times (repeatedEffects).
func (an *asAn) add(e effect.Effect, rule string, sp Span, format string, args ...any) {
	an.v.Found(e, rule, sp, format, args...)
	if an.hasSubs {
		an.effect(e, rule, sp)
	}
}

// addText is add for a warning that needs no formatting.
func (an *asAn) addText(e effect.Effect, rule string, sp Span, text string) {
	an.v.FoundText(e, rule, sp, text)
	if an.hasSubs {
		an.effect(e, rule, sp)
	}
}

// text and str are the lexer's, for the token t of this script.
func (an *asAn) text(t asToken) string { return an.lx.text(t) }
func (an *asAn) str(t asToken) string  { return an.lx.str(t) }

func tokSpan(t asToken) Span { return Span{Start: int(t.start), End: int(t.end)} }

func stmtSpan(st []asToken) Span {
	if len(st) == 0 {
		return Span{}
	}
	return Span{Start: int(st[0].start), End: int(st[len(st)-1].end)}
}

// statements splits the token stream at line ends (the lexer noted
// where they are).
func (an *asAn) statements(f func(st []asToken)) {
	toks := an.lx.toks
	start := int32(0)
	for _, e := range an.lx.ends {
		if e > start {
			f(toks[start:e])
		}
		start = e + 1
	}
}

// collectReturns records what a statement of handler returns; a handler
// that returns a collection (my targets()) is many things.
func (an *asAn) collectReturns(st []asToken, handler asName) {
	for k := 0; k+1 < len(st); k++ {
		if st[k].kind == asWord && st[k].kw == kwReturn {
			if k+1 < len(st) && len(an.returns) < maxDefs*4 {
				an.returns = append(an.returns, asReturn{handler: handler, expr: st[k+1:]})
			}
			for _, x := range st[k+1:] {
				if x.kind == asWord && x.kw.has(kfBulk) {
					an.def(handler, st[k+1:])
					break
				}
			}
		}
	}
}

// collect records variables, handlers and the expressions assigned to
// variables, so `do shell script cmd` can see what cmd holds.
func (an *asAn) collect() {
	// The handler being read, if any (a handler "named" by an empty text,
	// an unknown «event», is none).
	handler, inHandler := asName(0), false
	an.markHandlers()
	an.statements(func(st []asToken) {
		if len(st) > 1 && (st[0].kw == kwOn || st[0].kw == kwTo) && st[1].kw != kwError {
			handler, inHandler = an.name(st[1]), st[1].tlen > 0
		} else if inHandler && len(st) > 1 && st[0].kw == kwEnd && an.name(st[1]) == handler {
			inHandler = false
		}
		if inHandler {
			an.collectReturns(st, handler)
		}
		for i := range st {
			t := &st[i]
			switch t.kind {
			case asString:
				if !an.terminal && mentionsTerminal(an.str(*t)) {
					an.terminal = true // do shell script "open -a Terminal", activate application "iTerm"
				}
				continue
			case asWord, asVar:
			default:
				continue
			}
			if t.name != 0 && !an.bound(t.name) {
				// No handler with positional parameters has the name:
				// how it is used is never read (bindCalls).
			} else if t.name != 0 && t.tlen > 0 && int(t.name) < len(an.uses) && (i+1 == len(st) || !st[i+1].isOp('(')) &&
				(i == 0 || st[i-1].kw != kwOn && st[i-1].kw != kwTo && st[i-1].kw != kwEnd) {
				// collectUse's most common case, without the call: a
				// mention of a named word other than a call, a
				// handler's definition or its end.
				an.uses[t.name] |= usedBare
			} else {
				an.collectUse(st, i)
			}
			if t.kw.has(kfDefines) {
				an.collectDef(st, i)
			}
		}
	})
	if len(an.handlers) > 0 {
		an.bindCalls()
	}
}

// collectUse notes how the word st[i] is used: a call of a handler,
// name(…), whose calls are kept for bindCalls when there are few enough;
// or a mention other than a call, a handler's definition or its end.
func (an *asAn) collectUse(st []asToken, i int) {
	t := &st[i]
	uses := an.uses
	if i+1 < len(st) && st[i+1].kind == asOp && st[i+1].op == '(' {
		if !(i == 1 && (st[0].kw == kwOn || st[0].kw == kwTo)) {
			// A call. Only a handler with at most maxDefs calls
			// has them read (bindCalls).
			name := an.name(*t)
			if int(name) >= len(uses) {
				uses = an.growUses(name)
			}
			if uses[name]&^usedBare <= maxDefs {
				uses[name]++
				an.calls = append(an.calls, asCall{name: name, toks: st[i:]})
			}
		}
	} else if t.tlen > 0 && (i == 0 || st[i-1].kw != kwOn && st[i-1].kw != kwTo && st[i-1].kw != kwEnd) {
		// A mention other than a call, a handler's definition or
		// its end.
		name := t.name // a word's name, as an.name gives it
		if name == 0 {
			name = an.name(*t)
		}
		if int(name) >= len(uses) {
			uses = an.growUses(name)
		}
		uses[name] |= usedBare
	}
}

// collectDefiners are the words collectDef has work at (its cases): the
// others are passed by on their flags, without a call.
var collectDefiners = set(`set copy repeat application app process property local global on to script`)

// collectDef records what the statement st defines at its word st[i]:
// variables set, copied, looped over, declared; handlers and their
// parameters; script objects.
func (an *asAn) collectDef(st []asToken, i int) {
	t := &st[i]
	switch t.kw {
	case kwSet:
		an.collectSet(st, i)
	case kwCopy:
		for j := i + 1; j < len(st); j++ {
			if st[j].kw == kwTo && j+1 < len(st) {
				k := j + 1
				if st[k].kw == kwMy && k+1 < len(st) {
					k++
				}
				an.def(an.name(st[k]), nil)
				break
			}
		}
	case kwRepeat:
		if i+2 < len(st) && st[i+1].kw == kwWith {
			an.collectLoop(st, i+2)
		}
	case kwApplication, kwApp, kwProcess:
		j := i + 1
		if j < len(st) && st[j].kw == kwId {
			j++
		}
		if j < len(st) && st[j].kind == asString && !an.terminal && facts.IsTerminal(an.str(st[j])) {
			an.terminal = true
		}
		if t.kw == kwProcess && j < len(st) && st[j].kind == asString && isSettingsApp(an.str(st[j])) {
			an.settingsUI = true
		}
	case kwProperty, kwLocal, kwGlobal:
		if i == 0 {
			an.collectDecl(st, t.kw == kwProperty)
		}
	case kwOn, kwTo:
		if i == 0 && handlerDef(st) {
			an.collectHandler(st)
		}
	case kwScript:
		if i == 0 && len(st) > 1 {
			an.sym(an.name(st[1])).isVar = true
		}
	}
}

// collectLoop records the variable st[v] of repeat with v in …: each item
// of the collection is a definition.
func (an *asAn) collectLoop(st []asToken, v int) {
	an.sym(an.name(st[v])).isVar = true
	for j := v + 1; j < len(st); j++ {
		if st[j].kw == kwIn {
			an.def(an.name(st[v]), st[j+1:])
			break
		}
	}
}

// collectSet records set X to …, set my X to …, set X of me to … and
// set {a, b} to …: the variables st[i] assigns.
func (an *asAn) collectSet(st []asToken, i int) {
	// set my X to …, set X of me to …: the same variable.
	k := i + 1
	if k < len(st) && (st[k].kw == kwMy || st[k].kw == kwIts) {
		k++
	}
	if k+3 < len(st) && st[k+1].kw == kwOf && (st[k+2].kw == kwMe || st[k+2].kw == kwIt) && st[k+3].kw == kwTo {
		an.def(an.name(st[k]), st[k+4:])
	} else if k+1 < len(st) && (st[k].kind == asWord || st[k].kind == asVar) && st[k+1].kw == kwTo {
		an.def(an.name(st[k]), st[k+2:])
	} else if i+1 < len(st) && st[i+1].op == '{' {
		for j := i + 2; j < len(st) && st[j].op != '}'; j++ {
			if st[j].kind == asWord || st[j].kind == asVar {
				an.def(an.name(st[j]), nil)
			}
		}
	}
}

// collectDecl records the names a property, local or global declaration
// declares; a property's value is a definition.
func (an *asAn) collectDecl(st []asToken, property bool) {
	for j := 1; j < len(st); j++ {
		if st[j].kind == asWord || st[j].kind == asVar {
			an.sym(an.name(st[j])).isVar = true
			if property {
				if j+2 < len(st) && st[j+1].op == ':' {
					an.def(an.name(st[j]), st[j+2:])
				}
				break
			}
		}
	}
}

// collectHandler records the handler the statement st defines (on foo(a,
// b), to foo …, on run argv) and its parameters.
func (an *asAn) collectHandler(st []asToken) {
	an.sym(an.name(st[1])).isSub = true
	an.hasSubs = true
	// Parameters: on run argv, on foo(a, b), on run {a, b}.
	// Their values come from the caller: computed, even where
	// a property of the same name has a literal value. The
	// positional ones of foo(a, b) are bound to what its
	// calls pass, when every call can be read (bindCalls).
	if an.positional(st) {
		from := len(an.params)
		for j := 3; j < len(st) && !st[j].isOp(')'); j++ {
			if st[j].kind == asWord || st[j].kind == asVar {
				an.sym(an.name(st[j])).isVar = true
				an.params = append(an.params, an.name(st[j]))
			}
		}
		to := len(an.params)
		an.handlers = append(an.handlers, asHandler{name: an.name(st[1]), from: int32(from), to: int32(to)})
		return
	}
	for j := 2; j < len(st); j++ {
		if st[j].kind == asWord || st[j].kind == asVar {
			an.def(an.name(st[j]), nil)
		}
	}
}

// asSym is what the script declares under one name. Symbols and their
// definitions live in two flat slices, so collecting a large script costs a
// few allocations, not a few per name.
type asSym struct {
	name         asName
	isVar, isSub bool
	bulk         int8 // bulkVar's result: 0 not known yet, 1 yes, -1 no (or being worked out)
	resolving    bool // template is resolving the variable's value
	ndefs        int
	first, last  int32 // definitions: indices into asAn.defList, -1 when none
}

type asDef struct {
	expr []asToken // nil: assigned, but how is not visible
	next int32
	// foldDef's result, once folded: definitions are fixed once collect
	// has run, and foldPath is a function of them.
	folded bool
	fold   string
}

// sym returns what the script declares under name, adding it if need be.
func (an *asAn) sym(name asName) *asSym {
	if int(name) >= len(an.symOf) {
		an.symOf = append(an.symOf, make([]int32, int(name)+1-len(an.symOf)+len(an.symOf)/2)...)
	}
	i := an.symOf[name]
	if i == 0 {
		an.symList = append(an.symList, asSym{name: name, first: -1, last: -1})
		i = int32(len(an.symList))
		an.symOf[name] = i
	}
	return &an.symList[i-1]
}

// lookup returns what the script declares under name, or nil.
func (an *asAn) lookup(name asName) *asSym {
	if int(name) < len(an.symOf) {
		if i := an.symOf[name]; i != 0 {
			return &an.symList[i-1]
		}
	}
	return nil
}

// maxDefs bounds the definitions kept for one variable. A variable set in
// more places than that also gets a computed definition (fail closed), and
// every look-up through its definitions stays bounded.
const maxDefs = 16

// def records name := expr.
func (an *asAn) def(name asName, expr []asToken) {
	s := an.sym(name)
	s.isVar = true
	if s.ndefs++; s.ndefs > maxDefs {
		if s.ndefs == maxDefs+1 {
			expr = nil // one computed definition stands for the rest
		} else {
			return
		}
	}
	d := int32(len(an.defList))
	an.defList = append(an.defList, asDef{expr: expr, next: -1})
	if s.last >= 0 {
		an.defList[s.last].next = d
	} else {
		s.first = d
	}
	s.last = d
}

func (an *asAn) known(name asName) bool { return an.lookup(name) != nil }

func (an *asAn) isVar(name asName) bool {
	s := an.lookup(name)
	return s != nil && s.isVar
}

// firstDef returns the index of name's first definition in defList, or
// -1; iterate with defList[d].next.
func (an *asAn) firstDef(name asName) int32 {
	if s := an.lookup(name); s != nil {
		return s.first
	}
	return -1
}

// run walks the statements, keeping the tell/block stack.
func (an *asAn) run() {
	b := an.env.Bounds()
	an.statements(func(st []asToken) {
		if b.Live() { // stopped: the rest is skipped, and end says so
			an.statement(st)
		}
	})
	// Unclosed blocks are a compile error; nothing more to rate.
}

func (an *asAn) currentApp() *asApp {
	for i := len(an.stack) - 1; i >= 0; i-- {
		f := &an.stack[i]
		if f.kind == "tell" && f.app != nil {
			if f.app.dynamic && f.app.known == nil {
				// tell application (computed) inside using terms from
				// application "Finder": Finder's commands, to an unknown target.
				for k := i - 1; k >= 0; k-- {
					if t := an.stack[k]; t.kind == "terms" && t.app != nil && t.app.known != nil {
						return &asApp{name: f.app.name, dynamic: true, known: t.app.known}
					}
				}
			}
			return f.app
		}
	}
	return nil
}

var blockOpeners = map[string]bool{"repeat": true, "try": true, "considering": true, "ignoring": true, "script": true}

func (an *asAn) statement(st []asToken) {
	first := st[0]
	if first.kind == asWord && first.tlen == 3 && an.text(first) == "use" {
		an.use(st)
		return
	}
	if first.kind == asWord {
		switch first.kw {
		case kwEnd:
			if len(an.stack) > 0 {
				an.stack = an.stack[:len(an.stack)-1]
			}
			return
		case kwTell:
			an.tellStatement(st)
			return
		case kwUsing:
			if len(st) > 2 && st[1].kw == kwTerms && st[2].kw == kwFrom {
				// The dictionary in use: commands to a computed target are
				// read with these terms.
				app, _, _ := an.tellTarget(st[3:])
				an.stack = append(an.stack, asFrame{kind: "terms", app: app})
				return
			}
		case kwIf, kwElse:
			an.ifStatement(st)
			return
		case kwWith:
			if len(st) > 1 && (st[1].kw == kwTimeout || st[1].kw == kwTransaction) {
				an.stack = append(an.stack, asFrame{kind: "block"})
				return
			}
		case kwOn, kwTo:
			if len(st) > 1 && st[1].kw == kwError {
				return
			}
			if len(st) > 1 {
				an.stack = append(an.stack, asFrame{kind: "handler", handler: an.name(st[1])})
				return
			}
		case kwProperty, kwGlobal, kwLocal:
			an.scan(st, false)
			return
		}
		if first.kw.has(kfBlock) && !(first.kw == kwTry && len(st) > 1) {
			fr := asFrame{kind: "block"}
			if first.kw == kwRepeat {
				an.scan(st, false)
				// Whatever a loop deletes or sends, it does many times.
				fr.bulk = true
			}
			an.stack = append(an.stack, fr)
			return
		}
		if first.kw == kwTry {
			// try <statement> on one line is not AppleScript; treat the rest as a statement.
			an.stack = append(an.stack, asFrame{kind: "block"})
			an.statement(st[1:])
			return
		}
	}
	an.scan(st, true)
}

// tellStatement reads tell X, which opens a block with X as its target, and
// tell X to <statement>, a line with its own.
func (an *asAn) tellStatement(st []asToken) {
	app, rest, ok := an.tellTarget(st[1:])
	// tell (every file of desktop) to delete: the target is many things.
	bulk, _ := an.bulkObject(st, 1)
	proc := ""
	if len(st) > 2 && st[1].kw == kwProcess && st[2].kind == asString {
		proc = an.str(st[2]) // tell process "Terminal": the UI it drives
	} else if len(st) > 3 && st[1].kw == kwApplication && st[2].kw == kwProcess && st[3].kind == asString {
		proc = an.str(st[3])
	}
	if ok && rest != nil {
		// tell X to <statement>: one line, its own target. Whatever
		// the inner statement opens or closes ends with the line. A
		// target computed in parentheses (tell (load script …) to run)
		// is code of its own, scanned as a block tell's target is.
		if target := st[1 : len(st)-len(rest)-1]; hasOp(target, '(') {
			an.scan(target, false)
		}
		n := len(an.stack)
		an.stack = append(an.stack, asFrame{kind: "tell", app: app, bulk: bulk, proc: proc})
		an.statement(rest)
		if len(an.stack) > n {
			an.stack = an.stack[:n]
		}
		return
	}
	an.stack = append(an.stack, asFrame{kind: "tell", app: app, bulk: bulk, proc: proc})
	an.scan(st, false)
}

// ifStatement reads if … then and else: if … then <statement> on one line
// is a statement of its own; if … then at the end of a line opens a block;
// else <statement> likewise.
func (an *asAn) ifStatement(st []asToken) {
	then := -1
	for j := 1; j < len(st); j++ {
		if st[j].kind == asWord && st[j].kw == kwThen {
			then = j
			break
		}
	}
	switch {
	case st[0].kw == kwElse && (len(st) == 1 || st[1].kw != kwIf):
		if len(st) > 1 {
			an.statement(st[1:])
		}
		return
	case then < 0:
		an.scan(st, false)
		return
	}
	an.scan(st[:then+1], false)
	if then == len(st)-1 {
		if st[0].kw == kwIf {
			an.stack = append(an.stack, asFrame{kind: "block", cond: st[1:then]})
		}
		return
	}
	// One line: the statement after then, without opening a block.
	n := len(an.stack)
	an.stack = append(an.stack, asFrame{kind: "block", cond: st[1:then]})
	an.statement(st[then+1:])
	if len(an.stack) > n {
		an.stack = an.stack[:n]
	}
}

// appAllowed rates a tell (or use) of an application the allowedApps
// setting does not list: at least Dangerous, as the setting asks.
func (an *asAn) appAllowed(name string, sp Span) {
	if an.env == nil || an.env.AppAllowed == nil {
		return
	}
	if ok, why := an.env.AppAllowed(name); !ok {
		if why == "" {
			why = "it is not in the allowedApps setting"
		}
		an.add(effect.Of(effect.Unknown), "as.app-not-allowed", sp, "APP: %s is not allowed: %s (the allowedApps setting)", rate.Display(name), why)
	}
}

// tellTarget parses what follows `tell`. It returns the application (nil
// when the target is an object of the current one), and for a one-line
// `tell X to …` the statement after `to`.
func (an *asAn) tellTarget(st []asToken) (*asApp, []asToken, bool) {
	depth := 0
	var app *asApp
	cur := an.currentApp()
	for i := 0; i < len(st); i++ {
		t := st[i]
		switch {
		case t.kind == asOp && (t.op == '(' || t.op == '{'):
			depth++
		case t.kind == asOp && (t.op == ')' || t.op == '}'):
			depth--
		case t.kind == asWord && (t.kw == kwApplication || t.kw == kwApp) && app == nil && !(i+1 < len(st) && st[i+1].kw == kwProcess):
			// (application process "X" is System Events' process, not an application.)
			j := i + 1
			if j < len(st) && st[j].op == '(' {
				j++
			}
			if j < len(st) && st[j].kind == asWord && st[j].kw == kwId {
				j++ // application id "com.apple.finder": facts.AppIDs maps it
			}
			name, end, ok := an.foldStrings(st[j:])
			if !ok && j > i+1 && j < len(st) && st[i+1].op == '(' && st[j].kind == asString {
				// application ("Saf" & "ari"): the parenthesised text.
				name, end, ok = an.foldStrings(st[i+1:])
				j = i + 1
			}
			if ok {
				app = an.app(name)
				an.appAt("TELL", name, tokSpan(st[j]))
				an.appAllowed(name, tokSpan(st[j]))
				if err := sanitize.Strict("app", name); err != nil {
					an.add(effect.Of(effect.Refused), "as.app-name", tokSpan(st[j]), "%s", err.Error())
				}
				i = j + end - 1
			} else {
				app = &asApp{name: "(computed)", dynamic: true}
				if j < len(st) {
					if p := an.foldPath(st[j:], 0); p != "" {
						an.appAt("TELL", p, tokSpan(st[j])) // (POSIX path of (path to downloads folder) & "X.app")
					}
				}
				if an.env != nil && an.env.AppAllowed != nil && j < len(st) {
					an.add(effect.Of(effect.Unknown), "as.app-not-allowed", tokSpan(st[j]), "APP: an application named at run time: cannot tell whether the allowedApps setting lists it")
				}
			}
		case t.kind == asWord && t.kw == kwTo && depth <= 0:
			if app == nil && i == 1 {
				app = an.appVar(st[0])
			}
			if i+1 < len(st) {
				return an.pick(app, cur), st[i+1:], true
			}
			return an.pick(app, cur), nil, true
		}
	}
	if app == nil && len(st) == 1 {
		app = an.appVar(st[0])
	}
	return an.pick(app, cur), nil, true
}

// appAt rates telling the application at a path (application
// "/Users/me/Downloads/X.app", application "Macintosh HD:Users:…"): the
// system starts it, outside every sandbox, to receive the event, and one
// outside the folders applications are installed in is the person's own
// or an action's (facts.AppEffect). A name is not a path: installed apps
// answer to it.
func (an *asAn) appAt(what, name string, sp Span) {
	if !strings.ContainsAny(name, "/:") {
		return
	}
	h := facts.NamedHandler(name, false)
	if !h.UserOwned {
		return
	}
	e, why := facts.AppEffect(h)
	an.add(e, "as.launch-app", sp, "%s: starts the application at %s: %s", what, rate.Display(name), why)
}

// appVar resolves tell f where f was set to application "X".
func (an *asAn) appVar(t asToken) *asApp {
	if t.kind != asWord && t.kind != asVar {
		return nil
	}
	for d := an.firstDef(an.name(t)); d >= 0; d = an.defList[d].next {
		e := an.defList[d].expr
		for k := 0; k+1 < len(e); k++ {
			if e[k].kw == kwApplication || e[k].kw == kwApp {
				if name, _, ok := an.foldStrings(e[k+1:]); ok {
					return an.app(name)
				}
				return &asApp{name: "(computed)", dynamic: true}
			}
		}
	}
	return nil
}

// mentionsTerminal spots a terminal opened by a string command: open -a
// Terminal. A terminal's name in a list or a message is not that.
func mentionsTerminal(s string) bool {
	if len(s) > 200 || !strings.Contains(s, "open ") {
		return false
	}
	for _, f := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return r == ' ' || r == '"' || r == '\'' || r == '/' || r == '-'
	}) {
		if facts.Terminals[strings.TrimSuffix(f, ".app")] {
			return true
		}
	}
	return false
}

// foldStrings reads a string constant: "Finder", ("Fin" & "der"). It
// returns the value, how many tokens it spans, and whether it was one.
func (an *asAn) foldStrings(st []asToken) (string, int, bool) {
	if len(st) == 0 {
		return "", 0, false
	}
	if st[0].kind == asString {
		if len(st) > 1 && st[1].isOp('&') {
			return "", 0, false // "Fin" & x: computed
		}
		return an.str(st[0]), 1, true
	}
	if st[0].kind != asOp || st[0].op != '(' {
		return "", 0, false
	}
	var b strings.Builder
	for k := 1; k < len(st); k++ {
		t := st[k]
		switch {
		case t.kind == asString:
			b.WriteString(an.str(t))
		case t.isOp('&'):
		case t.isOp(')'):
			return b.String(), k + 1, true
		default:
			return "", 0, false
		}
	}
	return "", 0, false
}

func (an *asAn) pick(app, cur *asApp) *asApp {
	if app != nil {
		return app
	}
	return cur
}

// app resolves an application name once per script.
func (an *asAn) app(name string) *asApp {
	if a, ok := an.apps[name]; ok {
		return a
	}
	if an.apps == nil {
		an.apps = map[string]*asApp{}
	}
	a := newApp(name, false)
	an.apps[name] = a
	return a
}

func newApp(name string, byID bool) *asApp {
	var buf [64]byte
	low := facts.LowerName(buf[:0], name)
	key := facts.AppKey(low)
	if a := knownApps[string(key)]; a != nil {
		return a
	}
	return &asApp{name: string(key), known: facts.AppInfoLower(low)}
}

// knownApps holds the asApp of every name and bundle id in apps and
// facts.AppIDs, by key: asApps are never changed, so one serves every script.
var knownApps = func() map[string]*asApp {
	m := map[string]*asApp{}
	for key := range facts.Apps {
		m[key] = &asApp{name: key, known: facts.AppInfoLower([]byte(key))}
	}
	for key := range facts.AppIDs {
		m[key] = &asApp{name: key, known: facts.AppInfoLower([]byte(key))}
	}
	return m
}()

// scan applies the verb rules to one statement; with head set it also
// checks that the statement's command is one the analyzer knows.
func (an *asAn) scan(st []asToken, head bool) {
	app := an.currentApp()
	for i := 0; i < len(st); i++ {
		t := st[i]
		switch t.kind {
		case asString:
			// open -a Terminal, activate application "iTerm" …: a terminal
			// may now be in front.
			if an.terminal && (mentionsTerminal(an.str(t)) || facts.IsTerminal(an.str(t))) {
				an.front, an.frontTerminal = an.str(t), true
			}
		case asEvent:
			an.event(st, i, app)
		case asOp:
			an.scanOp(st, i, app)
		case asWord:
			if t.tlen == 8 && an.text(t) == "activate" || t.tlen == 9 && an.text(t) == "frontmost" {
				an.noteFront(st, i, app)
			}
			if (t.kw == kwApplication || t.kw == kwApp) && st[0].kw != kwTell {
				an.appSpec(st, i) // launch application "/Users/me/X.app": tellTarget rates a tell's
			}
			if t.kw.has(kfRule) { // the word starts rules: vocab.rules[t.kw] holds them
				an.scanRules(vocab.rules[t.kw], st, i, app)
			}
		}
	}
	if head {
		an.checkHead(st, app)
	}
	if app != nil && len(st) > 2 && st[0].kind == asWord && st[0].kw == kwSet {
		an.propertySet(st, app)
	}
}

// scanOp looks at the operator st[i]: name(…) is a call, if name is a
// handler (rules never change the stack noteCall reads); x's sel:… or x's
// sel(…) a method call, if the script uses the Objective-C bridge.
func (an *asAn) scanOp(st []asToken, i int, app *asApp) {
	t := st[i]
	if t.op == '(' && i > 0 && an.hasSubs && (st[i-1].kind == asWord || st[i-1].kind == asVar) {
		an.noteCall(st[i-1])
	}
	if t.op == opPoss && i+2 < len(st) && (st[i+1].kind == asWord || st[i+1].kind == asVar) &&
		(st[i+2].isOp(':') || st[i+2].isOp('(')) && an.objcOn() {
		an.objcCall(st, i+1, app)
	}
}

// scanRules applies the verb table's rows that can start at the word
// st[i]. Every row that matches applies; the longest one, where a command
// starts, is the command, whose parameters must be ones it models, and
// which an application Airlock does not model may make of its own.
func (an *asAn) scanRules(rules []asRule, st []asToken, i int, app *asApp) {
	t := st[i]
	var cmd *verb
	cmdN := 0
	for _, r := range rules {
		if n := r.match(st, i); n > 0 {
			r.row.apply(an, st, i, n, app)
			if n > cmdN && (!r.row.Head || isHead(st, i)) {
				cmd, cmdN = r.row, n
			}
		}
	}
	if cmd != nil && cmd.mayStayBelowDangerous() && !cmd.Part && isHead(st, i) {
		an.checkParams(cmd, st, i, cmdN)
	}
	if w := an.text(t); cmd != nil && !cmd.Part && isHead(st, i) && app != nil && !app.dynamic && app.known == nil &&
		facts.GenericVerbs[w] && !unknownAppReads[w] {
		an.add(effect.Of(effect.Unknown), "as.unknown-app", tokSpan(t), "command %q to %s, an application Airlock does not model: cannot tell what it does", rate.Display(an.lx.src[t.start:t.end]), appTitle(app))
	}
}

// appVerbParams holds a known application's command that stays below
// Dangerous to the auto-run contract: the parameters its dictionary's
// verbs take that change nothing are appVerbLabels; any other `with x` is
// one Airlock does not model, Dangerous.
func (an *asAn) appVerbParams(st []asToken, i int, app *asApp) {
	depth := 0
	for j := i + 1; j+1 < len(st); j++ {
		t := st[j]
		switch {
		case t.kind == asOp && (t.op == '(' || t.op == '{'):
			depth++
		case t.kind == asOp && (t.op == ')' || t.op == '}'):
			depth--
		case depth == 0 && t.kind == asWord && (t.kw == kwWith || t.kw == kwWithout) && (st[j+1].kind == asWord || st[j+1].kind == asVar):
			label := an.text(st[j+1])
			if appVerbLabels[label] || ownRow(st, j) {
				continue
			}
			an.add(effect.Of(effect.Unknown), "as.unmodelled-param", span2(st, j, 2), "PARAMETER: %s %s of %s's %s is not one Airlock models: cannot tell what it does",
				an.text(t), rate.Display(label), app.known.Title, rate.Display(an.lx.src[st[i].start:st[i].end]))
		}
	}
}

// unknownAppReads are the Standard Suite's commands that do the same to
// every application, which Airlock may send to one it does not model:
// bring it forward, start or quit it, read from it. Any other command
// (make, open, save, delete, move, duplicate, print, close, set, copy)
// does what that application makes of it: Dangerous.
var unknownAppReads = set(`activate launch run reopen quit get count exists select reveal`)

// appVerbLabels are the labelled parameters of applications' everyday
// commands that change nothing of their own: the properties of what is
// made, showing a dialog or window, and the like.
var appVerbLabels = set(`properties properties, data print dialog opening window icon title timeout`)

// propertySet rates `set <property> of … to …` inside an application: a
// change to the application's state (Caution), unlike `set x to …`, which
// only assigns a script variable.
func (an *asAn) propertySet(st []asToken, app *asApp) {
	to := -1
	for j := 1; j < len(st); j++ {
		if st[j].kind == asWord && st[j].kw == kwTo {
			to = j
			break
		}
	}
	if to < 2 {
		return
	}
	target := st[1:to]
	if len(target) == 1 && (target[0].kind == asVar || an.isVar(an.name(target[0]))) {
		return // set output to …: a script variable, whatever its name
	}
	if target[0].kw == kwApplescript || target[0].op == '{' {
		return // AppleScript's text item delimiters, set {a, b} to …
	}
	switch target[0].kw {
	case kwEnd, kwBeginning, kwItem, kwRest, kwMiddle:
		if last := target[len(target)-1]; last.kind == asVar || an.isVar(an.name(last)) {
			return // set end of myList to …, set item 2 of theList to …: a script list
		}
	}
	changed := rate.Display(an.lx.src[target[0].start:target[len(target)-1].end])
	if !app.dynamic && app.known == nil {
		// What a property of an application Airlock does not model does is
		// not known (a rule's script, an action to run): the auto-run
		// contract makes it Dangerous.
		an.add(effect.Of(effect.Unknown), "as.unknown-app", stmtSpan(target), "SET: changes %s of %s, an application Airlock does not model: cannot tell what it does", changed, appTitle(app))
	}
	an.v.FoundText(effect.Of(effect.AppState), "as.set-property", stmtSpan(target), "SET: changes "+changed+" of "+appTitle(app))
	an.urlProps(st, stmtSpan(st))
	if app.known != nil && app.known.Title == "System Events" {
		an.securityPrefs(st, target)
		if target[0].kind == asWord && an.text(target[0]) == "value" {
			an.uiValue(st, to)
		}
	}
	if app.known != nil && app.known.Title == "Script Editor" && (target[0].kw == kwContents || target[0].kw == kwText) {
		// set contents of document 1 to "…": code the editor runs.
		an.typedIntoRunner(st, to+1, stmtSpan(st), app.known.Title)
	}
	an.setObject(target, st[to+1:], app)
}

// securityPrefs rates a change of System Events' security preferences
// (require password to wake, automatic login, secure virtual memory, log
// out when inactive): each weakens a security control, Destructive.
func (an *asAn) securityPrefs(st, target []asToken) {
	words := ""
	for _, t := range st {
		if t.kind == asWord {
			words += " " + an.text(t)
		}
	}
	for _, p := range securityPrefProps {
		if strings.Contains(words, " "+p) {
			an.add(effect.Of(effect.SecurityOff), "as.security-setting", stmtSpan(target), "SECURITY: changes %s in the Mac's security preferences", p)
			return
		}
	}
}

// securityPrefProps are the properties of System Events' security
// preferences (and the object itself).
var securityPrefProps = []string{"security preferences", "require password to wake", "require password to unlock",
	"automatic login", "secure virtual memory", "log out when inactive", "require password to unlock"}

// event rates a raw «event» code: known codes are rated as their terms,
// unknown ones are Dangerous.
func (an *asAn) event(st []asToken, i int, app *asApp) {
	t := st[i]
	if an.text(t) == "" {
		an.add(effect.Of(effect.Unknown), "as.raw-event", tokSpan(t), "raw Apple event code «event %s» is not one Airlock knows: cannot tell what it does", an.eventCode(t))
		return
	}
	// Re-run the rules on the term as if it had been written out.
	term := an.text(t)
	words := strings.Fields(term)
	synth := make([]asToken, 0, len(words)+len(st)-i-1)
	off := 0
	for _, w := range words {
		k := off + strings.Index(term[off:], w)
		synth = append(synth, asToken{kind: asWord, start: t.start, end: t.end, toff: t.toff + int32(k), tlen: int32(len(w)), kw: lookupKW(w)})
		off = k + len(w)
	}
	synth = append(synth, st[i+1:]...)
	before := len(an.v.Reasons)
	if rules := vocab.rules[synth[0].kw]; rules != nil {
		for _, r := range rules {
			if n := r.match(synth, 0); n > 0 {
				r.row.apply(an, synth, 0, n, app)
			}
		}
	}
	if len(an.v.Reasons) == before && !quietEvents[an.text(t)] {
		an.add(effect.Of(effect.AppState), "as.raw-event", tokSpan(t), "raw Apple event code «event %s» (%s)", an.eventCode(t), an.text(t))
	}
	if powerEvents[strings.ToLower(an.eventCode(t))] {
		an.add(effect.Of(effect.Power), "as.power", tokSpan(t), "SYSTEM POWER: «event %s» (%s) without confirmation", an.eventCode(t), an.text(t))
	}
}

var quietEvents = map[string]bool{"get": true, "count": true, "exists": true, "activate": true, "launch": true,
	"display dialog": true, "display notification": true, "display alert": true, "beep": true, "delay": true,
	"log": true, "path to": true, "the clipboard": true, "info for": true, "system info": true, "random number": true}

var powerEvents = map[string]bool{"aevtrlgo": true, "aevtrsdn": true, "aevtrest": true}

// statement-level words that are not commands.
var asKeywords = set(`set get copy return if then else end repeat exit try on error tell to using
	terms from considering ignoring with without timeout transaction local global property script my me it its
	of in the a an and or not is are contains does as continue given returning run open quit reopen idle
	while until times from by the its true false missing value null log delay beep say display choose
	activate launch count exists make duplicate select reveal close save print ( { "`)

// connectors are words that continue an expression after a variable.
var connectors = set(`of is are contains does as and or not in to from by thru through div mod then else
	begins ends starts equals equal greater less than comes after before`)

// checkExprHead checks the command an expression starts with, in set X to
// <expr>, inside a tell to an application Airlock does not know: every word
// there could be one of its commands.
func (an *asAn) checkExprHead(st []asToken, i int, app *asApp) {
	for j := i + 1; j+1 < len(st); j++ {
		if st[j].kind == asWord && st[j].kw == kwTo {
			k := j + 1
			for k < len(st) && (st[k].op == '(' || st[k].kw == kwMy || st[k].kw == kwThe) {
				k++
			}
			if k >= len(st) || st[k].kind != asWord {
				return
			}
			if st[k].kw.has(kfKeyword|kfNoun|kfGeneric) || an.known(an.name(st[k])) || k+1 < len(st) && (st[k+1].kw == kwOf || st[k+1].op == opPoss || st[k+1].op == '(') {
				return
			}
			an.add(effect.Of(effect.Unknown), "as.unknown-app", tokSpan(st[k]), "command %q to %q, an application Airlock does not know", rate.Display(an.lx.src[st[k].start:st[k].end]), app.name)
			return
		}
	}
}

// asNouns start expression statements (a property or element reference
// whose value is the statement's result), not commands.
var asNouns = set(`input output alert name text contents every first last front back middle some current
	selected number length item items character characters word words paragraph paragraphs properties
	class id index value title url path posix quoted result window windows document documents folder
	folders file files process processes application button buttons menu date time string integer real
	list record reference selection desktop home startup`)

// headAt finds where the command of the statement st starts: after if …
// then, else, try, ignoring and considering. ok is false when there is
// none to check: a statement that starts with no word, a tell (statement
// handles it), my, or nothing after the words skipped.
func headAt(st []asToken) (int, bool) {
	i := 0
	for i < len(st) {
		t := st[i]
		if t.kind != asWord {
			return 0, false
		}
		switch t.kw {
		case kwIf, kwElse:
			// if … then <statement>
			j := i + 1
			for j < len(st) && !(st[j].kind == asWord && st[j].kw == kwThen) {
				j++
			}
			if t.kw == kwElse && (j >= len(st)) {
				i++
				continue
			}
			i = j + 1
			continue
		case kwTell:
			return 0, false // handled by statement()
		case kwTry, kwIgnoring, kwConsidering:
			i++
			continue
		case kwMy:
			return 0, false
		}
		break
	}
	return i, i < len(st)
}

// checkHead finds the command a statement starts with and rates commands
// the analyzer does not know. Expressions (set x to …, return …) are not
// checked here: commands inside them are found by the verb rules.
func (an *asAn) checkHead(st []asToken, app *asApp) {
	i, ok := headAt(st)
	if !ok {
		return
	}
	t := st[i]
	if t.kind != asWord {
		return
	}
	w := an.text(t)
	class := t.kw
	if w == "print" {
		an.printed(st[i+1:]) // the file printed is read by the app (handed.go)
	}
	unknownApp := app != nil && (app.dynamic || app.known == nil)
	if class == kwSet && unknownApp {
		an.checkExprHead(st, i, app)
	}
	if strings.HasPrefix(w, "__airlock_") || class.has(kfKeyword) && !(unknownApp && w == "run" && i+1 < len(st)) {
		if class.has(kfGeneric) && !class.has(kfRule) && app != nil && app.known != nil {
			an.appVerbParams(st, i, app) // reveal, select, print …: the Standard Suite's commands
		}
		return
	}
	if an.notCommand(st, i, app) || class.has(kfRule|kfAddition) && !unknownApp {
		return // not a command; or rated by its rule, or a scripting addition
	}
	if app == nil && an.recordProperty(st, i) {
		return // short user name of (system info): a property read
	}
	an.checkCommand(st, i, app)
}

// notCommand reports a statement whose first word st[i] is no command: a
// variable or handler name (unless a plain word follows it inside a tell
// block, attach action to …: then it is the app's command), a handler
// call, foo(x), or a labelled handler, or an expression statement (input
// volume of (get volume settings)).
func (an *asAn) notCommand(st []asToken, i int, app *asApp) bool {
	t := st[i]
	if an.known(an.name(t)) && !(app != nil && i+1 < len(st) && st[i+1].kind == asWord && !st[i+1].kw.has(kfConnector)) {
		return true
	}
	if i+1 < len(st) && st[i+1].kind == asOp && (st[i+1].op == '(' || st[i+1].op == ':') {
		return true
	}
	return t.kw.has(kfNoun) || i+1 < len(st) && (st[i+1].kw == kwOf || st[i+1].op == opPoss)
}

// checkCommand rates the command word st[i] a statement starts with,
// which is no keyword, variable, call or expression: by the application
// it is told to, which must know it.
func (an *asAn) checkCommand(st []asToken, i int, app *asApp) {
	t := st[i]
	w := an.text(t)
	class := t.kw
	if app == nil {
		an.add(effect.Of(effect.Unknown), "as.unknown-command", tokSpan(t), "unknown command %q: cannot tell what it does", rate.Display(an.lx.src[t.start:t.end]))
		return
	}
	if app.dynamic {
		an.add(effect.Of(effect.Unknown), "as.unknown-app", tokSpan(t), "command %q to an application chosen at run time", rate.Display(an.lx.src[t.start:t.end]))
		return
	}
	if app.known == nil {
		if class.has(kfGeneric) && unknownAppReads[w] {
			return
		}
		an.add(effect.Of(effect.Unknown), "as.unknown-app", tokSpan(t), "command %q to %q, an application Airlock does not know", rate.Display(an.lx.src[t.start:t.end]), app.name)
		return
	}
	if e, ok := app.known.Does[w]; ok {
		if e.Level() > level.Safe {
			an.add(e, "as.app-verb", tokSpan(t), "%s: %s", app.known.Title, rate.Display(an.lx.src[t.start:t.end]))
		}
		if e.Level() < level.Dangerous {
			an.appVerbParams(st, i, app)
		}
		return
	}
	if class.has(kfGeneric | kfAppVerb) {
		an.appVerbParams(st, i, app)
		return
	}
	an.add(effect.Of(effect.Unknown), "as.unknown-command", tokSpan(t), "unknown command %q to %s: cannot tell what it does", rate.Display(an.lx.src[t.start:t.end]), app.known.Title)
}
