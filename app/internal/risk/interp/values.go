package interp

import (
	"strconv"
	"strings"
)

// Values: what text an expression spells, as far as the code says — the
// paths and commands the effects act on. String literals, the home folder
// by its usual names ("~"), variables given one of those, concatenation
// (+, ., .., paste0), joins (os.path.join, File.join, path.join,
// file.path, Path / "x") and the functions that only expand or clean a path
// (expanduser, File.expand_path, realpath …). Anything else is Hole.

// value is the text tokens spell, Hole for what is computed.
func (s *scanner) value(ts []tok) string {
	return s.valueAt(ts, 0)
}

func (s *scanner) valueAt(ts []tok, depth int) string {
	ts = trimParens(trimNL(ts))
	if len(ts) == 0 || depth > 8 {
		return Hole
	}
	var b strings.Builder
	i := 0
	for i < len(ts) {
		text, next := s.operand(ts, i, depth)
		b.WriteString(text)
		i = next
		if i >= len(ts) {
			break
		}
		op := ts[i]
		switch {
		case s.concat(op):
			i++
		case op.is("/") && (s.lang == Python || s.lang == Swift):
			b.WriteString("/") // Path.home() / "x"
			i++
		default:
			return joinHole(b.String())
		}
	}
	return joinHole(b.String())
}

// joinHole collapses runs of holes into one.
func joinHole(s string) string {
	for strings.Contains(s, Hole+Hole) {
		s = strings.ReplaceAll(s, Hole+Hole, Hole)
	}
	if s == "" {
		return Hole
	}
	return s
}

// concat reports the operator that joins strings in the language.
func (s *scanner) concat(t tok) bool {
	if t.kind != tPunct {
		return false
	}
	switch s.lang {
	case Perl, PHP:
		return t.text == "." || t.text == "x"
	case Lua:
		return t.text == ".."
	case R:
		return false
	}
	return t.text == "+" || t.text == "<<" && s.lang == Ruby
}

// operand reads one operand of a concatenation at ts[i]: its text and the
// index after it.
func (s *scanner) operand(ts []tok, i, depth int) (string, int) {
	t := ts[i]
	switch {
	case t.kind == tStr:
		return t.text, i + 1
	case t.is("("):
		for close, d := i+1, 1; close < len(ts); close++ {
			if ts[close].is("(") {
				d++
			} else if ts[close].is(")") {
				if d--; d == 0 {
					return s.valueAt(ts[i+1:close], depth+1), close + 1
				}
			}
		}
		return Hole, len(ts)
	case t.kind != tIdent:
		return Hole, i + 1
	}
	// A chain within ts.
	sub := &scanner{lang: s.lang, toks: ts, alias: s.alias, vars: s.vars, table: s.table, argv: s.argv}
	parts, end := sub.chain(i)
	if len(parts) == 0 {
		return Hole, i + 1
	}
	if last := parts[len(parts)-1]; !last.called && (s.lang == Perl || s.lang == Ruby) && end < len(ts) && ts[end].kind != tPunct {
		// glob "~/x/*", File.expand_path "~/x": a call without parentheses.
		if n, _ := sub.name(parts); expanders[n] || expanders[lastName(n)] {
			return s.valueAt(ts[end:], depth+1), len(ts)
		}
	}
	return s.chainValue(sub, parts, depth), end
}

// chainValue is the text a chain spells: a variable's, the home folder, a
// join, or what an expanding function is given.
func (s *scanner) chainValue(sub *scanner, parts []part, depth int) string {
	if len(parts) == 1 && !parts[0].called && parts[0].sub == nil {
		if v, ok := s.vars[parts[0].name]; ok && v.text != "" {
			return v.text
		}
	}
	name, recv := sub.name(parts)
	last := parts[len(parts)-1]
	if s.home(name, parts) {
		return "~"
	}
	if base, ok := argvBase[name]; ok && last.sub != nil {
		return s.argvValue(last.sub, base)
	}
	base := lastName(name)
	switch {
	case joiners[name] || joiners[base] && strings.Contains(name, "."):
		return s.joinValue(last.args, base, depth)
	case methodJoiners[base] && len(parts) > 1 && last.called && len(last.args) > 0:
		// dir.joinpath("x", "y"), url.appendingPathComponent("x"): the
		// receiver and the names.
		prev := parts[:len(parts)-1]
		return s.chainValue(sub, prev, depth+1) + "/" + s.joinValue(last.args, base, depth)
	case expanders[name] || expanders[base] && len(parts) > 1:
		if last.called && len(last.args) > 0 {
			return s.valueAt(last.args[0].toks, depth+1) // os.path.expanduser(p)
		}
		if len(parts) > 1 {
			// Path(p).resolve(), url.path: the text of what it is called on.
			return s.chainValue(sub, parts[:len(parts)-1], depth+1)
		}
		if len(recv) > 0 {
			return s.valueAt(recv[0].toks, depth+1)
		}
	}
	return Hole
}

// argvValue is sys.argv[1], $ARGV[0]: an argument the command line gives,
// its index sub counted from base.
func (s *scanner) argvValue(sub []tok, base int) string {
	if idx := trimParens(sub); len(idx) == 1 && idx[0].kind == tNum {
		if n, err := strconv.Atoi(idx[0].text); err == nil && n-base >= 0 && n-base < len(s.argv) {
			return s.argv[n-base]
		}
	}
	return Hole
}

// joinValue is what a joining function (os.path.join, File.join, paste0 …)
// makes of its positional arguments.
func (s *scanner) joinValue(args []arg, base string, depth int) string {
	var texts []string
	for _, a := range args {
		if a.name == "" {
			texts = append(texts, s.valueAt(a.toks, depth+1))
		}
	}
	sep := "/"
	if base == "paste0" {
		sep = ""
	}
	return strings.Join(texts, sep)
}

func lastName(name string) string {
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// home reports a chain that names the home folder: Path.home(),
// os.homedir(), Dir.home, NSHomeDirectory(), process.env.HOME,
// $ENV{HOME}, getenv("HOME"), os.environ["HOME"], ENV.fetch("HOME") …
func (s *scanner) home(name string, parts []part) bool {
	if homeNames[name] || homeNames[lastName(name)] && strings.Contains(name, ".") {
		return true
	}
	last := parts[len(parts)-1]
	if last.sub != nil && isHomeVar(s.literalOrName(last.sub)) {
		return envNames[lastName(name)] || envNames[name]
	}
	if last.called && len(last.args) > 0 && isHomeVar(s.literalOrName(last.args[0].toks)) {
		return envGetters[lastName(name)]
	}
	return false
}

func isHomeVar(s string) bool { return s == "HOME" || s == "USERPROFILE" }

// literalOrName is the text of a literal string or a bare name ($ENV{HOME}).
func (s *scanner) literalOrName(ts []tok) string {
	ts = trimParens(ts)
	if len(ts) == 1 && (ts[0].kind == tStr && ts[0].lit || ts[0].kind == tIdent) {
		return ts[0].text
	}
	return ""
}

// homeNames are the names of the home folder, qualified or (for the
// qualified ones) by their last part.
var homeNames = map[string]bool{
	"Path.home": true, "pathlib.Path.home": true, "Dir.home": true, "os.homedir": true, "homedir": true,
	"NSHomeDirectory": true, "homeDirectoryForCurrentUser": true, "FileManager.default.homeDirectoryForCurrentUser": true,
	"process.env.HOME": true, "Deno.env.HOME": true, "Gem.user_home": true, "File.home": true,
	"FileManager.default.homeDirectoryForCurrentUser.path": true, "$HOME": true,
}

// envNames hold the environment, looked up by a subscript: os.environ["HOME"],
// ENV["HOME"], $ENV{HOME}, $_SERVER['HOME'], environment["HOME"].
var envNames = map[string]bool{"environ": true, "ENV": true, "$ENV": true, "$_SERVER": true, "$_ENV": true,
	"environment": true, "env": true, "os.environ": true}

// envGetters look a variable of the environment up by name.
var envGetters = map[string]bool{"getenv": true, "get": true, "fetch": true, "Sys.getenv": true, "environ": true, "env": true}

// joiners join their arguments into a path.
var joiners = map[string]bool{"os.path.join": true, "path.join": true, "File.join": true, "file.path": true,
	"path.resolve": true, "posixpath.join": true, "paste0": true, "Join-Path": true, "catfile": true,
	"File.Spec.catfile": true, "fs::path": true, "fs.path": true, "filepath.Join": true, "URL.fileURLWithPath": false}

// methodJoiners add a name to the path they are called on.
var methodJoiners = map[string]bool{"joinpath": true, "appendingPathComponent": true, "appending": true, "join": false}

// expanders return the path they are given, expanded or cleaned: the same
// file.
var expanders = map[string]bool{
	"os.path.expanduser": true, "expanduser": true, "os.path.abspath": true, "abspath": true, "os.path.realpath": true,
	"realpath": true, "os.path.normpath": true, "normpath": true, "Path": true, "pathlib.Path": true, "PurePath": true,
	"resolve": true, "expanduser()": true, "str": true, "String": true, "File.expand_path": true, "expand_path": true,
	"File.absolute_path": true, "Pathname": true, "path.normalize": true, "normalize": true, "path.expand": true,
	"normalizePath": true, "NSString": true, "expandingTildeInPath": true, "stringByExpandingTildeInPath": true,
	"URL": true, "fileURLWithPath": true, "path": true, "glob": true, "to_s": true, "fspath": true, "os.fspath": true,
	"fs.realpathSync": true, "realpathSync": true, "Path.expanduser": true, "Path.resolve": true, "absolute": true,
	"as_posix": true, "toString": true, "tostring": true, "strval": true, "glob.glob": true, "Dir.glob": true,
}

// argvBase are the names of a program's arguments, each with the index
// that reads the first argument after the code: python -c CODE a gives
// sys.argv ["-c", "a"], node -e CODE a process.argv [node, "a"], perl -e
// CODE a @ARGV ("a"), ruby -e CODE a ARGV ["a"], php -r CODE a $argv
// ["Standard input code", "a"].
var argvBase = map[string]int{"sys.argv": 1, "process.argv": 1, "$ARGV": 0, "ARGV": 0, "$argv": 1}

// argvList reports tokens that are all of a program's arguments (Perl's
// @ARGV, Ruby's ARGV, Python's sys.argv[1:], node's process.argv.slice(1)).
func (s *scanner) argvList(ts []tok) bool {
	ts = trimParens(ts)
	switch {
	case len(ts) == 1 && ts[0].kind == tIdent:
		return ts[0].text == "@ARGV" && s.lang == Perl || ts[0].text == "ARGV" && s.lang == Ruby
	case len(ts) == 7 && s.lang == Python:
		return dotted(ts[:3]) == "sys.argv" && ts[3].is("[") && ts[4].text == "1" && ts[5].is(":") && ts[6].is("]")
	}
	return false
}
