package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Most shell text an agent sends is a few plain commands: `date +%Y-%m-%d`,
// `df -h '/Users/me' | tail -1`, a script of `if [ -d "$HOME/x" ]; then …;
// fi` and `echo "done: $(date)" >> /tmp/log` lines. For those, mvdan.cc/sh's
// parser costs more than the analysis, and its tree, built for the whole
// text before the analysis starts, is most of the memory an analysis
// allocates. The quick parser recognises a narrow form and builds the very
// tree the bash parser builds for it, positions included, so the analysis
// that reads the tree cannot tell the two apart: FuzzQuickParse checks every
// input it accepts against the parser, tree and verdict. Anything else, it
// declines as a whole and the parser reads the text.
//
// The form:
//
//	script   = seps (stmt term seps)* stmt? seps      (at least one stmt)
//	term     = blanks? (";" | newline | the end)      (";" not followed by ; or &)
//	stmt     = item (blanks? ("&&" | "||") seps item)*
//	item     = if | pipeline
//	if       = "if" seps list("then") "then" seps list("fi") "fi"
//	list(k)  = (stmt term seps)+ before the word k at a command's start
//	pipeline = command (blanks? "|" blanks? command)*
//	command  = (redirect | word) (blanks (redirect | word))*   (one word at least)
//	redirect = digit? (">" | ">>" | "<" | ">&" | "<&") blanks? word
//	word     = "[" | "]" | (plain+ | "'" quoted* "'" | '"' dq* '"' | dollar)+
//	dq       = plain ASCII inside double quotes but " \ $ ` | dollar
//	dollar   = "$" name | "${" name "}" | "$(" blanks? stmt blanks? ")"
//	plain    = A-Z a-z 0-9 _ . / : = + , @ % - ~
//	quoted   = printable ASCII but '  (the parser reads some other
//	           characters as its own marks: U+0080 ends its input)
//	blanks   = (space | tab)+,  seps = (blanks | newline)*
//
// A redirect comes after a blank or at a command's start, never glued to
// a word before it; its one digit, if any, names the descriptor (2>x). A command's first word is
// neither a reserved word nor a builtin the parser reads as syntax of its
// own, nor one whose arguments collect records (quickSpecial), and holds no
// = (an assignment): the tree has no assignments, functions, aliases or
// loops, which is why the analysis may skip collect for it. Everything else
// the parser treats specially is outside the form: \ ` { } * ? # ! ( & ;;
// here-documents, &> and |&, arithmetic, parameter operations, comments.

// quickParsing turns the quick parser on; the differential tests turn it
// off to have the parser read every input.
var quickParsing = true

// quickPlain marks the bytes of plain.
var quickPlain = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range "_./:=+,@%-~" {
		t[c] = true
	}
	return t
}()

// quickSpecial are the first words the quick parser leaves to the parser:
// bash's reserved words, the builtins it parses (declarations, let, and the
// test and arithmetic openers, which plain excludes anyway), and the
// commands whose arguments collect records (read, hash and alias).
var quickSpecial = map[string]bool{
	"if": true, "then": true, "elif": true, "else": true, "fi": true, "for": true, "in": true,
	"do": true, "done": true, "while": true, "until": true, "case": true, "esac": true,
	"function": true, "select": true, "time": true, "coproc": true,
	"declare": true, "local": true, "export": true, "readonly": true, "typeset": true, "nameref": true,
	"let": true, "eval": true, "alias": true, "unalias": true, "builtin": true, "command": true,
	"read": true, "hash": true, "mapfile": true, "readarray": true,
}

// quickDepth bounds the nesting of if clauses and command substitutions the
// quick parser follows.
const quickDepth = 8

// quickParser reads one text in the form above. Its nodes come from an
// arena: the statements of a script may be read one at a time, the arena
// reset between them (quickStream).
type quickParser struct {
	src       string
	i         int  // the next byte
	line      int  // the line of byte i, from 1
	lineStart int  // where that line starts
	depth     int  // if clauses and substitutions open
	subst     int  // command substitutions open: ) ends a command
	far       bool // a position past what the parser's positions hold
	ar        *quickArena

	// Stacks the lists of a node are gathered on before they are copied
	// into the arena: nested nodes push above and pop back.
	words  []*syntax.Word
	parts  []syntax.WordPart
	stmts  []*syntax.Stmt
	redirs []*syntax.Redirect
}

// start sets p to read src from its beginning.
func (p *quickParser) start(src string) {
	p.src, p.i, p.line, p.lineStart, p.depth, p.subst, p.far = src, 0, 1, 0, 0, 0, false
	p.words, p.parts, p.stmts, p.redirs = p.words[:0], p.parts[:0], p.stmts[:0], p.redirs[:0]
}

// check reports src being in the form, reading it statement by statement
// with the arena reset after each; p is then ready to read src again.
func (p *quickParser) check(src string) bool {
	p.start(src)
	n := 0
	for {
		s, ok := p.next()
		p.ar.reset()
		if !ok || p.far {
			return false
		}
		if s == nil {
			break
		}
		n++
	}
	p.start(src)
	return n > 0
}

// quickFew is how many statements few reads and keeps.
const quickFew = 4

// few reads src whole, as check does, keeping its statements in out
// (which has room for quickFew) instead of reading them again: a short
// text, a do shell script's command, is read once. ok is check's answer
// where the text has at most quickFew statements; with more, few gives up
// (more), and p is ready to read src again for check and next.
func (p *quickParser) few(src string, out []*syntax.Stmt) (stmts []*syntax.Stmt, ok, more bool) {
	p.start(src)
	for {
		s, ok := p.next()
		if !ok || p.far {
			p.ar.reset()
			return nil, false, false
		}
		if s == nil {
			break
		}
		if len(out) == quickFew {
			p.ar.reset()
			p.start(src)
			return nil, false, true
		}
		out = append(out, s)
	}
	return out, len(out) > 0, false
}

// quickParse returns the tree mvdan.cc/sh's bash parser builds for src when
// src has the form above; ok is false otherwise. Its nodes are in an arena
// of their own.
func quickParse(src string) (f *syntax.File, ok bool) {
	p := &quickParser{ar: new(quickArena)}
	if !p.check(src) {
		return nil, false
	}
	var list []*syntax.Stmt
	for {
		s, _ := p.next()
		if s == nil {
			return &syntax.File{Stmts: list}, true
		}
		list = append(list, s)
	}
}

// next reads the next top-level statement and what ends it; it returns nil
// and true at the end of the text, false when the text leaves the form.
func (p *quickParser) next() (*syntax.Stmt, bool) {
	p.skipSeps()
	if p.i == len(p.src) {
		return nil, true
	}
	return p.stmtTerm()
}

// The parser's positions hold lines up to quickLineMax and columns up to
// quickColMax; past them it writes 0, and it computes some positions by
// adding to others ($name's name is one column after the $), which then
// carry into the line. The quick parser declines text with a position
// past them (far) rather than copy that arithmetic.
const (
	quickLineMax = 1<<18 - 1
	quickColMax  = 1<<14 - 1
)

// pos is the parser's position of byte i, on the line being read.
func (p *quickParser) pos(i int) syntax.Pos {
	col := i - p.lineStart + 1
	if p.line > quickLineMax || col > quickColMax {
		p.far = true
	}
	return syntax.NewPos(uint(i), uint(p.line), uint(col))
}

func (p *quickParser) skipBlanks() {
	for p.i < len(p.src) && (p.src[p.i] == ' ' || p.src[p.i] == '\t') {
		p.i++
	}
}

// skipSeps skips blanks and newlines, counting the lines.
func (p *quickParser) skipSeps() {
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case ' ', '\t':
		case '\n':
			p.line++
			p.lineStart = p.i + 1
		default:
			return
		}
		p.i++
	}
}

// stmtTerm reads a statement and its terminator: a ; (the statement's
// Semicolon), a newline (left for skipSeps) or the end.
func (p *quickParser) stmtTerm() (*syntax.Stmt, bool) {
	s, ok := p.stmt()
	if !ok {
		return nil, false
	}
	p.skipBlanks()
	if p.i == len(p.src) || p.src[p.i] == '\n' {
		return s, true
	}
	if p.src[p.i] != ';' {
		return nil, false
	}
	s.Semicolon = p.pos(p.i)
	p.i++
	if p.i < len(p.src) && (p.src[p.i] == ';' || p.src[p.i] == '&') {
		return nil, false // ;; ;& ;;& end case items
	}
	return s, true
}

// stmt reads items joined by && and ||, nested to the left as the parser
// nests them ((a && b) || c).
func (p *quickParser) stmt() (*syntax.Stmt, bool) {
	top, ok := p.item()
	if !ok {
		return nil, false
	}
	for {
		p.skipBlanks()
		var op syntax.BinCmdOperator
		switch {
		case strings.HasPrefix(p.src[p.i:], "&&"):
			op = syntax.AndStmt
		case strings.HasPrefix(p.src[p.i:], "||"):
			op = syntax.OrStmt
		default:
			return top, true
		}
		opPos := p.pos(p.i)
		p.i += 2
		p.skipSeps()
		y, ok := p.item()
		if !ok {
			return nil, false
		}
		b := p.ar.bins.new()
		b.OpPos, b.Op, b.X, b.Y = opPos, op, top, y
		joined := p.ar.stmts.new()
		joined.Cmd, joined.Position = b, top.Position
		top = joined
	}
}

func (p *quickParser) item() (*syntax.Stmt, bool) {
	if p.atWord("if") {
		return p.ifClause()
	}
	return p.pipeline()
}

// atWord reports the keyword k at p.i, followed by a blank or a newline
// (fi also by a ; or the end).
func (p *quickParser) atWord(k string) bool {
	j := p.i + len(k)
	if j > len(p.src) || p.src[p.i:j] != k {
		return false
	}
	if j == len(p.src) {
		return k == "fi"
	}
	switch p.src[j] {
	case ' ', '\t', '\n':
		return true
	case ';':
		return k == "fi"
	}
	return false
}

// ifClause reads if list; then list; fi.
func (p *quickParser) ifClause() (*syntax.Stmt, bool) {
	if p.depth++; p.depth > quickDepth {
		return nil, false
	}
	ic := p.ar.ifs.new()
	ic.Position = p.pos(p.i)
	p.i += len("if")
	var ok bool
	if ic.Cond, ok = p.list("then"); !ok {
		return nil, false
	}
	ic.ThenPos = p.pos(p.i)
	p.i += len("then")
	if ic.Then, ok = p.list("fi"); !ok {
		return nil, false
	}
	ic.FiPos = p.pos(p.i)
	p.i += len("fi")
	p.depth--
	s := p.ar.stmts.new()
	s.Cmd, s.Position = ic, ic.Position
	return s, true
}

// list reads statements up to the keyword k at a command's start; there is
// one at least.
func (p *quickParser) list(k string) ([]*syntax.Stmt, bool) {
	base := len(p.stmts)
	for {
		p.skipSeps()
		if p.i == len(p.src) {
			return nil, false
		}
		if p.atWord(k) {
			break
		}
		s, ok := p.stmtTerm()
		if !ok {
			return nil, false
		}
		p.stmts = append(p.stmts, s)
	}
	if len(p.stmts) == base {
		return nil, false
	}
	out := p.ar.stmtLists.take(len(p.stmts) - base)
	copy(out, p.stmts[base:])
	p.stmts = p.stmts[:base]
	return out, true
}

// pipeline reads commands joined by |, nested to the left as the parser
// nests them ((a | b) | c).
func (p *quickParser) pipeline() (*syntax.Stmt, bool) {
	top, ok := p.command()
	if !ok {
		return nil, false
	}
	for {
		p.skipBlanks()
		if p.i == len(p.src) || p.src[p.i] != '|' || strings.HasPrefix(p.src[p.i:], "||") {
			return top, true
		}
		opPos := p.pos(p.i)
		p.i++
		if p.i < len(p.src) && p.src[p.i] == '&' {
			return nil, false // |&
		}
		p.skipBlanks()
		y, ok := p.command()
		if !ok {
			return nil, false
		}
		b := p.ar.bins.new()
		b.OpPos, b.Op, b.X, b.Y = opPos, syntax.Pipe, top, y
		joined := p.ar.stmts.new()
		joined.Cmd, joined.Position = b, top.Position
		top = joined
	}
}

// endsCommand reports the byte at p.i ending a command: the end, a newline,
// ; | or & (what follows says whether it is in the form), and ) inside a
// command substitution.
func (p *quickParser) endsCommand() bool {
	if p.i == len(p.src) {
		return true
	}
	switch p.src[p.i] {
	case '\n', ';', '|', '&':
		return true
	case ')':
		return p.subst > 0
	}
	return false
}

// command reads a simple command's words and redirections.
func (p *quickParser) command() (*syntax.Stmt, bool) {
	wbase, rbase := len(p.words), len(p.redirs)
	s := p.ar.stmts.new()
	s.Position = p.pos(p.i)
	for !p.endsCommand() {
		if c := p.src[p.i]; c == '<' || c == '>' || c >= '0' && c <= '9' && p.i+1 < len(p.src) && (p.src[p.i+1] == '<' || p.src[p.i+1] == '>') {
			r, ok := p.redirect()
			if !ok {
				return nil, false
			}
			p.redirs = append(p.redirs, r)
		} else {
			start := p.i
			w, ok := p.word()
			if !ok {
				return nil, false
			}
			if len(p.words) == wbase {
				name := p.src[start:p.i]
				if quickSpecial[name] || containsByte(name, '=') {
					return nil, false
				}
			}
			p.words = append(p.words, w)
		}
		// A token ends at a blank or at the command's end.
		if p.endsCommand() {
			break
		}
		if c := p.src[p.i]; c != ' ' && c != '\t' {
			return nil, false
		}
		p.skipBlanks()
	}
	if len(p.words) == wbase {
		return nil, false // no command: "| x", "a ||", ">x" alone
	}
	ce := p.ar.calls.new()
	ce.Args = p.ar.wordLists.take(len(p.words) - wbase)
	copy(ce.Args, p.words[wbase:])
	p.words = p.words[:wbase]
	s.Cmd = ce
	if n := len(p.redirs) - rbase; n > 0 {
		s.Redirs = p.ar.redirLists.take(n)
		copy(s.Redirs, p.redirs[rbase:])
		p.redirs = p.redirs[:rbase]
	}
	return s, true
}

// redirect reads a descriptor's digit, if any, >, >>, <, >& or <&, and
// the word after it.
func (p *quickParser) redirect() (*syntax.Redirect, bool) {
	r := p.ar.redirects.new()
	if c := p.src[p.i]; c >= '0' && c <= '9' {
		r.N = p.lit(p.i, p.i+1)
		p.i++
	}
	r.OpPos = p.pos(p.i)
	switch op := p.src[p.i:min(p.i+2, len(p.src))]; op {
	case ">>":
		r.Op = syntax.AppOut
	case ">&":
		r.Op = syntax.DplOut
	case "<&":
		r.Op = syntax.DplIn
	default:
		r.Op = syntax.RdrIn
		if op[0] == '>' {
			r.Op = syntax.RdrOut
		}
		p.i--
	}
	p.i += 2
	if p.i < len(p.src) {
		switch p.src[p.i] {
		case '<', '>', '&', '|', '(':
			return nil, false // <<, <>, >&, >|, >(… and the like
		}
	}
	p.skipBlanks()
	w, ok := p.word()
	if !ok {
		return nil, false
	}
	r.Word = w
	return r, true
}

// wordEnd reports byte j ending a one-character word ([ or ]).
func (p *quickParser) wordEnd(j int) bool {
	if j == len(p.src) {
		return true
	}
	switch p.src[j] {
	case ' ', '\t', '\n', ';':
		return true
	}
	return false
}

// word reads one word.
func (p *quickParser) word() (*syntax.Word, bool) {
	base := len(p.parts)
	if p.i == len(p.src) {
		return nil, false
	}
	if c := p.src[p.i]; (c == '[' || c == ']') && p.wordEnd(p.i+1) {
		p.parts = append(p.parts, p.lit(p.i, p.i+1))
		p.i++
	}
loop:
	for p.i < len(p.src) {
		switch c := p.src[p.i]; {
		case quickPlain[c]:
			j := p.i + 1
			for j < len(p.src) && quickPlain[p.src[j]] {
				j++
			}
			p.parts = append(p.parts, p.lit(p.i, j))
			p.i = j
		case c == '\'':
			q, ok := p.sglQuoted()
			if !ok {
				return nil, false
			}
			p.parts = append(p.parts, q)
		case c == '"':
			q, ok := p.dblQuoted()
			if !ok {
				return nil, false
			}
			p.parts = append(p.parts, q)
		case c == '$':
			d, ok := p.dollar()
			if !ok {
				return nil, false
			}
			p.parts = append(p.parts, d)
		default:
			break loop
		}
	}
	if len(p.parts) == base {
		return nil, false
	}
	w := p.ar.words.new()
	w.Parts = p.takeParts(base)
	return w, true
}

// takeParts moves the parts above base on the stack into the arena.
func (p *quickParser) takeParts(base int) []syntax.WordPart {
	if len(p.parts) == base {
		return nil // "", as the parser leaves it
	}
	out := p.ar.partLists.take(len(p.parts) - base)
	copy(out, p.parts[base:])
	clear(p.parts[base:])
	p.parts = p.parts[:base]
	return out
}

func (p *quickParser) lit(i, j int) *syntax.Lit {
	l := p.ar.lits.new()
	l.ValuePos, l.ValueEnd, l.Value = p.pos(i), p.pos(j), p.src[i:j]
	return l
}

// sglQuoted reads '…' of printable ASCII.
func (p *quickParser) sglQuoted() (*syntax.SglQuoted, bool) {
	j := p.i + 1
	for j < len(p.src) && p.src[j] != '\'' {
		if p.src[j] < 0x20 || p.src[j] >= 0x7f {
			// Not printable ASCII: the parser's reader takes U+0080 and
			// U+0081 for marks of its own, and a newline starts a line.
			return nil, false
		}
		j++
	}
	if j == len(p.src) {
		return nil, false // unclosed
	}
	q := p.ar.sgls.new()
	q.Left, q.Right, q.Value = p.pos(p.i), p.pos(j), p.src[p.i+1:j]
	p.i = j + 1
	return q, true
}

// dblQuoted reads "…" of printable ASCII and dollars.
func (p *quickParser) dblQuoted() (*syntax.DblQuoted, bool) {
	q := p.ar.dbls.new()
	q.Left = p.pos(p.i)
	p.i++
	base := len(p.parts)
	for {
		if p.i == len(p.src) {
			return nil, false // unclosed
		}
		switch c := p.src[p.i]; {
		case c == '"':
			q.Right = p.pos(p.i)
			p.i++
			q.Parts = p.takeParts(base)
			return q, true
		case c == '$':
			d, ok := p.dollar()
			if !ok {
				return nil, false
			}
			p.parts = append(p.parts, d)
		case dqPlain(c):
			j := p.i + 1
			for j < len(p.src) && dqPlain(p.src[j]) {
				j++
			}
			p.parts = append(p.parts, p.lit(p.i, j))
			p.i = j
		default:
			return nil, false
		}
	}
}

// dqPlain reports a byte read as itself inside double quotes: printable
// ASCII but " \ $ and `.
func dqPlain(c byte) bool {
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '$' && c != '`'
}

func nameStart(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func nameByte(c byte) bool { return nameStart(c) || c >= '0' && c <= '9' }

// dollar reads $name, ${name} or $(pipeline).
func (p *quickParser) dollar() (syntax.WordPart, bool) {
	if p.i+1 == len(p.src) {
		return nil, false
	}
	switch c := p.src[p.i+1]; {
	case nameStart(c):
		pe := p.ar.params.new()
		pe.Dollar, pe.Short = p.pos(p.i), true
		j := p.i + 2
		for j < len(p.src) && nameByte(p.src[j]) {
			j++
		}
		pe.Param = p.lit(p.i+1, j)
		p.i = j
		return pe, true
	case c == '{':
		j := p.i + 2
		if j == len(p.src) || !nameStart(p.src[j]) {
			return nil, false
		}
		for j < len(p.src) && nameByte(p.src[j]) {
			j++
		}
		if j == len(p.src) || p.src[j] != '}' {
			return nil, false // ${x:-y}, ${x[1]}, unclosed
		}
		pe := p.ar.params.new()
		pe.Dollar, pe.Rbrace, pe.Param = p.pos(p.i), p.pos(j), p.lit(p.i+2, j)
		p.i = j + 1
		return pe, true
	case c == '(':
		return p.cmdSubst()
	}
	return nil, false
}

// cmdSubst reads $( stmt ).
func (p *quickParser) cmdSubst() (*syntax.CmdSubst, bool) {
	if p.i+2 < len(p.src) && p.src[p.i+2] == '(' {
		return nil, false // $(( arithmetic
	}
	if p.depth++; p.depth > quickDepth {
		return nil, false
	}
	cs := p.ar.substs.new()
	cs.Left = p.pos(p.i)
	p.i += 2
	p.subst++
	p.skipBlanks()
	s, ok := p.stmt()
	if !ok {
		return nil, false
	}
	p.skipBlanks()
	if p.i == len(p.src) || p.src[p.i] != ')' {
		return nil, false
	}
	cs.Right = p.pos(p.i)
	p.i++
	p.subst--
	p.depth--
	cs.Stmts = p.ar.stmtLists.take(1)
	cs.Stmts[0] = s
	return cs, true
}

func containsByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			return true
		}
	}
	return false
}
