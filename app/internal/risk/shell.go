package risk

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/airlockhq/airlock/app/internal/level"
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
}

// bashParsers reuses parsers: building one costs more than parsing a
// short command.
var bashParsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// Shell rates a shell script or command line.
func Shell(src string, env *Env) Verdict {
	var v Verdict
	env, end := begin(env, context.Background())
	shellInto(&v, src, env, nil, 0)
	end(&v)
	v.Sort()
	return v
}

// ShellArgv rates a command given as an argument vector: no shell reads it,
// so nothing in it is shell syntax.
func ShellArgv(argv []string, env *Env) Verdict {
	v, _ := ShellArgvContext(context.Background(), argv, env)
	return v
}

// ShellArgvContext is ShellArgv under ctx, bounded and stopped as
// AssessContext says.
func ShellArgvContext(ctx context.Context, argv []string, env *Env) (Verdict, error) {
	var v Verdict
	if len(argv) == 0 {
		v.Add(level.Dangerous, "shell.empty", Span{}, "empty command")
		return v, nil
	}
	env, end := begin(env, ctx)
	a := newShellAn(&v, env, nil, 0, "", nil)
	a.sh = &a.own
	words := make([]word, len(argv))
	for i, s := range argv {
		words[i] = word{s: s}
	}
	a.call(words, Span{}, pipeCtx{})
	a.finish()
	err := end(&v)
	v.Sort()
	return v, err
}

// shellInto analyses src and adds its findings to v. With anchor set, every
// reason points at that span of the outer input.
func shellInto(v *Verdict, src string, env *Env, anchor *Span, depth int) {
	shellRun(v, src, env, anchor, depth, nil)
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
			a.add(level.Destructive, "shell."+rule, Span{}, "%s", why)
		}
		return a
	}
	if !a.spend(1 + len(src)/100) {
		return a
	}
	if rate.Nesting(src, true) > rate.MaxNesting {
		a.add(level.Destructive, "shell.too-deep", Span{}, "shell syntax nested more than %d deep: %s", rate.MaxNesting, rate.TooDeep)
		return a
	}
	if !utf8.ValidString(src) {
		a.add(level.Destructive, "shell.invalid-utf8", Span{}, "shell text is not valid UTF-8: not analysed")
		return a
	}
	if strings.IndexByte(src, 0) >= 0 {
		// The parser drops NUL bytes, and shells differ on them: what
		// runs cannot be told.
		a.add(level.Destructive, "shell.nul", Span{}, "shell text contains NUL bytes: not analysed")
		return a
	}
	p := bashParsers.Get().(*syntax.Parser)
	f, err := p.Parse(b.Reader(src), "")
	bashParsers.Put(p)
	if err != nil && b.Live() {
		f, err = syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(b.Reader(src), "")
	}
	if !b.Live() {
		return a // stopped: end says so
	}
	if err != nil {
		a.add(level.Destructive, "shell.unparseable", Span{}, "shell command cannot be parsed (%s): not analysed", rate.OneLine(err.Error()))
		return a
	}
	// Only assignments (=), functions ( ( or "function"), for and read
	// loops, aliases and hash -p give collect anything to record.
	if strings.ContainsAny(src, "=(") || strings.Contains(src, "function") || strings.Contains(src, "for") ||
		strings.Contains(src, "read") || strings.Contains(src, "alias") || strings.Contains(src, "hash") {
		a.collect(f)
	}
	pc.inPipe = false
	a.stmts(f.Stmts, pc)
	a.finish()
	return a
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
		a.add(level.Destructive, "shell.too-complex", Span{}, "shell script too complex to analyse (more than %d steps): the rest is not analysed", maxWork)
	}
	return false
}

type shellAn struct {
	v          *Verdict
	env        *Env
	anchor     *Span
	depth      int
	src        string
	sh         *shellShared
	own        shellShared             // sh, when the analysis is not nested in another
	vars       map[string]string       // variables assigned exactly one literal value
	guess      map[string]bool         // variables among vars whose value starts with a guessed home
	dyn        map[string]bool         // variables assigned anything else
	funcs      map[string]bool         // functions and aliases the script defines
	alias      map[string]string       // aliases with a plain literal value: name → value
	rebind     map[string]string       // hash -p: command name → the command it now runs ("" unknown)
	secret     *Span                   // where a secret was read, if anywhere
	upload     *Span                   // where data left the machine, if anywhere
	files      map[string]string       // files this input writes: path → content (or a marker)
	cwd        string                  // the working directory after a literal cd ("" unknown)
	cwdLost    bool                    // a cd somewhere went where the analysis cannot follow
	selfLookup bool                    // a command looked up Airlock's process (pgrep airlock)
	dlDirs     []string                // folders a download was extracted into ("": the unknown working directory)
	bins       map[string]string       // command name → a file this input wrote into a folder on the command path
	loops      int                     // loop bodies under way: a computed word there stands for many files
	inAlias    int                     // alias expansions under way
	seen       map[syntax.Node]bool    // command substitutions analysed already
	fds        map[string]pipeCtx      // descriptors opened for reading by exec 3<…: what they read
	bodies     map[string]*syntax.Stmt // the functions the script defines: name → body
	inFunc     int                     // function bodies re-read for their input under way

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

func (a *shellAn) add(l level.Level, rule string, sp Span, format string, args ...any) {
	if a.anchor != nil {
		sp = *a.anchor
	}
	a.v.Add(l, rule, sp, format, args...)
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
		a.add(level.Destructive, "shell.exfiltration", *a.upload, "reads a secret and sends data over the network: possible exfiltration")
	}
}

// collect records functions, aliases, hash -p bindings and literal
// variable values before the walk, so `X=rm; $X -rf ~` reads as rm.
func (a *shellAn) collect(f *syntax.File) {
	a.vars, a.dyn, a.funcs = map[string]string{}, map[string]bool{}, map[string]bool{}
	var count map[string]int
	values := map[string]*syntax.Word{}
	b := a.env.Bounds()
	syntax.Walk(f, func(n syntax.Node) bool {
		if !b.Live() {
			return false // stopped: end says so
		}
		switch n := n.(type) {
		case *syntax.FuncDecl:
			a.funcs[n.Name.Value] = true
			if a.bodies == nil {
				a.bodies = map[string]*syntax.Stmt{}
			}
			a.bodies[n.Name.Value] = n.Body
		case *syntax.Assign:
			if n.Name == nil {
				return true
			}
			name := n.Name.Value
			if count == nil {
				count = map[string]int{}
			}
			count[name]++
			if n.Value == nil || n.Append || n.Array != nil || n.Index != nil {
				a.dyn[name] = true
				return true
			}
			values[name] = n.Value
		case *syntax.ForClause:
			if it, ok := n.Loop.(*syntax.WordIter); ok {
				a.dyn[it.Name.Value] = true
			}
		case *syntax.CallExpr:
			if len(n.Args) < 2 {
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
			case "read":
				for _, w := range n.Args[1:] {
					a.dyn[w.Lit()] = true
				}
			case "hash":
				a.collectHash(n.Args[1:])
			}
		}
		return true
	})
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
		if p.Param == nil || p.Excl || p.Length || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Exp != nil {
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
}

func (a *shellAn) stmts(list []*syntax.Stmt, pc pipeCtx) {
	for _, s := range list {
		a.stmt(s, pc)
	}
}

// output is what a statement writes to stdout, for the pipeline stage
// after it: "download", "decoded", "text" (literal, in text) or "pipe".
type output struct {
	kind string
	text string
	obf  bool // text was spelled with hex or octal escapes
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
	// Redirection words are evaluated once, here; here-documents and
	// here-strings feed stdin.
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
			pc.stdin, pc.text, pc.obf = src.stdin, src.text, src.obf
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
		rws[i] = a.evalWord(r.Word, true)
		ws := rws[i]
		switch r.Op {
		case syntax.WordHdoc:
			if len(ws) == 1 && !ws[0].hole {
				in(r, pipeCtx{stdin: "text", text: ws[0].s})
			} else {
				in(r, pipeCtx{stdin: "computed"})
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
	ce, isCall := s.Cmd.(*syntax.CallExpr)
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
		return output{kind: "pipe"}
	}
	// A simple command: its words are evaluated once, here.
	for _, as := range ce.Assigns {
		a.assign(as)
	}
	words := make([]word, 0, len(ce.Args)+2)
	for _, w := range ce.Args {
		words = a.appendWord(words, w, false)
	}
	name, args, bulk, _ := a.peel(words, Span{}, false)
	ops := operands(args)
	var text string
	var known, obf bool
	if !bulk {
		text, known, obf = a.printed(name, args, ops, pc)
		if len(text) > 256 {
			a.spend(len(text) / 256)
		}
	}
	// Printing nothing (or only blanks) over a file empties it.
	truncating := known && strings.TrimSpace(text) == "" || silent(name, args, ops, pc)
	a.redirects(s.Redirs, rws, truncating, shells[name])
	a.recordWrites(s.Redirs, rws, text, known)
	if len(words) > 0 {
		a.callOps(words, a.span(ce), pc, name, args, ops)
	}
	if (name == "cd" || name == "pushd" || name == "popd") && !pc.inPipe {
		a.chdir(name, args)
	}
	if known && name != "cat" {
		return output{kind: "text", text: text, obf: obf}
	}
	return a.produces(name, args, pc)
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
		} else {
			syntax.Walk(c.Loop, a.walkSubst)
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
			a.add(level.Destructive, "shell.fork-bomb", a.span(c), "function %s calls itself in a pipeline or in the background: fork bomb", c.Name.Value)
		}
		a.stmt(c.Body, pipeCtx{})
	case *syntax.DeclClause:
		for _, as := range c.Args {
			a.assign(as)
		}
	case *syntax.TimeClause:
		a.stmt(c.Stmt, pc)
	case *syntax.CoprocClause:
		a.stmt(c.Stmt, pc)
	case *syntax.TestClause, *syntax.ArithmCmd, *syntax.LetClause:
		syntax.Walk(c, a.walkSubst)
	default:
		a.add(level.Dangerous, "shell.unknown-construct", a.span(cmd), "shell construct not understood: not analysed")
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
	}
	return true
}

// subst analyses the statements of $(…), `…` or <(…): a subshell, whose
// cd does not last. Each is analysed once, even where brace expansion
// copies it into several words.
func (a *shellAn) subst(n syntax.Node, list []*syntax.Stmt) {
	if a.seen[n] || !a.spend(1) {
		return
	}
	if a.seen == nil {
		a.seen = map[syntax.Node]bool{}
	}
	a.seen[n] = true
	cwd := a.cwd
	a.stmts(list, pipeCtx{})
	a.cwd = cwd
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
	}
	if as.Name == nil || as.Value == nil || as.Naked {
		return
	}
	w := word{s: "", span: a.span(as)}
	if len(ws) == 1 {
		w = ws[0]
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

// envVar rates setting an environment variable that changes which code
// runs.
func (a *shellAn) envVar(name string, w word, sp Span) {
	up := strings.ToUpper(name)
	low := strings.ToLower(w.s)
	switch {
	case up == "PATH":
		first, _, _ := strings.Cut(w.s, ":")
		switch {
		case w.s == "":
		case strings.Contains(first, rate.HoleMark) && !w.guess:
			// PATH="$SAVED", PATH="$TOOLS/bin:$PATH": a folder the script
			// does not name.
			a.add(level.Caution, "shell.path-computed", sp, "PATH is set to folders computed at run time")
		case trustedBinDir(first):
		case usualCodeDir(first):
			a.add(level.Caution, "shell.path-prepend", sp, "PATH starts with %s: commands installed there are found first", rate.Display(first))
		default:
			a.add(level.Dangerous, "shell.path-hijack", sp, "PATH starts with %s: commands are looked up there first and can be replaced", rate.Display(first))
		}
	case strings.HasPrefix(up, "DYLD_") || up == "LD_PRELOAD" || up == "LD_LIBRARY_PATH" || up == "LD_AUDIT":
		a.add(level.Dangerous, "shell.library-injection", sp, "%s: loads other code into every program started", name)
	case up == "PROMPT_COMMAND" || strings.HasPrefix(up, "BASH_FUNC_"):
		// The value is shell code: run before each prompt, or the body of
		// a function exported to every bash started (BASH_FUNC_ls%%).
		a.add(level.Dangerous, "shell.env-code", sp, "%s: makes programs run other code", name)
		switch {
		case w.hole:
			a.add(level.Destructive, "shell.env-code-computed", sp, "%s is set to shell code computed at run time", name)
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
	case up == "BASH_ENV" || up == "ENV" || up == "PYTHONSTARTUP" || up == "ZDOTDIR" ||
		up == "GIT_CONFIG_PARAMETERS" || strings.HasPrefix(up, "GIT_CONFIG_KEY_") || strings.HasPrefix(up, "GIT_CONFIG_VALUE_") ||
		up == "GIT_CONFIG_GLOBAL" || up == "GIT_CONFIG_SYSTEM" || up == "GIT_EXEC_PATH" || up == "GIT_TEMPLATE_DIR" ||
		up == "NODE_OPTIONS" && (strings.Contains(low, "-r") || strings.Contains(low, "--import") || strings.Contains(low, "loader")) ||
		up == "PERL5OPT" && (strings.ContainsAny(w.s, "Mm") || strings.Contains(w.s, "-I")) ||
		up == "RUBYOPT" && (strings.Contains(low, "-r") || strings.Contains(w.s, "-I")):
		a.add(level.Dangerous, "shell.env-code", sp, "%s: makes programs run other code", name)
	case codeDirVars[up]:
		// Folders programs load code or configuration from.
		for _, d := range strings.Split(w.s, ":") {
			switch {
			case d == "" || w.guess && strings.HasPrefix(d, "~"):
			case strings.Contains(d, rate.HoleMark):
				a.add(level.Caution, "shell.env-dir-computed", sp, "%s is set to a folder computed at run time", name)
			case !strings.HasPrefix(d, "/") && !strings.HasPrefix(d, "~"):
				if up == "HOME" || up == "GIT_DIR" {
					a.add(level.Dangerous, "shell.env-dir", sp, "%s=%s: programs take their configuration from the current folder", name, rate.Display(d))
				}
			case trustedBinDir(d) || usualCodeDir(d) || strings.HasPrefix(d, "~/") && !tempLike(d) ||
				d == "~" || strings.HasPrefix(d, "/usr/") || strings.HasPrefix(d, "/opt/homebrew/") || strings.HasPrefix(d, "/Library/Frameworks/"):
			default:
				a.add(level.Dangerous, "shell.env-dir", sp, "%s=%s: programs load code or configuration from there", name, rate.Display(d))
			}
		}
	case commandVars[up]:
		if w.hole {
			a.add(level.Dangerous, "shell.env-command", sp, "%s is set to a command computed at run time", name)
			return
		}
		key := "core.editor"
		if strings.Contains(up, "PAGER") {
			key = "core.pager"
		}
		if gitHarmlessValue(key, w) {
			return
		}
		a.add(level.Caution, "shell.env-command", sp, "%s names a command to run", name)
		text := w.s
		if up == "LESSOPEN" || up == "LESSCLOSE" {
			// "| lesspipe.sh %s", "||-cmd %s": the marks say how less
			// reads the output; %s is the file.
			text = strings.ReplaceAll(strings.TrimLeft(text, "|- \t"), "%s", rate.HoleQuoted)
		}
		a.nestedText(text, sp, name)
	}
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
	got := strings.Split(d, "/")
	for _, u := range usualCodeDirElems() {
		want, below := u.elems, u.below
		if len(got) < len(want) || !below && len(got) != len(want) {
			continue
		}
		match := true
		for i, e := range want {
			ok, _ := path.Match(e, got[i])
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

// pipeline walks a | b | c, telling each stage what feeds it. Its stages
// run in subshells: a cd there does not last.
func (a *shellAn) pipeline(c *syntax.BinaryCmd, pc pipeCtx) {
	var stages []*syntax.Stmt
	var flatten func(s *syntax.Stmt)
	flatten = func(s *syntax.Stmt) {
		if b, ok := s.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.Pipe || b.Op == syntax.PipeAll) && len(s.Redirs) == 0 {
			flatten(b.X)
			flatten(b.Y)
			return
		}
		stages = append(stages, s)
	}
	flatten(c.X)
	flatten(c.Y)
	feed := pc
	feed.inPipe = true
	cwd := a.cwd
	for _, s := range stages {
		out := a.stmt(s, feed)
		feed = pipeCtx{inPipe: true, stdin: out.kind, text: out.text, obf: out.obf}
	}
	a.cwd = cwd
}

// produces classifies what a command writes to stdout, for the stage after
// it: downloads and decoders matter when the next stage is a shell.
func (a *shellAn) produces(name string, args []word, in pipeCtx) output {
	switch {
	case name == "":
		return output{kind: "pipe"}
	case downloaders[name]:
		return output{kind: "download"}
	case name == "base64" || name == "xxd" || name == "uudecode" || name == "openssl" || name == "rev" || name == "gunzip" ||
		name == "zcat" || name == "gzip" || name == "bzcat" || name == "xz" || name == "echo" || name == "printf":
		return output{kind: "decoded"}
	case name == "tr" && in.stdin != "":
		return output{kind: "decoded"}
	case name == "cat" && in.stdin == "text" && len(operands(args)) == 0:
		return output{kind: "text", text: in.text, obf: in.obf}
	case name == "cat" && in.stdin == "download":
		return output{kind: "download"}
	}
	if in.stdin == "download" {
		return output{kind: "download"}
	}
	return output{kind: "pipe"}
}

// printed returns what echo, printf and cat (of literal text) print, when
// the script determines it; obf says escapes spelled some of it.
func (a *shellAn) printed(name string, args, ops []word, pc pipeCtx) (text string, known, obf bool) {
	switch name {
	case "cat":
		if len(ops) == 0 && pc.stdin == "text" {
			return pc.text, true, pc.obf
		}
		return "", false, false
	case "echo":
		if !allKnown(args) {
			return "", false, false
		}
		newline, escapes := true, false
		i := 0
		for ; i < len(args); i++ {
			s := args[i].s
			if len(s) < 2 || s[0] != '-' || strings.Trim(s[1:], "neE") != "" {
				break
			}
			for _, f := range s[1:] {
				switch f {
				case 'n':
					newline = false
				case 'e':
					escapes = true
				case 'E':
					escapes = false
				}
			}
		}
		parts := make([]string, 0, len(args)-i)
		for _, w := range args[i:] {
			parts = append(parts, w.s)
		}
		text = strings.Join(parts, " ")
		if escapes || strings.Contains(text, `\`) {
			// zsh's echo decodes escapes without -e.
			var stop bool
			text, obf, stop = decodeEscapes(text, true)
			if stop {
				newline = false
			}
		}
		if newline {
			text += "\n"
		}
		return text, true, obf
	case "printf":
		if !allKnown(args) || len(args) == 0 {
			return "", false, false
		}
		rest := args
		if rest[0].s == "--" {
			rest = rest[1:]
		}
		if len(rest) > 0 && rest[0].s == "-v" {
			return "", false, false // assigns a variable instead
		}
		if len(rest) == 0 {
			return "", false, false
		}
		vals := make([]string, len(rest)-1)
		for i, w := range rest[1:] {
			vals[i] = w.s
		}
		return printfText(rest[0].s, vals)
	}
	return "", false, false
}

// printfText formats like printf(1) for literal arguments: %s %b %c %d %i
// %o %u %x %X %e %f %g %%, widths and precisions, and backslash escapes
// (\NNN octal, \xHH hex). ok is false for what it does not implement.
func printfText(format string, args []string) (out string, ok, obf bool) {
	const limit = 1 << 20
	var b strings.Builder
	ai := 0
	for pass := 0; ; pass++ {
		used := false
		for i := 0; i < len(format); i++ {
			c := format[i]
			if c == '\\' {
				n, s, o := oneEscape(format[i:], false)
				if o {
					obf = true
				}
				b.WriteString(s)
				i += n - 1
				continue
			}
			if c != '%' {
				b.WriteByte(c)
				continue
			}
			j := i + 1
			if j < len(format) && format[j] == '%' {
				b.WriteByte('%')
				i = j
				continue
			}
			for j < len(format) && strings.IndexByte("-+ #0", format[j]) >= 0 {
				j++
			}
			num := func() bool {
				k := j
				for j < len(format) && format[j] >= '0' && format[j] <= '9' {
					j++
				}
				return j-k <= 4
			}
			if !num() {
				return "", false, false
			}
			if j < len(format) && format[j] == '.' {
				j++
				if !num() {
					return "", false, false
				}
			}
			if j >= len(format) {
				return "", false, false
			}
			spec, verb := format[i:j], format[j]
			arg := ""
			if ai < len(args) {
				arg = args[ai]
				ai++
				used = true
			}
			switch verb {
			case 's':
				b.WriteString(fmt.Sprintf(spec+"s", arg))
			case 'b':
				dec, o, stop := decodeEscapes(arg, true)
				if o {
					obf = true
				}
				b.WriteString(fmt.Sprintf(spec+"s", dec))
				if stop {
					return b.String(), true, obf
				}
			case 'c':
				if arg != "" {
					b.WriteString(fmt.Sprintf(spec+"s", arg[:1]))
				}
			case 'd', 'i', 'o', 'u', 'x', 'X':
				n, err := strconv.ParseInt(strings.TrimSpace(arg), 0, 64)
				if err != nil && len(arg) > 1 && (arg[0] == '\'' || arg[0] == '"') {
					n, err = int64(arg[1]), nil
				}
				if err != nil && arg != "" {
					return "", false, false
				}
				v := verb
				if v == 'i' || v == 'u' {
					v = 'd'
				}
				b.WriteString(fmt.Sprintf(spec+string(v), n))
			case 'e', 'E', 'f', 'F', 'g', 'G':
				f, err := strconv.ParseFloat(strings.TrimSpace(arg), 64)
				if err != nil && arg != "" {
					return "", false, false
				}
				b.WriteString(fmt.Sprintf(spec+string(verb), f))
			default:
				return "", false, false
			}
			i = j
			if b.Len() > limit {
				return "", false, false
			}
		}
		if !used || ai >= len(args) || pass > 1000 {
			break
		}
	}
	return b.String(), true, obf
}

// oneEscape decodes the backslash escape at the start of s: how many bytes
// it takes, what it stands for, and whether it spelled a byte in hex or
// octal. echo says the escape is echo's (\0NNN, \c) rather than printf's.
func oneEscape(s string, echo bool) (n int, out string, obf bool) {
	if len(s) < 2 {
		return len(s), s, false
	}
	switch e := s[1]; e {
	case 'n':
		return 2, "\n", false
	case 't':
		return 2, "\t", false
	case 'r':
		return 2, "\r", false
	case 'a':
		return 2, "\a", false
	case 'b':
		return 2, "\b", false
	case 'f':
		return 2, "\f", false
	case 'v':
		return 2, "\v", false
	case 'e', 'E':
		return 2, "\x1b", false
	case '\\':
		return 2, "\\", false
	case '"', '\'':
		if echo {
			return 2, s[:2], false
		}
		return 2, s[1:2], false
	case 'x':
		j := 2
		for j < len(s) && j < 4 && isHex(s[j]) {
			j++
		}
		if j == 2 {
			return 2, s[:2], false
		}
		v, _ := strconv.ParseUint(s[2:j], 16, 8)
		return j, string([]byte{byte(v)}), true
	case '0', '1', '2', '3', '4', '5', '6', '7':
		j, max := 1, 4
		if echo {
			if e != '0' {
				return 2, s[:2], false
			}
			j, max = 2, 5 // \0NNN
		}
		for j < len(s) && j < max && s[j] >= '0' && s[j] <= '7' {
			j++
		}
		v, _ := strconv.ParseUint("0"+s[1:j], 8, 16)
		return j, string([]byte{byte(v)}), true
	}
	return 2, s[:2], false
}

// decodeEscapes decodes the backslash escapes of echo -e or printf %b; stop
// reports \c (print nothing more).
func decodeEscapes(s string, echo bool) (out string, obf, stop bool) {
	if !strings.Contains(s, `\`) {
		return s, false, false
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			continue
		}
		if i+1 < len(s) && s[i+1] == 'c' {
			return b.String(), obf, true
		}
		n, d, o := oneEscape(s[i:], echo)
		if o {
			obf = true
		}
		b.WriteString(d)
		i += n - 1
	}
	return b.String(), obf, false
}

// redirects rates output redirections: writing into persistence or system
// locations, and truncating files. ws holds each redirection's evaluated
// word.
func (a *shellAn) redirects(rs []*syntax.Redirect, rws [][]word, truncating, shellCmd bool) {
	for i, r := range rs {
		if r.Word == nil {
			continue
		}
		if t := r.Word.Lit(); strings.HasPrefix(t, "/dev/tcp/") || strings.HasPrefix(t, "/dev/udp/") {
			if shellCmd {
				a.add(level.Destructive, "shell.reverse-shell", a.span(r), "connects a shell to %s: hands control of this Mac to a remote host", t)
			} else {
				a.add(level.Dangerous, "shell.raw-socket", a.span(r), "opens a network connection to %s", t)
			}
			a.uploadAt(a.span(r))
			continue
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.ClbOut, syntax.RdrAll, syntax.AppAll, syntax.RdrInOut:
			ws := rws[i]
			if len(ws) != 1 {
				continue
			}
			w := ws[0]
			if isDevice(w.s) {
				continue
			}
			if truncating && (r.Op == syntax.RdrOut || r.Op == syntax.ClbOut || r.Op == syntax.RdrAll) {
				a.add(level.Destructive, "shell.truncate", a.span(r), "truncates %s to zero length", rate.Display(w.s))
			}
			a.write(w, a.span(r), "writes to")
		case syntax.RdrIn:
			for _, w := range rws[i] {
				a.guard(w, a.span(r), rate.UseRead)
				a.read(w, a.span(r))
			}
		case syntax.DplOut, syntax.DplIn:
		}
	}
}

func isDevice(s string) bool {
	switch s {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "-":
		return true
	}
	return strings.HasPrefix(s, "&") || (s != "" && strings.Trim(s, "0123456789") == "")
}

// word is one field of an evaluated shell word.
type word struct {
	s      string // the text; rate.HoleMark where a computed value goes
	hole   bool   // part of it is computed at run time
	splice bool   // a computed part came in unquoted (it may carry shell syntax)
	glob   bool   // unquoted glob characters
	proc   bool   // contains a process substitution <(…)
	guess  bool   // a hole whose text starts with a guessed home: ${ZDOTDIR:-$HOME}/.zshrc is ~/.zshrc
	gen    string // the whole word is the output of this local generator: "$(brew shellenv)"
	span   Span
}

// evalWord expands a word as far as the script itself determines it. With
// quoted set the result is one field (assignment values, redirect targets).
func (a *shellAn) evalWord(w *syntax.Word, quoted bool) []word {
	return a.appendWord(nil, w, quoted)
}

// appendWord appends the fields of w to out.
func (a *shellAn) appendWord(out []word, w *syntax.Word, quoted bool) []word {
	return a.appendFields(out, w, quoted, !quoted, a.span(w))
}

// maxBraceWords bounds a brace expansion: {1..100000} is treated as a glob.
const maxBraceWords = 256

func (a *shellAn) appendFields(out []word, w *syntax.Word, quoted, braces bool, sp Span) []word {
	// The common case: one plain literal (ls, -la, /tmp/x).
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(l.Value, "\\*?[_{") {
			return append(out, word{s: l.Value, span: sp})
		}
	}
	if a.sh.over {
		return append(out, word{s: rate.HoleMark, hole: true, glob: !quoted, span: sp})
	}
	if braces {
		if ws, many, ok := braceWords(w); ok {
			if many {
				n := len(out)
				out = a.appendFields(out, w, quoted, false, sp)
				for i := n; i < len(out); i++ {
					out[i].glob = true
				}
				return out
			}
			a.spend(len(ws) / 4)
			for _, e := range ws {
				out = a.appendFields(out, e, quoted, false, sp)
			}
			return out
		}
	}
	cur := word{span: sp}
	// text is cur's text while it is built (cur.s is set when it is
	// flushed): adding to a string copies it, and a word of many parts
	// ('a'\''b'\''c' …, as nested quoting makes) would cost its length
	// squared.
	var text []byte
	quotes := false // cur holds quotes: '' is an empty argument
	gen := ""
	if list := onlySubst(w); list != nil {
		gen = a.generator(list)
	}
	flush := func() {
		if len(text) > 0 || cur.hole || quotes {
			cur.s = string(text)
			out = append(out, cur)
		}
		cur, text = word{span: sp}, text[:0]
		quotes = false
	}
	hole := func(glob bool) {
		text = append(text, rate.HoleMark...)
		cur.hole = true
		cur.guess = false
		if glob {
			cur.glob = true
		}
	}
	// param adds an expansion the script does not determine.
	param := func(p *syntax.ParamExp, glob bool) {
		syntax.Walk(p, a.walkSubst)
		hole(glob)
	}
	b := a.env.Bounds()
	for _, p := range w.Parts {
		if !b.Live() {
			break // stopped: end says so
		}
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if !quoted && strings.ContainsAny(v, "*?[") && unescapedGlob(v) {
				cur.glob = true
			}
			text = a.appendLit(&cur, text, unescapeUnquoted(v))
		case *syntax.SglQuoted:
			quotes = true
			if p.Dollar {
				text = a.appendLit(&cur, text, ansiC(p.Value))
			} else {
				text = a.appendLit(&cur, text, p.Value)
			}
		case *syntax.DblQuoted:
			quotes = true
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					text = a.appendLit(&cur, text, unescapeDouble(q.Value))
				case *syntax.ParamExp:
					if val, ok, guess := a.param(q); ok {
						if guess && len(text) == 0 && !cur.hole {
							text, cur.hole, cur.guess = append(text, val...), true, true
						} else if guess {
							hole(false)
						} else {
							text = append(text, val...)
						}
					} else {
						param(q, false)
					}
				case *syntax.CmdSubst:
					if a.homeSubst(q) && len(text) == 0 && !cur.hole {
						a.subst(q, q.Stmts)
						text, cur.hole, cur.guess = append(text, '~'), true, true
						continue
					}
					a.subst(q, q.Stmts)
					hole(false)
				default:
					syntax.Walk(q, a.walkSubst)
					hole(false)
				}
			}
		case *syntax.ParamExp:
			val, ok, guess := a.param(p)
			switch {
			case ok && guess:
				if len(text) == 0 && !cur.hole {
					text, cur.hole, cur.guess = append(text, val...), true, true
				} else {
					hole(!quoted)
				}
			case ok && !quoted:
				// An unquoted expansion splits on $IFS, blanks unless the
				// script sets it: X="rm -rf"; $X ~. IFS=,; X=rm,-rf,~; $X
				ifs, known := a.ifs()
				if !known && val != "" {
					param(p, true)
					continue
				}
				split := func(r rune) bool { return strings.ContainsRune(ifs, r) }
				fields := strings.FieldsFunc(val, split)
				if len(fields) == 0 {
					continue
				}
				if strings.TrimLeftFunc(val, split) != val {
					flush()
				}
				for i, f := range fields {
					if i > 0 {
						flush()
					}
					text = append(text, f...)
				}
				if strings.TrimRightFunc(val, split) != val {
					flush()
				}
			case ok:
				text = append(text, val...)
			case !quoted && p.Param != nil && p.Param.Value == "IFS" && p.Exp == nil && p.Repl == nil:
				flush() // ${IFS} splits words: rm${IFS}-rf
			default:
				// Unquoted, the value is split into words and globbed, but
				// never parsed as shell again: many unknown words.
				param(p, !quoted)
			}
		case *syntax.CmdSubst:
			if a.homeSubst(p) && len(text) == 0 && !cur.hole {
				a.subst(p, p.Stmts)
				text, cur.hole, cur.guess = append(text, '~'), true, true
				continue
			}
			a.subst(p, p.Stmts)
			hole(!quoted)
		case *syntax.ProcSubst:
			a.subst(p, p.Stmts)
			hole(false)
			cur.proc = true
		case *syntax.ArithmExp:
			syntax.Walk(p, a.walkSubst)
			text = append(text, "0"...)
		case *syntax.ExtGlob, *syntax.BraceExp:
			text = append(text, "*"...)
			cur.glob = true
		default:
			hole(false)
		}
	}
	cur.gen = gen
	flush()
	return out
}

// ifs returns the characters unquoted expansions split on: blanks, or the
// one literal value the script gives IFS. known is false when the script
// computes IFS or sets it more than once.
func (a *shellAn) ifs() (chars string, known bool) {
	if v, ok := a.vars["IFS"]; ok {
		return v, true
	}
	if a.dyn["IFS"] {
		return "", false
	}
	return " \t\n", true
}

// homeSubst reports a command substitution that prints the home folder:
// $(eval echo ~), $(dscl . -read /Users/$USER NFSHomeDirectory | …).
func (a *shellAn) homeSubst(p *syntax.CmdSubst) bool {
	start, end := int(p.Pos().Offset()), int(p.End().Offset())
	if !p.Pos().IsValid() || start < 0 || end > len(a.src) || start >= end {
		return false
	}
	if a.homes == nil {
		a.homes = newMarks(a.src, "HOME", "~", "NFSHomeDirectory")
	}
	return a.homes.within(start, end)
}

// homeGuess reports an expansion that stands for the home folder, or a
// folder of it, without the script saying so: $ZDOTDIR (zsh reads its
// start-up files there), ${XDG_CONFIG_HOME:-…}, ${X:-$HOME}.
func homeGuess(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Index != nil || p.Slice != nil || p.Repl != nil {
		return "", false
	}
	base := ""
	switch p.Param.Value {
	case "ZDOTDIR":
		base = "~"
	case "XDG_CONFIG_HOME":
		base = "~/.config"
	case "XDG_DATA_HOME":
		base = "~/.local/share"
	case "HOME":
		if p.Exp == nil {
			return "", false
		}
		base = "~"
	}
	if p.Exp == nil {
		return base, base != ""
	}
	switch p.Exp.Op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
	default:
		return "", false
	}
	if base != "" {
		return base, true
	}
	if p.Exp.Word != nil {
		if d, ok := homeWord(p.Exp.Word); ok {
			return d, true
		}
	}
	return "", false
}

// homeWord reads a default value that starts with the home: $HOME/.config,
// ~/.config.
func homeWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescapeUnquoted(p.Value))
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.ParamExp:
			if p.Param == nil || p.Param.Value != "HOME" || p.Exp != nil || p.Repl != nil || p.Slice != nil || p.Index != nil || p.Length || p.Excl {
				return "", false
			}
			b.WriteString("~")
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					b.WriteString(unescapeDouble(q.Value))
				case *syntax.ParamExp:
					if q.Param == nil || q.Param.Value != "HOME" || q.Exp != nil || q.Repl != nil || q.Slice != nil || q.Index != nil || q.Length || q.Excl {
						return "", false
					}
					b.WriteString("~")
				default:
					return "", false
				}
			}
		default:
			return "", false
		}
	}
	s := b.String()
	return s, s == "~" || strings.HasPrefix(s, "~/")
}

// braceWords expands {a,b} and {1..3} in the unquoted literal text of w.
// many reports an expansion too large to list (then ws is nil); ok is
// false when w has nothing to expand.
func braceWords(w *syntax.Word) (ws []*syntax.Word, many, ok bool) {
	found := false
	for _, p := range w.Parts {
		if l, isLit := p.(*syntax.Lit); isLit && strings.IndexByte(l.Value, '{') >= 0 {
			found = true
			break
		}
	}
	if !found {
		return nil, false, false
	}
	// SplitBraces reads only words made of literals and does not know
	// backslashes: stand in for quoted parts, expansions and escaped
	// characters with placeholders, and put them back after.
	const mark = "\x01"
	var held []syntax.WordPart
	proxy := &syntax.Word{}
	hold := func(p syntax.WordPart) {
		proxy.Parts = append(proxy.Parts, &syntax.Lit{Value: mark + strconv.Itoa(len(held)) + mark})
		held = append(held, p)
	}
	for _, p := range w.Parts {
		l, isLit := p.(*syntax.Lit)
		if !isLit {
			hold(p)
			continue
		}
		if strings.Contains(l.Value, mark) {
			return nil, true, true
		}
		v := l.Value
		for v != "" {
			i := strings.IndexByte(v, '\\')
			if i < 0 {
				proxy.Parts = append(proxy.Parts, &syntax.Lit{Value: v})
				break
			}
			if i > 0 {
				proxy.Parts = append(proxy.Parts, &syntax.Lit{Value: v[:i]})
			}
			j := min(len(v), i+2)
			for j < len(v) && v[j]&0xc0 == 0x80 {
				j++ // keep a multi-byte character whole
			}
			hold(&syntax.Lit{Value: v[i:j]})
			v = v[j:]
		}
	}
	if !syntax.SplitBraces(proxy) {
		return nil, false, false
	}
	n, has := braceCount(proxy.Parts)
	if !has {
		return nil, false, false
	}
	if n > maxBraceWords {
		return nil, true, true
	}
	for _, e := range expand.Braces(proxy) {
		var text strings.Builder
		for _, p := range e.Parts {
			if l, isLit := p.(*syntax.Lit); isLit {
				text.WriteString(l.Value)
			} else {
				return nil, true, true // not expected: give up safely
			}
		}
		out := &syntax.Word{}
		segs := strings.Split(text.String(), mark)
		for i, seg := range segs {
			if i%2 == 1 {
				k, err := strconv.Atoi(seg)
				if err != nil || k >= len(held) {
					return nil, true, true
				}
				out.Parts = append(out.Parts, held[k])
			} else if seg != "" {
				out.Parts = append(out.Parts, &syntax.Lit{Value: seg})
			}
		}
		ws = append(ws, out)
	}
	return ws, false, true
}

// braceCount is how many words a split word expands to (capped), and
// whether it holds any brace expansion at all.
func braceCount(parts []syntax.WordPart) (int, bool) {
	n, has := 1, false
	for _, p := range parts {
		br, ok := p.(*syntax.BraceExp)
		if !ok {
			continue
		}
		has = true
		m := 0
		if br.Sequence {
			from, to := br.Elems[0].Lit(), br.Elems[1].Lit()
			x, err1 := strconv.Atoi(from)
			y, err2 := strconv.Atoi(to)
			if err1 != nil || err2 != nil {
				if len(from) == 1 && len(to) == 1 {
					x, y = int(from[0]), int(to[0])
				} else {
					return maxBraceWords + 1, true
				}
			}
			// As expand.Braces counts: the increment only when it goes
			// the right way.
			step := 1
			if len(br.Elems) > 2 {
				if s, err := strconv.Atoi(br.Elems[2].Lit()); err == nil && s != 0 && s > 0 == (x <= y) && s != -s {
					step = max(s, -s)
				}
			}
			// Far ends would overflow expand.Braces' counter (and ours).
			const far = 1 << 30
			if x > far || x < -far || y > far || y < -far || step > far {
				return maxBraceWords + 1, true
			}
			d := max(x-y, y-x)
			if step <= 0 || d/step > maxBraceWords {
				return maxBraceWords + 1, true
			}
			m = d/step + 1
		} else {
			for _, e := range br.Elems {
				c, _ := braceCount(e.Parts)
				m += c
			}
		}
		n *= max(m, 1)
		if n > maxBraceWords {
			return maxBraceWords + 1, true
		}
	}
	return n, has
}

// appendLit adds literal text to text, cur's text, turning placeholders
// into holes in cur.
func (a *shellAn) appendLit(cur *word, text []byte, s string) []byte {
	if strings.Contains(s, "__AIRLOCK_") {
		if strings.Contains(s, rate.HoleUnquoted) {
			cur.splice = true
			cur.hole = true
			s = strings.ReplaceAll(s, rate.HoleUnquoted, rate.HoleMark)
		}
		if strings.Contains(s, rate.HoleQuoted) {
			cur.hole = true
			s = strings.ReplaceAll(s, rate.HoleQuoted, rate.HoleMark)
		}
		cur.guess = false
	}
	return append(text, s...)
}

// param resolves $HOME and variables with one literal value; guess says
// the value starts with a guessed home (see homeGuess).
func (a *shellAn) param(p *syntax.ParamExp) (val string, ok, guess bool) {
	if g, ok := homeGuess(p); ok {
		return g, true, true
	}
	if p.Param == nil || p.Excl || p.Length || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Exp != nil {
		return "", false, false
	}
	name := p.Param.Value
	if name == "HOME" {
		return "~", true, false
	}
	v, ok := a.vars[name]
	if !ok && !a.dyn[name] && a.env != nil && a.env.Self != nil {
		// AIRLOCK_DATA_DIR: the environment the gate was given.
		if v, ok = a.env.Self.Vars[name]; ok {
			return v, true, false
		}
	}
	if ok && !a.env.Bounds().Expand(len(v)) {
		// $X$X$X… of a long value: past the budget it is not copied
		// again, and stands for text not known.
		return "", false, false
	}
	return v, ok, ok && a.guess[name]
}

// unescapedGlob reports glob syntax: * and ? unescaped, or a [ with a ]
// after it (a lone [ is the test command).
func unescapedGlob(v string) bool {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '*', '?':
			return true
		case '[':
			if strings.IndexByte(v[i+1:], ']') >= 0 {
				return true
			}
		}
	}
	return false
}

// unescapeUnquoted removes the backslashes of unquoted text: \r\m is rm.
func unescapeUnquoted(s string) string { return unescape(s, "") }

// unescapeDouble removes the backslashes that mean something inside "…".
func unescapeDouble(s string) string { return unescape(s, "$`\"\\\n") }

// unescape drops each backslash that escapes a byte of escapable (any byte
// when escapable is empty); a backslash-newline is a line continuation.
func unescape(s, escapable string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && (escapable == "" || strings.IndexByte(escapable, s[i+1]) >= 0) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ansiC decodes bash's $'…' escapes: $'\x72\x6d' is rm.
func ansiC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'e', 'E':
			b.WriteByte(27)
		case 'f':
			b.WriteByte(12)
		case 'v':
			b.WriteByte(11)
		case 'x', 'u', 'U':
			max := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			j := i + 1
			for j < len(s) && j-i-1 < max && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			if e == 'x' {
				b.WriteByte(byte(n))
			} else {
				b.WriteRune(rune(n))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			}
		default:
			b.WriteByte(e)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func allKnown(ws []word) bool {
	for _, w := range ws {
		if w.hole {
			return false
		}
	}
	return true
}

// commandName lower-cases a command word and drops its directory: on
// macOS's case-insensitive disk, /BIN/RM is rm.
func commandName(s string) string {
	return strings.ToLower(path.Base(s))
}

// recordWrites remembers what this input writes into files, so running the
// file later (sh /tmp/x.sh) is judged by what was written.
func (a *shellAn) recordWrites(rs []*syntax.Redirect, rws [][]word, content string, known bool) {
	for i, r := range rs {
		if r.Word == nil || (r.Op != syntax.RdrOut && r.Op != syntax.AppOut && r.Op != syntax.ClbOut && r.Op != syntax.RdrAll && r.Op != syntax.AppAll) {
			continue
		}
		ws := rws[i]
		if len(ws) != 1 || ws[0].hole && !ws[0].guess {
			continue
		}
		c := content
		if !known {
			c = fileComputed
		}
		key := a.fileKey(ws[0].s)
		if r.Op == syntax.AppOut || r.Op == syntax.AppAll {
			switch prev, ok := a.files[key]; {
			case !ok:
			case prev == fileComputed || prev == fileDownloaded:
				c = prev // appending to unknown content leaves it unknown
			case known:
				c = prev + c
			}
		}
		if len(c) > maxFileText {
			c = fileComputed // too much to keep (and to analyse when run)
		}
		a.files = setMap(a.files, key, c)
		a.noteBin(key)
	}
}

func (a *shellAn) setFile(name, content string) {
	key := a.fileKey(name)
	a.files = setMap(a.files, key, content)
	a.noteBin(key)
}

// noteBin remembers a file written into a folder on the usual command
// path (~/bin, ~/.local/bin …): a later command of that name runs it.
func (a *shellAn) noteBin(key string) {
	if dir := path.Dir(key); usualCodeDir(dir) || trustedBinDir(dir) {
		a.bins = setMap(a.bins, commandName(key), key)
	}
}

func setMap(m map[string]string, k, v string) map[string]string {
	if m == nil {
		m = map[string]string{}
	}
	m[k] = v
	return m
}

// fileKey is the name under which files records a path: cleaned, and
// joined to the working directory when the script set one.
func (a *shellAn) fileKey(p string) string {
	if p == "" {
		return p
	}
	if a.cwd != "" && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
		return joinPath(a.cwd, p)
	}
	if strings.HasPrefix(p, "~/") {
		return "~" + path.Clean(p[1:])
	}
	return path.Clean(p)
}

// joinPath joins a relative path to a directory written /… or ~/…; it
// returns "" when .. climbs out of the home.
func joinPath(dir, rel string) string {
	if strings.HasPrefix(dir, "~") {
		j := path.Join("/", dir[1:], rel)
		if strings.HasPrefix(path.Clean(rel), "..") && path.Join("/", dir[1:]) == "/" {
			return ""
		}
		if j == "/" {
			return "~"
		}
		return "~" + j
	}
	return path.Join(dir, rel)
}

// pathOf returns the path a word names, for classification: its text, the
// working directory joined to a relative one, a guessed home in place of
// ${ZDOTDIR:-$HOME}, a user name in place of /Users/$USER. ok is false when
// the path is not known well enough.
func (a *shellAn) pathOf(w word) (string, bool) {
	s := w.s
	if w.hole {
		switch {
		case w.guess && !strings.Contains(s, rate.HoleMark):
		case strings.HasPrefix(s, "/Users/") || strings.HasPrefix(s, "/home/"):
			base := s[:strings.IndexByte(s[1:], '/')+2]
			user, rest, _ := strings.Cut(s[len(base):], "/")
			if !strings.Contains(user, rate.HoleMark) || strings.Contains(rest, rate.HoleMark) {
				return "", false
			}
			s = base + "someone"
			if rest != "" {
				s += "/" + rest
			}
		default:
			return "", false
		}
	}
	if a.cwd != "" && s != "" && !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "~") && !strings.HasPrefix(s, "-") {
		if j := joinPath(a.cwd, s); j != "" {
			return j, true
		}
		return "", false
	}
	return s, true
}

// resolved is w with its text replaced by the path it names, when that is
// known (see pathOf), ready for zone, writeTarget and readSource.
func (a *shellAn) resolved(w word) word {
	if !w.hole && a.cwd == "" {
		return w
	}
	if p, ok := a.pathOf(w); ok {
		w.s, w.hole, w.glob, w.splice = p, false, false, false
	}
	return w
}

func (a *shellAn) zoneOf(w word) rate.Zone { return a.zone(a.resolved(w)) }

func (a *shellAn) read(w word, sp Span) { a.readSource(a.resolved(w), sp) }

// write rates writing a file: writeTarget, plus what it does not see —
// raw disks and targets under a computed folder that may be the home.
func (a *shellAn) write(w word, sp Span, verb string) {
	a.guard(w, sp, rate.UseWrite)
	r := a.resolved(w)
	if r.hole && strings.HasPrefix(r.s, rate.HoleMark) && a.env != nil && a.env.Paths != nil {
		// "$dir/.zshrc": a start-up file, if $dir is the home.
		tail := r.s[strings.LastIndex(r.s, rate.HoleMark)+len(rate.HoleMark):]
		if strings.HasPrefix(tail, "/") && len(tail) > 1 {
			if z := rate.ClassifyPath(a.env, "~"+tail); z.Kind == rate.ZonePersistence {
				a.add(level.Dangerous, "shell.persistence-maybe", sp, "%s …%s: if the computed folder is the home, %s runs code automatically", verb, rate.Display(tail), z.Detail)
			}
		}
	}
	if !r.hole {
		if isRawDisk(r.s) {
			a.add(level.Destructive, "shell.raw-disk", sp, "%s %s: overwrites a disk directly, destroying its file system", verb, rate.Display(r.s))
			return
		}
	}
	// writeTarget rates persistence first, also inside system folders
	// (/etc/zshrc, /Library/LaunchDaemons) and in relative paths (.git/hooks).
	a.writeTarget(r, sp, verb)
}

// isRawDisk reports a whole-disk device: /dev/disk2, /dev/rdisk0s1.
func isRawDisk(s string) bool {
	if len(s) < 6 || s[0] != '/' || !strings.EqualFold(s[:5], "/dev/") && !(len(s) > 13 && strings.EqualFold(s[:13], "/private/dev/")) {
		return false
	}
	s = strings.TrimPrefix(strings.ToLower(path.Clean(s)), "/private")
	for _, p := range []string{"/dev/disk", "/dev/rdisk", "/dev/sd", "/dev/nvme", "/dev/hd", "/dev/mmcblk"} {
		if strings.HasPrefix(s, p) && len(s) > len(p) {
			return true
		}
	}
	return false
}

// fileContent is what this input put into the file at p: the text it
// wrote, or a marker (downloaded, computed). A file under a folder a
// download was extracted into is downloaded. ok is false for a file the
// input did not produce.
func (a *shellAn) fileContent(p string) (string, bool) {
	if p == "" {
		return "", false
	}
	key := a.fileKey(p)
	if c, ok := a.files[key]; ok {
		return c, true
	}
	for _, d := range a.dlDirs {
		switch {
		case d == "" && !strings.HasPrefix(key, "/") && !strings.HasPrefix(key, "~"),
			d != "" && (key == d || strings.HasPrefix(key, strings.TrimSuffix(d, "/")+"/")):
			return fileDownloaded, true
		}
	}
	return "", false
}

// downloadedInto records that a download was unpacked into dir (a word
// that names it; none: the working directory).
func (a *shellAn) downloadedInto(dir word, has bool) {
	d := ""
	switch {
	case has && dir.hole:
		return
	case has:
		d = a.fileKey(dir.s)
	case a.cwd != "":
		d = a.cwd
	}
	if d == "." {
		d = ""
	}
	if len(a.dlDirs) < 64 {
		a.dlDirs = append(a.dlDirs, d)
	}
}

// onlySubst returns the statements of a word that is one command or
// process substitution and nothing else: $(…), "$(…)", <(…).
func onlySubst(w *syntax.Word) []*syntax.Stmt {
	if len(w.Parts) != 1 {
		return nil
	}
	p := w.Parts[0]
	if dq, ok := p.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		p = dq.Parts[0]
	}
	switch p := p.(type) {
	case *syntax.CmdSubst:
		return p.Stmts
	case *syntax.ProcSubst:
		return p.Stmts
	}
	return nil
}

// generatorTools print shell code to set up the shell (eval "$(brew
// shellenv)"); true: whatever its arguments, false: with a generator
// subcommand or option (generatorWords).
var generatorTools = map[string]bool{
	"brew": false, "starship": false, "zoxide": false, "pyenv": false, "rbenv": false, "nodenv": false, "goenv": false,
	"jenv": false, "plenv": false, "phpenv": false, "direnv": false, "fnm": false, "mise": false, "rtx": false,
	"atuin": false, "fzf": false, "gh": false, "kubectl": false, "helm": false, "keychain": false, "conda": false,
	"mamba": false, "micromamba": false, "op": false, "npm": false, "pip": false, "pip3": false, "rustup": false,
	"mcfly": false, "navi": false, "opam": false, "luarocks": false, "docker-machine": false, "minikube": false,
	"oh-my-posh": false, "uv": false, "rye": false, "poetry": false, "pdm": false, "hub": false, "scmpuff": false,
	"zellij": false, "sheldon": false, "antidote": false, "volta": false, "pnpm": false, "hcloud": false, "doctl": false,
	"thefuck": true, "ssh-agent": true, "dircolors": true, "gdircolors": true, "path_helper": true,
	"register-python-argcomplete": true,
}

var generatorWords = map[string]bool{
	"init": true, "shellenv": true, "hook": true, "env": true, "activate": true, "completion": true, "completions": true,
	"shell.zsh": true, "shell.bash": true, "shell.fish": true, "shell": true, "virtualenv-init": true, "docker-env": true,
	"podman-env": true, "path": true, "alias": true, "widget": true, "generate-shell-completion": true,
	"--zsh": true, "--bash": true, "--fish": true, "-s": true, "--alias": true, "--eval": true, "-b": true,
}

// generator names the program whose output a substitution is, when that
// is a local program that prints shell set-up code: one simple command,
// all literal, neither a downloader, decoder, interpreter nor anything
// else whose output the script controls, and no file this input made.
func (a *shellAn) generator(list []*syntax.Stmt) string {
	if len(list) != 1 || list[0] == nil {
		return ""
	}
	st := list[0]
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Background || st.Negated || len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return ""
	}
	for _, r := range st.Redirs {
		if r.Op == syntax.DplOut {
			continue
		}
		if r.Word == nil {
			return ""
		}
		if t, ok := literalWord(r.Word); !ok || t != "/dev/null" || r.Op != syntax.RdrOut && r.Op != syntax.RdrAll && r.Op != syntax.AppOut {
			return ""
		}
	}
	words := make([]string, len(ce.Args))
	for i, w := range ce.Args {
		s, ok := literalWord(w)
		if !ok {
			return ""
		}
		if _, made := a.fileContent(s); made && (i > 0 || strings.Contains(s, "/")) {
			return ""
		}
		words[i] = s
	}
	name := commandName(words[0])
	if _, ok := a.rebind[name]; ok || a.funcs[name] || name == "" || len(a.dlDirs) > 0 {
		return "" // (after unpacking a download, the program may be the download)
	}
	if _, ok := a.bins[name]; ok {
		return "" // the script wrote a program by that name
	}
	bare, listed := generatorTools[name]
	if !listed {
		if _, known := shellCommands[name]; known || prefixCommand(name) != nil {
			return ""
		}
	}
	if bare {
		return name
	}
	first := ""
	for _, s := range words[1:] {
		if generatorWords[s] && strings.HasPrefix(s, "-") {
			return name
		}
		if first == "" && !strings.HasPrefix(s, "-") {
			first = s
		}
	}
	if generatorWords[strings.ToLower(first)] {
		return name
	}
	return ""
}
