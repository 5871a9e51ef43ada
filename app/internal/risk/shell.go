package risk

import (
	"path"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"

	"github.com/airlockhq/airlock/app/internal/level"
)

// Placeholders stand for values computed at run time when another analyzer
// hands the shell analyzer a command template: the AppleScript
// `"ls " & quoted form of p` becomes `ls __AIRLOCK_Q__`. A Q hole is quoted
// (one word, no shell syntax can leak out of it); a U hole is spliced in
// unquoted and may carry any shell syntax at all.
const (
	holeQuoted   = "__AIRLOCK_Q__"
	holeUnquoted = "__AIRLOCK_U__"
	holeMark     = "\x00" // a hole inside an evaluated word
)

// maxDepth bounds nested analysis (sh -c inside eval inside osascript …).
const maxDepth = 8

// bashParsers reuses parsers: building one costs more than parsing a
// short command.
var bashParsers = sync.Pool{New: func() any { return syntax.NewParser(syntax.Variant(syntax.LangBash)) }}

// Shell rates a shell script or command line.
func Shell(src string, env *Env) Verdict {
	var v Verdict
	shellInto(&v, src, env, nil, 0)
	v.sortReasons()
	return v
}

// ShellArgv rates a command given as an argument vector: no shell reads it,
// so nothing in it is shell syntax.
func ShellArgv(argv []string, env *Env) Verdict {
	var v Verdict
	if len(argv) == 0 {
		v.add(level.Dangerous, "shell.empty", Span{}, "empty command")
		return v
	}
	a := newShellAn(&v, env, nil, 0, "")
	words := make([]word, len(argv))
	for i, s := range argv {
		words[i] = word{s: s}
	}
	a.call(words, Span{}, pipeCtx{})
	a.finish()
	v.sortReasons()
	return v
}

// shellInto analyses src and adds its findings to v. With anchor set, every
// reason points at that span of the outer input.
func shellInto(v *Verdict, src string, env *Env, anchor *Span, depth int) {
	a := newShellAn(v, env, anchor, depth, src)
	if depth > maxDepth {
		a.add(level.Destructive, "shell.too-deep", Span{}, "shell commands nested more than %d deep: not analysed", maxDepth)
		return
	}
	if !utf8.ValidString(src) {
		a.add(level.Destructive, "shell.invalid-utf8", Span{}, "shell text is not valid UTF-8: not analysed")
		return
	}
	p := bashParsers.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(src), "")
	bashParsers.Put(p)
	if err != nil {
		f, err = syntax.NewParser(syntax.Variant(syntax.LangPOSIX)).Parse(strings.NewReader(src), "")
	}
	if err != nil {
		a.add(level.Destructive, "shell.unparseable", Span{}, "shell command cannot be parsed (%s): not analysed", oneLine(err.Error()))
		return
	}
	// Only assignments (=), functions ( ( or "function"), for and read
	// loops and aliases give collect anything to record.
	if strings.ContainsAny(src, "=(") || strings.Contains(src, "function") || strings.Contains(src, "for") ||
		strings.Contains(src, "read") || strings.Contains(src, "alias") {
		a.collect(f)
	}
	a.stmts(f.Stmts, pipeCtx{})
	a.finish()
}

type shellAn struct {
	v      *Verdict
	env    *Env
	anchor *Span
	depth  int
	src    string
	vars   map[string]string // variables assigned exactly one literal value
	dyn    map[string]bool   // variables assigned anything else
	funcs  map[string]bool   // functions and aliases the script defines
	secret *Span             // where a secret was read, if anywhere
	upload *Span             // where data left the machine, if anywhere
	files  map[string]string // files this input writes: path → content (or a marker)
}

// Markers for files whose content the analyzer cannot know.
const (
	fileDownloaded = "\x00downloaded"
	fileComputed   = "\x00computed"
)

func newShellAn(v *Verdict, env *Env, anchor *Span, depth int, src string) *shellAn {
	return &shellAn{v: v, env: env, anchor: anchor, depth: depth, src: src}
}

func (a *shellAn) add(l level.Level, rule string, sp Span, format string, args ...any) {
	if a.anchor != nil {
		sp = *a.anchor
	}
	a.v.add(l, rule, sp, format, args...)
}

func (a *shellAn) span(n syntax.Node) Span {
	if n == nil || !n.Pos().IsValid() {
		return Span{}
	}
	return Span{int(n.Pos().Offset()), int(n.End().Offset())}
}

// finish adds the findings that need the whole script: a secret read
// anywhere plus data sent anywhere is exfiltration.
func (a *shellAn) finish() {
	if a.secret != nil && a.upload != nil {
		a.add(level.Destructive, "shell.exfiltration", *a.upload, "reads a secret and sends data over the network: possible exfiltration")
	}
}

// collect records functions, aliases and literal variable values before the
// walk, so `X=rm; $X -rf ~` reads as rm.
func (a *shellAn) collect(f *syntax.File) {
	a.vars, a.dyn, a.funcs = map[string]string{}, map[string]bool{}, map[string]bool{}
	var count map[string]int
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.FuncDecl:
			a.funcs[n.Name.Value] = true
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
			if s, ok := literalWord(n.Value); ok {
				a.vars[name] = s
			} else {
				a.dyn[name] = true
			}
		case *syntax.ForClause:
			if it, ok := n.Loop.(*syntax.WordIter); ok {
				a.dyn[it.Name.Value] = true
			}
		case *syntax.CallExpr:
			if len(n.Args) > 1 && n.Args[0].Lit() == "alias" {
				for _, w := range n.Args[1:] {
					if s, ok := literalWord(w); ok {
						if name, _, ok := strings.Cut(s, "="); ok {
							a.funcs[name] = true
						}
					}
				}
			}
			if len(n.Args) > 1 && n.Args[0].Lit() == "read" {
				for _, w := range n.Args[1:] {
					a.dyn[w.Lit()] = true
				}
			}
		}
		return true
	})
	for name, c := range count {
		if c > 1 || a.dyn[name] {
			delete(a.vars, name)
			a.dyn[name] = true
		}
	}
}

// literalWord returns a word's value when it has no expansions at all.
func literalWord(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(unescapeUnquoted(p.Value))
		case *syntax.SglQuoted:
			if p.Dollar {
				b.WriteString(ansiC(p.Value))
			} else {
				b.WriteString(p.Value)
			}
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

// pipeCtx says where a command sits in a pipeline.
type pipeCtx struct {
	stdin  string // what feeds stdin: "" (nothing known), "download", "decoded", "text", "pipe"
	text   string // for stdin "text": the literal text piped in
	inPipe bool   // part of a pipeline or run in the background (fork bomb test)
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
}

func (a *shellAn) stmt(s *syntax.Stmt, pc pipeCtx) output {
	if s == nil {
		return output{kind: "pipe"}
	}
	if s.Background {
		pc.inPipe = true
	}
	// Here-documents and here-strings feed stdin.
	for _, r := range s.Redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			pc.stdin, pc.text = "text", ""
			if r.Hdoc != nil {
				pc.text = a.docText(r.Hdoc)
			}
		case syntax.WordHdoc:
			ws := a.evalWord(r.Word, true)
			if len(ws) == 1 && !ws[0].hole {
				pc.stdin, pc.text = "text", ws[0].s
			} else {
				pc.stdin = "computed"
			}
		case syntax.RdrIn:
			if r.Word != nil && r.Word.Lit() == "/dev/null" {
				pc.stdin = "devnull"
			}
		}
	}
	ce, isCall := s.Cmd.(*syntax.CallExpr)
	if !isCall || len(ce.Args) == 0 {
		a.redirects(s.Redirs, s.Cmd == nil, false)
		a.recordWrites(s.Redirs, "", false)
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
	name, args := a.unwrap(words)
	ops := operands(args)
	truncating := false
	content, known := "", false
	switch name {
	case ":", "true", "wrapper-alone":
		truncating = len(ops) == 0
	case "cat":
		truncating = len(ops) == 1 && ops[0].s == "/dev/null"
		if len(ops) == 0 && pc.stdin == "text" {
			content, known = pc.text, true
		}
	case "echo", "printf":
		truncating = len(ops) == 0 || len(ops) == 1 && ops[0].s == ""
		if allKnown(ops) {
			content, known = joinWords(ops)+"\n", true
		}
	}
	a.redirects(s.Redirs, truncating, shells[name])
	a.recordWrites(s.Redirs, content, known)
	if len(words) > 0 {
		a.callOps(words, a.span(ce), pc, name, args, ops)
	}
	return produces(name, args, ops, pc)
}

// docText returns a here-document's body, with a placeholder for each
// expansion in it (which the next analyzer treats as computed text).
func (a *shellAn) docText(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.CmdSubst:
			a.stmts(p.Stmts, pipeCtx{})
			b.WriteString(holeUnquoted)
		default:
			b.WriteString(holeUnquoted)
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
		a.stmts(c.Stmts, pc)
	case *syntax.Block:
		a.stmts(c.Stmts, pc)
	case *syntax.IfClause:
		for ic := c; ic != nil; ic = ic.Else {
			a.stmts(ic.Cond, pipeCtx{})
			a.stmts(ic.Then, pipeCtx{})
		}
	case *syntax.WhileClause:
		a.stmts(c.Cond, pipeCtx{})
		a.stmts(c.Do, pipeCtx{})
	case *syntax.ForClause:
		if it, ok := c.Loop.(*syntax.WordIter); ok {
			for _, w := range it.Items {
				a.evalWord(w, false)
			}
		} else {
			syntax.Walk(c.Loop, a.walkSubst)
		}
		a.stmts(c.Do, pipeCtx{})
	case *syntax.CaseClause:
		a.evalWord(c.Word, false)
		for _, it := range c.Items {
			a.stmts(it.Stmts, pipeCtx{})
		}
	case *syntax.FuncDecl:
		if callsItself(c) {
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
		a.stmts(n.Stmts, pipeCtx{})
		return false
	case *syntax.ProcSubst:
		a.stmts(n.Stmts, pipeCtx{})
		return false
	}
	return true
}

func (a *shellAn) assign(as *syntax.Assign) {
	if as.Value != nil {
		a.evalWord(as.Value, true)
	}
	if as.Array != nil {
		syntax.Walk(as.Array, a.walkSubst)
	}
}

// callsItself reports the fork-bomb shape: a function whose body runs
// itself in a pipeline or in the background.
func callsItself(f *syntax.FuncDecl) bool {
	name := f.Name.Value
	found := false
	syntax.Walk(f.Body, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.BinaryCmd:
			if n.Op == syntax.Pipe || n.Op == syntax.PipeAll {
				for _, s := range []*syntax.Stmt{n.X, n.Y} {
					if ce, ok := s.Cmd.(*syntax.CallExpr); ok && len(ce.Args) > 0 && ce.Args[0].Lit() == name {
						found = true
					}
				}
			}
		case *syntax.Stmt:
			if ce, ok := n.Cmd.(*syntax.CallExpr); ok && n.Background && len(ce.Args) > 0 && ce.Args[0].Lit() == name {
				found = true
			}
		}
		return !found
	})
	return found
}

// pipeline walks a | b | c, telling each stage what feeds it.
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
	for _, s := range stages {
		out := a.stmt(s, feed)
		feed = pipeCtx{inPipe: true, stdin: out.kind, text: out.text}
	}
}

// produces classifies what a command writes to stdout, for the stage after
// it: downloads and decoders matter when the next stage is a shell.
func produces(name string, args, ops []word, in pipeCtx) output {
	switch {
	case name == "":
		return output{kind: "pipe"}
	case downloaders[name]:
		return output{kind: "download"}
	case name == "base64" || name == "xxd" || name == "uudecode" || name == "openssl" || name == "rev" || name == "gunzip" ||
		name == "zcat" || name == "gzip" || name == "bzcat" || name == "xz":
		return output{kind: "decoded"}
	case name == "tr" && in.stdin != "":
		return output{kind: "decoded"}
	case (name == "echo" || name == "printf") && allKnown(args):
		if name == "echo" && hasShort(args, 'e') || name == "printf" && strings.Contains(joinWords(args), `\x`) {
			return output{kind: "decoded"}
		}
		if name == "printf" && len(ops) > 1 {
			return output{kind: "text", text: joinWords(ops[1:])}
		}
		return output{kind: "text", text: joinWords(ops)}
	case name == "cat" && in.stdin == "download":
		return output{kind: "download"}
	}
	if in.stdin == "download" {
		return output{kind: "download"}
	}
	return output{kind: "pipe"}
}

// redirects rates output redirections: writing into persistence or system
// locations, and truncating files.
func (a *shellAn) redirects(rs []*syntax.Redirect, truncating, shellCmd bool) {
	for _, r := range rs {
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
			ws := a.evalWord(r.Word, true)
			if len(ws) != 1 {
				continue
			}
			w := ws[0]
			if isDevice(w.s) {
				continue
			}
			if truncating && (r.Op == syntax.RdrOut || r.Op == syntax.ClbOut) {
				a.add(level.Destructive, "shell.truncate", a.span(r), "truncates %s to zero length", display(w.s))
			}
			a.writeTarget(w, a.span(r), "writes to")
		case syntax.RdrIn:
			for _, w := range a.evalWord(r.Word, true) {
				a.readSource(w, a.span(r))
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
	s      string // the text; holeMark where a computed value goes
	hole   bool   // part of it is computed at run time
	splice bool   // a computed part came in unquoted (it may carry shell syntax)
	glob   bool   // unquoted glob characters
	proc   bool   // contains a process substitution <(…)
	span   Span
}

// evalWord expands a word as far as the script itself determines it. With
// quoted set the result is one field (assignment values, redirect targets).
func (a *shellAn) evalWord(w *syntax.Word, quoted bool) []word {
	return a.appendWord(nil, w, quoted)
}

// appendWord appends the fields of w to out.
func (a *shellAn) appendWord(out []word, w *syntax.Word, quoted bool) []word {
	sp := a.span(w)
	// The common case: one plain literal (ls, -la, /tmp/x).
	if len(w.Parts) == 1 {
		if l, ok := w.Parts[0].(*syntax.Lit); ok && !strings.ContainsAny(l.Value, "\\*?[_") {
			return append(out, word{s: l.Value, span: sp})
		}
	}
	cur := word{span: sp}
	flush := func() {
		if cur.s != "" || cur.hole {
			out = append(out, cur)
		}
		cur = word{span: sp}
	}
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := p.Value
			if !quoted && strings.ContainsAny(v, "*?[") && unescapedGlob(v) {
				cur.glob = true
			}
			a.appendLit(&cur, unescapeUnquoted(v))
		case *syntax.SglQuoted:
			if p.Dollar {
				a.appendLit(&cur, ansiC(p.Value))
			} else {
				a.appendLit(&cur, p.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				switch q := q.(type) {
				case *syntax.Lit:
					a.appendLit(&cur, unescapeDouble(q.Value))
				case *syntax.ParamExp:
					if val, ok := a.param(q); ok {
						cur.s += val
					} else {
						cur.s += holeMark
						cur.hole = true
					}
				default:
					syntax.Walk(q, a.walkSubst)
					cur.s += holeMark
					cur.hole = true
				}
			}
		case *syntax.ParamExp:
			val, ok := a.param(p)
			switch {
			case ok && !quoted:
				// An unquoted expansion splits on blanks: X="rm -rf"; $X ~
				fields := strings.Fields(val)
				if len(fields) == 0 {
					continue
				}
				if strings.TrimLeft(val, " \t\n") != val {
					flush()
				}
				for i, f := range fields {
					if i > 0 {
						flush()
					}
					cur.s += f
				}
				if strings.TrimRight(val, " \t\n") != val {
					flush()
				}
			case ok:
				cur.s += val
			case !quoted && p.Param != nil && p.Param.Value == "IFS" && p.Exp == nil && p.Repl == nil:
				flush() // ${IFS} splits words: rm${IFS}-rf
			default:
				// Unquoted, the value is split into words and globbed, but
				// never parsed as shell again: many unknown words.
				cur.s += holeMark
				cur.hole = true
				if !quoted {
					cur.glob = true
				}
			}
		case *syntax.CmdSubst:
			a.stmts(p.Stmts, pipeCtx{})
			cur.s += holeMark
			cur.hole = true
			if !quoted {
				cur.glob = true
			}
		case *syntax.ProcSubst:
			a.stmts(p.Stmts, pipeCtx{})
			cur.s += holeMark
			cur.hole = true
			cur.proc = true
		case *syntax.ArithmExp:
			syntax.Walk(p, a.walkSubst)
			cur.s += "0"
		case *syntax.ExtGlob, *syntax.BraceExp:
			cur.s += "*"
			cur.glob = true
		default:
			cur.s += holeMark
			cur.hole = true
		}
	}
	flush()
	return out
}

// appendLit adds literal text, turning placeholders into holes.
func (a *shellAn) appendLit(cur *word, s string) {
	if strings.Contains(s, "__AIRLOCK_") {
		if strings.Contains(s, holeUnquoted) {
			cur.splice = true
			cur.hole = true
			s = strings.ReplaceAll(s, holeUnquoted, holeMark)
		}
		if strings.Contains(s, holeQuoted) {
			cur.hole = true
			s = strings.ReplaceAll(s, holeQuoted, holeMark)
		}
	}
	cur.s += s
}

// param resolves $HOME and variables with one literal value.
func (a *shellAn) param(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Exp != nil {
		return "", false
	}
	name := p.Param.Value
	if name == "HOME" {
		return "~", true
	}
	v, ok := a.vars[name]
	return v, ok
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
func unescapeUnquoted(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
			if s[i] == '\n' {
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// unescapeDouble removes the backslashes that mean something inside "…".
func unescapeDouble(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
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

func joinWords(ws []word) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = w.s
	}
	return strings.Join(parts, " ")
}

// commandName lower-cases a command word and drops its directory: on
// macOS's case-insensitive disk, /BIN/RM is rm.
func commandName(s string) string {
	return strings.ToLower(path.Base(s))
}

func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}

// display shows a value from the input inside a warning: one line, bounded,
// holes shown as ….
func display(s string) string {
	s = strings.ReplaceAll(s, holeMark, "…")
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '·'
		}
		return r
	}, s)
	if utf8.RuneCountInString(s) > 80 {
		r := []rune(s)
		s = string(r[:80]) + "…"
	}
	return s
}

// recordWrites remembers what this input writes into files, so running the
// file later (sh /tmp/x.sh) is judged by what was written.
func (a *shellAn) recordWrites(rs []*syntax.Redirect, content string, known bool) {
	for _, r := range rs {
		if r.Word == nil || (r.Op != syntax.RdrOut && r.Op != syntax.AppOut && r.Op != syntax.ClbOut) {
			continue
		}
		ws := a.evalWord(r.Word, true)
		if len(ws) != 1 || ws[0].hole {
			continue
		}
		c := content
		if !known {
			c = fileComputed
		}
		if r.Op == syntax.AppOut {
			if prev, ok := a.files[ws[0].s]; ok && prev != fileComputed && prev != fileDownloaded && known {
				c = prev + c
			}
		}
		a.setFile(ws[0].s, c)
	}
}

func (a *shellAn) setFile(name, content string) {
	if a.files == nil {
		a.files = map[string]string{}
	}
	a.files[name] = content
}
