package execute

import (
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// A start-up file reads other files as code, by name: a .zshrc sources
// ~/Documents/dotfiles/aliases.zsh, or every *.zsh of a folder in a loop;
// a .tmux.conf runs source-file; a project's .envrc, which direnv was
// allowed to load once, calls source_env_if_exists .envrc.local, dotenv
// (whose PROMPT_COMMAND and LD_PRELOAD the shell then runs) or use flake
// (whose flake.nix's shellHook runs at every cd into the folder). direnv
// does not ask again when such a file changes, and the persistence table
// knows none of them by its name. So the files the start-up files the
// person has read that way are found, by a reading of their text that
// names what a load command loads, and a change to one is held as a change
// to the start-up file itself. The start-up files read are the home's
// places of the persistence table (~/.zshrc; the files directly in a
// folder such as ~/.config/fish/conf.d), and those of a "**/" entry (a
// .envrc, a .exrc, a .Rprofile …) in the folder of a change and every
// folder above it; each as the person has it, and as the action left it
// when it changed it too (held, the person may keep it). What they load is
// read in turn, maxSourceDepth deep. A file's own folder
// ($(dirname "${BASH_SOURCE[0]}"), zsh's ${0:A:h}) is known, and so is
// what a command's output runs when the command prints a file (source
// <(cat f), eval "$(cat f)", eval "$(<f)"); a path built from what the
// reading cannot know (a variable no start-up file read sets, another
// command's output) is not followed. A variable one start-up file sets is
// known in those read after it, and in all when one read before uses it
// (a .zshenv's DOTFILES in a .zshrc, read first): they are read again.
// A folder zsh's fpath gains (fpath+=(~/d/zfuncs)) loads every file in it:
// autoload and compinit run them when their function is called.

// loaders are the commands that read a file as code, by the language
// whose files use them, and how their arguments name it.
var loaders = map[string]loadArgs{
	// sh, bash, zsh, ksh, fish; gdb; vim and neovim (so is :source's
	// short form); lldb's "command source" (command is a prefix word).
	"source": loadFiles,
	".":      loadFiles,
	"so":     loadFiles,
	// tmux.
	"source-file": loadFiles,
	// direnv's stdlib.
	"source_env":           loadFiles,
	"source_env_if_exists": loadFiles,
	"dotenv":               loadDotenv,
	"dotenv_if_exists":     loadDotenv,
	"use":                  loadUse,
	"use_flake":            loadFlake,
	"use_nix":              loadNix,
	// readline's, i3's, sway's, kitty's includes; psql's \i and \ir,
	// sqlite3's .read.
	"include":  loadFiles,
	"$include": loadFiles,
	`\i`:       loadFiles,
	`\ir`:      loadFiles,
	`\include`: loadFiles,
	".read":    loadFiles,
	// Nix's import, Bazel's import and try-import; R's source(), Lua's
	// dofile and loadfile, Ruby's load and require_relative, GHCi's
	// :script and :load.
	"import":           loadFiles,
	"try-import":       loadFiles,
	"dofile":           loadFiles,
	"loadfile":         loadFiles,
	"load":             loadFiles,
	"require_relative": loadRuby,
	":script":          loadFiles,
	":load":            loadFiles,
	// eval runs its arguments' text: a file's only when a command's
	// output prints it (eval "$(cat f)").
	"eval": loadPrinted,
}

// loadArgs says which files a loader's arguments name.
type loadArgs uint8

const (
	loadFiles   loadArgs = iota + 1 // each argument that is no option
	loadDotenv                      // each argument, or .env
	loadUse                         // use flake … or use nix …
	loadFlake                       // a flake's folder, or the file's own
	loadNix                         // nix files, or shell.nix and default.nix
	loadRuby                        // each argument, .rb added when it has no extension
	loadPrinted                     // the files its arguments' commands print
)

// prefixWords may stand before a command without being it.
var prefixWords = map[string]bool{
	"if": true, "then": true, "else": true, "elif": true, "do": true, "while": true, "until": true,
	"!": true, "builtin": true, "command": true, "noglob": true, "time": true, "exec": true, "and": true, "or": true, "not": true,
}

const (
	// maxSourceDepth is how deep what a start-up file loads is followed,
	// as git follows includes.
	maxSourceDepth = 10
	// maxSourceRead bounds what is read of one start-up file.
	maxSourceRead = 1 << 20
	// maxSourceFolder bounds the files read in one start-up folder of the
	// home (~/.config/fish/conf.d).
	maxSourceFolder = 64
	// maxSourceValues bounds the values one word expands to (a loop's
	// list, and the combinations of several).
	maxSourceValues = 64
)

// sourcedFile is a file, or a glob of them, that a start-up file loads.
type sourcedFile struct {
	path string // absolute, links resolved up to the first glob element
	glob bool
	by   string // the start-up file first reached from, shortened
	how  string // the loading command: "source ~/Documents/x"
}

// sourcing holds what the start-up files load, found on first need.
type sourcing struct {
	e       *Executor
	upper   map[string]string // a changed file's path → its new version
	home    bool              // the home's start-up files were read
	dirs    map[string]bool   // the folders whose start-up files were read
	names   map[string]bool   // the "**/" entries' single names, lower-case
	files   []sourcedFile
	scanned map[string]bool // files read already (by path and version)
	// vars are the variables the start-up files read assign, known to
	// each read after (a .zshenv's DOTFILES in a .zshrc); missing are
	// those a command named before any file read assigned them.
	vars    map[string][]string
	missing map[string]bool
}

// sourcedWhy says why c plants: a start-up file loads it ("" when none
// does).
func (l *plantLook) sourcedWhy(e *Executor, c sandbox.Change) string {
	if c.Kind == sandbox.Removed {
		return ""
	}
	if l.sourced == nil {
		l.sourced = newSourcing(e, l.changes)
	}
	s := l.sourced
	s.readHomeOnce()
	for d := filepath.Dir(c.Path); ; d = filepath.Dir(d) {
		if !s.dirs[d] {
			s.dirs[d] = true
			s.readDir(d)
		}
		if d == "/" || d == "." {
			break
		}
	}
	for _, f := range s.files {
		if f.names(c.Path) {
			return "code that " + f.by + " loads (" + f.how + "), run wherever it runs"
		}
	}
	return ""
}

// names reports whether the file or glob f names p, comparing without
// case where the file system does (a .zshrc's source ~/Documents/Dotfiles/a
// reads ~/Documents/dotfiles/a on macOS).
func (f sourcedFile) names(p string) bool {
	if !f.glob {
		return changeKey(f.path) == changeKey(p)
	}
	ok, _ := filepath.Match(changeKey(f.path), changeKey(p))
	return ok
}

func newSourcing(e *Executor, changes []sandbox.Change) *sourcing {
	s := &sourcing{e: e, upper: map[string]string{}, dirs: map[string]bool{}, names: map[string]bool{}, scanned: map[string]bool{},
		vars: map[string][]string{}, missing: map[string]bool{}}
	for _, c := range changes {
		if c.Upper != "" {
			s.upper[c.Path] = c.Upper
		}
	}
	for _, pl := range sanitize.PersistencePlaces(e.Paths.Home) {
		if pl.Under == "" && len(pl.Elems) == 1 && !strings.Contains(pl.Elems[0], "*") {
			s.names[strings.ToLower(pl.Elems[0])] = true
		}
	}
	return s
}

// readHomeOnce reads the home's start-up files (readHome), once, and
// again when a file read later assigns a variable one read earlier loads
// by.
func (s *sourcing) readHomeOnce() {
	if s.home {
		return
	}
	s.home = true
	s.readHome()
	if slices.ContainsFunc(slices.Collect(maps.Keys(s.missing)), func(name string) bool { _, ok := s.vars[name]; return ok }) {
		// a file read later assigns what one read earlier loads
		// by: read them again, knowing it
		s.files, s.scanned, s.missing = nil, map[string]bool{}, map[string]bool{}
		s.readHome()
	}
}

// readHome reads the home's start-up files: the table's places in the
// home that are files, and the files directly in those that are folders.
func (s *sourcing) readHome() {
	home := s.e.Paths.Home
	if home == "" {
		return
	}
	for _, pl := range sanitize.PersistencePlaces(home) {
		if pl.Under != home || slices.ContainsFunc(pl.Elems, func(e string) bool { return strings.Contains(e, "*") }) {
			continue
		}
		p := filepath.Join(append([]string{home}, pl.Elems...)...)
		fi, err := os.Stat(p)
		switch {
		case err != nil:
			s.read(p, "", 0)
		case fi.IsDir():
			es, err := os.ReadDir(p)
			if err != nil {
				continue
			}
			for _, en := range es[:min(len(es), maxSourceFolder)] {
				s.read(filepath.Join(p, en.Name()), "", 0)
			}
		default:
			s.read(p, "", 0)
		}
	}
}

// readDir reads the start-up files of folder d that a "**/" entry names
// (.envrc, .exrc …): as they are, and as the action left them.
func (s *sourcing) readDir(d string) {
	seen := map[string]bool{}
	if es, err := os.ReadDir(d); err == nil {
		for _, en := range es {
			if s.names[strings.ToLower(en.Name())] {
				seen[en.Name()] = true
			}
		}
	}
	for p := range s.upper {
		if filepath.Dir(p) == d && s.names[strings.ToLower(filepath.Base(p))] {
			seen[filepath.Base(p)] = true
		}
	}
	for _, name := range slices.Sorted(maps.Keys(seen)) {
		s.read(filepath.Join(d, name), "", 0)
	}
}

// read reads the start-up file p, as the person has it and as the action
// left it, and adds what it loads (by is the start-up file first reached
// from, "" for p itself), then what that loads in turn.
func (s *sourcing) read(p, by string, depth int) {
	if depth > maxSourceDepth {
		return
	}
	if by == "" {
		by = s.e.short(p)
	}
	for _, version := range []string{p, s.upper[p]} {
		if version == "" || s.scanned[p+"\x00"+version] {
			continue
		}
		s.scanned[p+"\x00"+version] = true
		text, ok := readStart(version)
		if !ok {
			continue
		}
		for _, ld := range loadsIn(text, filepath.Dir(p), s.e.Paths.Home, s.vars, s.missing) {
			f := sourcedFile{path: ld.path, by: by, how: ld.how}
			if strings.ContainsAny(ld.path, "*?[") {
				f.glob = true
				if dir := filepath.Dir(ld.path); !strings.ContainsAny(dir, "*?[") {
					if r, ok := resolveExisting(dir, 0); ok {
						f.path = filepath.Join(r, filepath.Base(ld.path))
					}
				}
				s.files = append(s.files, f)
				matches, _ := filepath.Glob(f.path)
				for _, m := range matches[:min(len(matches), maxSourceFolder)] {
					s.read(m, by, depth+1)
				}
				continue
			}
			if r, ok := resolveExisting(ld.path, 0); ok {
				f.path = r
			}
			s.files = append(s.files, f)
			s.read(f.path, by, depth+1)
		}
	}
}

// readStart returns the text of the regular file p (links followed), at
// most maxSourceRead bytes of it.
func readStart(p string) (string, bool) {
	f, err := os.Open(p)
	if err != nil {
		return "", false
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return "", false
	}
	b, err := io.ReadAll(io.LimitReader(f, maxSourceRead))
	if err != nil {
		return "", false
	}
	return string(b), true
}

// load is a file a start-up file's text loads.
type load struct {
	path string // absolute and clean; may hold a glob
	how  string
}

// loadsOf reads text, a start-up file in the folder dir, for the files
// its load commands name. Words are split as a shell splits them (quotes
// removed, $(…), ${…} and a brace expansion {a,b} kept whole in their
// word), words split also at "(" and commands at ) , { }, so that R's
// source("x") and Nix's (import ./x.nix) read as commands too. Variables
// are expanded from what the text itself assigns (NAME=value, export,
// fish's set, a for loop's list), $HOME and ~ from home, $PWD to dir;
// brace expansions to each of their words.
func loadsOf(text, dir, home string) []load {
	return loadsIn(text, dir, home, map[string][]string{}, map[string]bool{})
}

// loadsIn is loadsOf knowing the variables shared, which other start-up
// files assign, and adding to it those text assigns; the variables a load
// names that neither assigns are added to missing.
func loadsIn(text, dir, home string, shared map[string][]string, missing map[string]bool) []load {
	vars := map[string][]string{"HOME": {home}, "ZDOTDIR": {home}, "XDG_CONFIG_HOME": {filepath.Join(home, ".config")}}
	maps.Copy(vars, shared)
	vars["PWD"] = []string{dir}
	defer func() {
		for k, v := range vars {
			if k != "PWD" {
				shared[k] = v
			}
		}
	}()
	var out []load
	for _, cmd := range commandsOf(text) {
		for len(cmd) > 0 && prefixWords[cmd[0]] {
			cmd = cmd[1:]
		}
		if len(cmd) == 0 {
			continue
		}
		for _, w := range cmd {
			for _, n := range varNames(w) {
				if _, ok := vars[n]; !ok {
					missing[n] = true
				}
			}
		}
		if cmd[0] == "fpath=" || cmd[0] == "fpath+=" {
			// zsh runs a file of a folder of fpath when the function of
			// its name is called (autoload, compinit's completions):
			// fpath+=(~/d/zfuncs) loads every file there
			for _, w := range cmd[1:] {
				for _, v := range expandWord(w, vars, dir, home) {
					if !filepath.IsAbs(v) {
						v = filepath.Join(dir, v)
					}
					out = append(out, load{path: filepath.Join(filepath.Clean(v), "*"), how: strings.Join(cmd[:min(len(cmd), 3)], " ")})
				}
			}
			continue
		}
		if searchPathAdds(vars, cmd, dir, home) || assignVar(vars, cmd, dir, home) {
			continue
		}
		kind, ok := loaders[cmd[0]]
		if !ok {
			continue
		}
		args := slices.DeleteFunc(slices.Clone(cmd[1:]), func(a string) bool { return a == "=" })
		var names []string
		for _, name := range loadedNames(kind, args) {
			if kind != loadPrinted {
				name = ownFolder(name)
			}
			if !strings.ContainsAny(name, "`") && !strings.Contains(name, "<(") && !strings.Contains(name, ">(") && !strings.Contains(name, "$(") {
				names = append(names, name)
				continue
			}
			// A command's output names no file this reading can know,
			// unless the command prints a file: source <(cat f),
			// eval "$(cat f)", eval "$(<f)".
			names = append(names, printedFiles(name)...)
		}
		for _, name := range names {
			for _, v := range expandWord(name, vars, dir, home) {
				if !filepath.IsAbs(v) {
					v = filepath.Join(dir, v)
				}
				out = append(out, load{path: filepath.Clean(v), how: strings.Join(cmd[:min(len(cmd), 3)], " ")})
			}
		}
	}
	return out
}

// loadedNames returns the names (unexpanded) a loader's arguments load.
func loadedNames(kind loadArgs, args []string) []string {
	var names []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") && a != "" {
			names = append(names, a)
		}
	}
	switch kind {
	case loadDotenv:
		if len(names) == 0 {
			return []string{".env"}
		}
	case loadUse:
		if len(args) == 0 {
			return nil
		}
		switch args[0] {
		case "flake":
			return loadedNames(loadFlake, args[1:])
		case "nix":
			return loadedNames(loadNix, args[1:])
		}
		return nil
	case loadFlake:
		d := "."
		if len(names) > 0 {
			d, _, _ = strings.Cut(strings.TrimPrefix(names[0], "path:"), "#")
			if d == "" {
				d = "."
			}
			if strings.Contains(d, ":") {
				return nil // a flake from elsewhere: github:…
			}
		}
		return []string{filepath.Join(d, "flake.nix"), filepath.Join(d, "flake.lock")}
	case loadNix:
		if len(names) == 0 || len(args) > 0 && strings.HasPrefix(args[0], "-") {
			return []string{"shell.nix", "default.nix"}
		}
	case loadPrinted:
		var printed []string
		for _, a := range args {
			if strings.Contains(a, "$(") || strings.Contains(a, "<(") || strings.Contains(a, "`") {
				printed = append(printed, a)
			}
		}
		return printed
	case loadRuby:
		for i, n := range names {
			if filepath.Ext(n) == "" {
				names[i] = n + ".rb"
			}
		}
	}
	return names
}

// assignVar records an assignment cmd makes (NAME=value, export or local
// NAME=value, fish's set [-opts] NAME value, for NAME in values) and
// reports whether cmd was one.
func assignVar(vars map[string][]string, cmd []string, dir, home string) bool {
	switch cmd[0] {
	case "for", "foreach":
		// for NAME in words; zsh's for NAME (words) and foreach NAME
		// (words), whose "(" commandsOf splits words at.
		if len(cmd) >= 3 && isVarName(cmd[1]) {
			words := cmd[2:]
			if words[0] == "in" {
				words = words[1:]
			}
			var vals []string
			for _, w := range words {
				vals = append(vals, expandWord(w, vars, dir, home)...)
			}
			vars[cmd[1]] = vals[:min(len(vals), maxSourceValues)]
		}
		return true
	case "set":
		rest := cmd[1:]
		for len(rest) > 0 && strings.HasPrefix(rest[0], "-") {
			rest = rest[1:]
		}
		if len(rest) >= 2 && isVarName(rest[0]) {
			vars[rest[0]] = expandWord(ownFolder(rest[1]), vars, dir, home)
		}
		return true
	case "export", "local", "typeset", "declare", "readonly":
		cmd = cmd[1:]
	}
	done := false
	for _, w := range cmd {
		name, value, ok := strings.Cut(w, "=")
		if !ok || !isVarName(name) {
			break
		}
		vars[name] = expandWord(ownFolder(value), vars, dir, home)
		done = true
	}
	return done
}

func isVarName(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if r != '_' && !(r >= 'a' && r <= 'z') && !(r >= 'A' && r <= 'Z') && !(i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

// expandWord expands ~ and the variables of w; it returns nothing when w
// names a variable vars does not know (the file is not one this reading
// can name), and every combination when a variable has several values.
func expandWord(w string, vars map[string][]string, dir, home string) []string {
	if alts := braceAlternatives(w); alts != nil {
		var out []string
		for _, a := range alts {
			for _, v := range expandWord(a, vars, dir, home) {
				if len(out) < maxSourceValues {
					out = append(out, v)
				}
			}
		}
		return out
	}
	if w == "~" || strings.HasPrefix(w, "~/") {
		w = home + w[1:]
	}
	w = strings.ReplaceAll(w, "%workspace%", dir)
	i := strings.IndexByte(w, '$')
	if i < 0 {
		return []string{w}
	}
	name, rest, def, ok := varAt(w[i+1:])
	if !ok {
		return nil
	}
	vals, known := vars[name]
	if !known {
		if def == "" {
			return nil
		}
		vals = expandWord(def, vars, dir, home)
	}
	tails := expandWord(rest, vars, dir, home)
	var out []string
	for _, v := range vals {
		for _, tail := range tails {
			if len(out) < maxSourceValues {
				out = append(out, w[:i]+v+tail)
			}
		}
	}
	return out
}

// varAt reads a variable reference after its $: NAME, {NAME} or
// {NAME:-default}; it returns the name, what follows, the default.
func varAt(s string) (name, rest, def string, ok bool) {
	if strings.HasPrefix(s, "{") {
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return "", "", "", false
		}
		inner := s[1:end]
		if n, d, found := strings.Cut(inner, ":-"); found {
			inner, def = n, d
		}
		return inner, s[end+1:], def, isVarName(inner)
	}
	n := 0
	for n < len(s) && isVarName(s[:n+1]) {
		n++
	}
	return s[:n], s[n:], "", n > 0
}

// commandsOf splits text into commands, each a list of words: a shell's
// reading (quotes removed, comments dropped, lines continued with a
// backslash, $(…), <(…), ${…}, `…` and {a,b} kept in their word), split
// also at ; & | ) { } , and at line ends, and words at "(". A word that
// only separates (;, &&, then …) starts a new command.
func commandsOf(text string) [][]string {
	var cmds [][]string
	var cmd []string
	var word strings.Builder
	inWord := false
	endWord := func() {
		if inWord {
			cmd = append(cmd, word.String())
			word.Reset()
			inWord = false
		}
	}
	endCmd := func() {
		endWord()
		if len(cmd) > 0 {
			cmds = append(cmds, cmd)
			cmd = nil
		}
	}
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case ch == '\\' && i+1 < len(text) && text[i+1] == '\n':
			i++
		case ch == '\'' || ch == '"':
			end := strings.IndexByte(text[i+1:], ch)
			if end < 0 {
				end = len(text) - i - 1
			}
			word.WriteString(text[i+1 : i+1+end])
			inWord = true
			i += end + 1
		case ch == '#' && !inWord:
			for i < len(text) && text[i] != '\n' {
				i++
			}
			endCmd()
		case ch == '`':
			end := strings.IndexByte(text[i+1:], '`') + i + 2
			if end == i+1 {
				end = len(text) // unterminated: the rest
			}
			word.WriteString(text[i:end])
			inWord = true
			i = end - 1
		case ch == '{' && braceGroup(text[i:]) > 0:
			n := braceGroup(text[i:])
			word.WriteString(text[i : i+n])
			inWord = true
			i += n - 1
		case opensSub(text[i:]):
			end := strings.IndexByte(text[i:], map[byte]byte{'{': '}', '(': ')'}[text[i+1]])
			if end < 0 {
				end = len(text) - i - 1
			}
			word.WriteString(text[i : i+end+1])
			inWord = true
			i += end
		case ch == '\n' || ch == ';' || ch == '&' || ch == '|' || ch == ')' || ch == '{' || ch == '}' || ch == ',':
			endCmd()
		case ch == ' ' || ch == '\t' || ch == '\r' || ch == '(':
			endWord()
		default:
			word.WriteByte(ch)
			inWord = true
		}
	}
	endCmd()
	return cmds
}

// braceGroup returns the length of the brace expansion s starts with
// ({a,b}: a comma between braces, nothing in it a shell splits words or
// commands at), or 0 when s starts none: for file in ~/.{aliases,exports}
// loads each of ~/.aliases and ~/.exports.
func braceGroup(s string) int {
	end := strings.IndexByte(s, '}')
	if end < 0 || !strings.Contains(s[:end], ",") || strings.ContainsAny(s[1:end], " \t\r\n;&|(){}'\"`<>") {
		return 0
	}
	return end + 1
}

// braceAlternatives returns the words the first brace expansion of w (not
// a variable's ${…}) makes, or nil when w has none.
func braceAlternatives(w string) []string {
	for i := 0; i < len(w); i++ {
		if w[i] != '{' || i > 0 && w[i-1] == '$' {
			continue
		}
		n := braceGroup(w[i:])
		if n == 0 {
			continue
		}
		var out []string
		for _, a := range strings.Split(w[i+1:i+n-1], ",") {
			out = append(out, w[:i]+a+w[i+n:])
		}
		return out[:min(len(out), maxSourceValues)]
	}
	return nil
}

// opensSub reports whether s starts a $(…), ${…}, <(…) or >(…), which
// commandsOf keeps whole in its word.
func opensSub(s string) bool {
	for _, p := range []string{"$(", "${", "<(", ">("} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// printedFiles returns the files the commands of the substitutions in w
// ($(…), <(…), backquotes) print as they are: cat's arguments, and the
// file of $(<f). Other commands print what this reading cannot know.
func printedFiles(w string) []string {
	var out []string
	for _, inner := range substitutions(w) {
		for _, cmd := range commandsOf(inner) {
			switch {
			case cmd[0] == "cat":
				for _, a := range cmd[1:] {
					if !strings.HasPrefix(a, "-") && a != "" {
						out = append(out, ownFolder(a))
					}
				}
			case cmd[0] == "<" && len(cmd) == 2:
				out = append(out, ownFolder(cmd[1]))
			case strings.HasPrefix(cmd[0], "<") && len(cmd) == 1 && !strings.HasPrefix(cmd[0], "<("):
				out = append(out, ownFolder(cmd[0][1:]))
			}
		}
	}
	return out
}

// substitutions returns the text inside each $(…), <(…) and `…` of w, up
// to its first closing ) or `, as commandsOf keeps them.
func substitutions(w string) []string {
	var out []string
	for i := 0; i < len(w); i++ {
		switch {
		case strings.HasPrefix(w[i:], "$(") || strings.HasPrefix(w[i:], "<("):
			end := strings.IndexByte(w[i+2:], ')')
			if end < 0 {
				end = len(w) - i - 2
			}
			out = append(out, w[i+2:i+2+end])
			i += 2 + end
		case w[i] == '`':
			end := strings.IndexByte(w[i+1:], '`')
			if end < 0 {
				end = len(w) - i - 1
			}
			out = append(out, w[i+1:i+1+end])
			i += 1 + end
		}
	}
	return out
}

// ownFolders are the ways a file names its own folder: bash's
// $(dirname "${BASH_SOURCE[0]}") and ${BASH_SOURCE%/*}, zsh's ${0:A:h}
// (a sourced file's $0 is its own path there), $(dirname "$0"), as
// commandsOf leaves them (quotes removed).
var ownFolders = func() []string {
	var forms []string
	for _, v := range []string{"$0", "${0}", "$BASH_SOURCE", "${BASH_SOURCE}", "${BASH_SOURCE[0]}", "${(%):-%x}", "${(%):-%N}"} {
		forms = append(forms, "$(dirname "+v+")", "$(dirname -- "+v+")", "`dirname "+v+"`")
	}
	for _, v := range []string{"0", "BASH_SOURCE", "BASH_SOURCE[0]", "(%):-%x", "(%):-%N"} {
		forms = append(forms, "${"+v+"%/*}")
	}
	for _, m := range []string{":A:h", ":a:h", ":h", ":P:h"} {
		forms = append(forms, "${0"+m+"}", "${${(%):-%x}"+m+"}", "${${(%):-%N}"+m+"}")
	}
	return forms
}()

// ownFolder replaces a leading form of ownFolders in w with $PWD, which
// loadsOf expands to the loading file's folder.
func ownFolder(w string) string {
	if strings.HasPrefix(w, "$(") || strings.HasPrefix(w, "`") {
		// $(dirname "$0") unquoted keeps its inner quotes
		if end := strings.IndexAny(w[1:], ")`"); end >= 0 {
			w = strings.NewReplacer(`"`, "", "'", "").Replace(w[:end+2]) + w[end+2:]
		}
	}
	for _, f := range ownFolders {
		if rest, ok := strings.CutPrefix(w, f); ok {
			return "$PWD" + rest
		}
	}
	return w
}

// varNames returns the names of the variables w refers to.
func varNames(w string) []string {
	var out []string
	for i := strings.IndexByte(w, '$'); i >= 0; i = strings.IndexByte(w, '$') {
		name, rest, _, ok := varAt(w[i+1:])
		if ok {
			out = append(out, name)
		}
		if ok {
			w = rest
		} else {
			w = w[i+1:]
		}
	}
	return out
}
