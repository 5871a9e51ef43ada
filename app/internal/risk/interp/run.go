package interp

import (
	"strings"
)

// Commands and code: how a call that runs something says what, and the
// statements that give names a meaning (imports, requires, assignments).

// runCall makes the Run effect of a call that runs a command.
func (s *scanner) runCall(a api, e Effect, args []arg) {
	e.Kind = Run
	first := positional(args, 0)
	if ts, ok := named(args, a.named); ok {
		first = ts
	}
	switch a.how {
	case hShell:
		e.Shell, e.Target = true, s.valueOf(first)
	case hArgv:
		switch elems, ok := s.list(first); {
		case s.argvList(first) && len(s.argv) > 0:
			e.Argv = append([]string{}, s.argv...)
		case ok:
			e.Argv = s.values(elems)
		case first == nil && a.program != "":
			if elems, ok := s.list(keyValue(args, a.program)); ok {
				e.Argv = s.values(elems)
			} else {
				e.Argv = []string{Hole}
			}
		case s.truthy(args, a.opt) || first != nil && a.opt == "":
			e.Shell, e.Target = true, s.valueOf(first)
		default:
			e.Argv = []string{s.valueOf(first)}
		}
	case hSystem:
		pos := positionals(args)
		if len(pos) > 1 && len(pos[0]) > 0 && pos[0][0].is("{") {
			pos = pos[1:] // Ruby: system({"VAR" => "x"}, …)
		}
		switch {
		case len(pos) == 1 && s.argvList(pos[0]) && len(s.argv) > 0:
			e.Argv = append([]string{}, s.argv...) // system @ARGV: the command line's own words
		case len(pos) == 1:
			if elems, ok := s.list(pos[0]); ok {
				e.Argv = s.values(elems)
			} else {
				e.Shell, e.Target = true, s.value(pos[0])
			}
		case len(pos) > 1:
			e.Argv = s.values(pos)
		default:
			e.Argv = []string{Hole}
		}
	case hSpawn:
		prog := s.valueOf(first)
		var rest []string
		if elems, ok := s.list(positional(args, 1)); ok {
			rest = s.values(elems)
		} else if elems, ok := s.list(keyValue(args, a.program)); ok && a.program != "" {
			rest = s.values(elems)
		}
		if s.truthy(args, "shell") {
			e.Shell, e.Target = true, strings.Join(append([]string{prog}, rest...), " ")
		} else {
			e.Argv = append([]string{prog}, rest...)
		}
	case hExecv:
		// arg is where the program is: os.spawnv(mode, path, argv) has it second.
		at := max(a.arg, 0)
		e.Argv = []string{s.valueOf(positional(args, at))}
		if elems, ok := s.list(positional(args, at+1)); ok && len(elems) > 1 {
			e.Argv = append(e.Argv, s.values(elems[1:])...)
		}
	case hExecl:
		at := max(a.arg, 0)
		pos := positionals(args)
		e.Argv = []string{s.valueOf(positional(args, at))}
		if len(pos) > at+2 {
			e.Argv = append(e.Argv, s.values(pos[at+2:])...)
		}
	}
	s.emit(e)
}

func positionals(args []arg) [][]tok {
	var out [][]tok
	for _, a := range args {
		if a.name == "" {
			out = append(out, a.toks)
		}
	}
	return out
}

func (s *scanner) values(ts [][]tok) []string {
	out := make([]string, 0, len(ts))
	for _, t := range ts {
		out = append(out, s.value(t))
	}
	return out
}

// keyValue returns the tokens of key's value inside an options record
// among args ({cmd: […]}, {args: […]}).
func keyValue(args []arg, key string) []tok {
	for _, a := range args {
		ts := a.toks
		for i := 0; i+2 < len(ts); i++ {
			if (ts[i].kind == tIdent || ts[i].kind == tStr) && ts[i].text == key && (ts[i+1].is(":") || ts[i+1].is("=>")) {
				depth, j := 0, i+2
				for ; j < len(ts); j++ {
					switch {
					case ts[j].is("(") || ts[j].is("[") || ts[j].is("{"):
						depth++
					case ts[j].is(")") || ts[j].is("]") || ts[j].is("}"):
						depth--
					}
					if depth < 0 || depth == 0 && ts[j].is(",") {
						break
					}
				}
				return ts[i+2 : j]
			}
		}
	}
	return nil
}

// evalCall makes the Eval effect of a call that runs code from text: code
// spelled in a literal is read as the same language, one level deeper.
func (s *scanner) evalCall(a api, e Effect, args, recv []arg) {
	first := positional(args, 0)
	if ts, ok := named(args, a.named); ok {
		first = ts
	}
	if a.arg == argRecv && len(recv) > 0 {
		first = positional(recv, 0)
	}
	first = trimParens(trimNL(first))
	if a.how == hEvalStr && (len(first) == 0 || first[0].kind != tStr) {
		return
	}
	if code := s.literal(first); code != "" {
		e.Target = code
		scanAt(s.lang, code, s.base+first[0].off+1, s.depth+1, s.out, s.argv)
	} else {
		e.Target = Hole
	}
	s.emit(e)
}

// declarations are the keywords that introduce a variable.
var declarations = map[string]bool{"var": true, "let": true, "const": true, "local": true, "my": true, "our": true, "global": true}

// statementStart reports that toks[i] begins a statement.
func (s *scanner) statementStart(i int) bool {
	if i == 0 {
		return true
	}
	p := s.toks[i-1]
	return p.is("\n") || p.is(";") || p.is("{") || p.is("}") || p.kind == tIdent && declarations[p.text]
}

// statement records what a statement at toks[i] makes a name mean:
// imports, requires and assignments. An import is skipped: it returns
// the index after it. Any other statement is read for calls all the same:
// it returns i.
func (s *scanner) statement(i int) int {
	if !s.statementStart(i) {
		return i
	}
	t := s.toks[i]
	switch {
	case t.text == "import" && s.lang == Python:
		s.pyImport(i + 1)
		return s.statementEnd(i + 1)
	case t.text == "from" && s.lang == Python:
		s.pyFromImport(i + 1)
		return s.statementEnd(i + 1)
	case t.text == "import" && s.lang == JS:
		s.jsImport(i + 1)
		return s.statementEnd(i + 1)
	case t.text == "use" && s.lang == Perl || t.text == "include" && s.lang == Ruby || (t.text == "library" || t.text == "require") && s.lang == R:
		s.useModule(i + 1)
		return s.statementEnd(i + 1)
	case declarations[t.text] && i+1 < len(s.toks) && s.toks[i+1].is("{"):
		return s.destructure(i + 1)
	case declarations[t.text]:
		return i // the name after it starts the assignment
	case i+3 < len(s.toks) && s.toks[i+1].is(".") && s.toks[i+2].kind == tIdent && isAssign(s.toks[i+3]):
		s.property(i)
	default:
		s.assignment(i)
	}
	return i
}

// pyImport reads import a.b as c, d.
func (s *scanner) pyImport(i int) {
	end := s.statementEnd(i)
	for _, a := range s.splitArgs(s.toks[i:end]) {
		ts := a.toks
		name := dotted(ts)
		if k := indexText(ts, "as"); k > 0 && k+1 < len(ts) {
			s.alias[ts[k+1].text] = dotted(ts[:k])
		} else if name != "" {
			s.alias[strings.SplitN(name, ".", 2)[0]] = strings.SplitN(name, ".", 2)[0]
		}
	}
}

// pyFromImport reads from m import a as b, c / *.
func (s *scanner) pyFromImport(i int) {
	end := s.statementEnd(i)
	k := i
	for k < end && s.toks[k].text != "import" {
		k++
	}
	mod := dotted(s.toks[i:k])
	if k+1 < end && s.toks[k+1].is("*") {
		s.star(mod)
		return
	}
	ts := s.toks[min(k+1, end):end]
	ts = trimParens(ts)
	for _, a := range s.splitArgs(ts) {
		n := a.toks
		if len(n) == 0 {
			continue
		}
		local := n[len(n)-1].text
		s.alias[local] = mod + "." + n[0].text
	}
}

// jsImport reads import x from 'm', import * as x from 'm', import {a as b} from 'm'.
func (s *scanner) jsImport(i int) {
	end := s.statementEnd(i)
	ts := s.toks[i:end]
	from := indexText(ts, "from")
	if from < 0 || from+1 >= len(ts) || ts[from+1].kind != tStr {
		return
	}
	mod := moduleName(ts[from+1].text)
	head := ts[:from]
	for k := 0; k < len(head); k++ {
		switch {
		case head[k].is("{"):
			close := k
			for close < len(head) && !head[close].is("}") {
				close++
			}
			for _, a := range s.splitArgs(head[k+1 : close]) {
				n := a.toks
				if len(n) > 0 {
					s.alias[n[len(n)-1].text] = mod + "." + n[0].text
				}
			}
			k = close
		case head[k].is("*") && k+2 < len(head) && head[k+1].text == "as":
			s.alias[head[k+2].text] = mod
			k += 2
		case head[k].kind == tIdent:
			s.alias[head[k].text] = mod
		}
	}
}

// useModule reads Perl's use M qw(a b), Ruby's include M and R's
// library(m): the names the module gives the script.
func (s *scanner) useModule(i int) {
	end := s.statementEnd(i)
	ts := trimParens(s.toks[i:end])
	var mod string
	k := 0
	for k < len(ts) && (ts[k].kind == tIdent || ts[k].is("::") || ts[k].kind == tStr && k == 0) {
		if ts[k].is("::") {
			mod += "."
		} else {
			mod += ts[k].text
		}
		k++
	}
	if mod == "" {
		return
	}
	if k < len(ts) && ts[k].kind == tStr {
		for _, w := range strings.Fields(ts[k].text) {
			s.alias[w] = mod + "." + w
		}
		return
	}
	s.star(mod)
}

// star makes every name of the table under mod available bare.
func (s *scanner) star(mod string) {
	for key := range s.table {
		if rest, ok := strings.CutPrefix(key, mod+"."); ok && !strings.Contains(rest, ".") && rest != "*" {
			s.alias[rest] = key
		}
	}
}

// assignment records x = …: an alias (x = os.remove, x = require('fs')),
// an object (p = Path(…)), or text (p = "~/x").
func (s *scanner) assignment(i int) {
	toks := s.toks
	if toks[i].is("{") || toks[i].kind != tIdent {
		return
	}
	if i+1 < len(toks) && toks[i+1].is("{") && (i == 0 || toks[i-1].kind == tIdent && declarations[toks[i-1].text]) {
		return
	}
	eq := i + 1
	for eq < len(toks) && eq < i+6 && !isAssign(toks[eq]) && !toks[eq].is("\n") && !toks[eq].is(";") {
		if !toks[eq].is(":") && (toks[eq].kind != tIdent || eq == i+1 && !toks[eq-1].is(":")) && !toks[eq].is("?") {
			if !(s.lang == Swift && eq > i+1) {
				return
			}
		}
		eq++
	}
	if eq >= len(toks) || !isAssign(toks[eq]) {
		return
	}
	name := strings.TrimLeft(toks[i].text, "$@")
	if s.lang == Perl || s.lang == PHP {
		name = toks[i].text
	}
	rhs := trimNL(toks[eq+1 : s.statementEnd(eq+1)])
	s.bind(name, rhs)
}

func isAssign(t tok) bool {
	return t.kind == tPunct && (t.text == "=" || t.text == "<-" || t.text == "<<-" || t.text == ":=")
}

// bind gives name what rhs spells.
func (s *scanner) bind(name string, rhs []tok) {
	if len(rhs) == 0 {
		return
	}
	if rhs[0].kind == tIdent {
		sub := &scanner{lang: s.lang, toks: rhs, alias: s.alias, vars: s.vars, table: s.table, argv: s.argv}
		parts, end := sub.chain(0)
		if end == len(rhs) && len(parts) > 0 {
			last := parts[len(parts)-1]
			full, _ := sub.name(parts)
			switch {
			case len(parts) == 1 && !last.called && last.sub == nil:
				if v, ok := s.vars[last.name]; ok {
					s.vars[name] = v
					return
				}
				s.alias[strings.TrimLeft(name, "$@")] = full
				return
			case last.called && moduleLoaders[last.name] && s.literal(positional(last.args, 0)) != "":
				s.alias[strings.TrimLeft(name, "$@")] = moduleName(s.literal(positional(last.args, 0)))
				return
			case !last.called && last.sub == nil && !s.home(full, parts):
				s.alias[strings.TrimLeft(name, "$@")] = full
				return
			case last.called:
				s.vars[name] = value{chain: full, args: last.args, text: s.value(rhs)}
				return
			}
		}
	}
	s.vars[name] = value{text: s.value(rhs)}
}

// dotted joins tokens a.b.c into "a.b.c".
func dotted(ts []tok) string {
	var b strings.Builder
	for _, t := range ts {
		if t.kind == tIdent || t.is(".") {
			b.WriteString(t.text)
		}
	}
	return b.String()
}

func indexText(ts []tok, text string) int {
	for i, t := range ts {
		if t.kind == tIdent && t.text == text {
			return i
		}
	}
	return -1
}

// destructure reads const {a, b: c} = require('m'): each name is the
// module's. It returns the index after the names.
func (s *scanner) destructure(i int) int {
	close := s.match(i)
	if close+3 >= len(s.toks) || !isAssign(s.toks[close+1]) {
		return i
	}
	rhs := s.toks[close+2 : s.statementEnd(close+2)]
	sub := &scanner{lang: s.lang, toks: rhs, alias: s.alias, vars: s.vars, table: s.table, argv: s.argv}
	parts, _ := sub.chain(0)
	if len(parts) == 0 {
		return close + 1
	}
	mod, _ := sub.name(parts)
	for _, a := range s.splitArgs(s.toks[i+1 : close]) {
		n := a.toks
		switch {
		case a.name != "" && len(n) > 0:
			s.alias[n[len(n)-1].text] = mod + "." + a.name
		case len(n) > 0:
			s.alias[n[0].text] = mod + "." + n[0].text
		}
	}
	return close + 1
}

// property records x.name = … on a variable holding an object (Swift's
// Process: launchPath, executableURL, arguments).
func (s *scanner) property(i int) {
	v, ok := s.vars[s.toks[i].text]
	if !ok {
		return
	}
	if v.props == nil {
		v.props = map[string][]tok{}
	}
	v.props[s.toks[i+2].text] = trimNL(s.toks[i+4 : s.statementEnd(i+4)])
	s.vars[s.toks[i].text] = v
}

// process makes the Run effect of a Process (NSTask) run by its
// launchPath or executableURL and its arguments.
func (s *scanner) process(varName, api string, off int) {
	v := s.vars[varName]
	prog := Hole
	if ts, ok := v.props["executableURL"]; ok {
		prog = s.value(ts)
	} else if ts, ok := v.props["launchPath"]; ok {
		prog = s.value(ts)
	}
	e := Effect{Kind: Run, API: api, Argv: []string{prog}, Off: off}
	if elems, ok := s.list(v.props["arguments"]); ok {
		e.Argv = append(e.Argv, s.values(elems)...)
	} else if _, ok := v.props["arguments"]; ok {
		e.Argv = append(e.Argv, Hole)
	}
	s.emit(e)
}
