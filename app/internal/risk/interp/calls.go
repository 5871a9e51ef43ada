package interp

import (
	"strings"
)

// Calls: a chain the tables know becomes effects, by how its arguments say
// what it does.

// how is how a call's arguments say what it does.
type how uint8

const (
	hPlain     how = iota // the effect of its row, on its target
	hOpen                 // a mode string (w, a, r+ …) says write, append or read
	hOpenBits             // flags (O_WRONLY, O_APPEND …) say it
	hPerlOpen             // Perl's open: 3-argument modes, 2-argument >path, |cmd
	hRubyOpen             // Ruby's open: "|cmd" runs it
	hShell                // a command line a shell runs
	hArgv                 // a program and its arguments as a list, or one string (shell with its shell option)
	hSystem               // Perl's and Ruby's system: one string is shell, more are the program and its arguments
	hSpawn                // node's spawn: the program, then a list of arguments (Deno.Command: {args: […]})
	hExecv                // Python's os.execv: the program, then its argv list
	hExecl                // Python's os.execl: the program, then argv[0], its arguments
	hEval                 // code from a string
	hEvalStr              // code from a string, only when given one (setTimeout("…") but not setTimeout(f))
	hAppendOpt            // a write that appends with its option (FILE_APPEND, append=TRUE, {flag: 'a'})
	hFetchTo              // a download saved to its target (urlretrieve, download.file)
	hCallback             // PHP's array_map('unlink', …): the function named by a string
	hDecodeArg            // a decoder when its second argument names an encoding (Buffer.from(x, 'base64'))
	hProcess              // Swift's Process run: its launchPath or executableURL and arguments, set before
)

// api is a row of a language's table.
type api struct {
	kind    Kind
	how     how
	arg     int    // the target: an argument's index, argRecv, argAll
	named   string // names the target argument may be given by, |-separated (atPath|at)
	mode    int    // hOpen: the argument holding the mode
	opt     string // a named option that makes a removal recursive, a run a shell's, a write an append
	tree    bool   // a removal of a folder and all it holds
	program string // hArgv, hSpawn: the option key holding the argument list (Deno: args, cmd)
	copies  bool   // a copy or a move: it also reads its source, the first argument (the object, for argRecv-less methods of Path)
	fromObj bool   // copies: the source is the object the method is called on (Path(p).rename(q))
}

const (
	argRecv = -1 // the object the method is called on: Path(p).unlink()
	argAll  = -2 // every positional argument (unlink LIST)
	argNone = -3 // no positional argument: only the named one, if given (String(contentsOfFile:)); none for Net and Decode
)

// lookup finds the row of a qualified name: the name itself; a row named
// by its last parts (pathlib.Path.unlink is Path.unlink); a module's rows
// (requests.*); a method of that name on any object (.removeItem).
func (s *scanner) lookup(name string) (api, bool) {
	if a, ok := s.table[name]; ok {
		return a, true
	}
	for i := 0; i < len(name); i++ {
		if name[i] != '.' {
			continue
		}
		if a, ok := s.table[name[i+1:]]; ok && strings.Contains(name[i+1:], ".") {
			return a, true
		}
		if a, ok := s.table[name[:i]+".*"]; ok {
			return a, true
		}
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		if a, ok := s.table[name[i:]]; ok {
			return a, true
		}
	}
	return api{}, false
}

// call turns a chain into effects when the table knows it; on, when
// given, is the value the chain's first name is a method of.
func (s *scanner) call(parts []part, end int, on []arg) {
	if len(parts) == 0 {
		return
	}
	// The longest prefix of the chain the table knows: open(p).read() is
	// open's call.
	var a api
	var name string
	var recv []arg
	found := false
	for k := len(parts); k > 0 && !found; k-- {
		if k < len(parts) && !parts[k-1].called {
			continue
		}
		name, recv = s.name(parts[:k])
		if on != nil {
			name = "." + name
			if k == 1 {
				recv = on
			}
		}
		if a, found = s.lookup(name); found {
			if k < len(parts) {
				end = parts[k].tok - 1
			}
			parts = parts[:k]
		}
	}
	if !found {
		return
	}
	last := parts[len(parts)-1]
	off := s.toks[last.tok].off
	args := last.args
	if n := len(parts); a.arg == argRecv && on == nil && n > 2 && parts[n-2].called && methodJoiners[parts[n-2].name] {
		// Path.home().joinpath("a", "b").write_text(…): the receiver is the
		// whole join, not the joining call's first argument.
		recv = []arg{{toks: s.toks[parts[0].tok : last.tok-1]}}
	}
	if a.how == hProcess {
		if len(parts) > 1 && last.called {
			s.process(parts[0].name, name, off)
		}
		return
	}
	if !last.called {
		switch {
		case s.parenless(end):
			args = s.splitArgs(s.toks[end:s.statementEnd(end)])
		case s.lang == Perl && name == "eval" && end < len(s.toks) && s.toks[end].is("{"):
			return // eval { … }: a block, not code from text
		case strings.Contains(name, ".") && (a.kind == Remove || a.kind == Run || a.kind == Eval) && !s.assigned(end):
			// map(os.remove, files): the function passed, called later.
			s.emit(Effect{Kind: a.kind, API: name, Target: Hole, Shell: a.how == hShell, Tree: a.tree, Off: off})
			return
		default:
			return
		}
	}
	s.apply(a, name, args, recv, off)
}

// parenless reports a call without parentheses (Perl, Ruby): an operand
// follows the name.
func (s *scanner) parenless(end int) bool {
	if s.lang != Perl && s.lang != Ruby || end >= len(s.toks) {
		return false
	}
	t := s.toks[end]
	switch t.kind {
	case tStr, tNum:
		return true
	case tIdent:
		switch t.text {
		case "if", "unless", "or", "and", "do", "then", "end", "while", "until", "not", "in", "rescue":
			return false
		}
		return true
	}
	return s.lang == Perl && t.is("<") || t.is("[") && s.lang == Ruby
}

// assigned reports that the chain ending at end is assigned to (x.y = …).
func (s *scanner) assigned(end int) bool {
	return end < len(s.toks) && (s.toks[end].is("=") || s.toks[end].is(":"))
}

// apply makes the effects of a call of a by its arguments.
func (s *scanner) apply(a api, name string, args []arg, recv []arg, off int) {
	e := Effect{Kind: a.kind, API: name, Off: off, Tree: a.tree || s.truthy(args, a.opt)}
	switch a.how {
	case hPlain:
		if _, ok := named(args, a.named); a.arg == argNone && a.named != "" && !ok {
			return // String(x), Data(x): not the form that reads a file
		}
		for _, t := range s.targets(a, args, recv) {
			e.Target = t
			s.emitTarget(e)
		}
		if a.copies {
			// shutil.copy(src, dst), fs.copyFileSync(src, dst): what
			// the copy reads is read, a secret as much as by open().
			src := api{kind: Read, arg: 0}
			if a.fromObj {
				src.arg = argRecv
			}
			s.emitTarget(Effect{Kind: Read, API: name, Off: off, Target: s.target(src, args, recv)})
		}
	case hOpen, hOpenBits:
		e.Kind = s.openMode(a, args)
		e.Target = s.target(a, args, recv)
		s.emitTarget(e)
	case hPerlOpen:
		if len(args) > 1 && strings.Contains(s.literal(args[1].toks), "&") {
			return // open(STDOUT, ">&", $s): a handle duplicated
		}
		s.perlOpen(e, args)
	case hRubyOpen:
		if t := s.target(a, args, recv); strings.HasPrefix(t, "|") {
			s.emit(Effect{Kind: Run, API: name, Target: t[1:], Shell: true, Off: off})
			return
		}
		e.Kind = s.openMode(a, args)
		e.Target = s.target(a, args, recv)
		s.emitTarget(e)
	case hShell, hArgv, hSystem, hSpawn, hExecv, hExecl:
		s.runCall(a, e, args)
	case hEval, hEvalStr:
		s.evalCall(a, e, args, recv)
	case hAppendOpt:
		if _, ok := named(args, a.named); a.arg == argNone && !ok {
			return // cat("x"): to the console
		}
		e.Target = s.target(a, args, recv)
		if s.appends(args, a.opt) {
			e.Kind = Append
		}
		s.emitTarget(e)
	case hFetchTo:
		s.emit(Effect{Kind: Net, API: name, Target: s.valueOf(positional(args, 0)), Off: off})
		e.Kind, e.Target = Write, s.target(a, args, recv)
		s.emitTarget(e)
	case hCallback:
		if len(args) > 0 {
			if fn := s.literal(args[0].toks); fn != "" {
				if b, ok := s.table[fn]; ok && b.how != hCallback {
					s.emit(Effect{Kind: b.kind, API: fn, Target: Hole, Shell: b.how == hShell, Off: off})
				}
			}
		}
	case hDecodeArg:
		if enc := strings.ToLower(s.literal(positional(args, 1))); enc == "base64" || enc == "hex" || enc == "base64url" {
			s.emit(e)
		}
	}
}

// emitTarget emits e, a read of an address on the network as Net.
func (s *scanner) emitTarget(e Effect) {
	if e.Kind == Read || e.Kind == Write && e.API == "file_get_contents" {
		low := strings.ToLower(e.Target)
		for _, scheme := range []string{"http://", "https://", "ftp://"} {
			if strings.HasPrefix(low, scheme) {
				e.Kind = Net
			}
		}
	}
	if e.Target == "" {
		e.Target = Hole
	}
	s.emit(e)
}

// positional returns the tokens of the n-th argument given without a name.
func positional(args []arg, n int) []tok {
	for _, a := range args {
		if a.name != "" {
			continue
		}
		if n == 0 {
			return a.toks
		}
		n--
	}
	return nil
}

// named returns the tokens of the argument given by one of names.
func named(args []arg, names string) ([]tok, bool) {
	if names == "" {
		return nil, false
	}
	for _, a := range args {
		for _, n := range strings.Split(names, "|") {
			if a.name == n {
				return a.toks, true
			}
		}
	}
	return nil, false
}

func (s *scanner) valueOf(ts []tok) string {
	if ts == nil {
		return Hole
	}
	return s.value(ts)
}

// target is the text of a's target argument.
func (s *scanner) target(a api, args, recv []arg) string {
	if ts, ok := named(args, a.named); ok {
		return s.value(ts)
	}
	switch a.arg {
	case argRecv:
		if len(recv) > 0 {
			return s.valueOf(positional(recv, 0))
		}
		return Hole
	case argAll:
		return s.valueOf(positional(args, 0))
	}
	if a.named != "" && a.arg == 0 && len(positional(args, 0)) == 0 {
		return Hole
	}
	return s.valueOf(positional(args, a.arg))
}

// targets are a's targets: every positional argument (and the elements of
// a list among them) for argAll, else its one target.
func (s *scanner) targets(a api, args, recv []arg) []string {
	if a.arg != argAll {
		return []string{s.target(a, args, recv)}
	}
	var out []string
	for _, x := range args {
		if x.name != "" {
			continue
		}
		if s.argvList(x.toks) {
			// unlink @ARGV: every argument.
			if len(s.argv) == 0 {
				out = append(out, Hole)
			}
			out = append(out, s.argv...)
			continue
		}
		if elems, ok := s.list(x.toks); ok {
			for _, el := range elems {
				out = append(out, s.value(el))
			}
			continue
		}
		out = append(out, s.value(x.toks))
		if len(out) >= 16 {
			break
		}
	}
	if len(out) == 0 {
		out = append(out, Hole)
	}
	return out
}

// list returns the elements of a list literal ([a, b], (a, b) in Perl,
// %w(a b) already a string, c(a, b) in R).
func (s *scanner) list(ts []tok) ([][]tok, bool) {
	ts = trimNL(ts)
	if len(ts) >= 2 && (ts[0].is("[") || ts[0].is("(") && s.lang == Perl) && s.match0(ts) == len(ts)-1 {
		var out [][]tok
		for _, a := range s.splitArgs(ts[1 : len(ts)-1]) {
			out = append(out, a.toks)
		}
		return out, true
	}
	if len(ts) >= 3 && ts[0].kind == tIdent && (ts[0].text == "c" && s.lang == R || ts[0].text == "array" && s.lang == PHP) && ts[1].is("(") {
		var out [][]tok
		for _, a := range s.splitArgs(ts[2 : len(ts)-1]) {
			out = append(out, a.toks)
		}
		return out, true
	}
	return nil, false
}

// match0 is match within ts, for its first token.
func (s *scanner) match0(ts []tok) int {
	sub := &scanner{toks: ts}
	return sub.match(0)
}

// truthy reports the option opt given as true (recursive=TRUE,
// {recursive: true}, shell=True), as a named argument or inside an options
// record.
func (s *scanner) truthy(args []arg, opt string) bool {
	if opt == "" {
		return false
	}
	for _, a := range args {
		if a.name == opt && len(a.toks) > 0 && isTrue(a.toks[0]) {
			return true
		}
		for i := 0; i+2 < len(a.toks); i++ {
			if (a.toks[i].text == opt) && (a.toks[i+1].is(":") || a.toks[i+1].is("=") || a.toks[i+1].is("=>")) && isTrue(a.toks[i+2]) {
				return true
			}
		}
	}
	return false
}

func isTrue(t tok) bool {
	switch t.text {
	case "true", "True", "TRUE", "T", "1", "yes":
		return t.kind != tStr
	}
	return false
}

// appends reports an append option: a flag named opt (FILE_APPEND), a true
// append option, or a mode or flag of "a".
func (s *scanner) appends(args []arg, opt string) bool {
	if s.truthy(args, opt) {
		return true
	}
	for _, a := range args {
		for i, t := range a.toks {
			if t.kind == tIdent && t.text == opt {
				return true
			}
			if t.kind == tIdent && (t.text == "mode" || t.text == "flag" || t.text == "flags") && i+2 < len(a.toks) && a.toks[i+2].kind == tStr && strings.HasPrefix(a.toks[i+2].text, "a") {
				return true
			}
		}
		if (a.name == "mode" || a.name == "flag" || a.name == "flags") && len(a.toks) == 1 && strings.HasPrefix(a.toks[0].text, "a") {
			return true
		}
	}
	return false
}

// openMode is what an open call does by its mode: w, x and + write, a
// appends, the rest reads; flags (O_WRONLY …) for hOpenBits.
func (s *scanner) openMode(a api, args []arg) Kind {
	ts, ok := named(args, "mode|flags|flag|open")
	if !ok {
		ts = positional(args, a.mode)
	}
	if a.how == hOpenBits {
		text := ""
		for _, t := range ts {
			text += t.text + " "
		}
		switch {
		case strings.Contains(text, "APPEND"):
			return Append
		case strings.Contains(text, "WRONLY") || strings.Contains(text, "RDWR") || strings.Contains(text, "CREAT") || strings.Contains(text, "TRUNC"):
			return Write
		}
		return Read
	}
	if ts == nil {
		return Read
	}
	mode := s.literal(ts)
	switch {
	case mode == "" && len(ts) > 0:
		return Write // a mode computed at run time may write
	case strings.ContainsAny(mode, "a"):
		return Append
	case strings.ContainsAny(mode, "wx+"):
		return Write
	}
	return Read
}

// perlOpen reads Perl's open: open(FH, MODE, PATH) with < > >> +< |- -|,
// or open(FH, "EXPR") whose leading > >> + or | or trailing | say it.
func (s *scanner) perlOpen(e Effect, args []arg) {
	switch len(args) {
	case 0, 1:
		return
	case 2:
		t := strings.TrimSpace(s.value(args[1].toks))
		switch {
		case strings.HasPrefix(t, "|"):
			e.Kind, e.Target, e.Shell = Run, strings.TrimSpace(t[1:]), true
		case strings.HasSuffix(t, "|"):
			e.Kind, e.Target, e.Shell = Run, strings.TrimSpace(strings.TrimSuffix(t, "|")), true
		case strings.HasPrefix(t, ">>"):
			e.Kind, e.Target = Append, strings.TrimSpace(t[2:])
		case strings.HasPrefix(t, "+>") || strings.HasPrefix(t, ">") || strings.HasPrefix(t, "+<"):
			e.Kind, e.Target = Write, strings.TrimSpace(strings.TrimLeft(t, "+<>"))
		default:
			e.Kind, e.Target = Read, strings.TrimSpace(strings.TrimPrefix(t, "<"))
		}
	default:
		mode := strings.TrimSpace(s.literal(args[1].toks))
		e.Target = s.value(args[2].toks)
		switch {
		case strings.Contains(mode, "|"):
			e.Kind, e.Shell = Run, len(args) == 3
			if len(args) > 3 {
				e.Argv = nil
				for _, x := range args[2:] {
					e.Argv = append(e.Argv, s.value(x.toks))
				}
			}
		case strings.HasPrefix(mode, ">>"):
			e.Kind = Append
		case strings.ContainsAny(mode, ">+") || mode == "":
			e.Kind = Write
		default:
			e.Kind = Read
		}
	}
	s.emitTarget(e)
}
