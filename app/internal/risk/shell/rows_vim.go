package shell

import (
	"regexp"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// vimModel is the vim family's option model (vim(1), nvim(1)): how to
// open the files; -c, --cmd, +cmd, -S, -u, -s, -w and -W are rated by
// vimCommand, and the options that run or write what it does not see
// declare it. -o3, -V9 take a number.
var vimModel = &opts{
	short:  "AbCdDeEfFghHlLmMnNoOpRrsvxXyZV0123456789?",
	valued: "cSuUiTtqwW",
	long: `--cmd= --noplugin --clean --not-a-term --ttyfail --nofork --help --version --literal --remote
		--remote-silent --remote-wait --remote-wait-silent --remote-tab --remote-tab-silent --remote-tab-wait
		--serverlist --servername= --server= --remote-ui --echo-wid --role= --socketid= --headless --embed --api-info -v -h`,
	effects: map[string]optEffect{
		"--remote-send": optFx(effect.RunUnseen, "sends keys to another Vim, which runs them as commands outside the sandbox (:! runs shell commands)", effect.Unconfined),
		"--remote-expr": optFx(effect.RunUnseen, "evaluates an expression in another Vim, outside the sandbox (system() runs shell commands)", effect.Unconfined),
		"--startuptime": optFx(effect.Overwrite, "writes start-up timings to the file it names"),
		"--listen":      optFx(effect.Connect, "serves a socket through which other programs drive this editor"),
	},
}

// vimCommand rates vim and its kin: commands given with -c, --cmd or +,
// and read from stdin in ex mode, are rated (vimCmd); ! and :r ! run shell
// commands. The files it opens are written when a command may write them:
// a write (:w, :wq, :x, :up, :wa), code, or a command not known to leave
// them alone; in ex mode, with commands not seen, too. A cursor position
// (+10, +/pattern) writes nothing.
func vimCommand(c *call) {
	c.add(effect.Of(effect.Launch), "editor", "%s: opens files in an editor", c.name)
	ex := c.name == "ex"
	writes := false
	var st vimState
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		s := w.s
		if b, last, ok := vimBundle(s); !w.hole && ok {
			// -sc CMD, -esc CMD, -Nu FILE: flags, then one option that
			// takes the next word.
			ex = ex || strings.ContainsAny(b, "eE")
			s = "-" + string(last)
		}
		switch {
		case w.hole || !strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "+"):
			st.files = append(st.files, w)
		case (s == "-c" || s == "--cmd") && i+1 < len(c.args):
			i++
			writes = c.vimCmd(c.args[i], &st) || writes
		case strings.HasPrefix(s, "+"):
			writes = c.vimCmd(word{s: s[1:], hole: w.hole, span: w.span}, &st) || writes
		case (s == "-S" || s == "-u" || s == "-s" && !ex || s == "-W" || s == "-w") && i+1 < len(c.args):
			i++
			if (s == "-u" || s == "-S") && inList(c.args[i].s, "NONE", "NORC", "DEFAULTS") {
				continue
			}
			if s == "-w" || s == "-W" {
				c.a.write(c.args[i], c.span, c.name+" writes keystrokes to")
				continue
			}
			c.add(effect.Of(effect.RunUnseen).On(c.args[i].s), "editor-script", "%s %s %s: runs editor commands from a file that is not analysed", c.name, s, rate.Display(c.args[i].s))
		case len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.ContainsAny(s[1:], "eE"):
			ex = true
		}
	}
	if ex {
		writes = c.vimStdin(&st) || writes
	}
	if writes || ex && c.pc.stdin != "text" {
		// Edited without anyone looking: the files are written.
		for _, f := range st.files {
			if isDevice(f.s) {
				continue
			}
			c.a.write(f, c.span, c.name+" edits")
			if st.emptied {
				c.add(effect.Of(effect.Remove).On(f.s), "editor-empties", "%s deletes every line of %s and writes it: what it held is lost", c.name, rate.Display(f.s))
			}
		}
	}
}

// vimBundle splits a bundle of the vim family's one-letter flags that ends
// in one of its options that take a value (-sc, -esc, -NS): the flags
// before it, and it.
func vimBundle(s string) (flags string, last byte, ok bool) {
	if len(s) < 3 || s[0] != '-' || s[1] == '-' {
		return "", 0, false
	}
	flags, last = s[1:len(s)-1], s[len(s)-1]
	if !strings.ContainsRune(vimModel.valued, rune(last)) {
		return "", 0, false
	}
	for i := 0; i < len(flags); i++ {
		if !strings.ContainsRune(vimModel.short, rune(flags[i])) {
			return "", 0, false
		}
	}
	return flags, last, true
}

// vimState is what a vim command line leaves for the others: the files
// being edited (the operands, and those :e opens), and whether every line
// was deleted (%d, 1,$d, :g/^/d, normal ggdG).
type vimState struct {
	files   []word
	emptied bool
}

// vimEmpties matches a command that deletes every line of the buffer.
var vimEmpties = regexp.MustCompile(`^(?:(?:%|1\s*,\s*\$)\s*d(?:e(?:l(?:e(?:t(?:e)?)?)?)?)?!?(?:\s|$|_)|g(?:l(?:o(?:b(?:a(?:l)?)?)?)?)?!?/\^?/\s*d|norm(?:a(?:l)?)?!?\s+gg\s*dG)`)

// vimWriteFile finds writefile()'s file in Vim script: writefile(list,
// "file").
var vimWriteFile = regexp.MustCompile(`writefile\s*\([^,]*,\s*(?:expand\(\s*)?['"]([^'"]+)['"]`)

// vimStdin rates the commands ex mode reads from stdin, and reports
// whether they may write the files.
func (c *call) vimStdin(st *vimState) bool {
	switch c.pc.stdin {
	case "text":
		writes := false
		for _, line := range strings.Split(c.pc.text, "\n") {
			if strings.TrimSpace(line) != "" {
				writes = c.vimCmd(word{s: line}, st) || writes
			}
		}
		return writes
	case "download", "decoded":
		c.add(effect.Of(effect.RunComputed), "editor-stdin", "%s runs editor commands from a download or decoded data", c.name)
	case "pipe", "computed":
		c.add(effect.Of(effect.RunUnseen), "editor-stdin", "%s runs editor commands computed at run time", c.name)
	}
	return true
}

// vimCmd rates one command line of vim and reports whether it may write
// the files being edited: ! (with a range: a filter), r ! and w ! run
// shell commands; system(), :terminal, :python, :lua … run code; the
// commands that write a file name it (vimWrites), :r reads one, :e and
// its kin open another (added to files); cursor positions and the
// commands of vimHarmless change no file; any other command edits text.
func (c *call) vimCmd(w word, st *vimState) bool {
	if w.hole {
		c.add(effect.Of(effect.RunUnseen), "editor-command", "%s runs an editor command computed at run time", c.name)
		return true
	}
	writes := false
	for rest := w.s; rest != ""; {
		t := strings.TrimLeft(rest, ": \t")
		for _, p := range []string{"silent!", "silent", "sil!", "sil"} {
			if strings.HasPrefix(t, p) {
				t = strings.TrimLeft(t[len(p):], " \t")
				break
			}
		}
		if vimPosition(t) {
			return writes
		}
		st.emptied = st.emptied || vimEmpties.MatchString(t)
		t = strings.TrimLeft(t, "0123456789%$.,;'<>+- \t")
		shell := ""
		switch {
		case strings.HasPrefix(t, "!"):
			shell = t[1:]
		case strings.HasPrefix(t, "r!") || strings.HasPrefix(t, "r !") || strings.HasPrefix(t, "read!") || strings.HasPrefix(t, "read !") ||
			strings.HasPrefix(t, "w !") || strings.HasPrefix(t, "write !"):
			shell = t[strings.IndexByte(t, '!')+1:]
		}
		if shell != "" || strings.HasPrefix(t, "!") {
			c.add(effect.Of(effect.Run), "editor-shell", "%s runs a shell command: %s", c.name, rate.Display(shell))
			c.nestedText(shell, c.name+" !")
			return true
		}
		piece, next := vimBar(t)
		writes = c.vimPiece(strings.TrimSpace(piece), st) || writes
		rest = next
	}
	return writes
}

// vimBar cuts t at the first | that separates commands: one outside a
// string, as vim's expression commands read it (:echo "a|b" is one).
func vimBar(t string) (piece, next string) {
	var quote byte
	for i := 0; i < len(t); i++ {
		switch b := t[i]; {
		case quote != 0:
			if b == quote {
				quote = 0
			}
		case b == '"' || b == '\'':
			quote = b
		case b == '|':
			return t[:i], t[i+1:]
		}
	}
	return t, ""
}

// vimPosition reports a +command that only puts the cursor somewhere: a
// line number, the last line, a search.
func vimPosition(t string) bool {
	if t != "" && (t[0] == '/' || t[0] == '?') {
		// A search alone: a second delimiter would start a command
		// after the range it makes (/x/d, /x/!cmd).
		pat := strings.TrimSuffix(t[1:], t[:1])
		return !strings.ContainsAny(pat, t[:1]+"!|")
	}
	return t == "$" || strings.Trim(t, "0123456789") == ""
}

// vimPiece rates one ex command, without a range, and reports whether it
// may write the files being edited: code first (vimCode), then the
// commands this model knows; any other command edits text.
func (c *call) vimPiece(piece string, st *vimState) bool {
	name, bang, arg := vimSplit(piece)
	if c.vimCode(piece, name, bang) {
		return true
	}
	switch full := vimFull(name); {
	case full == "":
	case vimWrites[full]:
		return c.vimWrite(full, bang, arg)
	case full == "read":
		if f := vimFile(arg); f.s != "" {
			c.a.read(f, c.span)
		}
		return false
	case vimOpens[full]:
		if f := vimFile(arg); f.s != "" {
			c.a.read(f, c.span)
			st.files = append(st.files, f)
		}
		return false
	case full == "set" || full == "setlocal":
		return !c.vimSet(arg)
	case vimHarmless[full]:
		return false
	}
	return true
}

// vimCode rates an ex command that runs code and reports whether it
// does: a ! not right after the command's name (a filter, a shell
// command), system(), an expression register, the script and language
// commands (:source, :python, :lua, :call, :execute, :normal, :let …),
// and a name in backticks, which vim has the shell expand (:e `cmd`).
func (c *call) vimCode(piece, name, bang string) bool {
	low := strings.ToLower(piece)
	lname := strings.ToLower(name)
	code := bang == "" && strings.Contains(low, "!") || strings.Contains(low, "system") || strings.Contains(low, `\=`) || vimCall.MatchString(low) ||
		len(lname) > 2 && strings.HasSuffix(lname, "do") && lname != "undo" && lname != "redo"
	for _, full := range []string{"source", "python", "python3", "py3", "pyfile", "py3file", "pythonx", "pyxfile", "lua", "luafile",
		"perl", "ruby", "rubyfile", "call", "execute", "normal", "terminal", "let", "autocmd", "command", "tcl", "mzscheme"} {
		if len(lname) > 1 && strings.HasPrefix(full, lname) {
			code = true
		}
	}
	if i := strings.IndexByte(piece, '`'); i >= 0 {
		code = true
		if inner, _, ok := strings.Cut(piece[i+1:], "`"); ok && !strings.HasPrefix(inner, "=") {
			c.nestedText(inner, c.name+" `…`")
		}
	}
	if !code {
		return false
	}
	c.add(effect.Of(effect.RunUnseen), "editor-code", "%s command %q runs code", c.name, rate.Display(piece))
	scanCode(c, piece)
	for _, m := range vimWriteFile.FindAllStringSubmatch(piece, 4) {
		c.a.write(vimFile(m[1]), c.span, c.name+" writefile() writes")
	}
	return true
}

// vimCall is a function called in an expression (writefile(, delete(,
// libcall(): any command that evaluates one (:echo, :if) runs code.
var vimCall = regexp.MustCompile(`[a-z0-9_#]\s*\(`)

// vimSet rates :set and reports whether it only sets options that change
// how the text is shown or edited (vimSafeOptions); the options that name
// a file vim writes (a log of its messages, its history) write that file.
// Any other option may name a program or a place to write: not harmless.
func (c *call) vimSet(arg string) bool {
	safe := true
	for _, f := range strings.Fields(arg) {
		name, val, _ := strings.Cut(f, "=")
		name = strings.TrimRight(name, "!&?+-^:")
		if v, ok := strings.CutPrefix(name, "no"); ok && vimSafeOptions[v] {
			name = v
		}
		if v, ok := strings.CutPrefix(name, "inv"); ok && vimSafeOptions[v] {
			name = v
		}
		switch {
		case vimFileOptions[name]:
			if w := vimFile(val); w.s != "" {
				c.a.write(w, c.span, c.name+" :set "+name+" writes")
			}
			safe = false
		case !vimSafeOptions[name]:
			safe = false
		}
	}
	return safe
}

// Vim's options (:help option-list) by what setting them does: show or
// edit the text differently, or name a file vim writes its messages or
// history to.
var (
	vimSafeOptions = set(`number nu relativenumber rnu filetype ft syntax syn textwidth tw tabstop ts shiftwidth sw
		softtabstop sts expandtab et wrap list hlsearch hls ignorecase ic smartcase scs incsearch is paste spell
		readonly ro compatible cp background bg autoindent ai smartindent si cindent cin cursorline cul
		cursorcolumn cuc ruler ru showcmd sc laststatus ls foldenable fen foldmethod fdm foldlevel fdl
		colorcolumn cc scrolloff so wrapscan ws modifiable ma fileformat ff fileencoding fenc encoding enc
		linebreak lbr showmatch sm title all termguicolors tgc mouse binary bin endofline eol fixendofline fixeol
		bomb spelllang spl conceallevel cole signcolumn scl statusline stl`)
	vimFileOptions = set("verbosefile vfile viminfofile vif shadafile sdf")
)

// vimSplit splits an ex command into its name (letters), a "!" right
// after the name, and its argument.
func vimSplit(piece string) (name, bang, arg string) {
	j := 0
	for j < len(piece) && (piece[j] >= 'a' && piece[j] <= 'z' || piece[j] >= 'A' && piece[j] <= 'Z') {
		j++
	}
	name, arg = piece[:j], piece[j:]
	if strings.HasPrefix(arg, "!") {
		bang, arg = "!", arg[1:]
	}
	return name, bang, strings.TrimSpace(arg)
}

// vimNames are the ex commands this model knows, each with the shortest
// abbreviation vim takes for it (vim's :help ex-cmd-index).
var vimNames = []struct {
	full string
	min  int
}{
	{"write", 1}, {"wq", 2}, {"xit", 1}, {"exit", 3}, {"saveas", 3}, {"update", 2}, {"wnext", 2}, {"wNext", 2},
	{"wprevious", 2}, {"wall", 2}, {"wqall", 3}, {"xall", 2}, {"mksession", 3}, {"mkview", 5}, {"mkvimrc", 3},
	{"mkexrc", 2}, {"wviminfo", 2}, {"wshada", 3}, {"redir", 4}, {"read", 1}, {"edit", 1}, {"split", 2},
	{"vsplit", 2}, {"new", 3}, {"vnew", 3}, {"tabedit", 4}, {"tabnew", 4}, {"badd", 3}, {"argadd", 4},
	{"set", 2}, {"setlocal", 4}, {"syntax", 2}, {"filetype", 5}, {"colorscheme", 4}, {"quit", 1}, {"qall", 2},
	{"quitall", 5}, {"cquit", 2}, {"nohlsearch", 3}, {"diffthis", 5}, {"diffoff", 5}, {"diffupdate", 3},
	{"help", 1},
}

// vimFull is the full name of an ex command name or its abbreviation, ""
// for one this model does not know.
func vimFull(name string) string {
	for _, n := range vimNames {
		if len(name) >= n.min && strings.HasPrefix(n.full, name) {
			return n.full
		}
	}
	return ""
}

// The ex commands by what they do to files: write a file (the one named,
// or the files being edited), open another for editing, or leave files
// alone (syntax, quitting, help; :set by vimSet).
var (
	vimWrites   = set("write wq xit exit saveas update wnext wNext wprevious wall wqall xall mksession mkview mkvimrc mkexrc wviminfo wshada redir")
	vimOpens    = set("edit split vsplit new vnew tabedit tabnew badd argadd")
	vimHarmless = set("syntax filetype colorscheme quit qall quitall cquit nohlsearch diffthis diffoff diffupdate help")
)

// vimWrite rates a command that writes a file: the file it names, rated
// by where it is and, with !, replacing one that exists (without !, vim
// refuses to); without a name it writes the files being edited, and it
// reports so.
func (c *call) vimWrite(full, bang, arg string) bool {
	appends := false
	if full == "redir" && !strings.HasPrefix(arg, ">") {
		return false // into a register or a variable
	}
	if rest, ok := strings.CutPrefix(arg, ">>"); ok {
		appends, arg = true, rest
	} else if rest, ok := strings.CutPrefix(arg, ">"); ok && full == "redir" {
		arg = rest
	}
	f := vimFile(arg)
	if f.s == "" || strings.TrimSpace(arg) == "%" {
		return full != "redir"
	}
	verb := c.name + " :" + full + " writes"
	c.a.write(f, c.span, verb)
	if bang != "" && !appends {
		c.a.replaces(f, c.span, verb)
	}
	return false
}

// vimFile is the file an ex command names: its argument after any ++opt,
// with $HOME as ~; a name with another variable, an expression or a
// buffer's name (%, #) is computed at run time.
func vimFile(arg string) word {
	f := strings.Fields(arg)
	for len(f) > 0 && strings.HasPrefix(f[0], "++") {
		f = f[1:]
	}
	if len(f) == 0 {
		return word{}
	}
	s := strings.Join(f, " ")
	for _, h := range []string{"${HOME}", "$HOME"} {
		if rest, ok := strings.CutPrefix(s, h); ok {
			s = "~" + rest
		}
	}
	if strings.ContainsAny(s, "$`=") || strings.ContainsAny(s[:1], "%#<") {
		// A variable, an expression, or a name made from the current
		// file's (%:h/x, #, <cfile>).
		return word{s: rate.HoleMark + s, hole: true, glob: true}
	}
	return word{s: s}
}
