package shell

import (
	"path"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// maxWork bounds the work of one analysis, nested analyses included: a
// statement or a command substitution visited costs one unit, a nested
// script one unit per 100 bytes. Past it the rest of the input is not
// analysed and the verdict is destructive (fail closed).
const maxWork = 200_000

// shellShared is what an analysis shares with the analyses nested in it
// (sh -c, eval, a script run from a file it wrote).
type shellShared struct {
	work int
	over bool
	scr  *scratch // buffers the commands reuse (scratch.go); nil until first used
}

// bashParsers reuses parsers: building one costs more than parsing a
// short command.
var bashParsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// Into analyses the shell script src and adds its findings to v, nested
// depth deep in the assessment env is bound to (rate.Env.Begin). With
// anchor set, every reason points at that span of the outer input. It is
// what the risk facade's rate.Languages.Shell calls.
func Into(v *rate.Verdict, src string, env *rate.Env, anchor *rate.Span, depth int) {
	shellRun(v, src, env, anchor, depth, nil).sh.release()
}

// Argv adds to v the findings of a command given as an argument vector: no
// shell reads it, so nothing in it is shell syntax. env must be bound to
// an assessment.
func Argv(v *rate.Verdict, argv []string, env *rate.Env) { ArgvIn(v, argv, "", env) }

// ArgvIn is Argv for a command run in the folder dir (absolute; "" is the
// home, where the gate starts commands by default): its relative paths are
// read from there.
func ArgvIn(v *rate.Verdict, argv []string, dir string, env *rate.Env) {
	if len(argv) == 0 {
		v.Found(effect.Of(effect.Unknown), "shell.empty", rate.Span{}, "empty command")
		return
	}
	a := newShellAn(v, env, nil, 0, "", nil)
	a.sh = &a.own
	if dir != "" {
		a.cwd = homeForm(path.Clean(dir), env)
	}
	words := make([]word, len(argv))
	for i, s := range argv {
		words[i] = word{s: s}
	}
	a.call(words, rate.Span{}, pipeCtx{})
	a.finish()
	a.sh.release()
}

// homeForm writes an absolute folder inside the home as ~/…, as the
// analyzer writes paths it follows.
func homeForm(dir string, env *rate.Env) string {
	if env == nil || env.Paths == nil {
		return dir
	}
	home := path.Clean(env.Paths.Home)
	switch {
	case dir == home:
		return "~"
	case strings.HasPrefix(dir, home+"/"):
		return "~" + dir[len(home):]
	}
	return dir
}

// shellRun is shellInto sharing a work budget with an enclosing analysis
// (sh nil: a budget of its own); it returns the analyser, whose secret and
// upload the caller may adopt.
func shellRun(v *Verdict, src string, env *Env, anchor *Span, depth int, sh *shellShared) *shellAn {
	return shellRunIn(v, src, env, anchor, depth, sh, pipeCtx{})
}

// shellRunIn is shellRun for a script whose stdin is pc's: curl … | sh -c
// 'source /dev/stdin' reads the download.
func shellRunIn(v *Verdict, src string, env *Env, anchor *Span, depth int, sh *shellShared, pc pipeCtx) *shellAn {
	a := newShellAn(v, env, anchor, depth, src, sh)
	if sh == nil {
		a.sh = &a.own
	}
	b := a.env.Bounds()
	if rule, why, ok := b.Enter(src, depth, "shell commands"); !ok {
		if rule != "" {
			a.add(effect.Of(effect.Unknown, effect.Computed), "shell."+rule, Span{}, "%s", why)
		}
		return a
	}
	if !a.spend(1 + len(src)/100) {
		return a
	}
	if rate.Nesting(src, true) > rate.MaxNesting {
		a.add(effect.Of(effect.Unknown, effect.Computed), "shell.too-deep", Span{}, "shell syntax nested more than %d deep: %s", rate.MaxNesting, rate.TooDeep)
		return a
	}
	if !utf8.ValidString(src) {
		a.add(effect.Of(effect.Unknown, effect.Computed), "shell.invalid-utf8", Span{}, "shell text is not valid UTF-8: not analysed")
		return a
	}
	if strings.IndexByte(src, 0) >= 0 {
		// The parser drops NUL bytes, and shells differ on them: what
		// runs cannot be told.
		a.add(effect.Of(effect.Unknown, effect.Computed), "shell.nul", Span{}, "shell text contains NUL bytes: not analysed")
		return a
	}
	if parserMarks(src) {
		a.add(effect.Of(effect.Unknown, effect.Computed), "shell.parser-mark", Span{}, "shell text contains U+0080 or U+0081, which the parser cannot read: not analysed")
		return a
	}
	if quickParsing && a.quickStream(src, b, pc) {
		return a
	}
	f, err := parseBash(src, b)
	if err != nil && b.Live() {
		f, err = syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(b.Reader(src), "")
	}
	if !b.Live() {
		return a // stopped: end says so
	}
	if err != nil {
		a.add(effect.Of(effect.Unknown, effect.Computed), "shell.unparseable", Span{}, "shell command cannot be parsed (%s): not analysed", rate.OneLine(err.Error()))
		return a
	}
	// Only assignments (=), functions ( ( or "function"), for and read
	// loops, aliases and hash -p give collect anything to record.
	if strings.ContainsAny(src, "=(") || strings.Contains(src, "function") || strings.Contains(src, "for") ||
		strings.Contains(src, "read") || strings.Contains(src, "alias") || strings.Contains(src, "hash") || strings.Contains(src, "mapfile") {
		a.collect(f)
	}
	pc.inPipe = false
	a.stmts(f.Stmts, pc)
	a.finish()
	return a
}

// parserMarks reports src holding U+0080 or U+0081, which mvdan.cc/sh's
// reader takes for marks of its own: U+0080 for the end of its input (echo
// U+0080; rm -rf ~ parses as echo alone), U+0081 for a backslash and a
// newline. A shell reads both as letters of a word, so the parser's tree
// is not what runs.
func parserMarks(src string) bool {
	return strings.Contains(src, "\u0080") || strings.Contains(src, "\u0081")
}

// parseBash parses src as bash, with a parser from bashParsers.
func parseBash(src string, b *rate.Bounds) (*syntax.File, error) {
	p := bashParsers.Get().(*syntax.Parser)
	f, err := p.Parse(b.Reader(src), "")
	bashParsers.Put(p)
	return f, err
}

// quickStream analyses src statement by statement when the quick parser
// reads all of it (fastparse.go), the nodes of each statement taken again
// by the next once it is analysed; it reports false, having analysed
// nothing, when src is not in the quick parser's form. The quick form has
// no assignments, functions, loops, or read, hash and alias commands, so
// collect would record nothing: it is not run.
func (a *shellAn) quickStream(src string, b *rate.Bounds, pc pipeCtx) bool {
	scr := a.sh.scratch()
	p := scr.takeQuick()
	defer scr.giveQuick(p)
	var room [quickFew]*syntax.Stmt
	few, ok, more := p.few(src, room[:0])
	if more {
		ok = p.check(src)
	}
	if !ok {
		return false
	}
	// The parser's reader looks at the assessment's bounds before it
	// reads: so does this, to stop where the parser would.
	if !b.Look() {
		return true // stopped: end says so
	}
	pc.inPipe = false
	a.stream = true
	for _, s := range few {
		// Read in one go, the statements' nodes are all in the arena
		// until the last is analysed.
		a.stmt(s, pc)
		clear(a.seen)
	}
	for more {
		s, _ := p.next()
		if s == nil {
			break
		}
		a.stmt(s, pc)
		// Of s's nodes only the substitutions seen are kept past its
		// analysis; the next statement's nodes take their memory.
		clear(a.seen)
		p.ar.reset()
	}
	a.finish()
	return true
}

// spend charges n units of work; it reports false once the budget is gone
// (and says so, once).
func (a *shellAn) spend(n int) bool {
	if a.sh.over {
		return false
	}
	if !a.env.Bounds().Live() {
		a.sh.over = true // stopped: end says so
		return false
	}
	a.sh.work += n
	if a.sh.work <= maxWork {
		return true
	}
	if !a.sh.over {
		a.sh.over = true
		a.add(effect.Of(effect.Unknown, effect.Computed), "shell.too-complex", Span{}, "shell script too complex to analyse (more than %d steps): the rest is not analysed", maxWork)
	}
	return false
}

type shellAn struct {
	v *Verdict
	// interpEnv says the input sets a variable that changes what an
	// interpreter loads (interpEnv): no inline code is read-only then.
	interpEnv bool
	// outside says the reads noted now are an app's, outside every
	// sandbox (open's readsFile): a likely Keynote deck (rate.Zone.Deck)
	// is read as the key it may be.
	outside     bool
	env         *Env
	anchor      *Span
	depth       int
	src         string
	sh          *shellShared
	own         shellShared            // sh, when the analysis is not nested in another
	vars        map[string]string      // variables assigned exactly one literal value
	guess       map[string]bool        // variables among vars whose value starts with a guessed home
	dyn         map[string]bool        // variables assigned anything else
	arrays      map[string][]string    // indexed arrays assigned once, a=(w …) of literal words, and never changed
	ifsFrom     int                    // where the script's one IFS assignment, a top-level statement, has run (-1: none such)
	loopGlobs   map[string]string      // inside for f in GLOB (one unquoted pattern): f names its matches
	prefixLoops map[string]string      // inside for n in ${!P@}: ${!n} is a variable beginning with P ("P…"), prefixloop.go
	arithRun    map[string]bool        // variables whose text arithmetic was found to run (analysed once)
	funcs       map[string]bool        // functions and aliases the script defines
	alias       map[string]string      // aliases with a plain literal value: name → value
	gitAliases  map[string]gitAliasDef // git aliases this input set with git config: alias.x → value (rows_gitalias.go)
	rebind      map[string]string      // hash -p: command name → the command it now runs ("" unknown)
	secret      *Span                  // where a secret was read, if anywhere
	envAt       *Span                  // where the statement being analysed printed the whole environment (envdump.go)
	namesAt     *Span                  // where compgen listed the variables' names, fed on from there (envdump.go)
	// secretCopies are variables the script gave a secret variable's value
	// (x=$GITHUB_TOKEN): x → GITHUB_TOKEN.
	secretCopies map[string]string
	// xtrace says set -x ran: each command after it is printed with its
	// words expanded.
	xtrace     bool
	upload     *Span                   // where data left the machine, if anywhere
	files      map[string]string       // files this input writes: path → content (or a marker)
	cwd        string                  // the working directory after a literal cd ("" unknown)
	cwdLost    bool                    // a cd somewhere went where the analysis cannot follow
	pipeIns    []word                  // in a pipeline: the files its earlier stages read (sort f | uniq > f empties f)
	selfLookup bool                    // a command looked up Airlock's process (pgrep airlock)
	dlDirs     []string                // folders a download was extracted into ("": the unknown working directory)
	bins       map[string]string       // command name → a file this input wrote into a folder on the command path
	loops      int                     // loop bodies under way: a computed word there stands for many files
	inAlias    int                     // alias expansions under way
	inShebang  int                     // #! lines of written scripts being run (runShebang)
	seen       map[syntax.Node]bool    // command substitutions analysed already
	stream     bool                    // statements analysed one at a time (quickStream): seen holds one's
	fds        map[string]pipeCtx      // descriptors opened for reading by exec 3<…: what they read
	bodies     map[string]*syntax.Stmt // the functions the script defines: name → body
	inFunc     int                     // function bodies re-read for their input under way
	readVars   map[string]bool         // variables assigned what a data reader printed: d=$(cat notes.txt) (readInto)
	fwd        map[string]bool         // forwarders: functions that run their arguments ("$@"), used only as plain calls
	fwdAt      *forwarding             // the forwarder body under analysis, if any

	// Kept so that the analysis stays linear in its input.
	homes *marks                    // where src names the home, for homeSubst (made on first use)
	forks map[*syntax.FuncDecl]bool // callsItself, remembered
}

// maxFileText bounds the text kept for one written file: appending to it
// again and again must not take quadratic time.
const maxFileText = 1 << 14

// Markers for files whose content the analyzer cannot know.
const (
	fileDownloaded = "\x00downloaded"
	fileComputed   = "\x00computed"
)

func newShellAn(v *Verdict, env *Env, anchor *Span, depth int, src string, sh *shellShared) *shellAn {
	return &shellAn{v: v, env: env, anchor: anchor, depth: depth, src: src, sh: sh}
}

// add adds a reason to the verdict: the script does e, found by rule at
// sp (at the anchor instead, for a script nested in another's text). Its
// level is the calibration table's (effect.Calibrate).
func (a *shellAn) add(e effect.Effect, rule string, sp Span, format string, args ...any) {
	if a.anchor != nil {
		sp = *a.anchor
	}
	e.Target = fxTarget(e.Target)
	a.v.Found(e, rule, sp, format, args...)
}

// maxTarget bounds an effect's target: a path is at most 1024 bytes on
// macOS; a longer word is shown cut.
const maxTarget = 1024

// fxTarget is a word of the input as an effect's target: a part computed
// at run time shown as "…", control characters as "·", valid UTF-8, at
// most maxTarget bytes.
func fxTarget(s string) string {
	if s == "" {
		return s
	}
	s = strings.ReplaceAll(s, rate.HoleMark, "…")
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '·'
		}
		return r
	}, strings.ToValidUTF8(s, "\uFFFD"))
	if len(s) > maxTarget {
		cut := maxTarget
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func (a *shellAn) span(n syntax.Node) Span {
	if n == nil || !n.Pos().IsValid() {
		return Span{}
	}
	return Span{Start: int(n.Pos().Offset()), End: int(n.End().Offset())}
}

// finish adds the findings that need the whole script: a secret read
// anywhere plus data sent anywhere is exfiltration.
func (a *shellAn) finish() {
	if a.secret != nil && a.upload != nil {
		a.add(effect.Of(effect.SecretOut), "shell.exfiltration", *a.upload, "reads a secret and sends data over the network: possible exfiltration")
	}
}

// collect records functions, aliases, hash -p bindings and literal
// variable values before the walk, so `X=rm; $X -rf ~` reads as rm.
func (a *shellAn) collect(f *syntax.File) {
	a.vars, a.dyn, a.funcs = map[string]string{}, map[string]bool{}, map[string]bool{}
	a.arrays = nil
	a.ifsFrom = -1
	for _, st := range f.Stmts {
		if c, ok := st.Cmd.(*syntax.CallExpr); ok && len(c.Args) == 0 {
			for _, as := range c.Assigns {
				if as.Name != nil && as.Name.Value == "IFS" {
					a.ifsFrom = int(st.End().Offset())
				}
			}
		}
	}
	arrays := map[string][]string{} // a=(…) of literal words, before the walk knows it is the only change
	a.loopGlobs, a.arithRun = nil, nil
	var count, heads map[string]int
	var decls []*syntax.FuncDecl
	values := map[string]*syntax.Word{}
	var refs map[*syntax.Assign]bool // the assignments of declare -n (namerefs)
	targets := map[string]string{}   // a nameref's name → the variable it names
	// Changes the walk cannot pin to one name: a name computed at run
	// time (read "$n", printf -v "$n[0]"), a nameref to a name not known
	// and written through, code the shell runs in place whose text is
	// not known. Then no variable's value is known.
	var lost bool
	b := a.env.Bounds()
	blind := map[string]bool{}   // namerefs whose target is not a plain name known here
	var loopVars map[string]bool // for NAME in …: a nameref's loop names its target anew each turn
	touched := map[string]bool{} // names a builtin assigns (read, printf -v, …)
	mark := func(name string) {
		name, _, _ = strings.Cut(name, "[")
		if !syntax.ValidName(name) || strings.Contains(name, codeHole) {
			lost = true
			return
		}
		a.dyn[name], touched[name] = true, true
		if interpEnv(strings.ToUpper(name)) {
			// read NODE_OPTIONS, printf -v PYTHONPATH …, then export.
			a.interpEnv = true
		}
	}
	ints := map[string]bool{}     // names given the integer attribute (declare -i): their values are arithmetic
	var assigned []*syntax.Assign // every assignment with a name, for the integers'
	nested := 0                   // code strings under way (eval 'a[0]=rm'): its assignments change names, with values not pinned here
	var visit func(syntax.Node) bool
	// code walks text the shell runs in this shell (eval's, trap's, an
	// alias's, a sourced here-document's) for the names it assigns.
	var later [][]*syntax.Word // eval's words naming variables: read once their values are known
	walkCode := func(text string) {
		cf, err := parseBash(text, b)
		if err != nil {
			lost = true
			return
		}
		nested++
		syntax.Walk(cf, visit)
		nested--
	}
	code := func(exact bool, ws ...*syntax.Word) {
		text, holes := codeText(ws, nil)
		switch {
		case nested >= maxCodeNesting:
			lost = true
		case holes && exact && nested == 0:
			later = append(later, ws)
		case holes && exact:
			lost = true
		default:
			walkCode(text)
		}
	}
	visit = func(n syntax.Node) bool {
		if !b.Live() {
			return false // stopped: end says so
		}
		switch n := n.(type) {
		case *syntax.Stmt:
			// . /dev/stdin <<< 'a[0]=rm': a here-document sourced runs
			// in this shell.
			if c, ok := n.Cmd.(*syntax.CallExpr); ok && len(c.Args) > 0 {
				if h, _ := literalWord(c.Args[0]); h == "." || h == "source" {
					for _, r := range n.Redirs {
						switch {
						case r.Hdoc != nil:
							code(true, r.Hdoc)
						case r.Op == syntax.WordHdoc && r.Word != nil:
							code(true, r.Word)
						}
					}
				}
			}
		case *syntax.ParamExp:
			// : ${x:=rm}, ${a[0]=rm}: the expansion assigns.
			if n.Exp != nil && (n.Exp.Op == syntax.AssignUnset || n.Exp.Op == syntax.AssignUnsetOrNull) {
				if n.Param == nil || n.Excl {
					lost = true
				} else {
					mark(n.Param.Value)
				}
			}
		case *syntax.DeclClause:
			for _, as := range n.Args {
				// declare 'a[0]=rm', local "$n=rm": an argument the
				// shell reads as an assignment only when it runs.
				if as.Name != nil || as.Value == nil {
					continue
				}
				s, ok := literalWord(as.Value)
				switch {
				case ok && (strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+")):
					// a flag
				case !ok || declaresRef(n):
					lost = true // declare -n 'r=a': writes through r change a
				default:
					name, _, _ := strings.Cut(s, "=")
					mark(strings.TrimSuffix(name, "+"))
				}
			}
			if nested > 0 && declaresRef(n) {
				lost = true
			}
			if changesValues(n) {
				// declare -l c=RM, typeset -L2 c=rmx (zsh: rm): the
				// value is not the text assigned.
				for _, as := range n.Args {
					if as.Name != nil {
						a.dyn[as.Name.Value] = true
					}
				}
			}
			if declaresFlag(n, 'i') {
				for _, as := range n.Args {
					if as.Name != nil {
						ints[as.Name.Value] = true
					}
				}
			}
			if declaresFlag(n, 'A') {
				// declare -A m=(k v): an associative array's pairs,
				// not a list of words.
				for _, as := range n.Args {
					if as.Name != nil {
						a.dyn[as.Name.Value] = true
					}
				}
			}
			if declaresRef(n) {
				if refs == nil {
					refs = map[*syntax.Assign]bool{}
				}
				for _, as := range n.Args {
					refs[as] = true
				}
			}
		case *syntax.FuncDecl:
			if nested > 0 {
				return true // its body's assignments, nothing else, are this walk's
			}
			a.funcs[n.Name.Value] = true
			if a.bodies == nil {
				a.bodies = map[string]*syntax.Stmt{}
			}
			a.bodies[n.Name.Value] = n.Body
			if forwards(n.Body) {
				decls = append(decls, n)
			}
		case *syntax.Assign:
			if n.Name == nil {
				return true
			}
			name := n.Name.Value
			if count == nil {
				count = map[string]int{}
			}
			count[name]++
			if nested > 0 {
				mark(name)
				return true
			}
			assigned = append(assigned, n)
			if n.Value != nil && readsData(a.srcText(a.span(n.Value))) {
				if a.readVars == nil {
					a.readVars = map[string]bool{}
				}
				a.readVars[name] = true
			}
			if n.Array != nil && !n.Append && n.Index == nil && !refs[n] {
				if elems, ok := literalArray(n.Array); ok {
					arrays[name] = elems
					return true
				}
			}
			if n.Value == nil || n.Append || n.Array != nil || n.Index != nil {
				if refs[n] {
					// declare -n r: its first assignment names the
					// target, a name not known here.
					blind[name] = true
				}
				a.dyn[name] = true
				return true
			}
			if refs[n] {
				// declare -n p=HOME: p is another name for HOME, so $p
				// is $HOME's value, not the text "HOME"; a target
				// computed at run time (local -n r=$1) is not known.
				t, ok := literalWord(n.Value)
				if base, _, elem := strings.Cut(t, "["); ok && elem && syntax.ValidName(base) {
					// declare -n r='a[0]': r's writes change a.
					targets[name] = base
					a.dyn[name] = true
					return true
				}
				if !ok || !syntax.ValidName(t) {
					// declare -n r, declare -n r=$1: writes through r
					// change a name not known here.
					blind[name] = true
					a.dyn[name] = true
					return true
				}
				targets[name] = t
				values[name] = &syntax.Word{Parts: []syntax.WordPart{&syntax.ParamExp{Param: &syntax.Lit{Value: t}}}}
				return true
			}
			values[name] = n.Value
		case *syntax.ForClause:
			if it, ok := n.Loop.(*syntax.WordIter); ok {
				a.dyn[it.Name.Value] = true
				if loopVars == nil {
					loopVars = map[string]bool{}
				}
				loopVars[it.Name.Value] = true
			}
		case *syntax.CallExpr:
			if len(decls) > 0 && len(n.Args) > 0 && nested == 0 {
				if heads == nil {
					heads = map[string]int{}
				}
				heads[n.Args[0].Lit()]++
			}
			args := plainCall(n.Args)
			if len(args) > 0 {
				if h, ok := literalWord(args[0]); !ok || strings.Contains(h, codeHole) {
					if nested > 0 {
						lost = true // eval "$c": any command, read among them
					}
				} else if !a.assigns(h, args[1:], mark, code) {
					lost = true
				}
			}
			if len(n.Args) < 2 || nested > 0 {
				return true
			}
			switch n.Args[0].Lit() {
			case "alias":
				for _, w := range n.Args[1:] {
					if s, ok := literalWord(w); ok {
						if name, val, ok := strings.Cut(s, "="); ok {
							a.funcs[name] = true
							if a.alias == nil {
								a.alias = map[string]string{}
							}
							a.alias[name] = val
						}
					}
				}
			case "hash":
				a.collectHash(n.Args[1:])
			}
		}
		return true
	}
	syntax.Walk(f, visit)
	for name := range shellAssigned {
		if count[name] > 0 {
			a.dyn[name] = true // REPLY=ls; read <<< rm; $REPLY: the shell's own value
		}
	}
	// A forwarder's "$@" is what its caller gives it: the body is rated at
	// each call, with the call's words, when every mention of its name is
	// a call this analysis sees (defined once, never named in a string, a
	// trap or a variable).
	mentions := wordCounts(a.src, decls)
	for _, d := range decls {
		name := d.Name.Value
		if mentions[name] == heads[name]+1 {
			if a.fwd == nil {
				a.fwd = map[string]bool{}
			}
			a.fwd[name] = true
		}
	}
	for name, t := range targets {
		if count[name] > 1 || a.dyn[name] {
			a.dyn[t] = true // p=rm through the nameref assigns its target
		}
		if secretName(t) {
			a.copiesSecret(name, t) // declare -n r=GITHUB_TOKEN: $r is its value
		}
	}
	for name := range loopVars {
		if _, ref := targets[name]; ref {
			blind[name] = true // declare -n r=z; for r in a: r is a now
		}
	}
	for name := range blind {
		if count[name] > 1 || touched[name] {
			lost = true // written through, to a name not known
		}
	}
	for name, elems := range arrays {
		// An array is known when a=(…) is its only assignment and
		// nothing else (read -a, mapfile, a+=, a[i]=, a nameref's
		// writes) touches it; as a scalar it is never a known value.
		if count[name] == 1 && !a.dyn[name] {
			if a.arrays == nil {
				a.arrays = map[string][]string{}
			}
			a.arrays[name] = elems
			lost = lost || runsAssigner(elems)
		}
		a.dyn[name] = true
	}
	for name, c := range count {
		if c > 1 || a.dyn[name] {
			delete(values, name)
			a.dyn[name] = true
		}
	}
	// Values may name $HOME and other variables with one literal value:
	// f="$HOME/.zshrc"; d=$f.d
	for name := range values {
		a.resolveVar(name, values, 0)
	}
	// X=read; $X Y <<< rm: a known value that runs an assigning builtin
	// assigns names this walk did not see.
	for _, v := range a.vars {
		lost = lost || runsAssigner(strings.Fields(v))
	}
	// eval "echo a${x}rm …": the text with the values known now; what it
	// assigns is not known after all.
	clear(touched)
	for _, ws := range later {
		text, holes := codeText(ws, func(p *syntax.ParamExp) (string, bool) {
			v, ok, guess := a.param(p)
			return v, ok && !guess
		})
		if holes {
			lost = true
			break
		}
		nested++
		walkCode(text)
		nested--
	}
	for name := range touched {
		delete(a.vars, name)
		delete(a.arrays, name)
	}
	for _, as := range assigned {
		if ints[as.Name.Value] {
			a.integer(as)
		}
	}
	for _, t := range targets {
		if interpEnv(strings.ToUpper(t)) {
			a.interpEnv = true // declare -n r=NODE_OPTIONS; r=…
		}
	}
	if lost {
		// A name computed at run time (export "$n"=…) may be NODE_OPTIONS.
		a.interpEnv = true
		for name := range a.vars {
			a.dyn[name] = true
		}
		clear(a.vars)
		clear(a.guess)
		a.arrays = nil
	}
}

// integer analyses an assignment to a variable with the integer attribute
// (declare -i n; n='a[$(rm -rf ~)]'): the shell evaluates the value as
// arithmetic, and the subscripts in it run their substitutions.
func (a *shellAn) integer(as *syntax.Assign) {
	var words []*syntax.Word
	if as.Value != nil {
		words = append(words, as.Value)
	}
	if as.Array != nil {
		for _, e := range as.Array.Elems {
			if e.Value != nil {
				words = append(words, e.Value)
			}
		}
	}
	seen := map[string]bool{}
	for _, w := range words {
		sp := a.span(w)
		v, ok := literalWord(w)
		switch {
		case ok && (strings.Contains(v, "$(") || strings.Contains(v, "`")):
			a.nestedText(": "+v, sp, "integer assignment to $"+as.Name.Value)
		case ok:
			for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r > 127 || !isIdent(byte(r)) }) {
				if arithName(f) {
					a.arithVar(f, sp, seen)
				}
			}
		default:
			for _, p := range w.Parts {
				if pe, ok := p.(*syntax.ParamExp); ok && pe.Param != nil {
					a.arithVar(pe.Param.Value, sp, seen)
				}
			}
		}
	}
}

// shellAssigned are the variables bash and zsh assign themselves (read
// with no name, [[ =~ ]], getopts, cd, mapfile with no name, every
// command's last argument): a value the script gives one is not what it
// holds later.
var shellAssigned = map[string]bool{
	"_": true, "REPLY": true, "OPTARG": true, "OPTIND": true, "BASH_REMATCH": true, "MAPFILE": true,
	"PIPESTATUS": true, "PWD": true, "OLDPWD": true, "RANDOM": true, "SRANDOM": true, "SECONDS": true,
	"LINENO": true, "BASHPID": true, "BASH_COMMAND": true, "FUNCNAME": true, "BASH_SOURCE": true,
	"BASH_LINENO": true, "BASH_ARGV": true, "BASH_ARGC": true, "EPOCHSECONDS": true, "EPOCHREALTIME": true,
	"COPROC": true, "DIRSTACK": true, "HISTCMD": true, "COLUMNS": true, "LINES": true,
	// zsh
	"reply": true, "match": true, "mbegin": true, "mend": true, "MATCH": true, "MBEGIN": true, "MEND": true,
	"pipestatus": true, "argv": true, "funcstack": true, "status": true, "ERRNO": true, "TRY_BLOCK_ERROR": true,
	"path": true, "cdpath": true, "fpath": true, "manpath": true, "module_path": true,
}

// maxCodeNesting bounds code strings read inside code strings
// (eval "eval '…'") when collect looks for the names they assign.
const maxCodeNesting = 4

// codeHole stands in a code string's text for a part computed at run time.
const codeHole = "AIRLOCK_HOLE_"

// codeText is the text of a code string (eval's words joined by blanks,
// trap's argument), with codeHole for each part computed at run time;
// holes reports any.
func codeText(ws []*syntax.Word, known func(*syntax.ParamExp) (string, bool)) (text string, holes bool) {
	var b strings.Builder
	hole := func(p syntax.WordPart) {
		if pe, ok := p.(*syntax.ParamExp); ok && known != nil {
			if v, ok := known(pe); ok {
				b.WriteString(v)
				return
			}
		}
		b.WriteString(codeHole)
		holes = true
	}
	for i, w := range ws {
		if i > 0 {
			b.WriteByte(' ')
		}
		for _, p := range w.Parts {
			if v, ok := staticPart(p); ok {
				b.WriteString(v)
				continue
			}
			dq, ok := p.(*syntax.DblQuoted)
			if !ok {
				hole(p)
				continue
			}
			for _, q := range dq.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(unescapeDouble(l.Value))
				} else {
					hole(q)
				}
			}
		}
	}
	return b.String(), holes
}

// plainCall returns a call's words from the command it runs: builtin
// read and command printf run read and printf.
func plainCall(args []*syntax.Word) []*syntax.Word {
	for len(args) > 1 {
		h, _ := literalWord(args[0])
		if h != "builtin" && h != "command" {
			break
		}
		args = args[1:]
		for len(args) > 1 {
			o, _ := literalWord(args[0])
			if o != "-p" && o != "--" {
				break
			}
			args = args[1:] // command -p read
		}
	}
	return args
}

// assigners are the builtins that assign a variable named by an argument.
var assigners = map[string]bool{
	"read": true, "mapfile": true, "readarray": true, "printf": true, "unset": true, "set": true,
	"getopts": true, "eval": true, "trap": true, "alias": true, "vared": true, "zparseopts": true,
	"declare": true, "typeset": true, "local": true, "export": true, "readonly": true,
	"source": true, ".": true, "select": true,
}

// runsAssigner reports words whose first (after builtin or command) is an
// assigning builtin: a command kept in a variable or an array.
func runsAssigner(words []string) bool {
	for i := 0; i < len(words) && i < 2; i++ {
		if assigners[words[i]] && (words[i] != "printf" || slices.ContainsFunc(words, func(w string) bool { return strings.HasPrefix(w, "-v") })) {
			return true
		}
		if words[i] != "builtin" && words[i] != "command" {
			break
		}
	}
	return false
}

// assigns marks the names an assigning builtin called h with args
// changes (read 'a[0]', printf -v X, unset a, set -A a, getopts o X),
// and reads the code eval, trap, alias and mapfile -C run in this shell.
// It reports false when a name is computed at run time.
func (a *shellAn) assigns(h string, args []*syntax.Word, mark func(string), code func(bool, ...*syntax.Word)) bool {
	lit := func(w *syntax.Word) (string, bool) {
		s, ok := literalWord(w)
		return s, ok && !strings.Contains(s, codeHole)
	}
	switch h {
	case "read", "mapfile", "readarray", "vared", "zparseopts":
		withArg := "dnOsuCc"
		if h == "read" {
			withArg = "dinNptu"
		}
		for i := 0; i < len(args); i++ {
			s, ok := lit(args[i])
			if ok && strings.HasPrefix(s, "-") && len(s) > 1 {
				last := s[len(s)-1]
				if strings.IndexByte(withArg, last) >= 0 && i+1 < len(args) {
					if last == 'C' && h != "read" {
						code(false, args[i+1]) // mapfile -C 'code': run for each line
					}
					i++
				}
				continue
			}
			if !ok {
				return false
			}
			mark(s)
		}
		if h == "zparseopts" {
			return false // its specs name arrays after '='
		}
	case "printf":
		for i := 0; i < len(args); i++ {
			s, ok := lit(args[i])
			if !ok {
				if i == 0 {
					return false
				}
				break
			}
			if s == "--" || !strings.HasPrefix(s, "-") {
				break
			}
			if v, attached := strings.CutPrefix(s, "-v"); attached {
				if v == "" {
					if i+1 >= len(args) {
						break
					}
					n, ok := lit(args[i+1])
					if !ok {
						return false
					}
					v = n
				}
				mark(v)
				break
			}
		}
	case "print", "strftime", "zstat", "stat", "zstyle", "zformat", "getln", "zregexparse", "pcre_match", "zselect", "sysread":
		// zsh's builtins that assign by name: print -v X, strftime -s X,
		// zstat -A a, zstyle -a ctx style a, zformat -a a …
		flags := map[string]string{"print": "v", "strftime": "s", "zstat": "AH", "stat": "AH", "zstyle": "sabgtTm", "zformat": "fa", "zselect": "aA", "sysread": "oc"}[h]
		if flags == "" {
			return false // getln, zregexparse, pcre_match: a name as an argument
		}
		for _, w := range args {
			s, ok := lit(w)
			if ok && s == "--" {
				break
			}
			if ok && strings.HasPrefix(s, "-") && strings.ContainsAny(s[1:], flags) {
				return false
			}
		}
	case "unset":
		for _, w := range args {
			s, ok := lit(w)
			if !ok {
				return false
			}
			if !strings.HasPrefix(s, "-") {
				mark(s)
			}
		}
	case "set":
		for i, w := range args {
			s, ok := lit(w)
			if (s == "-A" || s == "+A") && i+1 < len(args) {
				n, ok := lit(args[i+1])
				if !ok {
					return false
				}
				mark(n)
			} else if !ok && i == 0 {
				return false
			}
		}
	case "getopts":
		if len(args) > 1 {
			n, ok := lit(args[1])
			if !ok {
				return false
			}
			mark(n)
		}
	case "eval":
		code(true, args...)
	case ".", "source":
		// . ./vars.sh: the file's assignments are not read here (a
		// here-document's are, by collect).
		if len(args) > 0 {
			if s, ok := lit(args[0]); !ok || s != "/dev/stdin" && s != "/dev/fd/0" && s != "-" {
				return false
			}
		}
	case "trap":
		for i, w := range args {
			if s, ok := lit(w); ok && (s == "--" || strings.HasPrefix(s, "-") && i == 0) {
				continue
			}
			code(false, w)
			break
		}
	case "alias":
		for _, w := range args {
			s, ok := literalWord(w)
			if !ok {
				return false
			}
			if _, val, ok := strings.Cut(s, "="); ok {
				if runsAssigner(strings.Fields(val)) {
					return false // alias rd=read; rd X: zsh (and bash told to) runs read
				}
				code(false, &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: val}}})
			}
		}
	}
	return true
}

// literalArray returns the elements of a=(…) when each is a word with no
// expansion, glob or brace (a=(rm -rf ~/x), a=('two words')); a tilde
// stands for the home as in any other word here.
func literalArray(arr *syntax.ArrayExpr) ([]string, bool) {
	if len(arr.Elems) == 0 || len(arr.Elems) > 64 {
		return nil, false
	}
	out := make([]string, 0, len(arr.Elems))
	for _, e := range arr.Elems {
		if e.Index != nil || e.Value == nil {
			return nil, false // [2]=x: sparse or associative
		}
		for _, p := range e.Value.Parts {
			if l, ok := p.(*syntax.Lit); ok && strings.ContainsAny(l.Value, "*?[{") {
				return nil, false // a glob or a brace expands to other words
			}
		}
		v, ok := literalWord(e.Value)
		if !ok {
			return nil, false
		}
		out = append(out, v)
	}
	return out, true
}

// changesValues reports declare, typeset or local given an attribute that
// changes the values assigned: case (-l -u -c), integers and floats (-i,
// zsh's -E -F), zsh's justification and padding (-L -R -Z), unique
// arrays (-U), a tie (-T) or flags computed at run time.
func changesValues(d *syntax.DeclClause) bool {
	return declFlags(d, func(flags string) bool { return strings.Trim(flags, "agrxtpnAI-") != "" })
}

// declaresRef reports declare, typeset or local with -n (or flags computed
// at run time, which may hold it), and mksh's nameref: its assignments make
// namerefs.
func declaresRef(d *syntax.DeclClause) bool {
	return d.Variant.Value == "nameref" || declaresFlag(d, 'n')
}

// declaresFlag reports declare, typeset or local given the flag letter
// (-n, -rn, -A), or flags computed at run time, which may hold it.
func declaresFlag(d *syntax.DeclClause, letter rune) bool {
	return declFlags(d, func(flags string) bool { return strings.ContainsRune(flags, letter) })
}

// declFlags reports declare, typeset or local given a word of flags (what
// follows its - or +) that match accepts, or a word computed at run time,
// which may hold any.
func declFlags(d *syntax.DeclClause, match func(flags string) bool) bool {
	switch d.Variant.Value {
	case "declare", "typeset", "local":
	default:
		return false
	}
	for _, as := range d.Args {
		if as.Name != nil || as.Value == nil {
			continue
		}
		s, ok := literalWord(as.Value)
		if !ok || (strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+")) && match(s[1:]) {
			return true
		}
	}
	return false
}

// plainParam reports $name or ${name} with nothing that changes the
// value: no length, index, slice, replacement or default.
func plainParam(p *syntax.ParamExp) bool {
	return p.Param != nil && !p.Excl && !p.Length && p.Index == nil && p.Slice == nil && p.Repl == nil && p.Exp == nil
}

// resolveVar works out the value of a variable assigned once, from its
// literal text, $HOME and other such variables.
func (a *shellAn) resolveVar(name string, values map[string]*syntax.Word, depth int) (string, bool) {
	if v, ok := a.vars[name]; ok {
		return v, true
	}
	w, ok := values[name]
	if !ok || depth > 8 || a.dyn[name] {
		return "", false
	}
	var b strings.Builder
	guess := false
	param := func(p *syntax.ParamExp, first bool) bool {
		if g, ok := homeGuess(p); ok && first {
			b.WriteString(g)
			guess = true
			return true
		}
		if !plainParam(p) {
			return false
		}
		if p.Param.Value == "HOME" {
			b.WriteString("~")
			return true
		}
		v, ok := a.resolveVar(p.Param.Value, values, depth+1)
		if ok && !a.env.Bounds().Expand(len(v)) {
			return false // a=$b$b$b…; c=$a$a$a…: past the budget, not known
		}
		if ok && first && a.guess[p.Param.Value] {
			guess = true
		}
		b.WriteString(v)
		return ok
	}
	for i, p := range w.Parts {
		if v, ok := staticPart(p); ok {
			b.WriteString(v)
			continue
		}
		switch p := p.(type) {
		case *syntax.DblQuoted:
			for j, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					b.WriteString(unescapeDouble(q.Value))
				case *syntax.ParamExp:
					if !param(q, i == 0 && j == 0) {
						a.dyn[name] = true
						return "", false
					}
				default:
					a.dyn[name] = true
					return "", false
				}
			}
		case *syntax.ParamExp:
			if !param(p, i == 0) {
				a.dyn[name] = true
				return "", false
			}
		default:
			a.dyn[name] = true
			return "", false
		}
	}
	a.vars[name] = b.String()
	if guess {
		if a.guess == nil {
			a.guess = map[string]bool{}
		}
		a.guess[name] = true
	}
	return b.String(), true
}

// staticPart returns the value of a word part that needs no expansion: an
// unquoted literal (backslashes removed) or a '…' / $'…' string.
func staticPart(p syntax.WordPart) (string, bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		return unescapeUnquoted(p.Value), true
	case *syntax.SglQuoted:
		if p.Dollar {
			return ansiC(p.Value), true
		}
		return p.Value, true
	}
	return "", false
}

// literalWord returns a word's value when it has no expansions at all.
func literalWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		if v, ok := staticPart(p); ok {
			b.WriteString(v)
			continue
		}
		switch p := p.(type) {
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				l, ok := q.(*syntax.Lit)
				if !ok {
					return "", false
				}
				b.WriteString(unescapeDouble(l.Value))
			}
		default:
			return "", false
		}
	}
	return b.String(), true
}

// collectHash records `hash -p /bin/rm ls` (bash) and `hash ls=/bin/rm`
// (zsh): the name runs that command from then on.
func (a *shellAn) collectHash(args []*syntax.Word) {
	if a.rebind == nil {
		a.rebind = map[string]string{}
	}
	target := func(w *syntax.Word) string {
		if s, ok := literalWord(w); ok && s != "" {
			return commandName(s)
		}
		return ""
	}
	for i := 0; i < len(args); i++ {
		s, lit := literalWord(args[i])
		switch {
		case lit && s == "-p" && i+2 < len(args):
			t := target(args[i+1])
			for _, n := range args[i+2:] {
				if name, ok := literalWord(n); ok {
					a.rebind[strings.ToLower(name)] = t
				}
			}
			return
		case lit && strings.HasPrefix(s, "-"):
		case lit && strings.Contains(s, "="):
			name, val, _ := strings.Cut(s, "=")
			t := ""
			if val != "" {
				t = commandName(val)
			}
			a.rebind[strings.ToLower(name)] = t
		case !lit:
			// hash -p "$x" name: the name runs something computed.
			for _, n := range args[i+1:] {
				if name, ok := literalWord(n); ok {
					a.rebind[strings.ToLower(name)] = ""
				}
			}
			return
		}
	}
}

// pipeCtx says where a command sits in a pipeline.
type pipeCtx struct {
	stdin  string             // what feeds stdin: "" (nothing known), "download", "decoded", "text", "pipe", "file" (one not analysed), "devnull", "computed"
	text   string             // for stdin "text": the literal text piped in; for "file": the file's name
	obf    bool               // for stdin "text": spelled with hex or octal escapes
	inPipe bool               // part of a pipeline or run in the background (fork bomb test)
	fds    map[string]pipeCtx // descriptors other than 0 this command's redirections open for reading: 3<<<'…'
	roots  []word             // for stdin "pipe": the folders whose paths the stage before lists (find DIR, fd … DIR, ls DIR)
	secret string             // for stdin "text": a secret variable whose value is part of it (cat <<< "$GITHUB_TOKEN")
}

func (a *shellAn) stmts(list []*syntax.Stmt, pc pipeCtx) {
	for _, s := range list {
		a.stmt(s, pc)
	}
}

// output is what a statement writes to stdout, for the pipeline stage
// after it: "download", "decoded", "text" (literal, in text) or "pipe".
type output struct {
	kind  string
	text  string
	obf   bool   // text was spelled with hex or octal escapes
	roots []word // the folders whose paths it lists (find, fd, ls): xargs after it reads what is there
}

func (a *shellAn) stmt(s *syntax.Stmt, pc pipeCtx) output {
	if s == nil {
		return output{kind: "pipe"}
	}
	if !a.spend(1) {
		return output{kind: "pipe"}
	}
	if s.Background {
		pc.inPipe = true
	}
	envBefore := a.envAt
	a.envAt = nil
	defer func() {
		if a.envAt == nil {
			a.envAt = envBefore
		}
	}()
	// The words of the redirections and of the command, and the operands
	// among them, go into a buffer of the analysis's scratch, given back
	// when the statement is done.
	scr := a.sh.scratch()
	ce, isCall := s.Cmd.(*syntax.CallExpr)
	size := len(s.Redirs) + 2
	if isCall {
		size += len(ce.Args)
	}
	buf := scr.takeWords(size)
	used := 0
	defer func() { scr.giveWords(buf[:used]) }()
	// Redirection words are evaluated once, here; here-documents and
	// here-strings feed stdin.
	pc, rws, fds, buf := a.inputs(s, pc, buf)
	used = len(buf)
	if fds != nil && isCall && len(ce.Args) == 1 && ce.Args[0].Lit() == "exec" {
		// exec 3<… with no command opens the descriptor for the rest of
		// the script.
		if a.fds == nil {
			a.fds = map[string]pipeCtx{}
		}
		for n, src := range fds {
			a.fds[n] = src
		}
	}
	if !isCall || len(ce.Args) == 0 {
		a.redirects(s.Redirs, rws, s.Cmd == nil, false)
		a.recordWrites(s.Redirs, rws, "", false)
		if isCall {
			for _, as := range ce.Assigns {
				a.assign(as)
			}
			return output{kind: "pipe"}
		}
		a.command(s.Cmd, pc)
		if _, decl := s.Cmd.(*syntax.DeclClause); decl && a.envAt != nil && (!pc.inPipe && !stdoutRedirected(s, rws) || stdoutToStderr(s, rws)) {
			a.envToAgent(*a.envAt, " to the agent") // declare -x, export -p, typeset
		}
		return output{kind: "pipe"}
	}
	// A simple command: its words are evaluated once, here.
	for _, as := range ce.Assigns {
		a.assign(as)
	}
	start := len(buf)
	for _, w := range ce.Args {
		buf = a.appendWord(buf, w, false)
	}
	n := len(buf)
	words := buf[start:n:n] // appending to it copies: the rest of buf is the operands'
	if a.fwdAt != nil && allArgs(ce.Args[0]) {
		// A forwarder's "$@" runs what its caller gave it: nothing yet
		// where it is defined, the call's words at a call.
		if a.fwdAt.defining {
			words = words[:0]
		} else {
			words = append(append([]word(nil), a.fwdAt.args...), words[1:]...)
		}
	}
	name, args, bulk, _ := a.peel(words, Span{}, false)
	ops := appendOperands(buf[n:n], args)
	used = min(cap(buf), n+len(ops))
	var text string
	var known, obf bool
	if !bulk {
		text, known, obf = a.printed(name, args, ops, pc)
		if len(text) > 256 {
			a.spend(len(text) / 256)
		}
	}
	// Printing nothing (or only blanks) over a file empties it.
	if pc.secret != "" {
		n := name
		if len(words) > 0 && commandName(words[0].s) == "xargs" {
			n = "xargs" // xargs echo <<< "$T": the words it reads, printed
		}
		a.secretInput(n, ops, pc.secret, a.span(ce))
	}
	if a.xtrace {
		a.xtraced(name, words, a.span(ce))
	}
	a.operandsEchoed(name, args, a.span(ce))
	a.redirectsEchoed(s.Redirs, rws)
	truncating := known && strings.TrimSpace(text) == "" || silent(name, args, ops, pc)
	a.redirects(s.Redirs, rws, truncating, shells[name])
	a.readsOwnOutput(name, ops, s.Redirs, rws, pc)
	a.recordWrites(s.Redirs, rws, text, known)
	if len(words) > 0 {
		a.callOps(words, a.span(ce), pc, name, args, ops)
	}
	if a.envAt != nil && (!pc.inPipe && !stdoutRedirected(s, rws) || stdoutToStderr(s, rws)) {
		a.envToAgent(*a.envAt, " to the agent")
	}
	if (name == "cd" || name == "pushd" || name == "popd") && !pc.inPipe {
		a.chdir(name, args)
	}
	if known && name != "cat" {
		return output{kind: "text", text: text, obf: obf}
	}
	return a.produces(name, args, pc)
}

// inputs evaluates the words of s's redirections, once, and returns pc
// with what they feed stdin (here-documents, here-strings, files, <&N),
// the words, the other descriptors they open, and buf with the words
// written after what it held.
func (a *shellAn) inputs(s *syntax.Stmt, pc pipeCtx, buf []word) (pipeCtx, [][]word, map[string]pipeCtx, []word) {
	var rws [][]word
	if len(s.Redirs) > 0 {
		rws = make([][]word, len(s.Redirs))
	}
	// Input redirections feed stdin (fd 0) or, with a number, another
	// descriptor: exec 3<<<'…' keeps it for later commands (bash <&3).
	var fds map[string]pipeCtx
	in := func(r *syntax.Redirect, src pipeCtx) {
		n := "0"
		if r.N != nil {
			n = r.N.Value
		}
		if n == "0" {
			pc.stdin, pc.text, pc.obf, pc.secret = src.stdin, src.text, src.obf, src.secret
			return
		}
		if fds == nil {
			fds = map[string]pipeCtx{}
		}
		fds[n] = src
	}
	for i, r := range s.Redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			src := pipeCtx{stdin: "text"}
			if r.Hdoc != nil {
				src.text = a.docText(r.Hdoc)
				src.secret = a.docSecret(r.Hdoc)
			}
			in(r, src)
			continue
		case syntax.DplOut:
			continue
		case syntax.DplIn:
			if r.Word == nil || r.N != nil && r.N.Value != "0" {
				continue
			}
			// <&3: stdin is what descriptor 3 was opened on.
			n := r.Word.Lit()
			if src, ok := fds[n]; ok {
				in(r, src)
			} else if src, ok := a.fds[n]; ok {
				in(r, src)
			} else if n != "-" && n != "0" {
				in(r, pipeCtx{stdin: "file", text: "file descriptor " + n})
			}
			continue
		}
		if r.Word == nil {
			continue
		}
		k := len(buf)
		buf = a.appendWord(buf, r.Word, true)
		rws[i] = buf[k:len(buf):len(buf)]
		ws := rws[i]
		switch r.Op {
		case syntax.WordHdoc:
			if len(ws) == 1 && !ws[0].hole {
				in(r, pipeCtx{stdin: "text", text: ws[0].s})
			} else {
				src := pipeCtx{stdin: "computed"}
				if len(ws) == 1 {
					src.secret = ws[0].secret
				}
				in(r, src)
			}
		case syntax.RdrIn, syntax.RdrInOut:
			if len(ws) != 1 {
				continue
			}
			if ws[0].s == "/dev/null" {
				in(r, pipeCtx{stdin: "devnull"})
				continue
			}
			// Reading a file this input wrote: sh < /tmp/x.sh
			switch content, ok := a.fileContent(ws[0].s); {
			case ws[0].hole || !ok:
				// A file the analysis cannot see: sh < ~/Downloads/x.sh
				in(r, pipeCtx{stdin: "file", text: rate.Display(ws[0].s)})
			case content == fileDownloaded:
				in(r, pipeCtx{stdin: "download"})
			case content == fileComputed:
				in(r, pipeCtx{stdin: "computed"})
			default:
				in(r, pipeCtx{stdin: "text", text: content})
			}
		}
	}
	if fds != nil {
		pc.fds = fds
	}
	return pc, rws, fds, buf
}

// silent reports a command that prints nothing: redirected with > onto a
// file it empties the file.
func silent(name string, args, ops []word, pc pipeCtx) bool {
	switch name {
	case ":", "true", "false", "sleep", "test", "[", "[[", "cd", "wait", "exit", "return", "read", "export", "unset", "shift":
		return true
	case "wrapper-alone":
		return len(ops) == 0
	case "cat":
		if len(ops) == 0 {
			return pc.stdin == "devnull"
		}
		for _, o := range ops {
			if o.s != "/dev/null" {
				return false
			}
		}
		return true
	case "head", "tail":
		for i, w := range args {
			switch {
			case w.s == "-c0" || w.s == "-n0" || w.s == "--bytes=0" || w.s == "--lines=0" || w.s == "-0":
				return true
			case (w.s == "-c" || w.s == "-n") && i+1 < len(args) && strings.TrimLeft(args[i+1].s, "0+") == "" && args[i+1].s != "":
				return true
			}
		}
		return len(ops) > 0 && ops[len(ops)-1].s == "/dev/null" && len(ops) == 1
	}
	return false
}

// chdir follows cd, pushd and popd with a literal argument (or none). A
// relative folder at the start is taken from the home, where the gate
// starts commands.
func (a *shellAn) chdir(name string, args []word) {
	ops := operands(args)
	if name == "popd" || len(ops) > 1 {
		a.cwd, a.cwdLost = "", true
		return
	}
	if len(ops) == 0 {
		if name == "pushd" {
			a.cwd, a.cwdLost = "", true
		} else {
			a.cwd = "~"
		}
		return
	}
	p, ok := a.pathOf(ops[0])
	if ok && a.cwd == "" && !a.cwdLost && p != "" && p != "-" && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
		p = joinPath("~", p)
	}
	if !ok || p == "" || p == "-" || !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
		a.cwd, a.cwdLost = "", true
		return
	}
	a.cwd = p
}

// docText returns a here-document's body, with a placeholder for each
// expansion in it (which the next analyzer treats as computed text).
// docSecret is a secret variable a here-document or an array's element
// expands whole, in quotes or not (or "").
func (a *shellAn) docSecret(w *syntax.Word) string {
	return a.partsSecret(w.Parts)
}

func (a *shellAn) partsSecret(parts []syntax.WordPart) string {
	for _, p := range parts {
		switch p := p.(type) {
		case *syntax.ParamExp:
			if n := a.heldSecret(paramName(p)); n != "" && printsValue(p) {
				return n
			}
		case *syntax.DblQuoted:
			if n := a.partsSecret(p.Parts); n != "" {
				return n
			}
		}
	}
	return ""
}

func (a *shellAn) docText(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.ParamExp:
			if v, ok, _ := a.param(p); ok {
				b.WriteString(v)
				continue
			}
			syntax.Walk(p, a.walkSubst)
			b.WriteString(rate.HoleUnquoted)
		default:
			syntax.Walk(p, a.walkSubst)
			b.WriteString(rate.HoleUnquoted)
		}
	}
	return b.String()
}

func (a *shellAn) command(cmd syntax.Command, pc pipeCtx) {
	switch c := cmd.(type) {
	case nil, *syntax.CallExpr:
		// Simple commands are handled in stmt.
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			a.pipeline(c, pc)
			return
		}
		a.stmt(c.X, pc)
		a.stmt(c.Y, pc)
	case *syntax.Subshell:
		cwd := a.cwd
		a.stmts(c.Stmts, pc)
		a.cwd = cwd
	case *syntax.Block:
		a.stmts(c.Stmts, pc)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			a.stmts(ic.Cond, pipeCtx{})
			a.stmts(ic.Then, pipeCtx{})
		}
	case *syntax.WhileClause:
		a.stmts(c.Cond, pipeCtx{})
		a.loops++
		a.stmts(c.Do, pipeCtx{})
		a.loops--
	case *syntax.ForClause:
		if it, ok := c.Loop.(*syntax.WordIter); ok {
			for _, w := range it.Items {
				a.evalWord(w, false)
			}
			defer a.bindLoopGlob(it)()
			defer a.bindPrefixLoop(it)()
		} else {
			syntax.Walk(c.Loop, a.walkSubst)
			a.arith(c.Loop)
		}
		a.loops++
		a.stmts(c.Do, pipeCtx{})
		a.loops--
	case *syntax.CaseClause:
		a.evalWord(c.Word, false)
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				syntax.Walk(p, a.walkSubst)
			}
			a.stmts(it.Stmts, pipeCtx{})
		}
	case *syntax.FuncDecl:
		if a.callsItself(c) {
			a.add(effect.Of(effect.Exhaust), "shell.fork-bomb", a.span(c), "function %s calls itself in a pipeline or in the background: fork bomb", c.Name.Value)
		}
		saved := a.fwdAt
		a.fwdAt = nil
		if a.fwd[c.Name.Value] {
			a.fwdAt = &forwarding{defining: true}
		}
		a.stmt(c.Body, pipeCtx{})
		a.fwdAt = saved
	case *syntax.DeclClause:
		for _, as := range c.Args {
			a.assign(as)
			// declare -g 'a[$(cmd)]=1', declare -n r='a[$(cmd)]': a
			// quoted name or target whose subscript runs a command.
			if as.Value != nil {
				if lit, ok := literalWord(as.Value); ok {
					a.subscriptCode(word{s: lit}, a.span(as), c.Variant.Value)
				}
			}
		}
		a.declPrints(c)
	case *syntax.TimeClause:
		a.stmt(c.Stmt, pc)
	case *syntax.CoprocClause:
		// The coprocess reads what the rest of the script writes to
		// ${COPROC[1]}, text no analysis sees: coproc sh runs it.
		a.stmt(c.Stmt, pipeCtx{stdin: "computed", inPipe: true})
	case *syntax.TestClause:
		syntax.Walk(c, a.walkSubst)
		a.arithTest(c)
	case *syntax.ArithmCmd, *syntax.LetClause:
		syntax.Walk(c, a.walkSubst)
		a.arith(c)
		if l, ok := c.(*syntax.LetClause); ok {
			// let 'a[$(cmd)]=1': let evaluates the quoted text, the
			// subscript's substitution with it.
			for _, e := range l.Exprs {
				if w, ok := e.(*syntax.Word); ok {
					lit, ok := literalWord(w)
					i, j := strings.IndexByte(lit, '['), strings.LastIndexByte(lit, ']')
					if ok && i > 0 && j > i && (strings.Contains(lit[i:j], "$(") || strings.Contains(lit[i:j], "`")) {
						a.add(effect.Of(effect.Run), "shell.subscript-code", a.span(w), "let %s: the subscript's command runs when let evaluates it", rate.Display(lit))
						a.nestedText(": "+lit[i+1:j], a.span(w), "let subscript")
					}
				}
			}
		}
	default:
		a.add(effect.Of(effect.Unknown), "shell.unknown-construct", a.span(cmd), "shell construct not understood: not analysed")
	}
}

// walkSubst analyses the command substitutions inside an expression.
func (a *shellAn) walkSubst(n syntax.Node) bool {
	switch n := n.(type) {
	case *syntax.CmdSubst:
		a.subst(n, n.Stmts)
		return false
	case *syntax.ProcSubst:
		a.subst(n, n.Stmts)
		return false
	case *syntax.ParamExp:
		if n.Exp != nil && n.Exp.Op == syntax.OtherParamOps && n.Exp.Word != nil && n.Exp.Word.Lit() == "P" {
			a.promptExpand(n)
		}
		if n.Excl && n.Param != nil && n.Names == 0 {
			// ${!x}: x's value is a name, an array element's subscript
			// and its substitutions included.
			if v, ok := a.vars[n.Param.Value]; ok {
				a.subscriptCode(word{s: v}, a.span(n), "${!"+n.Param.Value+"}")
			}
		}
		if n.Index != nil {
			// ${a[x]}: an indexed array's subscript is arithmetic.
			a.arith(n.Index)
		}
		if n.Slice != nil {
			// ${PATH:x}: the offset and length are arithmetic, which
			// evaluates x's text.
			a.arith(n.Slice.Offset)
			a.arith(n.Slice.Length)
		}
	}
	return true
}

// promptExpand rates ${x@P}: bash expands x's value as it would a prompt,
// and a prompt's $(…) runs. A value the script gives literally is
// analysed as such a prompt; any other may run anything.
func (a *shellAn) promptExpand(n *syntax.ParamExp) {
	name := ""
	if n.Param != nil {
		name = n.Param.Value
	}
	sp := a.span(n)
	if v, ok := a.vars[name]; ok {
		if strings.Contains(v, "$") || strings.Contains(v, "`") {
			a.nestedText(": <<AIRLOCK_PROMPT\n"+v+"\nAIRLOCK_PROMPT\n", sp, "${"+name+"@P}")
		}
		return
	}
	a.add(effect.Of(effect.RunComputed).On(name), "shell.prompt-expand", sp, "${%s@P} expands a value computed at run time as a prompt, which runs the commands in it", rate.Display(name))
}

// subst analyses the statements of $(…), `…` or <(…): a subshell, whose
// cd does not last. Each is analysed once, even where brace expansion
// copies it into several words.
func (a *shellAn) subst(n syntax.Node, list []*syntax.Stmt) {
	if a.seen[n] || !a.spend(1) {
		return
	}
	if a.seen == nil {
		// Made at about the size it will reach: growing it step by step
		// allocates about as much again.
		hint := min(substHint(a.src), maxSubstHint)
		if a.stream {
			hint = min(hint, streamSubstHint)
		}
		a.seen = make(map[syntax.Node]bool, hint)
	}
	a.seen[n] = true
	cwd := a.cwd
	names := a.namesAt
	a.namesAt = nil
	a.stmts(list, pipeCtx{})
	a.cwd = cwd
	if a.namesAt != nil {
		a.namesFed(*a.namesAt, "a command substitution")
	}
	a.namesAt = names
}

// maxSubstHint bounds the room made for the substitutions of one script;
// streamSubstHint for those of one statement, the most seen holds when the
// script is read a statement at a time.
const (
	maxSubstHint    = 1 << 16
	streamSubstHint = 8
)

// substHint is about how many command and process substitutions src holds.
func substHint(src string) int {
	return strings.Count(src, "$(") + strings.Count(src, "<(") + strings.Count(src, ">(") + strings.Count(src, "`")/2
}

// assign evaluates an assignment's value once and rates what assigning it
// does: PATH=/tmp/x:$PATH, DYLD_INSERT_LIBRARIES=…, PAGER='sh -c …'.
func (a *shellAn) assign(as *syntax.Assign) {
	var ws []word
	if as.Value != nil {
		ws = a.evalWord(as.Value, true)
	}
	if as.Array != nil {
		syntax.Walk(as.Array, a.walkSubst)
		for _, e := range as.Array.Elems {
			// a=("$GITHUB_TOKEN"): "${a[@]}" prints it.
			if e.Value != nil && as.Name != nil {
				if n := a.docSecret(e.Value); n != "" {
					a.copiesSecret(as.Name.Value, n)
				}
			}
		}
	}
	if as.Index != nil {
		// a[$(cmd)]=v, declare m[`cmd`]=v: the subscript is expanded
		// when the assignment runs, its substitutions with it; a[x]=v
		// evaluates x's text as arithmetic.
		syntax.Walk(as.Index, a.walkSubst)
		a.arith(as.Index)
	}
	if as.Name == nil || as.Value == nil || as.Naked {
		return
	}
	w := word{s: "", span: a.span(as)}
	if len(ws) == 1 {
		w = ws[0]
	}
	if w.secret != "" {
		a.copiesSecret(as.Name.Value, w.secret)
		if a.xtrace {
			// set -x prints an assignment expanded too: + x=ghp_….
			a.xtraced("", []word{w}, a.span(as))
		}
	}
	if strings.EqualFold(as.Name.Value, "PATH") && startsWithPATH(as.Value) {
		return // PATH=$PATH:/more: appending
	}
	a.envVar(as.Name.Value, w, a.span(as))
}

// promptVars are the shells' prompts: their values are expanded, $(…)
// included, whenever the prompt is shown (PS4 before each traced command).
var promptVars = map[string]bool{"PS0": true, "PS1": true, "PS2": true, "PS3": true, "PS4": true, "PROMPT": true, "RPROMPT": true, "RPS1": true, "PROMPT2": true}

// startsWithPATH reports a value that begins with $PATH: PATH="$PATH:/x".
func startsWithPATH(w *syntax.Word) bool {
	if len(w.Parts) == 0 {
		return false
	}
	p := w.Parts[0]
	if dq, ok := p.(*syntax.DblQuoted); ok {
		if len(dq.Parts) == 0 {
			return false
		}
		p = dq.Parts[0]
	}
	pe, ok := p.(*syntax.ParamExp)
	return ok && pe.Param != nil && pe.Param.Value == "PATH" && pe.Exp == nil && pe.Repl == nil && pe.Slice == nil
}

// interpEnv reports a variable, upper case, that changes what an
// interpreter loads before the code it is given: its search paths,
// options and start-up files, the home and the folders of settings, the
// libraries every program loads.
func interpEnv(up string) bool {
	for _, p := range []string{"PYTHON", "NODE", "NPM_CONFIG", "LD_", "DYLD_", "XDG_"} {
		if strings.HasPrefix(up, p) {
			return true
		}
	}
	return codeDirVars[up] || strings.HasSuffix(up, "OPTIONS") || strings.HasSuffix(up, "_OPTS")
}

// envVar rates setting an environment variable that changes which code
// runs.
func (a *shellAn) envVar(name string, w word, sp Span) {
	up := strings.ToUpper(name)
	if interpEnv(up) {
		a.interpEnv = true
	}
	switch {
	case up == "PATH":
		a.envPath(w, sp)
	case strings.HasPrefix(up, "DYLD_") || up == "LD_PRELOAD" || up == "LD_LIBRARY_PATH" || up == "LD_AUDIT":
		a.add(effect.Of(effect.LoadCode).On(name), "shell.library-injection", sp, "%s: loads other code into every program started", name)
	case up == "PROMPT_COMMAND" || strings.HasPrefix(up, "BASH_FUNC_"):
		// The value is shell code: run before each prompt, or the body of
		// a function exported to every bash started (BASH_FUNC_ls%%).
		a.add(effect.Of(effect.LoadCode).On(name), "shell.env-code", sp, "%s: makes programs run other code", name)
		switch {
		case w.hole:
			a.add(effect.Of(effect.RunComputed).On(name), "shell.env-code-computed", sp, "%s is set to shell code computed at run time", name)
		case up == "PROMPT_COMMAND":
			a.nestedText(w.s, sp, name)
		default:
			a.nestedText("f"+w.s, sp, name)
		}
	case promptVars[up]:
		// Prompts expand $(…) each time they are shown.
		if strings.Contains(w.s, "$") || strings.Contains(w.s, "`") {
			a.nestedText(": <<AIRLOCK_PROMPT\n"+w.s+"\nAIRLOCK_PROMPT\n", sp, name)
		}
	case loadsCode(up, w.s):
		a.add(effect.Of(effect.LoadCode).On(name), "shell.env-code", sp, "%s: makes programs run other code", name)
		if (up == "BASH_ENV" || up == "ENV") && !w.hole {
			// BASH_ENV=/tmp/e bash -c …: the shell runs the file first;
			// one this input wrote is read as what it runs.
			switch content, ok := a.fileContent(w.s); {
			case !ok:
			case content == fileDownloaded || content == fileComputed:
				a.add(effect.Of(effect.RunComputed).On(w.s), "shell.env-code-computed", sp, "%s names %s, which this input downloaded or wrote with computed content", name, rate.Display(w.s))
			default:
				a.nestedText(content, sp, name)
			}
		}
	case a.envConfig(name, up, w, sp): // rows_envconfig.go
	case codeDirVars[up]:
		a.envDirs(name, up, w, sp)
	case commandVars[up]:
		a.envCommand(name, up, w, sp)
	}
}

// envCommand rates setting a variable whose value is a command programs
// run: computed, it may be anything; literal, it is analysed.
func (a *shellAn) envCommand(name, up string, w word, sp Span) {
	if w.hole {
		a.add(effect.Of(effect.LoadCode, effect.Computed).On(name), "shell.env-command", sp, "%s is set to a command computed at run time", name)
		return
	}
	key := "core.editor"
	if strings.Contains(up, "PAGER") {
		key = "core.pager"
	}
	if gitHarmlessValue(key, w) {
		return
	}
	a.add(effect.Of(effect.Setting).On(name), "shell.env-command", sp, "%s names a command to run", name)
	text := w.s
	if up == "LESSOPEN" || up == "LESSCLOSE" {
		// "| lesspipe.sh %s", "||-cmd %s": the marks say how less
		// reads the output; %s is the file.
		text = strings.ReplaceAll(strings.TrimLeft(text, "|- \t"), "%s", rate.HoleQuoted)
	}
	a.nestedText(text, sp, name)
}

// envDirs rates setting a variable that names folders programs load code
// or configuration from.
func (a *shellAn) envDirs(name, up string, w word, sp Span) {
	// Folders programs load code or configuration from.
	for _, d := range strings.Split(w.s, ":") {
		switch {
		case d == "" || w.guess && strings.HasPrefix(d, "~"):
		case strings.Contains(d, rate.HoleMark):
			a.add(effect.Of(effect.Setting).On(name), "shell.env-dir-computed", sp, "%s is set to a folder computed at run time", name)
		case !strings.HasPrefix(d, "/") && !strings.HasPrefix(d, "~"):
			if up == "HOME" || up == "GIT_DIR" {
				a.add(effect.Of(effect.LoadCode).On(d), "shell.env-dir", sp, "%s=%s: programs take their configuration from the current folder", name, rate.Display(d))
			}
		case trustedBinDir(d) || usualCodeDir(d) || strings.HasPrefix(d, "~/") && !tempLike(d) && !a.agentWritable(d) ||
			d == "~" || strings.HasPrefix(d, "/usr/") || strings.HasPrefix(d, "/opt/homebrew/") || strings.HasPrefix(d, "/Library/Frameworks/"):
		default:
			a.add(effect.Of(effect.LoadCode).On(d), "shell.env-dir", sp, "%s=%s: programs load code or configuration from there", name, rate.Display(d))
		}
	}
}

// envPath rates setting PATH: a first folder computed at run time or one
// where commands are usually installed changes which programs run; one
// anybody may write to hijacks them.
func (a *shellAn) envPath(w word, sp Span) {
	first, _, _ := strings.Cut(w.s, ":")
	switch {
	case w.s == "":
	case strings.Contains(first, rate.HoleMark) && !w.guess:
		// PATH="$SAVED", PATH="$TOOLS/bin:$PATH": a folder the script
		// does not name.
		a.add(effect.Of(effect.Setting), "shell.path-computed", sp, "PATH is set to folders computed at run time")
	case trustedBinDir(first):
	case usualCodeDir(first):
		a.add(effect.Of(effect.Setting).On(first), "shell.path-prepend", sp, "PATH starts with %s: commands installed there are found first", rate.Display(first))
	default:
		a.add(effect.Of(effect.LoadCode).On(first), "shell.path-hijack", sp, "PATH starts with %s: commands are looked up there first and can be replaced", rate.Display(first))
	}
}

// loadsCode reports a variable (upper case) whose value value makes
// programs run or load other code: start-up files, git's configuration
// and programs, an interpreter's options that load modules.
func loadsCode(up, value string) bool {
	low := strings.ToLower(value)
	switch up {
	case "BASH_ENV", "ENV", "PYTHONSTARTUP", "ZDOTDIR", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
		"GIT_EXEC_PATH", "GIT_TEMPLATE_DIR":
		return true
	case "NODE_OPTIONS":
		return strings.Contains(low, "-r") || strings.Contains(low, "--import") || strings.Contains(low, "loader")
	case "PERL5OPT":
		return strings.ContainsAny(value, "Mm") || strings.Contains(value, "-I")
	case "RUBYOPT":
		return strings.Contains(low, "-r") || strings.Contains(value, "-I")
	}
	return strings.HasPrefix(up, "GIT_CONFIG_KEY_") || strings.HasPrefix(up, "GIT_CONFIG_VALUE_")
}

// commandVars are variables whose value is a command that programs run.
var commandVars = map[string]bool{
	"PAGER": true, "MANPAGER": true, "GIT_PAGER": true, "EDITOR": true, "VISUAL": true, "GIT_EDITOR": true,
	"GIT_SSH_COMMAND": true, "GIT_SSH": true, "GIT_EXTERNAL_DIFF": true, "GIT_ASKPASS": true, "SSH_ASKPASS": true,
	"SUDO_ASKPASS": true, "LESSOPEN": true, "LESSCLOSE": true, "BROWSER": true, "GIT_SEQUENCE_EDITOR": true,
}

// trustedBinDir reports a PATH element that only an administrator (or the
// package manager) writes.
func trustedBinDir(d string) bool {
	d = strings.TrimSuffix(d, "/")
	switch d {
	case "/bin", "/sbin", "/usr/bin", "/usr/sbin", "/usr/local/bin", "/usr/local/sbin", "/opt/homebrew/bin",
		"/opt/homebrew/sbin", "/opt/local/bin", "/opt/local/sbin", "/Library/Apple/usr/bin", "/usr/libexec",
		"/Applications/Xcode.app/Contents/Developer/usr/bin", "/Library/Developer/CommandLineTools/usr/bin":
		return true
	}
	return false
}

// codeDirVars name folders from which programs load code or their
// configuration.
var codeDirVars = map[string]bool{
	"XDG_CONFIG_HOME": true, "XDG_DATA_HOME": true, "PYTHONPATH": true, "PYTHONUSERBASE": true, "NODE_PATH": true,
	"PERL5LIB": true, "PERLLIB": true, "RUBYLIB": true, "HOME": true, "GIT_DIR": true,
}

// usualCodeDirs are the folders of the home where installers put
// commands: prepending them to PATH is the usual set-up ("*" is any one
// element; a trailing "/…" any folder below).
var usualCodeDirs = []string{"~/bin", "~/.local/bin", "~/.cargo/bin", "~/go/bin", "~/.npm-global/bin", "~/.rbenv/shims",
	"~/.rbenv/bin", "~/.pyenv/shims", "~/.pyenv/bin", "~/.nvm/…", "~/.bun/bin", "~/.deno/bin", "~/.volta/bin", "~/.yarn/bin",
	"~/.config/yarn/global/node_modules/.bin", "~/Library/Python/*/bin", "~/.gem/ruby/*/bin", "~/.poetry/bin",
	"~/.pub-cache/bin", "~/.rd/bin", "~/.dotnet/tools", "~/.jenv/bin", "~/.jenv/shims", "~/.nodenv/shims", "~/.nodenv/bin",
	"~/.goenv/shims", "~/.goenv/bin", "~/.local/share/mise/shims", "~/.asdf/shims", "~/.asdf/bin", "~/.krew/bin",
	"~/flutter/bin", "~/Library/pnpm", "~/.local/share/pnpm", "~/.composer/vendor/bin", "~/.config/composer/vendor/bin",
	"~/.fzf/bin", "~/.foundry/bin", "~/.cabal/bin", "~/.ghcup/bin", "~/.rvm/bin", "~/.sdkman/candidates/*/current/bin",
	"~/Library/Android/sdk/platform-tools", "~/.pyenv/versions/…", "~/.rbenv/versions/…", "~/.docker/bin", "~/.orbstack/bin",
	"~/.lmstudio/bin", "~/.opencode/bin", "~/.claude/local", "~/.emacs.d/bin", "~/.config/emacs/bin", "~/.tfenv/bin",
	"/opt/homebrew/opt/…", "/usr/local/opt/…", "/opt/homebrew/Cellar/…", "/Applications/*.app/Contents/…",
	"/Library/TeX/texbin", "/usr/local/go/bin", "/Library/Frameworks/Python.framework/Versions/…", "/opt/local/libexec/…"}

// usualCodeDirElems is usualCodeDirs split into elements, a trailing "…"
// taken off as below, once (usualCodeDir runs for every folder a command
// writes into).
var usualCodeDirElems = sync.OnceValue(func() []struct {
	elems []string
	below bool
} {
	out := make([]struct {
		elems []string
		below bool
	}, len(usualCodeDirs))
	for i, u := range usualCodeDirs {
		want := strings.Split(u, "/")
		below := want[len(want)-1] == "…"
		if below {
			want = want[:len(want)-1]
		}
		out[i].elems, out[i].below = want, below
	}
	return out
})

// usualCodeDir reports a folder of usualCodeDirs. $HOME has been written
// ~ by the time a value is looked at.
func usualCodeDir(d string) bool {
	d = strings.TrimSuffix(d, "/")
	if strings.Contains(d, "/../") || strings.HasSuffix(d, "/..") {
		return false
	}
	got := strings.Count(d, "/") + 1 // its elements, read one by one below
	for _, u := range usualCodeDirElems() {
		want, below := u.elems, u.below
		if got < len(want) || !below && got != len(want) {
			continue
		}
		match := true
		rest := d
		for _, e := range want {
			var elem string
			elem, rest, _ = strings.Cut(rest, "/")
			ok, _ := path.Match(e, elem)
			if !ok {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// tempLike reports a folder anyone or any download may write: /tmp,
// /var/tmp, /Users/Shared, the Downloads folder.
func tempLike(d string) bool {
	for _, t := range []string{"/tmp", "/private/tmp", "/var/tmp", "/private/var/tmp", "/Users/Shared", "/var/folders", "/private/var/folders", "~/Downloads", "/Volumes"} {
		if d == t || strings.HasPrefix(d, t+"/") {
			return true
		}
	}
	return false
}

// nestedText analyses a literal command text found in a value (a pager,
// an alias, a git hook) as a shell script.
func (a *shellAn) nestedText(text string, sp Span, what string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	c := &call{a: a, name: what, span: sp}
	c.nested([]word{{s: text}}, what)
}

// callsItself reports the fork-bomb shape: a function whose body runs
// itself in a pipeline or in the background. One walk answers for every
// function declared inside f too, and the answers are kept: each is asked
// again when its declaration is analysed, and walking each body anew would
// cost declarations nested n deep (f() g() h() …) n² steps.
func (a *shellAn) callsItself(f *syntax.FuncDecl) bool {
	if r, ok := a.forks[f]; ok {
		return r
	}
	if a.forks == nil {
		a.forks = map[*syntax.FuncDecl]bool{}
	}
	calls := map[string]int{} // name → its calls in a pipeline or in the background so far
	var path []syntax.Node    // the nodes being walked, outermost first
	var from []int            // for each FuncDecl on path: calls[its name] when it began
	call := func(s *syntax.Stmt) {
		if ce, ok := s.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 0 {
			if name := ce.Args[0].Lit(); name != "" {
				calls[name]++
			}
		}
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			if d, ok := path[len(path)-1].(*syntax.FuncDecl); ok {
				a.forks[d] = calls[d.Name.Value] > from[len(from)-1]
				from = from[:len(from)-1]
			}
			path = path[:len(path)-1]
			return true
		}
		path = append(path, n)
		switch n := n.(type) {
		case *syntax.FuncDecl:
			from = append(from, calls[n.Name.Value])
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				call(n.X)
				call(n.Y)
			}
		case *syntax.Stmt:
			if n.Background {
				call(n)
			}
		}
		return true
	})
	return a.forks[f]
}
