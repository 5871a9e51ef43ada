package shell

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// RunSet is what Runs names: the files a command line hands control to.
type RunSet struct {
	// Files must be regular files: the scripts and programs it runs.
	Files []string
	// Optional are files it reads as its program when they are there (a
	// makefile, .npmrc): their absence matters as much as their content.
	Optional []string
	// Folders are the folders an interpreter may load code from beside a
	// script it runs (Python's imports, Node's relative requires, a shell's
	// sourced files): what their code files hold is part of what runs.
	Folders []Folder
	// Why, when not empty, says why Airlock cannot name every file it
	// runs; Files and Optional are then incomplete and must not be used.
	Why string
}

// Folder is the folder of a script an interpreter runs, as far as it loads
// code from there: the files directly in it whose names end in one of Exts
// and, when Deep, those in its subfolders (packages, relative requires),
// but never in node_modules or .git (see Loads). What the walk may pin
// and how far is up to the reader (policy bounds it).
type Folder struct {
	// Script is the script, absolute and clean. Its folder is the one
	// named; an interpreter that resolves a link to the script (Python,
	// Node) loads from the folder of the file it links to as well.
	Script string
	// Lang names the language, for the person ("Python").
	Lang string
	// Exts are the endings, lower case, of the names of the files it loads
	// code from (".py", ".so"); a name is matched without regard to case,
	// as macOS's file system does.
	Exts []string
	// Deep says it loads from subfolders too.
	Deep bool
}

// Loads are the languages whose interpreters load code from beside the
// script they run, by the name Runs knows the interpreter under. Every
// entry is Deep: each of them can name a file in a subfolder relative to
// the script or as a package. node_modules is never walked (too big:
// thousands of files; a bare require('x') that finds a planted package
// there is not covered), nor .git (no interpreter imports from it by a
// module name).
var Loads = map[string]Folder{
	// sys.path[0] is the script's folder: a module (json.py shadows the
	// standard library's json), a compiled one (.pyc without its source,
	// a cached one in __pycache__, checked only against the source's time
	// and size) or an extension (.so), and packages in subfolders, with
	// or without __init__.py.
	"python": {Lang: "Python", Exts: []string{".py", ".pyc", ".so"}, Deep: true},
	// require('./x') and import from './x' resolve from the script's
	// folder: .js, .mjs, .cjs, .json, native .node addons, a folder's
	// index.js or package.json main.
	"node": {Lang: "Node", Exts: []string{".js", ".mjs", ".cjs", ".json", ".node"}, Deep: true},
	// require_relative and load of a path beside the script; native
	// extensions are .so or .bundle.
	"ruby": {Lang: "Ruby", Exts: []string{".rb", ".so", ".bundle"}, Deep: true},
	// use lib with FindBin's $Bin, require and do of a path beside it.
	"perl": {Lang: "Perl", Exts: []string{".pl", ".pm", ".so"}, Deep: true},
	// include and require of a path relative to the script.
	"php": {Lang: "PHP", Exts: []string{".php", ".inc", ".phtml"}, Deep: true},
	// require "a.b" finds a/b.lua or a C module a/b.so.
	"lua": {Lang: "Lua", Exts: []string{".lua", ".so"}, Deep: true},
	// source [file join [file dirname [info script]] x.tcl].
	"tcl": {Lang: "Tcl", Exts: []string{".tcl", ".tm"}, Deep: true},
	// source("x.R") of a file beside it.
	"r": {Lang: "R", Exts: []string{".r"}, Deep: true},
	// . "$(dirname "$0")/lib.sh" and source of a file beside it.
	"sh": {Lang: "shell", Exts: []string{".sh", ".bash", ".zsh", ".ksh"}, Deep: true},
	// import of a relative module ./x.ts.
	"deno": {Lang: "Deno", Exts: []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".json"}, Deep: true},
}

// maxRunsDepth bounds the sh -c nested in sh -c that Runs follows.
const maxRunsDepth = 4

// Runs names the files the shell script src (argv nil) or the command argv
// (run without a shell) hands to an interpreter or runs: a script given to
// python, node, bash …, a program named by its path (./tool), the file of
// a file option (make -f, awk -f, sed -f), and the files a build tool reads
// as its program in the folder it starts in (a makefile, package.json, a
// justfile, a Rakefile). dir is the folder the command starts in, absolute;
// ~ is env.Paths.Home. env must be bound to an assessment: the commands it
// does not model are rated through it, and only those the analyzer rates
// Caution or below (the auto-run contract: they start no code Airlock does
// not know), or whose findings are file writes, name no file.
//
// It is conservative: anything it does not model — a word computed at run
// time, an option it does not know, a wrapper (xargs, env, sudo), a module
// looked up on a path, a program read from standard input, shell syntax
// beyond simple commands joined by &&, || and |, files run after other
// commands that could change them — sets Why. For a script an interpreter
// of Loads runs, the folder it loads code from beside the script is named
// (Folders). What else the named files load in turn (a makefile's
// includes, a module from the interpreter's own library or node_modules,
// the scripts a recipe or a package.json script runs) is not named.
func Runs(src string, argv []string, dir string, env *Env) RunSet {
	r := &runsWalk{env: env}
	if env != nil && env.Paths != nil {
		r.home = env.Paths.Home
	}
	switch {
	case !path.IsAbs(dir):
		r.fail("the folder the command starts in is not known")
	case argv != nil:
		r.command(argv, dir)
	default:
		r.script(src, dir)
	}
	if r.why != "" {
		return RunSet{Why: r.why}
	}
	files := sortedSet(r.files)
	var optional []string
	for _, p := range sortedSet(r.optional) {
		if _, found := slices.BinarySearch(files, p); !found {
			optional = append(optional, p)
		}
	}
	return RunSet{Files: files, Optional: optional, Folders: sortedFolders(r.folders)}
}

// sortedFolders sorts the folders by script and language, without repeats.
func sortedFolders(fs []Folder) []Folder {
	out := slices.Clone(fs)
	slices.SortFunc(out, func(a, b Folder) int {
		if c := strings.Compare(a.Script, b.Script); c != 0 {
			return c
		}
		return strings.Compare(a.Lang, b.Lang)
	})
	return slices.CompactFunc(out, func(a, b Folder) bool { return a.Script == b.Script && a.Lang == b.Lang })
}

func sortedSet(ps []string) []string {
	out := slices.Clone(ps)
	slices.Sort(out)
	return slices.Compact(out)
}

// runsWalk is the state of one Runs.
type runsWalk struct {
	env      *Env
	home     string
	files    []string
	optional []string
	folders  []Folder
	why      string
	depth    int
}

func (r *runsWalk) fail(format string, args ...any) {
	if r.why == "" {
		r.why = fmt.Sprintf(format, args...)
	}
}

// pin names a file the command runs: it must be a regular file.
func (r *runsWalk) pin(p, dir string) {
	if strings.Contains(p, "://") {
		r.fail("%s is a network address: what it serves can change", rate.Display(p))
		return
	}
	r.files = append(r.files, resolveIn(p, dir))
}

// pinLoads names a script the interpreter of language lang (a key of
// Loads) runs, and the folder it loads code from beside it.
func (r *runsWalk) pinLoads(p, dir, lang string) {
	r.pin(p, dir)
	if r.why != "" {
		return
	}
	f := Loads[lang]
	f.Script = resolveIn(p, dir)
	r.folders = append(r.folders, f)
}

// pinOptional names a file the command reads as its program if it is there.
func (r *runsWalk) pinOptional(p, dir string) {
	r.optional = append(r.optional, resolveIn(p, dir))
}

// resolveIn makes p absolute under dir (p is never ~…: a shell expanded
// that already, and without a shell ~ is an ordinary name).
func resolveIn(p, dir string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	return path.Join(dir, p)
}

// script walks a shell script: simple commands joined by &&, || and |,
// each of literal words, with `cd DIR &&` before a command moving where it
// starts. A script that runs files may run nothing else but read-only
// commands: another command could change a file between the check and its
// use.
func (r *runsWalk) script(src, dir string) {
	if r.depth >= maxRunsDepth {
		r.fail("shell commands nested more than %d deep", maxRunsDepth)
		return
	}
	r.depth++
	defer func() { r.depth-- }()
	if parserMarks(src) {
		r.fail("the shell command holds a character the parser cannot read")
		return
	}
	p := bashParsers.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(src), "")
	bashParsers.Put(p)
	if err != nil {
		r.fail("the shell command cannot be parsed")
		return
	}
	var cmds []runsCmd
	for _, st := range f.Stmts {
		r.stmt(st, dir, &cmds)
	}
	if r.why != "" {
		return
	}
	pinning := 0
	for _, c := range cmds {
		if c.pins {
			pinning++
		}
	}
	if pinning == 0 {
		return
	}
	for _, c := range cmds {
		if pinning > 1 || !c.pins && (c.writes || c.level > level.Safe) {
			r.fail("it runs files alongside other commands that could change them")
			return
		}
	}
}

// runsCmd is one simple command of a script, as script judges it.
type runsCmd struct {
	pins   bool        // it runs files
	writes bool        // it redirects output to a file
	level  level.Level // the analyzer's rating, for a command that runs no file
}

func (r *runsWalk) stmt(st *syntax.Stmt, dir string, cmds *[]runsCmd) {
	if r.why != "" {
		return
	}
	if st.Negated || st.Background || st.Coprocess {
		r.fail("it uses shell syntax (!, &) that a remembered approval does not cover")
		return
	}
	writes := false
	for _, rd := range st.Redirs {
		switch rd.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.ClbOut, syntax.RdrAll, syntax.AppAll, syntax.DplOut:
			if _, ok := r.literal(rd.Word); !ok {
				return
			}
			writes = writes || rd.Op != syntax.DplOut
		default:
			r.fail("it reads its input from a redirection, which can be a program")
			return
		}
	}
	switch c := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Assigns) > 0 {
			r.fail("it sets variables, which can change what runs")
			return
		}
		argv := make([]string, 0, len(c.Args))
		for _, w := range c.Args {
			s, ok := r.literal(w)
			if !ok {
				return
			}
			argv = append(argv, s)
		}
		if len(argv) > 0 && argv[0] == "cd" {
			r.fail("it changes folder other than as `cd FOLDER && command`")
			return
		}
		before := len(r.files) + len(r.optional)
		rc := runsCmd{writes: writes}
		rc.level = r.command(argv, dir)
		rc.pins = len(r.files)+len(r.optional) > before
		*cmds = append(*cmds, rc)
	case *syntax.BinaryCmd:
		if c.Op == syntax.AndStmt {
			if to, ok := r.cd(c.X, dir); ok {
				r.stmt(c.Y, to, cmds)
				return
			}
		}
		switch c.Op {
		case syntax.AndStmt, syntax.OrStmt, syntax.Pipe, syntax.PipeAll:
			r.stmt(c.X, dir, cmds)
			r.stmt(c.Y, dir, cmds)
		default:
			r.fail("it uses shell syntax that a remembered approval does not cover")
		}
	default:
		r.fail("it uses shell syntax (%s) that a remembered approval does not cover", nodeName(st.Cmd))
	}
}

func nodeName(n syntax.Node) string {
	s := fmt.Sprintf("%T", n)
	return strings.ToLower(strings.TrimPrefix(s, "*syntax."))
}

// cd reads st as `cd FOLDER` (a plain cd to a folder named by its path,
// ~ expanded) and returns the folder, or false when st is not one.
func (r *runsWalk) cd(st *syntax.Stmt, dir string) (string, bool) {
	c, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || st.Coprocess || len(st.Redirs) > 0 || len(c.Assigns) > 0 || len(c.Args) == 0 {
		return "", false
	}
	if c.Args[0].Lit() != "cd" {
		return "", false
	}
	switch len(c.Args) {
	case 1:
		if r.home == "" {
			return "", false
		}
		return r.home, true
	case 2:
		to, ok := r.literal(c.Args[1])
		if !ok {
			return "", false
		}
		// A relative name is looked up on CDPATH first: only ./ and ../
		// name a folder here for certain.
		if !path.IsAbs(to) && !strings.HasPrefix(to, "./") && !strings.HasPrefix(to, "../") && to != "." && to != ".." {
			return "", false
		}
		return resolveIn(to, dir), true
	}
	return "", false
}

// literal returns the text of a word that no shell expands: plain text,
// quotes, escapes, and a leading ~ or ~/ for the home. Anything else —
// parameters, command substitutions, globs, braces, ~user, a word zsh
// would expand (=cmd) — fails.
func (r *runsWalk) literal(w *syntax.Word) (string, bool) {
	if w == nil {
		r.fail("it has an empty redirection")
		return "", false
	}
	var b strings.Builder
	for i, part := range w.Parts {
		switch p := part.(type) {
		case *syntax.Lit:
			v := p.Value
			if i == 0 && strings.HasPrefix(v, "~") {
				rest, ok := strings.CutPrefix(v, "~")
				if !ok || rest != "" && !strings.HasPrefix(rest, "/") || r.home == "" {
					r.fail("it names a home folder Airlock does not know (%s)", rate.Display(v))
					return "", false
				}
				b.WriteString(r.home)
				v = rest
			}
			if i == 0 && strings.HasPrefix(v, "=") {
				r.fail("a word starts with =, which zsh expands to a program's path")
				return "", false
			}
			s, ok := plainUnquoted(v)
			if !ok {
				r.fail("a word holds characters a shell expands (%s)", rate.Display(v))
				return "", false
			}
			b.WriteString(s)
		case *syntax.SglQuoted:
			if p.Dollar {
				r.fail("a word uses $'…' quoting")
				return "", false
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			if p.Dollar {
				r.fail("a word uses $\"…\" quoting")
				return "", false
			}
			for _, q := range p.Parts {
				lit, ok := q.(*syntax.Lit)
				if !ok {
					r.fail("a word is computed when the command runs")
					return "", false
				}
				b.WriteString(unescapeDouble(lit.Value))
			}
		default:
			r.fail("a word is computed when the command runs")
			return "", false
		}
	}
	return b.String(), true
}

// plainUnquoted resolves the backslashes of unquoted text and refuses the
// characters a shell would expand there: globs, braces, history, and a ~
// that could start a tilde expansion after = or :.
func plainUnquoted(v string) (string, bool) {
	for i := 0; i < len(v); i++ {
		switch {
		case v[i] == '\\':
			i++
		case strings.IndexByte("*?[]{}~!", v[i]) >= 0:
			return "", false
		}
	}
	return unescapeUnquoted(v), true
}

// command names the files of one command run with argv in dir and returns
// the analyzer's level for it; a program Runs models runs code (Dangerous),
// and one named by its path only its own file (Safe: that file is pinned).
func (r *runsWalk) command(argv []string, dir string) level.Level {
	argv = peelRunsWrappers(argv)
	if len(argv) == 0 || argv[0] == "" {
		r.fail("no program is named")
		return level.Safe
	}
	head := argv[0]
	name := commandName(head)
	if strings.Contains(head, "/") {
		// The program itself is a file: its content is what runs.
		r.pin(head, dir)
		if _, modelled := runners[name]; !modelled && !isPython(name) && !knownCommand(name) {
			return level.Safe // a program of its own: nothing else to name
		}
	}
	if run, ok := runners[name]; ok {
		run(r, name, argv[1:], dir)
		return level.Dangerous
	}
	if isPython(name) {
		pythonModel.run(r, name, argv[1:], dir)
		return level.Dangerous
	}
	return r.rated(argv)
}

// rated asks the analyzer about a command Runs does not model: it names no
// file if every finding at Dangerous or above is a file write.
func (r *runsWalk) rated(argv []string) level.Level {
	var v Verdict
	Argv(&v, argv, r.env)
	for _, re := range v.Reasons {
		if re.Level >= level.Dangerous && !writeRules[re.Rule] {
			r.fail("Airlock cannot name the files it runs (%s)", re.Text)
			return v.Level
		}
	}
	return v.Level
}

// writeRules are the analyzer's Dangerous findings that are a file write
// and start no code.
var writeRules = map[string]bool{"shell.write": true}

// peelRunsWrappers takes off the wrappers that run their arguments as they
// are: nohup, command, exec, nice -n N.
func peelRunsWrappers(argv []string) []string {
	for len(argv) > 1 {
		switch argv[0] {
		case "nohup":
			argv = argv[1:]
		case "command", "exec":
			if strings.HasPrefix(argv[1], "-") {
				return argv // command -v, exec -a: not a plain run
			}
			argv = argv[1:]
		case "nice":
			switch {
			case argv[1] == "-n" && len(argv) > 3:
				argv = argv[3:]
			case strings.HasPrefix(argv[1], "-"):
				return argv
			default:
				argv = argv[1:]
			}
		default:
			return argv
		}
	}
	return argv
}

func isPython(name string) bool {
	rest, ok := strings.CutPrefix(name, "python")
	return ok && strings.Trim(rest, "0123456789.") == ""
}

// runners are the programs Runs models: each names the files it runs.
var runners = map[string]func(r *runsWalk, name string, args []string, dir string){}

func init() {
	for _, n := range []string{"sh", "bash", "zsh", "dash", "ksh", "mksh"} {
		runners[n] = shellModel.run
	}
	for n, m := range map[string]*interpModel{
		"node": nodeModel, "nodejs": nodeModel, "ruby": rubyModel, "perl": perlModel, "php": phpModel,
		"lua": luaModel, "luajit": luaModel, "osascript": osascriptModel, "rscript": rscriptModel,
		"tclsh": tclModel, "wish": tclModel,
	} {
		runners[n] = m.run
	}
	for _, n := range []string{"awk", "gawk", "nawk", "mawk"} {
		runners[n] = awkRuns
	}
	runners["sed"], runners["gsed"] = sedRuns, sedRuns
	runners["make"], runners["gmake"] = makeRuns, makeRuns
	runners["npm"], runners["pnpm"] = npmRuns, npmRuns
	runners["just"] = justRuns
	runners["rake"] = rakeRuns
	runners["swift"] = swiftRuns
	runners["deno"] = denoRuns
	runners["source"], runners["."] = sourceRuns, sourceRuns
}

// interpModel says how an interpreter takes its program: a script file
// operand, inline code, or (failing) standard input.
type interpModel struct {
	flags    string // short options without a value
	valued   string // short options whose value is the next word or the rest of the word
	optional string // short options whose value, if any, is the rest of the word
	code     string // short options whose value is program text
	file     string // short options whose value is the program file (php -f)
	module   string // short options that run a module looked up on a path (python -m)
	long     []string
	longCode []string
	shell    bool   // the inline code is shell: the files it runs are named too
	noCode   bool   // inline code is not modelled (osascript -e is AppleScript)
	loads    string // the key in Loads of the code it loads beside its script, "" for none
}

var (
	pythonModel    = &interpModel{flags: "bBdEIOPqsSuvx3", valued: "WX", code: "c", module: "m", loads: "python"}
	nodeModel      = &interpModel{code: "ep", long: []string{"--no-warnings", "--enable-source-maps", "--trace-warnings", "--no-deprecation", "--trace-deprecation", "--throw-deprecation", "--trace-uncaught", "--abort-on-uncaught-exception", "--preserve-symlinks", "--preserve-symlinks-main"}, longCode: []string{"--eval", "--print"}, loads: "node"}
	rubyModel      = &interpModel{flags: "acdlnpsvwyU", optional: "0FWTKE", code: "e", loads: "ruby"}
	perlModel      = &interpModel{flags: "acnpsTtuUwWX", optional: "il0CF", code: "eE", loads: "perl"}
	phpModel       = &interpModel{flags: "nqHs", code: "r", file: "f", loads: "php"}
	luaModel       = &interpModel{flags: "vEW", code: "e", loads: "lua"}
	osascriptModel = &interpModel{valued: "ls", noCode: true, code: "e"}
	rscriptModel   = &interpModel{code: "e", long: []string{"--vanilla", "--no-save", "--no-restore", "--no-environ", "--no-site-file", "--no-init-file", "--quiet", "--silent", "--slave", "--verbose"}, loads: "r"}
	tclModel       = &interpModel{loads: "tcl"}
	shellModel     = &interpModel{flags: "eEuvxnfhBCHkmPtTabp", valued: "oO", code: "c", shell: true, long: []string{"--norc", "--noprofile", "--posix", "--noediting"}, loads: "sh"}
)

// run names the program file of the interpreter name run with args.
func (m *interpModel) run(r *runsWalk, name string, args []string, dir string) {
	for i := 0; i < len(args); i++ {
		s := args[i]
		switch {
		case s == "-":
			r.fail("%s reads its program from standard input", name)
			return
		case s == "--":
			if i+1 < len(args) {
				m.pinScript(r, args[i+1], dir)
				return
			}
			r.fail("%s reads its program from standard input", name)
			return
		case strings.HasPrefix(s, "--"):
			opt, _, has := strings.Cut(s, "=")
			switch {
			case slices.Contains(m.longCode, opt):
				if !has && i+1 >= len(args) {
					r.fail("%s %s without its code", name, opt)
				}
				return // the code is in the text
			case slices.Contains(m.long, s):
				continue
			}
			r.fail("%s: option %s is not modelled for remembered approvals", name, rate.Display(opt))
			return
		case len(s) > 1 && (s[0] == '-' || m.shell && s[0] == '+'):
			code, ok := m.letters(r, name, s, args, &i, dir)
			if !ok || code {
				return
			}
		default:
			m.pinScript(r, s, dir)
			return
		}
	}
	r.fail("%s reads its program from standard input", name)
}

// pinScript names the script file p the interpreter runs, and the folder
// it loads code from beside it.
func (m *interpModel) pinScript(r *runsWalk, p, dir string) {
	if m.loads == "" {
		r.pin(p, dir)
		return
	}
	r.pinLoads(p, dir, m.loads)
}

// letters reads one word of short options. It reports code when the
// program is given inline (nothing more to name) and false when it failed.
func (m *interpModel) letters(r *runsWalk, name, s string, args []string, i *int, dir string) (code, ok bool) {
	letters := s[1:]
	for j := 0; j < len(letters); j++ {
		l := letters[j]
		rest := letters[j+1:]
		value := func() (string, bool) {
			if rest != "" {
				return rest, true
			}
			if *i+1 < len(args) {
				*i++
				return args[*i], true
			}
			r.fail("%s -%c without its value", name, l)
			return "", false
		}
		switch {
		case strings.IndexByte(m.code, l) >= 0:
			v, ok := value()
			switch {
			case !ok:
				return false, false
			case m.noCode:
				r.fail("%s -%c runs code Airlock does not follow for remembered approvals", name, l)
				return false, false
			case m.shell:
				r.script(v, dir)
			}
			return true, r.why == ""
		case strings.IndexByte(m.module, l) >= 0:
			r.fail("%s -%c runs a module looked up on the module path, which a remembered approval cannot pin", name, l)
			return false, false
		case strings.IndexByte(m.file, l) >= 0:
			v, ok := value()
			if ok {
				m.pinScript(r, v, dir)
			}
			return true, ok
		case strings.IndexByte(m.valued, l) >= 0:
			if _, ok := value(); !ok {
				return false, false
			}
			return false, true
		case strings.IndexByte(m.optional, l) >= 0:
			return false, true // the rest of the word is its value
		case strings.IndexByte(m.flags, l) >= 0:
		default:
			r.fail("%s: option -%c is not modelled for remembered approvals", name, l)
			return false, false
		}
	}
	return false, true
}

// awkRuns names awk's program files (-f, -E, --file).
func awkRuns(r *runsWalk, name string, args []string, dir string) {
	for i := 0; i < len(args); i++ {
		s := args[i]
		next := func() (string, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			r.fail("%s %s without its value", name, s)
			return "", false
		}
		switch {
		case s == "--" || !strings.HasPrefix(s, "-") || s == "-":
			return // the program text, then the files it reads
		case s == "-f" || s == "-E" || s == "--file" || s == "--exec":
			if v, ok := next(); ok {
				r.pin(v, dir)
			}
			if s == "-E" || s == "--exec" {
				return
			}
		case strings.HasPrefix(s, "--file=") || strings.HasPrefix(s, "--exec="):
			_, v, _ := strings.Cut(s, "=")
			r.pin(v, dir)
		case strings.HasPrefix(s, "-f"):
			r.pin(s[2:], dir)
		case s == "-v" || s == "-F" || s == "-e" || s == "--source" || s == "--assign" || s == "--field-separator":
			if _, ok := next(); !ok {
				return
			}
		case strings.HasPrefix(s, "-v") || strings.HasPrefix(s, "-F") || strings.HasPrefix(s, "--assign=") ||
			strings.HasPrefix(s, "--field-separator=") || strings.HasPrefix(s, "--source="):
		default:
			r.fail("%s: option %s is not modelled for remembered approvals", name, rate.Display(s))
			return
		}
	}
}

// sedRuns names sed's script files (-f, --file): everything else it is
// given is script text or data.
func sedRuns(r *runsWalk, _ string, args []string, dir string) {
	for i := 0; i < len(args); i++ {
		s := args[i]
		switch {
		case s == "--":
			return
		case s == "-f" || s == "--file":
			if i+1 < len(args) {
				i++
				r.pin(args[i], dir)
			}
		case strings.HasPrefix(s, "--file="):
			r.pin(s[len("--file="):], dir)
		case strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.Contains(s, "f"):
			// -nf FILE, -fFILE: f takes the rest of the word or the next.
			_, v, _ := strings.Cut(s, "f")
			if v == "" && i+1 < len(args) {
				i++
				v = args[i]
			}
			if v != "" {
				r.pin(v, dir)
			}
		}
	}
}

// makeRuns names the makefiles make reads: those of -f, or GNUmakefile,
// makefile and Makefile in the folder it starts in (or -C's).
// makeHarmless reports a make option that changes nothing make runs: jobs,
// verbosity, what to do on errors.
func makeHarmless(s string) bool {
	if n, ok := strings.CutPrefix(s, "-j"); ok && strings.Trim(n, "0123456789") == "" {
		return true
	}
	if n, ok := strings.CutPrefix(s, "--jobs="); ok && strings.Trim(n, "0123456789") == "" {
		return true
	}
	return slices.Contains([]string{"-k", "-s", "-n", "-B", "-w", "-i", "-r", "-R", "-q", "--no-print-directory",
		"--silent", "--quiet", "--keep-going", "--always-make", "--dry-run", "--just-print", "--print-directory",
		"--warn-undefined-variables", "--no-builtin-rules", "--no-builtin-variables", "--ignore-errors"}, s)
}

func makeRuns(r *runsWalk, name string, args []string, dir string) {
	var files []string
	moved := false
	for i := 0; i < len(args); i++ {
		s := args[i]
		next := func() (string, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			r.fail("%s %s without its value", name, s)
			return "", false
		}
		switch {
		case s == "-f" || s == "--file" || s == "--makefile":
			v, ok := next()
			if !ok {
				return
			}
			files = append(files, v)
		case strings.HasPrefix(s, "--file=") || strings.HasPrefix(s, "--makefile="):
			_, v, _ := strings.Cut(s, "=")
			files = append(files, v)
		case strings.HasPrefix(s, "-f") && len(s) > 2:
			files = append(files, s[2:])
		case s == "-C" || s == "--directory" || strings.HasPrefix(s, "--directory="):
			v, has := strings.CutPrefix(s, "--directory=")
			if !has {
				var ok bool
				if v, ok = next(); !ok {
					return
				}
			}
			if moved || len(files) > 0 {
				r.fail("%s: -C after another -C or -f is not modelled for remembered approvals", name)
				return
			}
			dir, moved = resolveIn(v, dir), true
		case s == "-j" || s == "--jobs":
			if i+1 < len(args) && strings.Trim(args[i+1], "0123456789") == "" {
				i++
			}
		case makeHarmless(s):
		case strings.HasPrefix(s, "-"):
			r.fail("%s: option %s is not modelled for remembered approvals", name, rate.Display(s))
			return
		case strings.Contains(s, "="):
			r.fail("%s: the variable %s can change what its recipes run", name, rate.Display(s))
			return
		}
	}
	if len(files) == 0 {
		for _, n := range []string{"GNUmakefile", "makefile", "Makefile"} {
			r.pinOptional(n, dir)
		}
		return
	}
	for _, f := range files {
		if f == "-" {
			r.fail("%s reads its makefile from standard input", name)
			return
		}
		r.pin(f, dir)
	}
}

// npmRuns names what npm run, test and start read: package.json and the
// .npmrc files, which can choose the shell the scripts run in.
func npmRuns(r *runsWalk, name string, args []string, dir string) {
	sub := ""
	for i, s := range args {
		if s == "--" {
			break
		}
		switch {
		case slices.Contains([]string{"--silent", "-s", "--if-present", "--quiet", "-q"}, s):
		case strings.HasPrefix(s, "-"):
			r.fail("%s: option %s is not modelled for remembered approvals", name, rate.Display(s))
			return
		case sub == "":
			sub = s
			if !slices.Contains([]string{"run", "run-script", "test", "t", "tst", "start", "stop", "restart"}, sub) {
				r.fail("%s %s is not modelled for remembered approvals", name, rate.Display(sub))
				return
			}
			if (sub == "run" || sub == "run-script") && i+1 >= len(args) {
				r.fail("%s %s names no script", name, sub)
				return
			}
		}
	}
	if sub == "" {
		r.fail("%s without a command is not modelled for remembered approvals", name)
		return
	}
	r.pin("package.json", dir)
	if sub == "start" || sub == "restart" {
		r.pinOptional("server.js", dir) // what start runs when package.json names no start script
	}
	r.pinOptional(".npmrc", dir)
	r.pinOptional(".pnpmfile.cjs", dir)
	if r.home != "" {
		r.pinOptional(path.Join(r.home, ".npmrc"), dir)
	}
}

// justRuns names the justfile just runs: -f's, or justfile in the folder
// (it must be there: just looks further up otherwise), and .env.
func justRuns(r *runsWalk, name string, args []string, dir string) {
	file := ""
	for i := 0; i < len(args); i++ {
		s := args[i]
		switch {
		case s == "-f" || s == "--justfile":
			if i+1 >= len(args) {
				r.fail("%s %s without its value", name, s)
				return
			}
			i++
			file = args[i]
		case strings.HasPrefix(s, "--justfile="):
			file = s[len("--justfile="):]
		case strings.HasPrefix(s, "-"):
			r.fail("%s: option %s is not modelled for remembered approvals", name, rate.Display(s))
			return
		default:
			i = len(args) // a recipe and its arguments
		}
	}
	if file == "" {
		file = "justfile"
	}
	file = resolveIn(file, dir)
	r.pin(file, dir)
	r.pinOptional(".env", path.Dir(file))
}

// rakeRuns names the Rakefile rake runs (-f's, or Rakefile in the folder:
// it must be there, as rake looks further up otherwise) and rakelib, which
// must not be there: rake loads every file in it.
func rakeRuns(r *runsWalk, name string, args []string, dir string) {
	file := ""
	for i := 0; i < len(args); i++ {
		s := args[i]
		switch {
		case s == "-f" || s == "--rakefile":
			if i+1 >= len(args) {
				r.fail("%s %s without its value", name, s)
				return
			}
			i++
			file = args[i]
		case strings.HasPrefix(s, "-"):
			r.fail("%s: option %s is not modelled for remembered approvals", name, rate.Display(s))
			return
		}
	}
	if file == "" {
		file = "Rakefile"
	}
	file = resolveIn(file, dir)
	r.pin(file, dir)
	r.pinOptional("rakelib", path.Dir(file))
}

// swiftRuns names the file of `swift FILE.swift`; its subcommands build
// packages from many files.
func swiftRuns(r *runsWalk, name string, args []string, dir string) {
	if len(args) == 0 || !strings.HasSuffix(args[0], ".swift") {
		r.fail("%s: only `%s FILE.swift` is modelled for remembered approvals", name, name)
		return
	}
	r.pin(args[0], dir)
}

// denoRuns names the file of `deno run [permissions] FILE`.
func denoRuns(r *runsWalk, name string, args []string, dir string) {
	if len(args) == 0 || args[0] != "run" {
		r.fail("%s: only `%s run FILE` is modelled for remembered approvals", name, name)
		return
	}
	for _, s := range args[1:] {
		switch {
		case s == "-A" || s == "-q" || strings.HasPrefix(s, "--allow-") || strings.HasPrefix(s, "--deny-") ||
			slices.Contains([]string{"--quiet", "--no-prompt", "--no-check", "--check", "--cached-only", "--no-remote"}, s):
		case strings.HasPrefix(s, "-"):
			r.fail("%s: option %s is not modelled for remembered approvals", name, rate.Display(s))
			return
		default:
			r.pinLoads(s, dir, "deno")
			return
		}
	}
	r.fail("%s run names no file", name)
}

// sourceRuns names the file a shell sources; a name without a folder is
// looked up on PATH first.
func sourceRuns(r *runsWalk, name string, args []string, dir string) {
	if len(args) == 0 || !strings.Contains(args[0], "/") {
		r.fail("%s: a file named without its folder is looked up on PATH", name)
		return
	}
	r.pinLoads(args[0], dir, "sh")
}
