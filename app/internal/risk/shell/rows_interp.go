package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/interp"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// osascriptCommand rates osascript by the script it runs: a script given
// with -e, on its input or in a file this input wrote is analysed as
// AppleScript or JavaScript, and rated as that script is (the wrapper
// itself Caution); a script Airlock cannot see is Dangerous.
func osascriptCommand(c *call) {
	unseen := func() {
		c.add(effect.Of(effect.RunUnseen), "osascript", "osascript: runs AppleScript or JavaScript for Automation that is not analysed")
	}
	jxa := false
	var lines []string
	var file word
	hasFile := false
	args := c.args
	for i := 0; i < len(args) && !hasFile; i++ {
		w := args[i]
		s := w.s
		switch {
		case s == "--":
			if i+1 < len(args) {
				file, hasFile = args[i+1], true
			}
		case s == "-" || w.hole || !strings.HasPrefix(s, "-"):
			file, hasFile = w, true
		default:
			letters := s[1:]
			for j := 0; j < len(letters); j++ {
				l := letters[j]
				if l != 'l' && l != 'e' && l != 's' {
					continue
				}
				v := word{s: letters[j+1:], span: w.span}
				if v.s == "" {
					if i+1 >= len(args) {
						break
					}
					i++
					v = args[i]
				}
				switch l {
				case 'l':
					jxa = strings.EqualFold(v.s, "JavaScript")
				case 'e':
					if v.hole {
						c.add(effect.Of(effect.RunComputed), "osascript-computed", "osascript -e with a script computed at run time")
						return
					}
					lines = append(lines, v.s)
				}
				break
			}
		}
	}
	src := strings.Join(lines, "\n")
	if len(lines) == 0 {
		switch {
		case hasFile && !isStdinPath(file.s):
			if file.hole {
				c.add(effect.Of(effect.RunComputed), "osascript-computed", "osascript runs a script file computed at run time")
				return
			}
			content, ok := c.a.fileContent(file.s)
			switch {
			case !ok:
				unseen()
				c.add(effect.Of(effect.RunUnseen), "osascript-file", "osascript runs a script file that is not analysed")
				return
			case content == fileDownloaded || content == fileComputed:
				c.add(effect.Of(effect.RunComputed).On(file.s), "download-exec", "osascript %s: runs a script this input downloaded or computed", rate.Display(file.s))
				return
			}
			src = content
			if strings.HasSuffix(strings.ToLower(file.s), ".js") {
				jxa = true
			}
		case c.pc.stdin == "text":
			src = c.pc.text
		case c.pc.stdin == "":
			unseen()
			return
		default:
			unseen()
			c.fromStdin()
			return
		}
	}
	c.add(effect.Of(effect.Run), "osascript", "osascript: runs the script it is given, analysed here")
	sp := c.span
	at := anchorOr(c.a.anchor, &sp)
	if c.a.depth+1 > rate.MaxDepth {
		c.add(effect.Of(effect.Unknown, effect.Computed), "too-deep", "scripts nested more than %d deep: %s", rate.MaxDepth, rate.TooDeep)
		return
	}
	if !c.a.spend(1 + len(src)/100) {
		return
	}
	var inner Verdict
	if jxa {
		inner = c.a.env.Languages().JXA(src, c.a.env, c.a.depth+1)
	} else {
		inner = c.a.env.Languages().AppleScript(src, c.a.env, c.a.depth+1)
	}
	c.a.v.Merge(inner, at)
}

// interpSpec says how an interpreter takes its program: code letters take
// the program text (python -c, perl -e), valued letters another value,
// optional letters an optional attached value (perl -i.bak), module a
// module to run (python -m).
//
// An optional letter's attached value is, by default, the rest of its word
// (perl -i.bak, ruby -x/dir). The letters in digits take only the digits
// that follow (perl -l and -0: -0777, -0x1ff, ruby -T1), those in char one
// character (ruby -K: -Ke is the EUC-JP code), those in colon a value only
// when a : or = comes next (perl -d:Mod, -V:name, ruby -W:no-deprecated),
// after an optional t for perl -dt; so perl -le CODE and ruby -le CODE go
// on to -e. codeJoin are the bundles of code letters that are one option
// taking the next word (node -pe is --print --eval).
type interpSpec struct {
	code, valued, optional, module string
	digits, char, colon            string
	codeJoin                       []string
	longCode, longValued           []string
}

var (
	pythonSpec = interpSpec{code: "c", valued: "XWQ", module: "m", longValued: []string{"--check-hash-based-pycs"}}
	perlSpec   = interpSpec{code: "eE", valued: "IMm", optional: "ilCdx0DFV", digits: "l0", colon: "dV"}
	rubySpec   = interpSpec{code: "e", valued: "rICEF", optional: "TWxi0Kdl", digits: "0TWdl", char: "K", colon: "W"}
	nodeSpec   = interpSpec{code: "ep", valued: "rC", codeJoin: []string{"pe", "ep"}, longCode: []string{"--eval", "--print"},
		longValued: []string{"--require", "--import", "--loader", "--experimental-loader", "--input-type", "--env-file", "--conditions", "--title", "--inspect-port"}}
	phpSpec = interpSpec{code: "rBRFE", valued: "cdzt"}
	luaSpec = interpSpec{code: "e", valued: "l"}
)

// interpreter rates python, perl, ruby, node …: their code is not analysed,
// so they are at least Dangerous; keyword scanning raises that to
// Destructive for deletion, decode-and-run and shell-outs.
func interpreter(sp interpSpec) func(*call) {
	return func(c *call) {
		args := c.args
		if len(args) == 0 {
			c.fromStdin()
			return
		}
		if strings.HasPrefix(c.name, "perl") && c.perlEdit() {
			return
		}
		isolated := false // python -I or -P (sp.module): the working folder is not searched for modules
		for i := 0; i < len(args); i++ {
			w := args[i]
			s := w.s
			if s == "--version" || s == "-V" || s == "--help" || s == "-h" || s == "-v" && len(args) == 1 {
				return
			}
			switch {
			case w.hole:
				c.add(effect.Of(effect.RunComputed), "interp-computed", "%s runs a program computed at run time", c.name)
				return
			case s == "-":
				c.fromStdin()
				return
			case s == "--":
				if i+1 < len(args) {
					c.programFile(args[i+1])
				} else {
					c.fromStdin()
				}
				return
			case strings.HasPrefix(s, "--"):
				name, val, has := strings.Cut(s, "=")
				if inList(name, sp.longCode...) {
					code := word{s: val, span: w.span}
					if !has && i+1 < len(args) {
						code = args[i+1]
					}
					c.inlineCode(code)
					return
				}
				if !has && inList(name, sp.longValued...) {
					i++
				}
				continue
			case strings.HasPrefix(s, "-"):
				letters := s[1:]
				for j := 0; j < len(letters); j++ {
					l := letters[j]
					rest := letters[j+1:]
					switch {
					case sp.module != "" && (l == 'I' || l == 'P'):
						// Python's isolated and safe-path modes: the
						// working folder is not put on the module path.
						isolated = true
						continue
					case strings.IndexByte(sp.code, l) >= 0:
						if l == 'p' && len(sp.codeJoin) > 0 && rest == "" && i+1 < len(args) && strings.HasPrefix(args[i+1].s, "-") && !args[i+1].hole {
							break // node -p -e CODE: --print alone, the code follows -e
						}
						code := word{s: rest, span: w.span}
						next := i + 1
						if inList(letters[j:], sp.codeJoin...) {
							rest = ""
						}
						if rest == "" && i+1 < len(args) {
							code, next = args[i+1], i+2
						}
						c.argv = programArgs(args[min(next, len(args)):], sp.code)
						c.inlineCode(code)
						// perl -e '…' -e '…': every piece is the program.
						for k := next; k+1 < len(args); k++ {
							if len(args[k].s) == 2 && args[k].s[0] == '-' && strings.IndexByte(sp.code, args[k].s[1]) >= 0 {
								k++
								c.inlineCode(args[k])
							}
						}
						return
					case strings.IndexByte(sp.module, l) >= 0:
						m, next := rest, i+1
						if m == "" && i+1 < len(args) {
							m, next = args[i+1].s, i+2
							if args[i+1].hole {
								m = rate.HoleMark
							}
						}
						if c.pythonModule(m, args[min(next, len(args)):]) {
							if !isolated {
								c.workingFolderModules(m)
							}
							return
						}
						c.add(effect.Of(effect.RunUnseen).On(m), "interp-module", "%s -%c %s: runs a module that is not analysed", c.name, l, rate.Display(m))
						return
					case strings.IndexByte(sp.valued, l) >= 0:
						v := rest
						if rest == "" {
							i++
							if i < len(args) {
								v = args[i].s
							}
						}
						if (l == 'M' || l == 'm') && strings.HasPrefix(c.name, "perl") {
							mod, _, _ := strings.Cut(v, "=")
							c.use += "use " + strings.TrimPrefix(mod, "-") + ";\n"
						}
					case strings.IndexByte(sp.optional, l) >= 0:
						if n := sp.optionalLen(l, rest); n < len(rest) {
							j += n // perl -le: -l takes no letters, -e follows
							continue
						}
					default:
						continue
					}
					break
				}
				continue
			}
			c.programFile(w)
			return
		}
		c.fromStdin()
	}
}

// pythonModule rates python -m for the standard modules a script uses
// every day; it reports false for others (which stay unanalysed).
func (c *call) pythonModule(m string, rest []word) bool {
	switch m {
	case "pip", "pip3":
		c.a.call(append([]word{{s: "pip", span: c.span}}, rest...), c.span, c.pc)
	case "http.server", "SimpleHTTPServer":
		dir := word{s: c.a.cwd}
		for i, w := range rest {
			if (w.s == "-d" || w.s == "--directory") && i+1 < len(rest) {
				dir = rest[i+1]
			}
		}
		if z := c.a.zoneOf(dir); dir.s != "" && (z.HomeRoot || z.Critical()) {
			c.add(effect.Of(effect.Connect).On(dir.s), "python-module", "%s -m %s: serves %s to the network", c.name, m, rate.Display(dir.s))
		}
		c.add(effect.Of(effect.Fetch), "python-module", "%s -m %s: serves the current folder over HTTP", c.name, m)
	case "webbrowser":
		// python -m webbrowser [-n|-t] URL hands the URL to the system,
		// as open does (on a Mac through open location).
		open := []word{{s: "open", span: c.span}}
		for _, w := range rest {
			if w.hole || !strings.HasPrefix(w.s, "-") {
				open = append(open, w)
			}
		}
		c.add(effect.Of(effect.Run).On(m), "python-module", "%s -m %s: opens a URL with the system's handler", c.name, m)
		if len(open) > 1 {
			c.a.call(open, c.span, pipeCtx{})
		}
	case "json.tool", "venv", "virtualenv", "ensurepip", "py_compile", "compileall", "calendar", "site", "platform":
		c.add(effect.Of(effect.Run).On(m), "python-module", "%s -m %s: runs a standard module", c.name, m)
	default:
		return false
	}
	return true
}

// workingFolderModules rates python -m m (a standard module, not isolated
// by -I or -P) by the working folder, which Python searches first for
// every module it imports (rate.Env.PythonModulesIn): one that holds a
// module, or that cannot be told, runs code nobody analysed.
func (c *call) workingFolderModules(m string) {
	a := c.a
	dir := a.cwd
	if dir == "" {
		dir = "~" // where the gate starts commands
	}
	switch {
	case a.cwdLost:
		c.add(effect.Of(effect.RunUnseen).On(m), "python-module-cwd",
			"%s -m %s: Python imports from the working folder first, which this script computes at run time; -I or -P keeps the folder out", c.name, rate.Display(m))
	case a.env == nil || a.env.Paths == nil:
		// Nothing of the machine is known (a pure assessment): the gate,
		// which knows it, judges the folder.
	default:
		switch a.env.PythonModulesIn(dir) {
		case rate.PresentFile:
			c.add(effect.Of(effect.RunUnseen).On(m), "python-module-cwd",
				"%s -m %s: the working folder %s holds Python modules, which Python imports before the standard ones (a json.py runs instead of json); -I or -P keeps the folder out", c.name, rate.Display(m), rate.Display(dir))
		case rate.PresenceUnknown:
			c.add(effect.Of(effect.RunUnseen).On(m), "python-module-cwd",
				"%s -m %s: Python imports from the working folder %s first, which could not be read whole; -I or -P keeps the folder out", c.name, rate.Display(m), rate.Display(dir))
		}
	}
}

// perlEdit rates perl -pe, -ne and -pi -e whose code only substitutes,
// transliterates or prints (s///, tr///, y///, print) as sed: a text
// edit. It reports false for anything else.
func (c *call) perlEdit() bool {
	var code *word
	inplace, loop, prints := false, false, false
	var files []word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		s := w.s
		if code != nil {
			if strings.HasPrefix(s, "-") && s != "-" && !w.hole {
				return false // more options after the code: another -e
			}
			files = append(files, w)
			continue
		}
		if w.hole || !strings.HasPrefix(s, "-") || len(s) < 2 {
			return false // a program file
		}
		letters := s[1:]
		for j := 0; j < len(letters); j++ {
			switch l := letters[j]; {
			case l == 'e' || l == 'E':
				switch {
				case j+1 < len(letters):
					code = &word{s: letters[j+1:], span: w.span}
				case i+1 < len(c.args):
					i++
					code = &c.args[i]
				default:
					return false
				}
				j = len(letters)
			case l == 'i':
				inplace = true
				j = len(letters) // -i.bak: the rest is the backup suffix
			case l == 'l' || l == '0':
				for j+1 < len(letters) && (letters[j+1] >= '0' && letters[j+1] <= '9' || letters[j+1] == 'x') {
					j++
				}
			case strings.IndexByte("pnaw", l) < 0:
				return false
			default:
				loop = loop || l == 'n' || l == 'p'
				prints = prints || l == 'p'
			}
		}
	}
	if inplace && loop && !prints && code != nil && !code.hole && !perlPrints(code.s) {
		// perl -i -ne CODE FILE…: each file is rewritten with what the
		// code prints, and this code prints nothing: every file is
		// emptied, as sed -i d would.
		for _, f := range files {
			c.add(effect.Of(effect.Remove).On(f.s), "truncate", "%s -i -n: the code prints nothing, so %s is emptied", c.name, rate.Display(shownTarget(f)))
		}
	}
	if code == nil || code.hole || !perlSimple(code.s) {
		if inplace && code != nil {
			// perl -pi -e CODE FILE…: whatever the code, it rewrites the files.
			for _, f := range files {
				c.a.write(f, c.span, "edits")
			}
		}
		return false
	}
	c.add(effect.Of(effect.Change), "perl-edit", "%s: edits text with substitutions", c.name)
	if inplace {
		c.add(effect.Of(effect.Change), "perl-edit", "%s -i: edits files in place", c.name)
		for _, f := range files {
			c.a.write(f, c.span, "edits")
		}
	}
	return true
}

// perlPrints reports Perl code that may write to the output: print,
// printf, say, syswrite or write anywhere in it, or a call the code does
// not show (&f, do, eval, require).
func perlPrints(code string) bool {
	for _, w := range []string{"print", "say", "write", "&", "do", "eval", "require", "use", "system", "exec", "`"} {
		if strings.Contains(code, w) {
			return true
		}
	}
	return false
}

// perlSimple reports Perl code made only of s///, tr/// and y/// (no e
// flag, no code interpolated into them) and print statements of plain
// variables, strings and patterns.
func perlSimple(code string) bool {
	i, n := 0, len(code)
	skip := func() {
		for i < n && strings.IndexByte(" \t\n;", code[i]) >= 0 {
			i++
		}
	}
	// part reads a delimited part ending at d: text without interpolated code.
	part := func(d byte) (string, bool) {
		start := i
		for i < n && code[i] != d {
			if code[i] == '\\' {
				i++
			}
			i++
		}
		if i >= n {
			return "", false
		}
		i++
		return code[start : i-1], perlInterpSafe(code[start : i-1])
	}
	for skip(); i < n; skip() {
		rest := code[i:]
		switch {
		case strings.HasPrefix(rest, "s") || strings.HasPrefix(rest, "y") || strings.HasPrefix(rest, "tr"):
			parts := 2
			if rest[0] == 't' {
				i++
			}
			i++
			if i >= n {
				return false
			}
			d := code[i]
			if d == ' ' || d == '_' || d == '{' || d == '(' || d == '[' || d == '<' || d >= 'a' && d <= 'z' || d >= 'A' && d <= 'Z' || d >= '0' && d <= '9' {
				return false
			}
			i++
			for k := 0; k < parts; k++ {
				if _, ok := part(d); !ok {
					return false
				}
			}
			for i < n && code[i] >= 'a' && code[i] <= 'z' {
				if code[i] == 'e' {
					return false // s///e runs the replacement as code
				}
				i++
			}
		case strings.HasPrefix(rest, "print"):
			end := strings.IndexByte(rest, ';')
			if end < 0 {
				end = len(rest)
			}
			if !perlPrintArgs(rest[len("print"):end]) {
				return false
			}
			i += end
		default:
			return false
		}
		if i < n && strings.IndexByte(" \t\n;", code[i]) < 0 {
			return false
		}
	}
	return true
}

// perlPrintArgs reports print arguments and modifiers made of variables,
// strings, patterns, numbers and operators, and nothing that calls code.
func perlPrintArgs(s string) bool {
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(" \t\n,.=!<>()", r) }) {
		switch {
		case f[0] == '$' || f[0] == '@' || f[0] == '"' || f[0] == '\'' || f[0] == '/' || f[0] >= '0' && f[0] <= '9' || f[0] == '-':
			if strings.ContainsAny(f, "`") || !perlInterpSafe(f) {
				return false
			}
		case inList(f, "if", "unless", "and", "or", "not", "eq", "ne", "lt", "gt", "le", "ge", "x", "&&", "||", "~"):
		default:
			return false
		}
	}
	return !strings.ContainsAny(s, "`;{")
}

// perlInterpSafe reports text interpolated by Perl that runs no code: no
// @{…} or ${…} blocks, no subscripts other than numbers and barewords,
// no (?{…}) and no backticks.
func perlInterpSafe(s string) bool {
	if strings.Contains(s, "`") || strings.Contains(s, "(?{") || strings.Contains(s, "(??{") || strings.Contains(s, "(*{") {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '$', '@':
			j := i + 1
			if j < len(s) && s[j] == '{' {
				return false
			}
			for j < len(s) && (s[j] == '_' || s[j] == ':' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
				j++
			}
			if j == i+1 {
				continue
			}
			for j+1 < len(s) && s[j] == '-' && s[j+1] == '>' {
				j += 2
			}
			if j < len(s) && (s[j] == '[' || s[j] == '{') {
				k := strings.IndexByte(s[j:], map[byte]byte{'[': ']', '{': '}'}[s[j]])
				if k < 0 || strings.Trim(s[j+1:j+k], "-0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_") != "" {
					return false
				}
				j += k
			}
			i = j - 1
		}
	}
	return true
}

// optionalLen is how many bytes of rest, the letters after the optional
// letter l in one word, are l's attached value (interpSpec says which).
func (sp interpSpec) optionalLen(l byte, rest string) int {
	n := 0
	if strings.IndexByte(sp.colon, l) >= 0 {
		if l == 'd' && strings.HasPrefix(rest, "t") {
			n = 1 // perl -dt
		}
		if strings.HasPrefix(rest[n:], ":") || strings.HasPrefix(rest[n:], "=") {
			return len(rest)
		}
		if l == 'd' {
			return n
		}
	}
	switch {
	case strings.IndexByte(sp.char, l) >= 0:
		return min(1, len(rest))
	case strings.IndexByte(sp.digits, l) >= 0:
		digits := "0123456789"
		if l == '0' && strings.HasPrefix(rest, "x") {
			n, digits = 1, "0123456789abcdefABCDEF" // perl -0x1ff
		}
		for n < len(rest) && strings.IndexByte(digits, rest[n]) >= 0 {
			n++
		}
		return n
	}
	return len(rest)
}

// programArgs are the words after an inline program that are its
// arguments: not another piece of the program (perl -e … -e …), past a --.
func programArgs(rest []word, code string) []word {
	var out []word
	for k := 0; k < len(rest); k++ {
		s := rest[k].s
		switch {
		case len(s) == 2 && s[0] == '-' && strings.IndexByte(code, s[1]) >= 0:
			k++ // another piece of the program
		case s == "--" && len(out) == 0:
		default:
			out = append(out, rest[k])
		}
	}
	return out
}

// plainCode reports an interpreter given code w with no option but the
// one that takes it (and, for Python, options that load nothing: -I -E -s
// -S -B -u -q -O): node -r ./hook.js -e …, python -X … -c … load or change
// more than the code.
func (c *call) plainCode(w word) bool {
	for i, a := range c.args {
		switch {
		case a.hole:
			return false
		case i+1 < len(c.args) && c.args[i+1].s == w.s && codeFlags[c.name+" "+a.s]:
			return interp.LangOf(c.name) != interp.JS || !nodeOptionAfter(c.args[i+2:])
		case interp.LangOf(c.name) == interp.Python && pythonPlainFlags[a.s]:
		default:
			return false
		}
	}
	return false
}

// nodeOptionAfter reports an option among rest, the words after node's
// code: node reads its options after -e's code too (node -e … -r
// ./hook.js loads the hook first; --import, --env-file), up to a "--"
// (python -c hands what follows to the code as sys.argv). A word computed
// at run time may be one.
func nodeOptionAfter(rest []word) bool {
	for _, a := range rest {
		switch {
		case a.s == "--" && !a.hole:
			return false
		case a.hole || strings.HasPrefix(a.s, "-"):
			return true
		}
	}
	return false
}

// codeFlags are the options, by interpreter, that take the code to run
// (not bun's: it preloads what a bunfig.toml in the working folder names).
var codeFlags = map[string]bool{"python -c": true, "python3 -c": true, "node -e": true, "node -p": true, "node -pe": true,
	"node --eval": true, "node --print": true, "nodejs -e": true, "nodejs -p": true}

// pythonPlainFlags are Python's options that load nothing and change no
// search path.
var pythonPlainFlags = set(`-I -E -s -S -B -u -q -O -OO`)

// inlineCode rates program text given on the command line: code the
// analyzer cannot see whole is RunUnseen, but a Python or JavaScript
// one-liner that only computes, prints and reads (interp.ReadOnly) is
// what its reads are (scanCode).
func (c *call) inlineCode(w word) {
	if !w.hole && c.use == "" && !c.a.interpEnv && c.plainCode(w) && interp.ReadOnly(interp.LangOf(c.name), w.s) {
		c.add(effect.Of(effect.Read), "interp-readonly", "%s runs inline code that only computes, prints and reads", c.name)
	} else {
		c.add(effect.Of(effect.RunUnseen), "interp-code", "%s runs inline code that is not analysed", c.name)
	}
	if w.hole {
		c.add(effect.Of(effect.RunComputed), "interp-computed", "%s runs code computed at run time", c.name)
	}
	scanCode(c, w.s)
}

// programFile rates an interpreter running a program file.
func (c *call) programFile(w word) {
	if isStdinPath(w.s) {
		c.fromStdin()
		return
	}
	switch content, ok := c.a.fileContent(w.s); {
	case !ok:
		c.add(effect.Of(effect.RunUnseen).On(w.s), "interp-file", "%s %s: runs a program that is not analysed", c.name, rate.Display(w.s))
	case content == fileDownloaded:
		c.add(effect.Of(effect.RunComputed).On(w.s), "download-exec", "%s %s: runs a file downloaded by this same script", c.name, rate.Display(w.s))
	case content == fileComputed:
		c.add(effect.Of(effect.RunComputed).On(w.s), "write-exec", "%s %s: runs a file this script wrote with computed content", c.name, rate.Display(w.s))
	default:
		c.add(effect.Of(effect.RunUnseen).On(w.s), "interp-file", "%s %s: runs a program that is not analysed", c.name, rate.Display(w.s))
		scanCode(c, content)
	}
}

// runtimeCommand rates deno and bun: eval runs code, run a file or -, no
// arguments reads the program from stdin.
func runtimeCommand(c *call) {
	ops := c.operands()
	if len(c.args) == 0 {
		c.fromStdin()
		return
	}
	for i, w := range c.args {
		if w.s == "-e" || w.s == "--eval" || w.s == "-p" || w.s == "--print" {
			if i+1 < len(c.args) {
				c.inlineCode(c.args[i+1])
			}
			return
		}
	}
	s := sub(c.args)
	switch {
	case s == "eval" && len(ops) > 1:
		c.inlineCode(ops[1])
	case s == "-" || (s == "run" || s == "x") && len(ops) > 1 && ops[1].s == "-":
		c.fromStdin()
	case (s == "run" || s == "x") && len(ops) > 1:
		c.programFile(ops[1])
	case s == "--version" || s == "-v" || s == "help" || s == "--help" || s == "upgrade" && false:
	default:
		c.add(effect.Of(effect.RunUnseen).On(s), "interp-file", "%s %s: runs a program that is not analysed", c.name, rate.Display(s))
	}
}

func pwshCommand(c *call) {
	if len(c.args) == 0 {
		c.fromStdin()
		return
	}
	for i, w := range c.args {
		s := strings.ToLower(w.s)
		next := word{}
		if i+1 < len(c.args) {
			next = c.args[i+1]
		}
		switch s {
		case "-encodedcommand", "-enc", "-e", "-ec", "-en", "-encoded":
			c.add(effect.Of(effect.RunComputed), "decoded-exec", "%s -EncodedCommand: runs base64-encoded code", c.name)
			return
		case "-command", "-c", "-com", "-comm":
			if next.s == "-" {
				c.fromStdin()
				return
			}
			c.inlineCode(next)
			return
		case "-file", "-f":
			c.programFile(next)
			return
		case "-":
			c.fromStdin()
			return
		}
	}
	c.add(effect.Of(effect.RunUnseen), "interp-file", "%s: runs code that is not analysed", c.name)
}

// scanKeywords looks through program text of a language interp does not
// read for the obvious.
func scanKeywords(c *call, code string) {
	low := strings.ToLower(code)
	for _, k := range []string{"rmtree", "remove_tree", "unlink(", "os.remove", "remove_dir", "rm -rf", "rm -r", "fileutils.rm", "rmsync", "rimraf", "shutil.rmtree", "removeitematpath", "rm_rf"} {
		if strings.Contains(low, k) {
			c.add(effect.Of(effect.Remove), "interp-delete", "%s code deletes files (%s)", c.name, k)
			return
		}
	}
	runs := ""
	for _, k := range []string{"os.system", "subprocess", "system(", "system (", "exec(", "exec (", "popen", "spawn", "`", "eval(", "eval (",
		"function(", "instance_eval", "class_eval", "child_process", "execsync", "qx", "runtime.getruntime", "new function"} {
		if strings.Contains(low, k) {
			runs = k
			break
		}
	}
	if runs == "" {
		return
	}
	for _, k := range []string{"b64decode", "base64", "decode64", "unhexlify", "fromhex", "pack(", "pack (", "fromcharcode",
		"atob(", "zlib", "marshal.loads", "rot13", "rot_13", "codecs.decode", "decompress", "frombase64string", "unpack(", "hex2bin",
		"gzinflate", "str_rot13", "\\x", "chr(", "reverse("} {
		if strings.Contains(low, k) {
			c.add(effect.Of(effect.RunComputed), "interp-decode-exec", "%s code decodes data and runs it (%s … %s)", c.name, k, runs)
			return
		}
	}
	c.add(effect.Of(effect.Shell), "interp-shell", "%s code runs other commands (%s)", c.name, runs)
}

// awkCommand rates awk programs: system(), print … | "cmd" and
// "cmd" | getline run shell commands; print > "file" writes a file.
func awkCommand(c *call) {
	var buf [1]word
	progs := buf[:0]
	file, inplace := false, false
	args := c.args
	i := 0
	for ; i < len(args); i++ {
		w := args[i]
		s := w.s
		if w.hole || !strings.HasPrefix(s, "-") || s == "-" {
			break
		}
		if s == "--" {
			i++
			break
		}
		switch {
		case s == "-f" || s == "--file":
			file = true
			i++
		case strings.HasPrefix(s, "-f") || strings.HasPrefix(s, "--file="):
			file = true
		case s == "-e" || s == "--source":
			if i+1 < len(args) {
				progs = append(progs, args[i+1])
			}
			i++
		case strings.HasPrefix(s, "--source="):
			progs = append(progs, word{s: s[len("--source="):], hole: w.hole})
		case s == "-F" || s == "-v" || s == "-i" || s == "-l" || s == "--field-separator" || s == "--assign" || s == "--include" || s == "--load":
			if (s == "-i" || s == "--include") && i+1 < len(args) && strings.TrimSuffix(args[i+1].s, ".awk") == "inplace" {
				inplace = true // gawk -i inplace: every file operand is rewritten
			}
			i++
		case s == "--include=inplace" || s == "--include=inplace.awk":
			inplace = true
		}
	}
	if !file && len(progs) == 0 && i < len(args) {
		progs = append(progs, args[i])
		i++
	}
	if inplace {
		for _, f := range args[min(i, len(args)):] {
			if !strings.Contains(f.s, "=") {
				c.a.write(f, c.span, c.name+" -i inplace rewrites")
			}
		}
	}
	if file && len(progs) == 0 {
		c.add(effect.Of(effect.RunUnseen), "awk-file", "%s runs a program file that is not analysed", c.name)
	}
	for _, p := range progs {
		if p.hole {
			c.add(effect.Of(effect.RunUnseen), "awk-system", "%s program is computed at run time", c.name)
			continue
		}
		c.awkProgram(p.s)
	}
}

// awkAt rates gawk's "@" forms in an awk program, outside its strings
// and comments: @include and @load read a program file or a shared
// library from AWKPATH or AWKLIBPATH, whose first entry is the working
// folder, and @name(…) calls the function a variable names at run time,
// a built-in one (system) among them ("sys" "tem" hides it from a reader
// of the text). Each runs code this analysis does not see. @namespace
// names a namespace, and an "@" that starts no name (a regular
// expression's /@/) is text.
func (c *call) awkAt(prog string) {
	for i := 0; i < len(prog); i++ {
		switch ch := prog[i]; {
		case ch == '"':
			for i++; i < len(prog) && prog[i] != '"'; i++ {
				if prog[i] == '\\' {
					i++
				}
			}
		case ch == '#':
			for i < len(prog) && prog[i] != '\n' {
				i++
			}
		case ch == '@':
			j := i + 1
			for j < len(prog) && (prog[j] == '_' || prog[j] >= 'a' && prog[j] <= 'z' || prog[j] >= 'A' && prog[j] <= 'Z' || j > i+1 && prog[j] >= '0' && prog[j] <= '9') {
				j++
			}
			name := prog[i+1 : j]
			switch {
			case name == "include" || name == "load":
				c.add(effect.Of(effect.RunUnseen), "awk-include", "%s program's @%s reads code from a file (the working folder first) that is not analysed", c.name, name)
			case name != "" && name != "namespace" && j < len(prog) && prog[j] == '(':
				c.add(effect.Of(effect.RunUnseen), "awk-indirect", "%s program's @%s(…) calls the function a variable names at run time, system() among them", c.name, name)
			}
			i = j - 1
		}
	}
}

// awkTok is a token of an awk program: a string literal (str set), a
// name, or punctuation.
type awkTok struct {
	s   string
	str bool
}

func awkTokens(prog string) []awkTok {
	var toks []awkTok
	for i := 0; i < len(prog); i++ {
		ch := prog[i]
		switch {
		case ch == '"':
			var b strings.Builder
			j := i + 1
			for ; j < len(prog) && prog[j] != '"'; j++ {
				if prog[j] == '\\' && j+1 < len(prog) {
					n, d, _ := oneEscape(prog[j:], false)
					b.WriteString(d)
					j += n - 1
					continue
				}
				b.WriteByte(prog[j])
			}
			toks = append(toks, awkTok{s: b.String(), str: true})
			i = j
		case ch == '#':
			for i < len(prog) && prog[i] != '\n' {
				i++
			}
			toks = append(toks, awkTok{s: "\n"})
		case ch == ' ' || ch == '\t' || ch == '\\':
		case ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '$' || ch == '.':
			j := i
			for j < len(prog) && (prog[j] == '_' || prog[j] == '$' || prog[j] == '.' || prog[j] >= 'a' && prog[j] <= 'z' || prog[j] >= 'A' && prog[j] <= 'Z' || prog[j] >= '0' && prog[j] <= '9') {
				j++
			}
			toks = append(toks, awkTok{s: prog[i:j]})
			i = j - 1
		case (ch == '|' || ch == '>' || ch == '&') && i+1 < len(prog) && (prog[i+1] == ch || ch == '|' && prog[i+1] == '&'):
			toks = append(toks, awkTok{s: prog[i : i+2]})
			i++
		default:
			toks = append(toks, awkTok{s: prog[i : i+1]})
		}
	}
	return toks
}

// awkText joins an awk expression into shell text: string literals as
// they are, anything computed as an unquoted hole.
func awkText(toks []awkTok) string {
	var b strings.Builder
	hole := false
	for _, t := range toks {
		switch {
		case t.str:
			b.WriteString(t.s)
			hole = false
		case t.s == "(" || t.s == ")" || t.s == ",":
		default:
			if !hole {
				b.WriteString(rate.HoleUnquoted)
				hole = true
			}
		}
	}
	return b.String()
}

// awkTarget reads the file name after print's > or >>: the concatenation
// of strings and values up to the end of the statement. ENVIRON["HOME"] is
// the home folder (~). It returns the name, whether all of it is known,
// and whether none of it is (print > $1).
func awkTarget(toks []awkTok) (path string, literal, whole bool) {
	var b strings.Builder
	literal, whole = true, true
	for k := 0; k < len(toks); k++ {
		t := toks[k]
		if awkBoundary(t) || !t.str && (t.s == ")" || t.s == "," || t.s == "|" || t.s == ">" || t.s == ">>") {
			break
		}
		switch {
		case t.str:
			b.WriteString(t.s)
			whole = false
		case t.s == "(":
		case t.s == "ENVIRON" && k+3 < len(toks) && toks[k+1].s == "[" && toks[k+2].str && toks[k+3].s == "]":
			if toks[k+2].s == "HOME" && b.Len() == 0 {
				b.WriteString("~")
				whole = false
			} else {
				literal = false
			}
			k += 3
		default:
			literal = false
		}
	}
	if b.Len() == 0 {
		literal = false
	}
	return b.String(), literal, whole && !literal
}

// awkGetline reports tokens that end in getline or getline NAME: a <
// after them names the file getline reads.
func awkGetline(before []awkTok) bool {
	n := len(before)
	isGetline := func(k int) bool { return k >= 0 && !before[k].str && before[k].s == "getline" }
	return isGetline(n-1) || n >= 2 && !before[n-1].str && before[n-1].s != "(" && before[n-1].s != ")" && isGetline(n-2)
}

// awkWholeEnviron reports a program that goes over ENVIRON (for (k in
// ENVIRON)) or indexes it with a key computed at run time (ENVIRON[k]):
// every variable of the environment may be printed.
func awkWholeEnviron(toks []awkTok) bool {
	for i, t := range toks {
		if t.str || t.s != "ENVIRON" {
			continue
		}
		if i > 0 && !toks[i-1].str && toks[i-1].s == "in" {
			return true
		}
		if i+2 < len(toks) && toks[i+1].s == "[" && !toks[i+1].str && !(toks[i+2].str && i+3 < len(toks) && toks[i+3].s == "]") {
			return true
		}
	}
	return false
}

func awkBoundary(t awkTok) bool {
	return !t.str && (t.s == ";" || t.s == "{" || t.s == "}" || t.s == "\n" || t.s == "&&" || t.s == "||")
}

func (c *call) awkProgram(prog string) {
	if strings.Contains(prog, "@") {
		c.awkAt(prog)
	}
	if !strings.Contains(prog, "system") && !strings.ContainsAny(prog, "|>") && !strings.Contains(prog, "getline") && !strings.Contains(prog, "ENVIRON") {
		return // no command, pipe, output file or file read
	}
	toks := awkTokens(prog)
	for i := 0; i+3 < len(toks); i++ {
		// print ENVIRON["GITHUB_TOKEN"]: a secret variable's value.
		if !toks[i].str && toks[i].s == "ENVIRON" && toks[i+1].s == "[" && toks[i+2].str && secretName(toks[i+2].s) {
			c.secretPrinted(toks[i+2].s)
		}
	}
	if awkWholeEnviron(toks) {
		c.environmentRead(c.name + " ENVIRON")
	}
	shellRuns := false
	run := func(cmd []awkTok, what string) {
		text := awkText(cmd)
		if strings.Contains(text, rate.HoleUnquoted) || len(cmd) == 0 {
			shellRuns = true
		} else {
			c.add(effect.Of(effect.Run), "awk-command", "%s program runs %s", c.name, rate.Display(text))
		}
		c.nestedText(text, what)
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.str {
			continue
		}
		switch t.s {
		case "system":
			if i+1 >= len(toks) || toks[i+1].s != "(" || toks[i+1].str {
				continue
			}
			depth, j := 0, i+1
			for ; j < len(toks); j++ {
				if toks[j].str {
					continue
				}
				if toks[j].s == "(" {
					depth++
				} else if toks[j].s == ")" {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			shellRuns = true
			run(toks[i+2:min(j, len(toks))], c.name+" system()")
		case "|", "|&":
			if i+1 < len(toks) && toks[i+1].s == "getline" && !toks[i+1].str {
				// "cmd" | getline: the command is what comes before.
				k := i - 1
				for k >= 0 && !awkBoundary(toks[k]) && !(toks[k].s == "(" && !toks[k].str) {
					k--
				}
				run(toks[k+1:i], c.name+" getline")
				continue
			}
			// print … | "cmd": cmd reads what print writes.
			j := i + 1
			for j < len(toks) && !awkBoundary(toks[j]) && !(toks[j].s == ")" && !toks[j].str) {
				j++
			}
			cmd := toks[i+1 : j]
			k := i - 1
			for k >= 0 && !awkBoundary(toks[k]) && !(!toks[k].str && (toks[k].s == "print" || toks[k].s == "printf")) {
				k--
			}
			run(cmd, c.name+" print |")
			if text := awkText(cmd); len(cmd) > 0 && cmd[0].str {
				if f := strings.Fields(text); len(f) > 0 && shells[commandName(f[0])] && len(f) == 1 {
					// print … | "sh": what is printed runs as commands.
					shellRuns = true
					c.nestedText(awkText(toks[max(k+1, 0):i]), c.name+" print | sh")
				}
			}
		case "<":
			// getline < "file", getline var < "file": reads the file
			// (a < elsewhere compares).
			if !awkGetline(toks[:i]) {
				continue
			}
			if path, literal, _ := awkTarget(toks[i+1:]); literal && !isStreamDevice(path) {
				c.a.read(word{s: path}, c.span)
			}
		case ">", ">>":
			// print > "file"
			k := i - 1
			inPrint := false
			for k >= 0 && !awkBoundary(toks[k]) {
				if !toks[k].str && (toks[k].s == "print" || toks[k].s == "printf") {
					inPrint = true
				}
				k--
			}
			if inPrint && i+1 < len(toks) {
				switch path, literal, whole := awkTarget(toks[i+1:]); {
				case literal && isStreamDevice(path):
					// print > "/dev/stderr": awk's own output
				case literal:
					if t.s == ">" {
						// > empties the file when the program first
						// opens it, as the shell's > does.
						c.a.replaces(word{s: path}, c.span, c.name+" writes to")
					}
					c.a.write(word{s: path}, c.span, c.name+" writes to")
				case whole:
					// Wholly computed (print > $1), the name may be any
					// file, a document that exists included, as a
					// shell redirection to "$f".
					c.add(effect.Of(effect.Overwrite, effect.Computed), "awk-write", "%s program writes a file named at run time, which may be any file: its contents would be replaced", c.name)
				default:
					c.add(effect.Of(effect.Create, effect.Computed), "awk-write", "%s program writes a file named at run time", c.name)
				}
			}
		}
	}
	if shellRuns {
		c.add(effect.Of(effect.Shell), "awk-system", "%s program runs shell commands", c.name)
	}
}

// nestedText analyses text as a shell script whose rate.HoleUnquoted markers
// stand for computed text.
func (c *call) nestedText(text, what string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	sp := c.span
	inner := shellRun(c.a.v, text, c.a.env, anchorOr(c.a.anchor, &sp), c.a.depth+1, c.a.sh)
	c.adopt(inner)
}

// adopt takes over what a nested analysis found that matters to the whole
// script: a secret read and data sent.
func (c *call) adopt(inner *shellAn) {
	if inner.secret != nil {
		c.a.secretAt(c.span)
	}
	if inner.upload != nil {
		c.a.uploadAt(c.span)
	}
}
