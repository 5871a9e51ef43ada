package interp

import (
	"strings"
)

// The reader of calls: chains of names (os.path.join, IO::Socket::INET->new,
// require('fs').rmSync, FileManager.default.removeItem) with the arguments
// of their calls, the imports and assignments that give names another
// meaning, and the values of the expressions that name paths.

// Scan reads code as lang and returns its effects, at most MaxEffects.
func Scan(lang Lang, code string) []Effect { return ScanArgs(lang, code, nil) }

// ScanArgs is Scan for a program given the arguments argv (python -c CODE
// a b: sys.argv[1] is argv[0]; Hole in one computed at run time): what the
// code reads from its arguments is known as far as they are.
func ScanArgs(lang Lang, code string, argv []string) []Effect {
	var out []Effect
	scanAt(lang, code, 0, 0, &out, argv)
	return out
}

func scanAt(lang Lang, code string, base, depth int, out *[]Effect, argv ...[]string) {
	if depth > maxNest || len(*out) >= MaxEffects {
		return
	}
	if lang == Tcl {
		scanTcl(code, base, depth, out)
		return
	}
	if _, ok := syntaxes[lang]; !ok {
		return
	}
	lx := lex(lang, code)
	s := &scanner{lang: lang, toks: lx.toks, base: base, depth: depth, out: out,
		alias: map[string]string{}, vars: map[string]value{}, table: tables[lang]}
	if len(argv) > 0 {
		s.argv = argv[0]
	}
	s.run()
	s.byName()
	for _, n := range lx.nested {
		scanAt(lang, n.code, base+n.off, depth+1, out, s.argv)
	}
}

type scanner struct {
	lang  Lang
	toks  []tok
	base  int
	depth int
	out   *[]Effect
	alias map[string]string // a name → the qualified name it stands for: sh → shutil, rmtree → shutil.rmtree
	vars  map[string]value  // a variable → what it was last given
	table map[string]api
	argv  []string // the program's arguments, when the command line gives them
}

// value is what a variable holds, as far as the code says: a path or
// text (Hole where computed), or the object a call made (Path(p)).
type value struct {
	text  string
	chain string
	args  []arg
	props map[string][]tok // properties set on it: p.launchPath = …
}

// arg is one argument of a call: its name when it is given by name
// (atPath: p, file = p, shell=True), and its tokens.
type arg struct {
	name string
	toks []tok
}

// part is one name of a chain, with the arguments of its call when it is
// called and the tokens of its subscript when it has one.
type part struct {
	name   string
	called bool
	args   []arg
	sub    []tok
	tok    int // its token
}

func (s *scanner) emit(e Effect) {
	if e.Kind != Remove {
		e.Tree = false
	}
	e.Off += s.base
	addEffect(s.out, e)
}

// addEffect adds e to out unless out holds the same effect already or is
// full.
func addEffect(out *[]Effect, e Effect) {
	for _, o := range *out {
		if o.Kind == e.Kind && o.API == e.API && o.Target == e.Target && o.Shell == e.Shell && o.Tree == e.Tree && strings.Join(o.Argv, "\x00") == strings.Join(e.Argv, "\x00") {
			return
		}
	}
	if len(*out) < MaxEffects {
		*out = append(*out, e)
	}
}

// separators join the names of a chain.
func (s *scanner) separator(t tok) bool {
	if t.kind != tPunct {
		return false
	}
	switch t.text {
	case ".", "?.", "::", "->":
		return true
	case ":":
		return s.lang == Lua
	}
	return false
}

// run reads every statement.
func (s *scanner) run() {
	toks := s.toks
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch {
		case t.kind == tStr && t.run:
			s.emit(Effect{Kind: Run, API: "`…`", Target: t.text, Shell: true, Off: t.off})
		case t.kind == tIdent && (i == 0 || !s.separator(toks[i-1])):
			if skip := s.statement(i); skip > i {
				i = skip - 1
				continue
			}
			parts, end := s.chain(i)
			s.call(parts, end, nil)
		case (t.is(")") || t.kind == tStr) && i+2 < len(toks) && toks[i+1].is(".") && toks[i+2].kind == tIdent:
			// (Path.home() / "x").unlink(), "x".write(toFile: p): a method
			// of a parenthesised value or a string.
			recv := toks[i : i+1]
			if t.is(")") {
				recv = nil
				if o := s.opening(i); o < i {
					recv = toks[o+1 : i]
				}
			}
			parts, end := s.chain(i + 2)
			s.call(parts, end, []arg{{toks: recv}})
		}
	}
}

// chain reads the chain of names that starts at toks[i]; end is the index
// of the token after it.
func (s *scanner) chain(i int) ([]part, int) {
	toks := s.toks
	var parts []part
	j := i
	for j < len(toks) && toks[j].kind == tIdent && len(parts) < 16 {
		p := part{name: toks[j].text, tok: j}
		j++
		for j < len(toks) {
			switch {
			case toks[j].is("(") && !p.called:
				close := s.match(j)
				p.called, p.args = true, s.splitArgs(toks[j+1:close])
				j = close + 1
				continue
			case toks[j].is("[") || toks[j].is("{") && s.lang == Perl && strings.HasPrefix(p.name, "$"):
				close := s.match(j)
				if lit := s.literal(toks[j+1 : close]); lit != "" && close+1 < len(toks) && toks[close+1].is("(") && s.lang != Perl && s.lang != R {
					// x['exec'](…): the member named by a string, called.
					parts = append(parts, p)
					p = part{name: lit, tok: j}
					j = close + 1
					continue
				}
				p.sub = toks[j+1 : close]
				j = close + 1
				continue
			case toks[j].kind == tStr && !p.called && s.lang == Lua && (j == 0 || toks[j-1].kind == tIdent):
				p.called, p.args = true, []arg{{toks: toks[j : j+1]}} // f"x", f[[x]]
				j++
				continue
			}
			break
		}
		parts = append(parts, p)
		if j+1 < len(toks) && s.separator(toks[j]) && toks[j+1].kind == tIdent {
			j++
			continue
		}
		break
	}
	return parts, j
}

// opening returns the index of the ( that the ) at toks[i] closes.
func (s *scanner) opening(i int) int {
	depth := 0
	for j := i; j >= 0; j-- {
		switch {
		case s.toks[j].is(")") || s.toks[j].is("]") || s.toks[j].is("}"):
			depth++
		case s.toks[j].is("(") || s.toks[j].is("[") || s.toks[j].is("{"):
			depth--
			if depth == 0 {
				return j
			}
		}
	}
	return i
}

// match returns the index of the bracket closing toks[i] (len(toks) when
// none does).
func (s *scanner) match(i int) int {
	open := s.toks[i].text
	close := map[string]string{"(": ")", "[": "]", "{": "}"}[open]
	depth := 0
	for j := i; j < len(s.toks); j++ {
		if s.toks[j].kind != tPunct {
			continue
		}
		switch s.toks[j].text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
			if depth == 0 {
				if s.toks[j].text != close {
					return j
				}
				return j
			}
		}
	}
	return len(s.toks)
}

// splitArgs splits a call's argument tokens at its top-level commas, and
// reads a name given before = : or => (not ==).
func (s *scanner) splitArgs(ts []tok) []arg {
	var out []arg
	depth, start := 0, 0
	flush := func(end int) {
		a := arg{toks: trimNL(ts[start:end])}
		if len(a.toks) >= 2 && (a.toks[0].kind == tIdent || a.toks[0].kind == tStr) && (a.toks[1].is("=") || a.toks[1].is(":") || a.toks[1].is("=>")) {
			a.name, a.toks = a.toks[0].text, a.toks[2:]
		}
		if len(a.toks) > 0 || a.name != "" {
			out = append(out, a)
		}
	}
	for i, t := range ts {
		if t.kind != tPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			depth++
		case ")", "]", "}":
			depth--
		case ",":
			if depth == 0 {
				flush(i)
				start = i + 1
			}
		}
	}
	flush(len(ts))
	return out
}

func trimNL(ts []tok) []tok {
	for len(ts) > 0 && ts[0].is("\n") {
		ts = ts[1:]
	}
	for len(ts) > 0 && ts[len(ts)-1].is("\n") {
		ts = ts[:len(ts)-1]
	}
	return ts
}

// statementEnd is the index of the token that ends the statement started
// at i: ; or a line break outside brackets, a closing bracket it did not
// open, or (Perl, Ruby) a low-precedence keyword.
func (s *scanner) statementEnd(i int) int {
	depth := 0
	for j := i; j < len(s.toks); j++ {
		t := s.toks[j]
		if t.kind == tIdent && depth == 0 && j > i && (s.lang == Perl || s.lang == Ruby) {
			switch t.text {
			case "or", "and", "if", "unless", "while", "until", "do":
				return j
			}
		}
		if t.kind != tPunct {
			continue
		}
		switch t.text {
		case "(", "[", "{":
			if depth == 0 && t.text == "{" && s.lang == Ruby && j > i {
				return j // a block
			}
			depth++
		case ")", "]", "}":
			if depth == 0 {
				return j
			}
			depth--
		case ";", "\n":
			if depth == 0 {
				return j
			}
		}
	}
	return len(s.toks)
}

// name is the qualified name of a chain's parts up to n: aliases
// resolved, a variable holding an object replaced by the call that made
// it, a module loaded by require('x') or __import__('x') replaced by its
// name, and constructors (new) dropped. recv is the arguments of the call
// the last part is made on, if any.
func (s *scanner) name(parts []part) (string, []arg) {
	var names []string
	var recv []arg
	for k, p := range parts {
		n := p.name
		if k == 0 {
			if v, ok := s.vars[n]; ok && v.chain != "" {
				names = append(names, v.chain)
				recv = v.args
				continue
			}
			if a, ok := s.alias[strings.TrimLeft(n, "$@")]; ok {
				n = a
			}
		}
		if p.called && moduleLoaders[n] && len(p.args) == 1 {
			if m := s.literal(p.args[0].toks); m != "" {
				names = append(names[:0], moduleName(m))
				continue
			}
		}
		if n == "new" && k > 0 {
			continue
		}
		if k < len(parts)-1 && p.called {
			recv = p.args
		}
		names = append(names, n)
	}
	return strings.Join(names, "."), recv
}

// moduleLoaders load a module by a name in a string.
var moduleLoaders = map[string]bool{"require": true, "__import__": true, "importlib.import_module": true, "import": true, "require_relative": true}

// moduleName is a module's name as the tables spell it: node:fs is fs,
// fs/promises fs.promises, socket.http stays.
func moduleName(m string) string {
	m = strings.TrimPrefix(m, "node:")
	return strings.ReplaceAll(m, "/", ".")
}

// literal returns the text of tokens that are one literal string, or "".
func (s *scanner) literal(ts []tok) string {
	ts = trimParens(ts)
	if len(ts) == 1 && ts[0].kind == tStr && ts[0].lit {
		return ts[0].text
	}
	return ""
}

func trimParens(ts []tok) []tok {
	for len(ts) >= 2 && ts[0].is("(") && ts[len(ts)-1].is(")") {
		ts = ts[1 : len(ts)-1]
	}
	return ts
}

// reflectors call a function or method by a name given as text.
var reflectors = map[string]bool{"getattr": true, "__getattribute__": true, "send": true, "public_send": true,
	"__send__": true, "method": true, "instance_method": true, "Reflect": true, "globals": true, "__dict__": true,
	"call_user_func": true, "call_user_func_array": true, "can": true, "const_get": true, "bindFunction": true}

// byName: code that calls by a name given as text (getattr(os,
// 'system'), send(:system, …), Reflect.get(cp, 'exec')) calls whatever its
// strings name; a string that names a call of the table that removes, runs
// or evaluates is that call, on a target this package cannot see.
func (s *scanner) byName() {
	reflective := false
	for _, t := range s.toks {
		if t.kind == tIdent && reflectors[t.text] {
			reflective = true
			break
		}
	}
	if !reflective {
		return
	}
	names := map[string]api{}
	for key, a := range s.table {
		if a.kind == Remove || a.kind == Run || a.kind == Eval {
			names[lastName(key)] = a
		}
	}
	for _, t := range s.toks {
		if t.kind != tStr || !t.lit {
			continue
		}
		if a, ok := names[t.text]; ok {
			s.emit(Effect{Kind: a.kind, API: "(by name) " + t.text, Target: Hole, Shell: a.how == hShell, Tree: a.tree, Off: t.off})
		}
	}
}
