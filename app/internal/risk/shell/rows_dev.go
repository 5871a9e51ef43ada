package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// toolCommands registers stock macOS tools that only read, and the rules
// for archivers, databases, clouds, package runners, editors and
// supply-chain settings.
// compose rates docker compose (and docker-compose) by its subcommand,
// after its options: -f file, -p name …
func (c *call) compose(args []word) {
	for len(args) > 0 && strings.HasPrefix(args[0].s, "-") && !args[0].hole {
		s := args[0].s
		args = args[1:]
		if !strings.Contains(s, "=") && inList(s, "-f", "--file", "-p", "--project-name", "--env-file", "--profile",
			"--project-directory", "--ansi", "--progress", "--parallel") && len(args) > 0 {
			args = args[1:]
		}
	}
	s := ""
	if len(args) > 0 {
		s = strings.ToLower(args[0].s)
	}
	switch {
	case inList(s, "ps", "logs", "config", "ls", "images", "top", "version", "port", "events", ""):
	case (s == "down" || s == "rm") && (hasShort(args, 'v') || hasLong(args, "--volumes")):
		c.add(effect.Of(effect.Remove), "docker-volumes", "docker compose %s -v: deletes the project's volumes (their data is lost)", s)
	case inList(s, "up", "down", "stop", "start", "restart", "pull", "build", "create", "pause", "unpause", "kill", "rm"):
		c.add(effect.Of(effect.AppState), "docker-compose", "docker compose %s: starts, stops or builds the project's containers", s)
	default:
		c.add(effect.Of(effect.RunUnseen), "docker-compose", "docker compose %s: runs commands in containers", rate.Display(s))
	}
}

// dockerMount rates a bind mount of docker run (-v SRC:DST, or --mount's
// source=SRC with spec): the home folder or a protected place handed to
// the container's code. It reports a mount of a folder of this Mac, not a
// named volume.
func (c *call) dockerMount(v word, spec bool) bool {
	src := v.s
	if spec {
		// --mount type=bind,source=/,target=/host
		src = ""
		for _, kv := range strings.Split(v.s, ",") {
			if k, val, ok := strings.Cut(kv, "="); ok && (k == "source" || k == "src") {
				src = val
			}
		}
	} else if i := strings.IndexByte(src, ':'); i >= 0 {
		src = src[:i]
	}
	if src == "" || !strings.HasPrefix(src, "/") && !strings.HasPrefix(src, "~") && !strings.HasPrefix(src, ".") && !strings.Contains(src, rate.HoleMark) {
		return false // a named volume
	}
	if z := c.a.zoneOf(word{s: src, hole: strings.Contains(src, rate.HoleMark)}); z.HomeRoot || z.Critical() {
		c.add(effect.Of(effect.RunUnseen).On(src), "docker-mount", "docker run -v %s: gives the container %s", rate.Display(src), z.Detail)
	}
	return true
}

// dockerRun rates docker run: a container with a folder of this Mac
// mounted can change it, so its command is analysed as if run here.
func (c *call) dockerRun(args []word) {
	c.add(effect.Of(effect.RunUnseen), "docker", "docker run: runs a container")
	mounted := false
	mount := func(v word, spec bool) { mounted = c.dockerMount(v, spec) || mounted }
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
		if strings.HasPrefix(s, "--") {
			name, val, has := strings.Cut(s, "=")
			if inList(name, "--rm", "--privileged", "--init", "--read-only", "--interactive", "--tty", "--detach", "--publish-all",
				"--no-healthcheck", "--oom-kill-disable", "--sig-proxy", "--disable-content-trust", "--quiet", "--help", "--use-api-socket") {
				continue
			}
			v := word{s: val, hole: w.hole}
			if !has && i+1 < len(args) {
				i++
				v = args[i]
			}
			if name == "--volume" {
				mount(v, false)
			} else if name == "--mount" {
				mount(v, true)
			}
			continue
		}
		letters := s[1:]
		for j := 0; j < len(letters); j++ {
			if strings.IndexByte("aceEhlmpuvw", letters[j]) < 0 {
				continue
			}
			v := word{s: letters[j+1:], span: w.span}
			if v.s == "" && i+1 < len(args) {
				i++
				v = args[i]
			}
			if letters[j] == 'v' {
				mount(v, false)
			}
			break
		}
	}
	if mounted && i+1 < len(args) {
		c.a.call(args[i+1:], c.span, pipeCtx{})
	}
}

// zipCommand rates zip: -m deletes what it archives (with -r or a
// password, every file of a folder: the ransom pattern); -TT names a
// command zip runs.
func zipCommand(c *call) {
	move, recurse, crypt := false, false, false
	var archive *word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		s := w.s
		switch {
		case w.hole || !strings.HasPrefix(s, "-") || s == "-":
			if archive == nil {
				archive = &c.args[i]
			}
			continue
		case s == "-TT" || s == "--unzip-command":
			if i+1 < len(c.args) {
				i++
				c.add(effect.Of(effect.RunUnseen), "zip-command", "zip -TT: runs a command to test the archive")
				c.optionCommand(c.args[i], "zip -TT")
			}
			continue
		case strings.HasPrefix(s, "--unzip-command="):
			c.add(effect.Of(effect.RunUnseen), "zip-command", "zip -TT: runs a command to test the archive")
			c.optionCommand(word{s: s[len("--unzip-command="):], hole: w.hole}, "zip -TT")
			continue
		case s == "--move":
			move = true
		case s == "--recurse-paths":
			recurse = true
		case s == "--encrypt" || s == "--password":
			crypt = true
			if s == "--password" {
				i++
			}
		case inList(s, "-b", "-n", "-t", "-tt", "-O", "-Z", "-ds", "-lf", "-P"):
			if s == "-P" {
				crypt = true
			}
			i++
			continue
		}
		if strings.HasPrefix(s, "--") {
			continue
		}
		// zip's multi-letter options (-db, -FS, -sf, -lf …) hold no m,
		// r, e or P.
		for _, l := range s[1:] {
			switch l {
			case 'm':
				move = true
			case 'r', 'R':
				recurse = true
			case 'e', 'P':
				crypt = true
			}
		}
	}
	switch {
	case move && (recurse || crypt):
		c.add(effect.Of(effect.Remove, effect.Bulk), "zip-move", "zip -m with -r or a password: archives files and deletes the originals")
	case move:
		c.add(effect.Of(effect.Trash), "zip-move", "zip -m: deletes the files it archives")
	default:
		c.add(effect.Of(effect.Create), "zip", "zip: archives files")
	}
	if archive != nil && archive.s != "-" {
		c.a.write(*archive, c.span, "zip writes")
	}
}

// optionCommand analyses a command given as an option's value (zip -TT,
// ssh -o ProxyCommand=, rsync -e).
func (c *call) optionCommand(w word, what string) {
	c.add(effect.Of(effect.Run).On(w.s), "option-command", "%s: runs %s", what, rate.Display(w.s))
	c.nested([]word{w}, what)
}

// sshOptions analyses the local commands of -o ProxyCommand=…,
// LocalCommand=… and KnownHostsCommand=… (ssh, scp, sftp).
func (c *call) sshOptions() {
	for i, w := range c.args {
		var v word
		switch {
		case w.s == "-o" && i+1 < len(c.args):
			v = c.args[i+1]
		case strings.HasPrefix(w.s, "-o") && len(w.s) > 2:
			v = word{s: w.s[2:], hole: w.hole, span: w.span}
		default:
			continue
		}
		k, val, ok := strings.Cut(v.s, "=")
		if !ok {
			k, val, _ = strings.Cut(strings.TrimSpace(v.s), " ")
		}
		k = strings.ToLower(strings.TrimSpace(k))
		if v.hole && strings.Contains(k, rate.HoleMark) {
			c.add(effect.Of(effect.Unknown), "ssh-option", "%s -o: an option computed at run time", c.name)
			continue
		}
		if !inList(k, "proxycommand", "localcommand", "knownhostscommand") || strings.EqualFold(strings.TrimSpace(val), "none") {
			continue
		}
		c.add(effect.Of(effect.Shell), "ssh-command", "%s -o %s: runs a command on this Mac", c.name, k)
		c.nested([]word{{s: val, hole: v.hole, span: v.span}}, c.name+" -o "+k)
	}
}

// vimModel is the vim family's option model (vim(1), nvim(1)): how to
// open the files; -c, --cmd, +cmd, -S, -u, -s, -w and -W are rated by
// vimCommand, and the options that run or write what it does not see
// declare it. -o3, -V9 take a number.
var vimModel = &opts{
	short:  "AbCdDeEfFghHlLmMnNoOpRrsvxXyZV0123456789?",
	valued: "cSuUiTtqwW",
	long: `--cmd= --noplugin --clean --not-a-term --ttyfail --nofork --help --version --literal --remote
		--remote-silent --remote-wait --remote-wait-silent --remote-tab --remote-tab-silent --remote-tab-wait
		--serverlist --servername= --echo-wid --role= --socketid= --headless --embed --api-info -v -h`,
	effects: map[string]optEffect{
		"--remote-send": optFx(effect.RunUnseen, "sends keys to another Vim, which runs them as commands"),
		"--remote-expr": optFx(effect.RunUnseen, "evaluates an expression in another Vim"),
		"--startuptime": optFx(effect.Overwrite, "writes start-up timings to the file it names"),
		"--listen":      optFx(effect.Connect, "serves a socket through which other programs drive this editor"),
	},
}

// vimCommand rates vim and its kin: commands given with -c, --cmd or +,
// and read from stdin in ex mode, are rated; ! and :r ! run shell commands.
func vimCommand(c *call) {
	c.add(effect.Of(effect.Launch), "editor", "%s: opens files in an editor", c.name)
	ex := c.name == "ex"
	cmds := false
	var files []word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		s := w.s
		switch {
		case w.hole || !strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "+"):
			files = append(files, w)
		case (s == "-c" || s == "--cmd") && i+1 < len(c.args):
			i++
			cmds = true
			c.vimCmd(c.args[i])
		case strings.HasPrefix(s, "+"):
			cmds = true
			c.vimCmd(word{s: s[1:], span: w.span})
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
	if cmds || ex {
		// Edited without anyone looking: the files are written.
		for _, f := range files {
			if !isDevice(f.s) {
				c.a.write(f, c.span, c.name+" edits")
			}
		}
	}
	if !ex {
		return
	}
	switch c.pc.stdin {
	case "text":
		for _, line := range strings.Split(c.pc.text, "\n") {
			if strings.TrimSpace(line) != "" {
				c.vimCmd(word{s: line})
			}
		}
	case "download", "decoded":
		c.add(effect.Of(effect.RunComputed), "editor-stdin", "%s runs editor commands from a download or decoded data", c.name)
	case "pipe", "computed":
		c.add(effect.Of(effect.RunUnseen), "editor-stdin", "%s runs editor commands computed at run time", c.name)
	}
}

// vimCmd rates one command line of vim: ! (with a range: a filter), r !
// and w ! run shell commands; system(), :terminal, :python, :lua … run
// code; other commands edit text.
func (c *call) vimCmd(w word) {
	if w.hole {
		c.add(effect.Of(effect.RunUnseen), "editor-command", "%s runs an editor command computed at run time", c.name)
		return
	}
	rest := w.s
	for rest != "" {
		t := strings.TrimLeft(rest, ": \t")
		for _, p := range []string{"silent!", "silent", "sil!", "sil"} {
			if strings.HasPrefix(t, p) {
				t = strings.TrimLeft(t[len(p):], " \t")
				break
			}
		}
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
			return
		}
		piece, next, _ := strings.Cut(t, "|")
		low := strings.ToLower(strings.TrimSpace(piece))
		name := strings.TrimRight(low, "! ")
		if k := strings.IndexFunc(name, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') }); k >= 0 {
			name = name[:k]
		}
		code := !inList(strings.TrimSuffix(low, "!"), "w", "wq", "q", "qa", "qall", "wa", "wqa", "x", "xa", "e", "bd", "update", "up") &&
			strings.Contains(low, "!") || strings.Contains(low, "system") || strings.Contains(low, `\=`) ||
			len(name) > 2 && strings.HasSuffix(name, "do") && name != "undo" && name != "redo"
		for _, full := range []string{"source", "python", "python3", "py3", "pyfile", "py3file", "pythonx", "pyxfile", "lua", "luafile",
			"perl", "ruby", "rubyfile", "call", "execute", "normal", "terminal", "let", "autocmd", "command", "tcl", "mzscheme", "redir"} {
			if len(name) > 1 && strings.HasPrefix(full, name) {
				code = true
			}
		}
		if code {
			c.add(effect.Of(effect.RunUnseen), "editor-code", "%s command %q runs code", c.name, rate.Display(strings.TrimSpace(piece)))
			scanCode(c, piece)
		}
		rest = next
	}
}

// expectCommand rates expect: its Tcl program is not analysed, but what
// it spawns or execs is, and the program is scanned for the obvious.
func expectCommand(c *call) {
	c.add(effect.Of(effect.RunUnseen), "expect", "expect: runs a Tcl program that drives other programs")
	found := false
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		switch {
		case w.s == "-c" && i+1 < len(c.args):
			i++
			found = true
			if c.args[i].hole {
				c.add(effect.Of(effect.RunComputed), "interp-computed", "%s runs code computed at run time", c.name)
				continue
			}
			c.expectCode(c.args[i].s)
		case w.s == "-f" && i+1 < len(c.args) || w.hole || !strings.HasPrefix(w.s, "-"):
			if w.s == "-f" {
				i++
			}
			if !found {
				c.programFile(c.args[i])
			}
			return
		}
	}
	if !found && c.pc.stdin == "text" {
		c.expectCode(c.pc.text)
	} else if !found {
		c.fromStdinAs(false)
	}
}

func (c *call) expectCode(code string) {
	scanCode(c, code)
	// Text sent to a shell it spawned runs as commands.
	if i := strings.Index(code, "spawn "); i >= 0 {
		f := strings.Fields(strings.NewReplacer("{", " ", "}", " ", "]", " ", ";", " ").Replace(code[i+len("spawn "):]))
		for len(f) > 0 && strings.HasPrefix(f[0], "-") {
			f = f[1:]
		}
		if len(f) > 0 && shells[commandName(strings.Trim(f[0], `"'`))] {
			for rest := code; ; {
				j := strings.Index(rest, "send ")
				if j < 0 {
					break
				}
				rest = rest[j+len("send "):]
				t := strings.TrimLeft(strings.TrimPrefix(strings.TrimLeft(rest, " \t"), "--"), " \t")
				if !strings.HasPrefix(t, `"`) {
					continue
				}
				end := strings.IndexByte(t[1:], '"')
				if end < 0 {
					break
				}
				text, _, _ := decodeEscapes(t[1:1+end], false)
				c.nestedText(strings.ReplaceAll(text, "\r", "\n"), "expect send")
			}
		}
	}
	for _, kw := range []string{"spawn", "exec"} {
		for rest := code; ; {
			i := strings.Index(rest, kw+" ")
			if i < 0 {
				break
			}
			before := byte(' ')
			if i > 0 {
				before = rest[i-1]
			}
			rest = rest[i+len(kw)+1:]
			if !strings.ContainsRune(" \t\n;[{", rune(before)) {
				continue
			}
			line, _, _ := strings.Cut(rest, "\n")
			line, _, _ = strings.Cut(line, "]")
			line, _, _ = strings.Cut(line, ";")
			f := strings.Fields(line)
			for len(f) > 0 && strings.HasPrefix(f[0], "-") {
				f = f[1:] // spawn -noecho, exec -ignorestderr
			}
			cmd := strings.NewReplacer("{", "'", "}", "'").Replace(strings.Join(f, " "))
			c.nestedText(cmd, "expect "+kw)
		}
	}
}

// sqliteCommand rates sqlite3: its SQL (after the database, with -cmd,
// or on stdin) is rated; .shell and .system run commands.
func sqliteCommand(c *call) {
	c.add(effect.Of(effect.Change), "sqlite3", "sqlite3: opens a database")
	var ops []word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		if w.hole || !strings.HasPrefix(w.s, "-") || w.s == "-" {
			ops = append(ops, w)
			continue
		}
		switch strings.TrimLeft(w.s, "-") {
		case "cmd":
			if i+1 < len(c.args) {
				i++
				c.sql(c.args[i])
			}
		case "init":
			c.add(effect.Of(effect.RunUnseen), "sql-file", "sqlite3 -init: runs commands from a file that is not analysed")
			i++
		case "separator", "nullvalue", "newline", "vfs", "mmap", "maxsize", "heap", "lookaside", "pagecache", "escape", "A":
			i++
		}
	}
	if len(ops) > 0 && isTCCDatabase(ops[0]) {
		c.tccWrite(ops[1:])
	}
	switch {
	case len(ops) > 1:
		for _, o := range ops[1:] {
			c.sql(o)
		}
	case c.pc.stdin == "text":
		c.sql(word{s: c.pc.text})
	case c.pc.stdin == "download" || c.pc.stdin == "decoded":
		c.add(effect.Of(effect.RunUnseen), "sql-computed", "%s runs SQL computed at run time", c.name)
	}
}

// sqlClientCommand rates psql (-c) and mysql (-e): the SQL given is rated.
func sqlClientCommand(c *call) {
	c.add(effect.Of(effect.Fetch), c.name, "%s: runs SQL on a database server", c.name)
	model := mysqlModel
	if c.name == "psql" {
		model = psqlModel
	}
	c.writesOptions(model, "-o", "--output", "-L", "--log-file", "--tee")
	short, long := "-e", "--execute"
	if c.name == "psql" {
		short, long = "-c", "--command"
	}
	found := false
	for i, w := range c.args {
		switch {
		case (w.s == short || w.s == long) && i+1 < len(c.args):
			found = true
			c.sql(c.args[i+1])
		case strings.HasPrefix(w.s, long+"="):
			found = true
			c.sql(word{s: w.s[len(long)+1:], hole: w.hole})
		case strings.HasPrefix(w.s, short) && len(w.s) > 2 && !strings.HasPrefix(w.s, "--"):
			found = true
			c.sql(word{s: w.s[2:], hole: w.hole})
		}
	}
	if !found && c.pc.stdin == "text" {
		c.sql(word{s: c.pc.text})
	}
}

// The SQL clients' option models (psql(1), mysql(1), which mariadb
// shares): how to connect and print; -c/-e SQL is rated by
// sqlClientCommand, and the options that run or write what it does not see
// declare it.
var (
	psqlModel = &opts{
		short:  "aAbeEHlnqsStxXz01Vw?W",
		valued: "cdFhpPRTUvoL",
		long: `--echo-all --no-align --echo-errors --echo-queries --echo-hidden --html --list --no-readline --quiet
			--single-step --single-line --tuples-only --expanded --no-psqlrc --field-separator-zero
			--record-separator-zero --single-transaction --version --help --help= --no-password --password --csv
			--command= --dbname= --field-separator= --host= --port= --pset= --record-separator= --table-attr=
			--username= --set= --variable= --output= --log-file=`,
		effects: map[string]optEffect{
			"-f": optFx(effect.RunUnseen, "runs the SQL of a file that is not analysed"), "--file": optFx(effect.RunUnseen, "runs the SQL of a file that is not analysed"),
		},
	}
	mysqlModel = &opts{
		short:  "ABCcEfHiLnNoqrsUtvVXw?b",
		valued: "eDhPuSp",
		long: `--auto-rehash --no-auto-rehash --batch --binary-mode --compress --column-names --skip-column-names
			--column-type-info --comments --skip-comments --debug-check --debug-info --vertical --force --html
			--ignore-spaces --line-numbers --skip-line-numbers --unbuffered --one-database --quick --raw --reconnect
			--skip-reconnect --safe-updates --i-am-a-dummy --silent --show-warnings --table --verbose --version --xml
			--help --wait --no-beep --skip-ssl --ssl --ssl-verify-server-cert --no-defaults --print-defaults
			--execute= --database= --host= --port= --user= --socket= --password --password= --protocol=
			--default-character-set= --delimiter= --connect-timeout= --max-allowed-packet= --net-buffer-length=
			--prompt= --ssl-ca= --ssl-capath= --ssl-cert= --ssl-cipher= --ssl-key= --ssl-mode= --tls-version=
			--select-limit= --max-join-size= --login-path= --tee=`,
		effects: map[string]optEffect{
			"--init-command":        optFx(effect.RunUnseen, "runs the SQL it names on connecting, which is not analysed"),
			"--pager":               optFx(effect.RunUnseen, "runs the pager it names, which is not analysed"),
			"--plugin-dir":          optFx(effect.LoadCode, "loads client plugins from the folder it names"),
			"--local-infile":        optFx(effect.Upload, "lets SQL send files of this Mac to the server (LOAD DATA LOCAL)"),
			"--defaults-file":       optFx(effect.RunUnseen, "reads options (pager, init-command) from a file that is not analysed"),
			"--defaults-extra-file": optFx(effect.RunUnseen, "reads options (pager, init-command) from a file that is not analysed"),
		},
	}
	// redisModel is redis-cli's (redis-cli --help): connecting and
	// printing; the first operand starts the Redis command.
	redisModel = &opts{
		short:  "xce346",
		valued: "hpsaurind",
		cmdAt:  true,
		long: `--user= --pass= --askpass --tls --sni= --cacert= --cacertdir= --cert= --key= --insecure --tls-ciphers=
			--tls-ciphersuites= --raw --no-raw --csv --json --quoted-json --quoted-input --stat --latency
			--latency-history --latency-dist --lru-test= --bigkeys --memkeys --memkeys-samples= --keystats
			--hotkeys --scan --pattern= --count= --quoted-pattern= --intrinsic-latency= --eval= --ldb --ldb-sync-mode
			--verbose --version --help --resp2 --resp3 --no-auth-warning --show-pushes= --pipe-timeout= --rdb=
			--functions-rdb=`,
		effects: map[string]optEffect{
			"--pipe":    optFx(effect.Connect, "sends every command of its input to the server"),
			"--replica": optFx(effect.Connect, "joins the server as a replica and receives every write"),
			"--cluster": optFx(effect.Connect, "manages a Redis cluster: moves, fixes or deletes its slots"),
		},
	}
)

// writesOptions rates the files that the options names of c (by m) write
// into: the file a client writes its results, log or dump to, rated by
// where it is.
func (c *call) writesOptions(m *opts, names ...string) {
	p := m.parse(c.args)
	for _, n := range names {
		if v, ok := p.given[n]; ok && v.s != "" && v.s != "-" && !isDevice(v.s) {
			c.a.write(v, c.span, c.name+" "+n+" writes")
		}
	}
}

// sql rates SQL text: dropping or truncating tables and deleting every
// row are destructive; the clients' shell escapes (sqlite3 .shell,
// psql \!, mysql system) are analysed.
func (c *call) sql(w word) {
	if w.hole {
		c.add(effect.Of(effect.RunUnseen), "sql-computed", "%s runs SQL computed at run time", c.name)
		return
	}
	var stmts []string
	var body strings.Builder
	for _, line := range strings.Split(w.s, "\n") {
		t := strings.TrimSpace(line)
		low := strings.ToLower(t)
		switch {
		case strings.HasPrefix(low, ".shell ") || strings.HasPrefix(low, ".system ") || strings.HasPrefix(t, `\!`) || strings.HasPrefix(low, "system "):
			_, cmd, _ := strings.Cut(t, " ")
			if strings.HasPrefix(t, `\!`) {
				cmd = t[2:]
			}
			c.add(effect.Of(effect.Shell), "sql-shell", "%s runs a shell command", c.name)
			c.nestedText(cmd, c.name+" shell escape")
		case strings.HasPrefix(low, ".load ") || strings.HasPrefix(low, ".read ") || low == ".load" || low == ".read":
			c.add(effect.Of(effect.RunUnseen).On(t), "hidden-code", "%s %s: runs a loadable extension or a file of commands, which is not analysed", c.name, rate.Display(t))
		case strings.HasPrefix(low, ".output ") || strings.HasPrefix(low, ".once "):
			_, f, _ := strings.Cut(t, " ")
			c.a.write(word{s: strings.Trim(strings.TrimSpace(f), `'"`)}, c.span, c.name+" writes to")
		case strings.HasPrefix(t, "."):
		default:
			body.WriteString(line)
			body.WriteByte('\n')
		}
	}
	if strings.Contains(strings.ToLower(body.String()), "load_extension") {
		c.add(effect.Of(effect.RunUnseen), "hidden-code", "%s: load_extension runs native code, which is not analysed", c.name)
	}
	stmts = strings.Split(body.String(), ";")
	for _, st := range stmts {
		f := strings.Fields(strings.ToUpper(st))
		if len(f) == 0 {
			continue
		}
		where := inList("WHERE", f...)
		switch {
		case f[0] == "DROP" && len(f) > 1 && inList(f[1], "TABLE", "DATABASE", "SCHEMA", "VIEW", "COLLECTION"):
			c.add(effect.Of(effect.Remove, effect.Bulk), "sql-drop", "%s: DROP %s deletes it with all its data", c.name, f[1])
		case f[0] == "TRUNCATE":
			c.add(effect.Of(effect.Remove, effect.Bulk), "sql-drop", "%s: TRUNCATE deletes every row", c.name)
		case f[0] == "DELETE" && !where:
			c.add(effect.Of(effect.Remove, effect.Bulk), "sql-delete-all", "%s: DELETE without WHERE deletes every row", c.name)
		case f[0] == "UPDATE" && !where:
			c.add(effect.Of(effect.Change, effect.Bulk), "sql-update-all", "%s: UPDATE without WHERE changes every row", c.name)
		}
	}
}

// redisCommand rates redis-cli: FLUSHALL and FLUSHDB delete every key.
func redisCommand(c *call) {
	c.writesOptions(redisModel, "--rdb", "--functions-rdb")
	cmd := ""
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		if strings.HasPrefix(w.s, "-") && !w.hole {
			if w.s == "--eval" {
				c.add(effect.Of(effect.Connect), "redis", "redis-cli --eval: runs a Lua script on the server")
			}
			if inList(w.s, "-h", "-p", "-a", "-n", "-u", "-s", "-r", "-i", "-d", "--user", "--pass", "--pattern", "--count", "--eval") {
				i++
			}
			continue
		}
		cmd = strings.ToUpper(w.s)
		break
	}
	if cmd == "" && c.pc.stdin == "text" {
		cmd = strings.ToUpper(c.pc.text)
	}
	switch {
	case strings.Contains(cmd, "FLUSHALL") || strings.Contains(cmd, "FLUSHDB"):
		c.add(effect.Of(effect.Remove, effect.Bulk), "redis-flush", "redis-cli FLUSHALL/FLUSHDB: deletes every key")
	case inList(cmd, "SHUTDOWN", "DEBUG", "SLAVEOF", "REPLICAOF", "MODULE", "EVAL", "EVALSHA", "FUNCTION", "SCRIPT", "CONFIG", "MIGRATE"):
		c.add(effect.Of(effect.Connect), "redis", "redis-cli %s: changes or runs code on the server", cmd)
	default:
		c.add(effect.Of(effect.Fetch), "redis", "redis-cli: talks to a Redis server")
	}
}

// terraformCommand rates terraform and tofu: destroy (or apply -destroy)
// deletes real infrastructure.
func terraformCommand(c *call) {
	ops := c.operands()
	s := sub(c.args)
	next := ""
	if len(ops) > 1 {
		next = strings.ToLower(ops[1].s)
	}
	switch {
	case inList(s, "", "version", "validate", "fmt", "show", "output", "providers", "graph", "help"),
		s == "state" && inList(next, "list", "show", "pull"), s == "workspace" && inList(next, "list", "show"):
	case s == "destroy" || s == "apply" && hasArg(c.args, "-destroy", "--destroy"):
		c.add(effect.Of(effect.Remove, effect.Bulk), "terraform-destroy", "%s destroy: deletes the infrastructure it manages", c.name)
	case inList(s, "init", "plan", "get", "refresh", "import", "taint", "untaint", "login", "logout", "console", "test"), s == "workspace" && next != "delete":
		c.add(effect.Of(effect.Fetch), "terraform", "%s %s", c.name, s)
	default:
		c.add(effect.Of(effect.Connect), "terraform", "%s %s: changes real infrastructure", c.name, rate.Display(s))
	}
}

// cloudCommand rates aws, gcloud, gsutil and az: deleting resources is
// destructive, anything else dangerous (it acts on real infrastructure).
func cloudCommand(c *call) {
	ops := c.operands()
	var words []string
	for _, o := range ops {
		words = append(words, strings.ToLower(o.s))
	}
	if len(c.args) == 1 && inList(c.args[0].s, "--version", "version", "help", "--help") {
		return
	}
	recursive := hasShort(c.args, 'r') || hasShort(c.args, 'R') || hasLong(c.args, "--recursive")
	for _, w := range words {
		if inList(w, "cp", "mv", "sync", "rsync", "upload", "upload-batch", "put-object") {
			c.a.egress("network", c.span, "%s %s: local files may go up", c.name, w) // local files may go up
		}
	}
	for i, w := range words {
		switch {
		case w == "delete" || strings.HasPrefix(w, "delete-") || strings.HasPrefix(w, "terminate-"),
			w == "rm" && recursive, w == "rb" && hasLong(c.args, "--force"):
			c.add(effect.Of(effect.Remove), "cloud-delete", "%s … %s: deletes cloud resources or data", c.name, words[i])
			return
		}
	}
	c.add(effect.Of(effect.Connect), "cloud", "%s: acts on cloud resources", c.name)
}

// packageRunner rates npx and its kin: they download a package from a
// registry and run it.
func packageRunner(c *call) {
	if len(c.args) == 1 && inList(c.args[0].s, "--version", "-v", "--help", "-h") {
		return
	}
	c.add(effect.Of(effect.RunUnseen), "package-runner", "%s: downloads a package from a registry and runs it", c.name)
	c.add(effect.Of(effect.Fetch), "package-runner", "%s: fetches the package from its registry", c.name)
	c.embedded()
}

// npmCommand rates npm, pnpm and yarn: exec, dlx and create run a package
// from the registry; setting the registry or the script shell changes
// what every later install runs.
func npmCommand(c *call) {
	ops := c.operands()
	s := sub(c.args)
	switch {
	case inList(s, "exec", "x", "dlx", "create") || s == "init" && len(ops) > 1 && !strings.HasPrefix(ops[1].s, "-"):
		packageRunner(c)
		return
	case s == "config" || s == "set":
		kv := ops[1:]
		if s == "config" {
			if len(ops) < 2 || !inList(strings.ToLower(ops[1].s), "set", "edit") {
				return
			}
			kv = ops[2:]
		}
		if len(kv) > 0 {
			k, _, _ := strings.Cut(strings.ToLower(kv[0].s), "=")
			if inList(k, "registry", "script-shell", "shell", "git", "node-options", "onload-script", "globalconfig", "userconfig",
				"init-module", "npmregistryserver", "npmscopes") || strings.HasSuffix(k, ":registry") {
				c.add(effect.Of(effect.LoadCode).On(k), "supply-chain", "%s config set %s: changes where packages come from or what runs their scripts", c.name, rate.Display(k))
				return
			}
		}
		c.add(effect.Of(effect.Setting), c.name, "%s config: changes settings", c.name)
		return
	}
	if hasLong(c.args, "--registry") {
		for _, w := range c.args {
			if strings.HasPrefix(w.s, "--registry=http:") {
				c.add(effect.Of(effect.Install), "supply-chain", "%s --registry over plain http: packages can be swapped in transit", c.name)
			}
		}
	}
	c.npmScripts(s)
}

// pipCommand rates pip: package indexes over plain http, trusted hosts
// and index settings change where packages come from.
func pipCommand(c *call) {
	ops := c.operands()
	if sub(c.args) == "config" && len(ops) > 2 && strings.EqualFold(ops[1].s, "set") {
		k := strings.ToLower(ops[2].s)
		if strings.Contains(k, "index-url") || strings.Contains(k, "trusted-host") || strings.Contains(k, "find-links") {
			c.add(effect.Of(effect.LoadCode).On(k), "supply-chain", "%s config set %s: changes where packages come from", c.name, rate.Display(k))
			return
		}
	}
	for i, w := range c.args {
		name, val, has := strings.Cut(w.s, "=")
		if !inList(name, "-i", "--index-url", "--extra-index-url", "--trusted-host", "-f", "--find-links") {
			continue
		}
		if !has && i+1 < len(c.args) {
			val = c.args[i+1].s
		}
		if name == "--trusted-host" || strings.HasPrefix(strings.ToLower(val), "http:") {
			c.add(effect.Of(effect.Install), "supply-chain", "%s %s %s: installs packages that can be swapped in transit", c.name, name, rate.Display(val))
			return
		}
	}
	c.pipInstall(sub(c.args))
}
