package risk

import (
	"path"
	"strconv"
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// A shell command as the analyzer sees it once wrappers are peeled off.
type call struct {
	a    *shellAn
	name string // lower-case base name: "rm"
	args []word // the words after the name
	ops  []word // the operands among args, once worked out
	span Span
	pc   pipeCtx
}

// operands returns the operands among c.args, working them out once.
func (c *call) operands() []word {
	if c.ops == nil {
		c.ops = operands(c.args)
	}
	return c.ops
}

func (c *call) add(l level.Level, rule, format string, args ...any) {
	c.a.add(l, "shell."+rule, c.span, format, args...)
}

// wrappers run the rest of their arguments as a command. The value is the
// set of short options that take a value, so `sudo -u bob rm` finds rm.
var wrappers = map[string]string{
	"sudo": "ugCDhpRrtTU", "doas": "uC", "env": "uCSPLUa", "nohup": "", "time": "", "nice": "n",
	"ionice": "cnp", "timeout": "sk", "gtimeout": "sk", "command": "", "exec": "a", "builtin": "",
	"caffeinate": "tw", "stdbuf": "ioe", "chroot": "", "arch": "e", "setsid": "", "unbuffer": "",
	"noglob": "", "nocorrect": "", "watch": "nd", "xargs": "", "flock": "wE", "taskset": "",
	"chrt": "", "script": "Ft", "then": "", "do": "", "sh-wrapper": "", "sandbox-exec": "fpnD", "busybox": "", "toybox": "",
}

// peel strips wrappers (sudo, env, nohup, xargs, timeout …) and returns the
// command they run, and the word that named it. With report set it rates
// the wrappers on the way.
func (a *shellAn) peel(words []word, sp Span, report bool) (name string, args []word, bulk bool, head word) {
	for len(words) > 0 {
		w := words[0]
		if w.hole || w.glob {
			return "", words, bulk, w
		}
		name = commandName(w.s)
		if t, ok := a.rebind[name]; ok {
			if report {
				a.add(level.Dangerous, "shell.rebind", sp, "hash makes %s run another command", rate.Display(name))
			}
			if t == "" {
				return "", append([]word{{s: rate.HoleMark, hole: true, span: w.span}}, words[1:]...), bulk, w
			}
			name = t
		}
		opts, ok := wrappers[name]
		if !ok {
			return name, words[1:], bulk, w
		}
		rest := words[1:]
		switch name {
		case "sudo", "doas":
			if report {
				a.add(level.Dangerous, "shell.sudo", sp, "%s: runs as root", name)
			}
		case "command":
			if hasShort(rest, 'v') || hasShort(rest, 'V') {
				return "command", rest, bulk, w // a lookup, not a run
			}
		case "xargs":
			var repl string
			rest, repl = xargsOptions(rest)
			if repl != "" {
				// -I {} puts each input line where {} is: those words are
				// computed at run time.
				rest = replaceHoles(rest, repl)
			} else {
				bulk = true
			}
		case "env":
			// env -S splits its string into words: env -S 'rm -rf ~'
			for i, r := range rest {
				if (r.s == "-S" || r.s == "--split-string") && i+1 < len(rest) {
					split := []word{}
					for _, f := range strings.Fields(rest[i+1].s) {
						split = append(split, word{s: f, hole: rest[i+1].hole, span: rest[i+1].span})
					}
					rest = append(split, rest[i+2:]...)
					break
				}
			}
			// env prints its environment without a command; it takes
			// options and NAME=value pairs in any order before the command.
			for len(rest) > 0 {
				before := len(rest)
				rest = skipOptions(rest, opts)
				for len(rest) > 0 && strings.Contains(rest[0].s, "=") && !strings.HasPrefix(rest[0].s, "-") {
					if report {
						n, v, _ := strings.Cut(rest[0].s, "=")
						a.envVar(n, word{s: v, hole: rest[0].hole}, sp)
					}
					rest = rest[1:]
				}
				if len(rest) == before {
					break
				}
			}
		case "sandbox-exec":
			if report {
				a.add(level.Caution, "shell.sandbox-exec", sp, "sandbox-exec: runs a command under a sandbox profile")
			}
		}
		rest = skipOptions(rest, opts)
		switch name {
		case "timeout", "gtimeout", "chroot", "flock", "taskset", "chrt":
			if len(rest) > 0 {
				rest = rest[1:] // the duration, directory, lock file, mask or priority
			}
		case "arch":
			for len(rest) > 0 && strings.HasPrefix(rest[0].s, "-") {
				rest = rest[1:]
			}
		case "script":
			if len(rest) > 0 {
				rest = rest[1:] // the typescript file
			}
		case "watch":
			// watch runs its arguments, joined, with sh -c.
			if len(rest) > 0 {
				joined := word{span: rest[0].span}
				for i, r := range rest {
					if i > 0 {
						joined.s += " "
					}
					joined.s += r.s
					joined.hole = joined.hole || r.hole
				}
				rest = []word{{s: "sh", span: rest[0].span}, {s: "-c", span: rest[0].span}, joined}
			}
		}
		if len(rest) == 0 {
			return "wrapper-alone", nil, bulk, w
		}
		words = rest
	}
	return "", nil, bulk, word{}
}

// xargsOptions skips xargs's options (BSD and GNU) and returns the
// replacement string of -I, -J, -i or --replace, if any.
func xargsOptions(ws []word) ([]word, string) {
	repl := ""
	for len(ws) > 0 {
		s := ws[0].s
		if ws[0].hole || !strings.HasPrefix(s, "-") || s == "-" {
			break
		}
		ws = ws[1:]
		if s == "--" {
			break
		}
		if strings.HasPrefix(s, "--") {
			name, val, hasVal := strings.Cut(s, "=")
			switch name {
			case "--replace":
				repl = "{}"
				if hasVal {
					repl = val
				}
			case "--max-args", "--max-procs", "--delimiter", "--arg-file", "--eof", "--max-chars", "--max-lines", "--process-slot-var":
				if !hasVal && len(ws) > 0 {
					ws = ws[1:]
				}
			}
			continue
		}
		letters := s[1:]
		for i := 0; i < len(letters); i++ {
			c := letters[i]
			switch {
			case strings.IndexByte("IJEnLPsSRad", c) >= 0:
				val := letters[i+1:]
				if val == "" && len(ws) > 0 {
					val = ws[0].s
					ws = ws[1:]
				}
				if c == 'I' || c == 'J' {
					repl = val
				}
				i = len(letters)
			case c == 'i': // GNU -i[R]
				repl = letters[i+1:]
				if repl == "" {
					repl = "{}"
				}
				i = len(letters)
			case c == 'e' || c == 'l': // GNU -e[EOF], -l[N]
				i = len(letters)
			}
		}
	}
	return ws, repl
}

// replaceHoles turns every word holding repl into a computed word.
func replaceHoles(ws []word, repl string) []word {
	out := make([]word, len(ws))
	for i, w := range ws {
		if strings.Contains(w.s, repl) {
			w = word{s: strings.ReplaceAll(w.s, repl, rate.HoleMark), hole: true, glob: true, span: w.span}
		}
		out[i] = w
	}
	return out
}

// skipOptions drops leading options; letters in valued take an argument.
func skipOptions(ws []word, valued string) []word {
	for len(ws) > 0 {
		s := ws[0].s
		if ws[0].hole || !strings.HasPrefix(s, "-") || s == "-" {
			return ws
		}
		ws = ws[1:]
		if s == "--" {
			return ws
		}
		if strings.HasPrefix(s, "--") {
			if !strings.Contains(s, "=") && len(ws) > 0 && longTakesValue(s) {
				ws = ws[1:]
			}
			continue
		}
		letters := s[1:]
		for i := 0; i < len(letters); i++ {
			if strings.IndexByte(valued, letters[i]) >= 0 {
				if i == len(letters)-1 && len(ws) > 0 {
					ws = ws[1:]
				}
				break
			}
		}
	}
	return ws
}

func longTakesValue(s string) bool {
	switch s {
	case "--user", "--group", "--signal", "--kill-after", "--max-args", "--max-procs", "--replace", "--delimiter", "--arg-file", "--unset", "--chdir", "--interval":
		return true
	}
	return false
}

// call rates one simple command.
func (a *shellAn) call(words []word, sp Span, pc pipeCtx) {
	a.callOps(words, sp, pc, "", nil, nil)
}

// callOps is call with the command's name, arguments and operands when the
// caller has them already (ops nil: work them out).
func (a *shellAn) callOps(words []word, sp Span, pc pipeCtx, _ string, _ []word, knownOps []word) {
	for _, w := range words {
		if w.splice {
			a.add(level.Dangerous, "shell.splice", sp, "text computed at run time is spliced into the command unquoted: it can change the command")
			break
		}
	}
	name, args, bulk, head := a.peel(words, sp, true)
	if name == "" {
		if len(args) == 0 {
			return
		}
		head := args[0]
		// A computed command name ("$@", "${cmd[@]}", $(…)) can be
		// anything at all; a glob (/bin/r?) is one of the files it matches.
		l := level.Destructive
		what := "computed at run time"
		if head.glob && !head.hole {
			what = "a glob"
			if !looksDestructive(args[1:]) {
				l = level.Dangerous
			}
		}
		a.add(l, "shell.dynamic-command", sp, "command name is %s (%s): cannot tell what runs", what, rate.Display(head.s))
		for _, w := range args[1:] {
			a.read(w, sp)
		}
		return
	}
	if bulk {
		// xargs appends many words read from stdin.
		args = append(args, word{s: rate.HoleMark, hole: true, glob: true})
	}
	c := &call{a: a, name: name, args: args, span: sp, pc: pc}
	if knownOps != nil && !bulk {
		c.ops = knownOps
	}
	// ./i.sh, /tmp/x: running a file this same input wrote or downloaded;
	// ls, after writing ~/.local/bin/ls: the same.
	if strings.Contains(head.s, "/") {
		if _, ok := a.fileContent(head.s); ok {
			a.runFile(c, head.s)
			return
		}
	} else if k, ok := a.bins[name]; ok && !a.funcs[name] {
		a.runFile(c, k)
		return
	}
	if v, ok := a.alias[name]; ok && a.inAlias < 8 && !strings.ContainsAny(v, ";&|<>()`$\"'\\\n") {
		// An alias with a plain value: ll='rm -rf'; ll ~ runs rm -rf ~.
		var expanded []word
		for _, f := range strings.Fields(v) {
			expanded = append(expanded, word{s: f, span: sp})
		}
		if len(expanded) > 0 && commandName(expanded[0].s) != name {
			a.inAlias++
			a.callOps(append(expanded, args...), sp, pc, "", nil, nil)
			a.inAlias--
			return
		}
	}
	if a.funcs[name] {
		// The script's own function or alias: its body is analysed where it
		// is defined, and again with its input when it has one:
		// f() { bash; }; curl … | f
		if body := a.bodies[name]; body != nil && pc.stdin != "" && pc.stdin != "devnull" && a.inFunc < 4 {
			a.inFunc++
			pc.inPipe = false
			a.stmt(body, pc)
			a.inFunc--
		}
		return
	}
	if h, ok := shellCommands[name]; ok {
		h(c)
	} else if h := prefixCommand(name); h != nil {
		h(c)
	} else {
		c.add(level.Dangerous, "unknown-command", "unknown command %q: cannot tell what it does", rate.Display(name))
		c.embedded()
	}
	c.guardCall()
	c.noteSelfLookup()
	if netTools[name] || lookupTools[name] && !allKnown(c.args) {
		// Whatever it sends can carry what the script read.
		a.uploadAt(sp)
	}
	// Reading from credential stores, whatever the command.
	if !noPathRead[name] {
		for _, w := range operands(args) {
			a.read(w, sp)
		}
	}
}

// maxEmbedded bounds the command lines looked for in one command's
// arguments.
const maxEmbedded = 8

// embedded rates the command lines found in the arguments of a command
// whose behaviour is not known (lockf, entr, parallel, hyperfine, uv run,
// a look-alike of sudo …) or that runs what it is given (npx -c): many
// such tools run their arguments. An argument naming a known command
// starts a command line (lockf /tmp/l rm -rf ~); an argument with blanks
// or shell operators whose first word is a known command is a script
// (hyperfine 'rm -rf ~'). Only what would be worse than Dangerous counts:
// the command itself is Dangerous already.
func (c *call) embedded() {
	probes := 0
	for i, w := range c.args {
		if w.hole || w.s == "" || strings.HasPrefix(w.s, "-") || probes >= maxEmbedded {
			continue
		}
		first, _, spaced := strings.Cut(strings.TrimSpace(w.s), " ")
		if !spaced {
			first, _, spaced = strings.Cut(first, "\t")
		}
		if !knownCommand(commandName(first)) {
			continue
		}
		probes++
		var sub Verdict
		sp := c.span
		inner := newShellAn(&sub, c.a.env, anchorOr(c.a.anchor, &sp), c.a.depth+1, "", c.a.sh)
		if spaced || strings.ContainsAny(w.s, ";|&\n") {
			inner = shellRun(&sub, w.s, c.a.env, anchorOr(c.a.anchor, &sp), c.a.depth+1, c.a.sh)
		} else {
			inner.call(c.args[i:], c.span, pipeCtx{})
			inner.finish()
		}
		if sub.Level <= level.Dangerous {
			continue
		}
		unsure := false
		for _, r := range sub.Reasons {
			unsure = unsure || r.Rule == "shell.unparseable" || r.Rule == "shell.too-complex" || r.Rule == "shell.too-deep"
		}
		if unsure {
			continue
		}
		c.add(level.Destructive, "runs-arguments", "%s may run its arguments as a command: %s", c.name, rate.Display(w.s))
		for _, r := range sub.Reasons {
			c.a.v.AddText(r.Level, r.Rule, r.Span, r.Text)
		}
		c.adopt(inner)
		return
	}
}

// knownCommand reports a command name the shell analyzer has rules for.
func knownCommand(name string) bool {
	if _, ok := shellCommands[name]; ok {
		return true
	}
	_, ok := wrappers[name]
	return ok || prefixCommand(name) != nil || shells[name]
}

// netTools send data over the network; lookupTools do when a name they
// look up is computed (DNS exfiltration: dig "$(base64 < key).evil").
var netTools = map[string]bool{
	"curl": true, "wget": true, "nc": true, "ncat": true, "netcat": true, "socat": true, "telnet": true, "ssh": true,
	"scp": true, "sftp": true, "ftp": true, "http": true, "https": true, "aria2c": true, "mail": true, "mailx": true,
	"sendmail": true, "smbclient": true, "rclone": true, "lwp-request": true, "fetch": true,
}

var lookupTools = map[string]bool{
	"dig": true, "nslookup": true, "host": true, "ping": true, "ping6": true, "traceroute": true, "whois": true,
	"dscacheutil": true, "drill": true,
}

// noPathRead lists commands whose operands are not file contents they read.
var noPathRead = map[string]bool{
	"ls": true, "stat": true, "test": true, "[": true, "[[": true, "file": true, "du": true, "echo": true,
	"printf": true, "rm": true, "mkdir": true, "touch": true, "cd": true, "dirname": true, "basename": true,
	"realpath": true, "readlink": true, "chmod": true, "chown": true, "chgrp": true, "mdls": true, "open": true,
	"say": true, "ssh-keygen": true, "ssh-add": true, "find": true, "rmdir": true,
}

// looksDestructive guesses from arguments alone: rm-style force/recursive
// flags or a target at the root of the disk or home.
func looksDestructive(args []word) bool {
	for _, w := range args {
		s := w.s
		if strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && (strings.ContainsAny(s[1:], "rRf")) {
			return true
		}
		switch s {
		case "--recursive", "--force", "/", "~", "~/", "/*", "~/*":
			return true
		}
	}
	return false
}

// hasShort reports a short flag, alone or combined (-rf has r and f).
func hasShort(args []word, f byte) bool {
	for _, w := range args {
		s := w.s
		if s == "--" {
			return false
		}
		if len(s) > 1 && s[0] == '-' && s[1] != '-' && !w.hole && strings.IndexByte(s[1:], f) >= 0 {
			return true
		}
	}
	return false
}

// hasLong reports a long option, with or without =value.
func hasLong(args []word, names ...string) bool {
	for _, w := range args {
		if w.s == "--" {
			return false
		}
		for _, n := range names {
			if w.s == n || strings.HasPrefix(w.s, n+"=") {
				return true
			}
		}
	}
	return false
}

func hasArg(args []word, vals ...string) bool {
	for _, w := range args {
		for _, v := range vals {
			if strings.EqualFold(w.s, v) {
				return true
			}
		}
	}
	return false
}

// operands are the words that are not options.
func operands(args []word) []word {
	options := false
	for _, w := range args {
		if strings.HasPrefix(w.s, "-") {
			options = true
			break
		}
	}
	if !options {
		return args
	}
	var out []word
	end := false
	for _, w := range args {
		if !end && w.s == "--" {
			end = true
			continue
		}
		if !end && strings.HasPrefix(w.s, "-") && len(w.s) > 1 && !w.hole {
			continue
		}
		out = append(out, w)
	}
	return out
}

// sub returns the first operand, lower-cased: the subcommand of git, brew …
func sub(args []word) string {
	ops := operands(args)
	if len(ops) == 0 {
		return ""
	}
	return strings.ToLower(ops[0].s)
}

func prefixCommand(name string) func(*call) {
	switch {
	case strings.HasPrefix(name, "mkfs") || strings.HasPrefix(name, "newfs"):
		return func(c *call) { c.add(level.Destructive, "mkfs", "%s: formats a disk", c.name) }
	case strings.HasPrefix(name, "python") || strings.HasPrefix(name, "pypy"):
		return interpreter(pythonSpec)
	case strings.HasPrefix(name, "perl"):
		return interpreter(perlSpec)
	case strings.HasPrefix(name, "ruby"):
		return interpreter(rubySpec)
	}
	return nil
}

var downloaders = map[string]bool{"curl": true, "wget": true, "fetch": true, "aria2c": true, "http": true, "https": true, "lwp-download": true, "ftp": true}

var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "fish": true, "tcsh": true, "csh": true}

// shellCommands rates each known command. Unknown commands are Dangerous.
var shellCommands map[string]func(*call)

func safe(*call) {}

func caution(why string) func(*call) {
	return func(c *call) { c.add(level.Caution, c.name, "%s: %s", c.name, why) }
}

func dangerous(why string) func(*call) {
	return func(c *call) { c.add(level.Dangerous, c.name, "%s: %s", c.name, why) }
}

func destructive(why string) func(*call) {
	return func(c *call) { c.add(level.Destructive, c.name, "%s: %s", c.name, why) }
}

// bySub rates a command by its first operand; other subcommands get def.
func bySub(def level.Level, defWhy string, rules map[string]level.Level) func(*call) {
	return func(c *call) {
		s := sub(c.args)
		l, ok := rules[s]
		if !ok {
			l = def
		}
		if l > level.Safe {
			why := defWhy
			if ok {
				why = s
			}
			c.add(l, c.name, "%s %s: %s", c.name, s, why)
		}
	}
}

func init() {
	shellCommands = map[string]func(*call){}
	for _, n := range strings.Fields(`ls cat echo printf pwd whoami id groups date cal uptime df du sw_vers uname
		hostname which whereis type file stat head tail wc grep egrep fgrep rg ag sort uniq cut tr column paste
		join comm fold fmt nl rev expand unexpand diff cmp less more ps pgrep lsof netstat ipconfig ping
		traceroute dig nslookup host whois mdfind mdls system_profiler ioreg vm_stat iostat top htop w who last
		printenv locale basename dirname realpath readlink test [ [[ true false : sleep exit return cd pushd popd
		read continue break seq jot bc expr md5 md5sum shasum sha1sum sha256sum cksum base64 xxd od hexdump strings pbpaste man
		info help history jobs wait shift set unset export local declare typeset readonly getopts trap umask
		ulimit tput clear stty tty sw_vers csrutil-status afplay say printf command nproc arch-info getconf
		mount-info true tee-info shopt alias-info let fc hash times logname users last lastlog defaults-read
		sysctl-read plutil-read tmutil-status open-url awk-safe jq yq xmllint iconv uuidgen openssl-info
		bat fd fzf tree exa eza fold tac tldr whatis apropos lsappinfo sips-info mdutil-status`) {
		shellCommands[n] = safe
	}
	for n, why := range map[string]string{
		"pbcopy": "replaces the clipboard", "mkdir": "creates folders", "touch": "creates or updates files",
		"rmdir": "removes empty folders", "tar": "archives or extracts files", "zip": "archives files",
		"unzip": "extracts files", "gzip": "compresses files", "gunzip": "decompresses files", "bzip2": "compresses files",
		"xz": "compresses files", "ditto": "copies files", "screencapture": "takes a screenshot",
		"purge": "flushes disk caches", "hdiutil": "works with disk images", "mount": "mounts a volume",
		"umount": "unmounts a volume", "codesign": "signs code", "pkgutil": "reads or forgets package receipts",
		"mas": "manages App Store apps", "code": "opens VS Code", "subl": "opens Sublime Text", "sips": "edits images",
		"qlmanage": "previews files", "mdutil": "changes Spotlight indexing", "sqlite3": "opens a database",
		"ssh-keygen": "manages SSH keys", "ssh-add": "manages the SSH agent", "npm": "runs package scripts",
		"npx": "runs a package binary", "yarn": "runs package scripts", "pnpm": "runs package scripts",
		"pip": "installs packages", "pip3": "installs packages", "gem": "installs gems", "cargo": "builds code",
		"go": "builds code", "make": "runs build rules", "swift": "builds or runs Swift", "xcodebuild": "builds Xcode projects",
		"pod": "manages CocoaPods", "bundle": "runs Ruby bundles", "terraform-plan": "", "shortcuts": "runs a shortcut",
		"automator": "runs a workflow", "tmux": "controls terminal sessions", "screen": "controls terminal sessions",
		"chflags": "changes file flags", "ln": "creates links", "plutil": "edits property lists",
		"sed": "edits text", "split": "splits files", "lipo": "edits binaries", "install_name_tool": "edits binaries",
		"say-file": "", "convert": "converts images", "ffmpeg": "converts media", "pandoc": "converts documents",
		"textutil": "converts documents", "gpg": "works with keys and signatures", "tccutil-info": "",
	} {
		if why != "" {
			shellCommands[n] = caution(why)
		}
	}
	for n, why := range map[string]string{
		"ssh": "runs commands on another machine", "ssh-copy-id": "installs a key on another machine",
		"nc": "opens raw network connections", "ncat": "opens raw network connections", "netcat": "opens raw network connections",
		"socat": "relays network connections", "telnet": "opens raw network connections",
		"shutdown": "powers the Mac off or restarts it", "reboot": "restarts the Mac", "halt": "halts the Mac",
		"installer": "installs a package as root", "at": "schedules commands to run later", "batch": "schedules commands to run later",
		"tccutil": "resets privacy permissions", "sysadminctl-info": "", "unlink": "permanently deletes a file (not to the Trash)",
		"osacompile": "compiles a script", "bless": "changes the startup disk", "kextload": "loads a kernel extension",
		"kextunload": "unloads a kernel extension", "systemextensionsctl": "manages system extensions",
		"profiles": "manages configuration profiles", "dsenableroot": "enables the root account",
		"passwd": "changes a password", "chsh": "changes the login shell", "visudo": "edits sudo rules",
		"mount_smbfs": "mounts a network share", "sftp": "transfers files to another machine",
		"powershell": "runs unanalysed code", "pwsh": "runs unanalysed code", "lua": "runs unanalysed code",
		"tclsh": "runs unanalysed code", "php": "runs unanalysed code", "deno": "runs unanalysed code", "bun": "runs unanalysed code",
	} {
		if why != "" {
			shellCommands[n] = dangerous(why)
		}
	}
	for n, why := range map[string]string{
		"srm": "securely erases files: unrecoverable", "shred": "overwrites files: unrecoverable",
		"wipe": "wipes files: unrecoverable", "truncate": "truncates files", "fdisk": "edits the partition table",
		"gpt": "edits the partition table", "asr": "restores over a volume", "csrutil": "changes System Integrity Protection",
	} {
		shellCommands[n] = destructive(why)
	}
	shellCommands["csrutil"] = func(c *call) {
		if s := sub(c.args); s == "status" || s == "" {
			return
		}
		c.add(level.Destructive, "csrutil", "csrutil %s: changes System Integrity Protection", sub(c.args))
	}
	shellCommands["truncate"] = func(c *call) {
		c.add(level.Destructive, "truncate", "truncate: cuts files to a given size, losing their contents")
		c.writeOperands("resizes")
	}
	shellCommands["rm"] = rmCommand
	shellCommands["dd"] = func(c *call) {
		for _, w := range c.args {
			if strings.HasPrefix(strings.ToLower(w.s), "of=") {
				c.add(level.Destructive, "dd", "dd %s: overwrites a file or disk block by block", rate.Display(w.s))
				return
			}
		}
		c.add(level.Caution, "dd", "dd: copies data block by block")
	}
	shellCommands["diskutil"] = diskutilCommand
	shellCommands["tmutil"] = bySub(level.Dangerous, "changes Time Machine", map[string]level.Level{
		"status": level.Safe, "listbackups": level.Safe, "latestbackup": level.Safe, "listlocalsnapshots": level.Safe,
		"listlocalsnapshotdates": level.Safe, "machinedirectory": level.Safe, "isexcluded": level.Safe, "destinationinfo": level.Safe,
		"version": level.Safe, "compare": level.Safe, "calculatedrift": level.Safe, "uniquesize": level.Safe,
		"startbackup": level.Caution, "stopbackup": level.Caution, "addexclusion": level.Caution,
		"delete": level.Destructive, "deletelocalsnapshots": level.Destructive, "thinlocalsnapshots": level.Destructive,
		"deleteinprogress": level.Destructive, "disable": level.Dangerous, "removeexclusion": level.Caution,
	})
	shellCommands["chmod"] = permCommand
	shellCommands["chown"] = permCommand
	shellCommands["chgrp"] = permCommand
	for _, n := range []string{"cp", "mv", "install", "ditto", "ln", "tee", "touch", "mkdir"} {
		prev := shellCommands[n]
		shellCommands[n] = func(c *call) {
			if prev != nil {
				prev(c)
			} else {
				c.add(level.Caution, c.name, "%s: changes files", c.name)
			}
			c.writeDest()
		}
	}
	shellCommands["find"] = findCommand
	shellCommands["git"] = gitCommand
	shellCommands["docker"] = dockerCommand
	shellCommands["podman"] = dockerCommand
	shellCommands["kubectl"] = bySub(level.Dangerous, "changes a cluster", map[string]level.Level{
		"get": level.Safe, "describe": level.Safe, "logs": level.Safe, "version": level.Safe, "config": level.Caution,
		"top": level.Safe, "explain": level.Safe, "api-resources": level.Safe, "delete": level.Destructive,
		"completion": level.Safe, "cluster-info": level.Safe, "api-versions": level.Safe,
	})
	shellCommands["brew"] = bySub(level.Caution, "changes installed software", map[string]level.Level{
		"list": level.Safe, "ls": level.Safe, "info": level.Safe, "search": level.Safe, "--prefix": level.Safe,
		"config": level.Safe, "doctor": level.Safe, "outdated": level.Safe, "deps": level.Safe, "uses": level.Safe,
		"leaves": level.Safe, "home": level.Caution, "services": level.Dangerous, "--version": level.Safe, "": level.Safe,
		"shellenv": level.Safe, "--repository": level.Safe, "--cellar": level.Safe, "--caskroom": level.Safe, "--cache": level.Safe,
		"desc": level.Safe, "tap-info": level.Safe, "commands": level.Safe, "missing": level.Safe,
	})
	shellCommands["launchctl"] = bySub(level.Dangerous, "changes background services", map[string]level.Level{
		"list": level.Safe, "print": level.Safe, "print-disabled": level.Safe, "blame": level.Safe, "version": level.Safe,
		"help": level.Safe, "getenv": level.Safe, "load": level.Destructive, "bootstrap": level.Destructive,
		"submit": level.Destructive, "enable": level.Destructive,
	})
	shellCommands["defaults"] = defaultsCommand
	shellCommands["crontab"] = func(c *call) {
		switch {
		case hasShort(c.args, 'l'):
		case hasShort(c.args, 'r'):
			c.add(level.Destructive, "crontab", "crontab -r: removes every cron job")
		default:
			c.add(level.Destructive, "crontab", "crontab: installs scheduled commands (persistence)")
		}
	}
	shellCommands["security"] = securityCommand
	shellCommands["networksetup"] = getterSetter("-get", "-list", "-print", "-version", "-help", "-isnetworkserviceenabled", "-showpppoestatus")
	shellCommands["systemsetup"] = getterSetter("-get", "-list", "-print", "-version", "-help")
	shellCommands["scutil"] = getterSetter("--get", "--dns", "--proxy", "--nwi", "-r", "-w", "--nc")
	shellCommands["dscl"] = func(c *call) {
		for _, w := range c.args {
			s := strings.ToLower(strings.TrimPrefix(w.s, "-"))
			switch s {
			case "delete":
				c.add(level.Destructive, "dscl", "dscl -delete: deletes directory records (users, groups)")
				return
			case "create", "append", "merge", "passwd", "change", "changei", "createpl", "deletepl":
				c.add(level.Dangerous, "dscl", "dscl -%s: changes users or groups", s)
				return
			}
		}
	}
	shellCommands["sysadminctl"] = func(c *call) {
		if hasArg(c.args, "-deleteUser") {
			c.add(level.Destructive, "sysadminctl", "sysadminctl -deleteUser: deletes a user account")
			return
		}
		c.add(level.Dangerous, "sysadminctl", "sysadminctl: changes user accounts or security settings")
	}
	shellCommands["softwareupdate"] = func(c *call) {
		if hasShort(c.args, 'i') || hasShort(c.args, 'a') || hasLong(c.args, "--install", "--all", "--install-rosetta", "--restart") {
			c.add(level.Dangerous, "softwareupdate", "softwareupdate: installs system updates")
		}
	}
	shellCommands["xattr"] = func(c *call) {
		if hasArg(c.args, "com.apple.quarantine") && (hasShort(c.args, 'd') || hasShort(c.args, 'c')) || hasShort(c.args, 'c') {
			c.add(level.Dangerous, "xattr", "xattr: strips quarantine attributes, bypassing Gatekeeper checks")
		} else if hasShort(c.args, 'd') || hasShort(c.args, 'w') {
			c.add(level.Caution, "xattr", "xattr: changes extended attributes")
		}
	}
	shellCommands["spctl"] = func(c *call) {
		if hasLong(c.args, "--status", "--assess") || hasShort(c.args, 'a') {
			return
		}
		c.add(level.Dangerous, "spctl", "spctl: changes Gatekeeper")
	}
	shellCommands["nvram"] = func(c *call) {
		if len(c.args) == 0 || hasShort(c.args, 'p') || hasShort(c.args, 'x') && len(c.args) == 1 {
			return
		}
		c.add(level.Dangerous, "nvram", "nvram: changes firmware variables")
	}
	shellCommands["fdesetup"] = bySub(level.Dangerous, "changes FileVault", map[string]level.Level{
		"status": level.Safe, "list": level.Safe, "isactive": level.Safe, "haspersonalrecoverykey": level.Safe,
		"supportsauthrestart": level.Safe, "disable": level.Destructive,
	})
	shellCommands["pmset"] = func(c *call) {
		switch {
		case hasShort(c.args, 'g') && !hasArg(c.args, "sleepnow", "restart", "shutdown"):
		case hasArg(c.args, "sleepnow", "restart", "shutdown"):
			c.add(level.Dangerous, "pmset", "pmset %s: SYSTEM POWER: sleeps, restarts or shuts down the Mac", sub(c.args))
		case hasArg(c.args, "displaysleepnow"):
			c.add(level.Caution, "pmset", "pmset displaysleepnow: turns the display off")
		default:
			c.add(level.Dangerous, "pmset", "pmset: changes power settings")
		}
	}
	shellCommands["sysctl"] = func(c *call) {
		for _, w := range c.args {
			if w.s == "-w" || strings.Contains(w.s, "=") {
				c.add(level.Dangerous, "sysctl", "sysctl: changes kernel settings")
				return
			}
		}
	}
	shellCommands["ifconfig"] = func(c *call) {
		if len(c.args) > 1 && !hasShort(c.args, 'a') && !hasShort(c.args, 'l') {
			c.add(level.Dangerous, "ifconfig", "ifconfig: changes a network interface")
		}
	}
	shellCommands["route"] = func(c *call) {
		if s := sub(c.args); s != "get" && s != "monitor" && s != "" {
			c.add(level.Dangerous, "route", "route %s: changes network routes", s)
		}
	}
	for _, n := range []string{"kill", "killall", "pkill"} {
		shellCommands[n] = killCommand
	}
	shellCommands["curl"] = curlCommand
	shellCommands["wget"] = wgetCommand
	for _, n := range []string{"scp", "rsync"} {
		shellCommands[n] = copyRemote
	}
	shellCommands["open"] = openCommand
	for n := range shells {
		shellCommands[n] = shellInterp
	}
	shellCommands["eval"] = func(c *call) {
		c.nested(c.args, "eval")
	}
	for _, n := range []string{"source", "."} {
		shellCommands[n] = func(c *call) {
			ops := c.operands()
			if len(ops) > 0 && ops[0].gen != "" {
				c.add(level.Dangerous, "eval-generated", "%s runs code generated by %s", c.name, ops[0].gen)
				return
			}
			if len(ops) > 0 && (ops[0].proc || ops[0].hole) {
				c.add(level.Destructive, "source", "%s: runs commands computed at run time", c.name)
				return
			}
			if len(ops) > 0 && (isStdinPath(ops[0].s) || c.fdInput(ops[0])) {
				c.name = "sh"
				c.fromStdin()
				return
			}
			if len(ops) > 0 && c.a.runFile(c, ops[0].s) {
				return
			}
			c.add(level.Dangerous, "source", "%s: runs the commands of a file that is not analysed", c.name)
		}
	}
	shellCommands["osascript"] = osascriptCommand
	shellCommands["awk"] = awkCommand
	shellCommands["gawk"] = awkCommand
	shellCommands["make"] = makeCommand
	shellCommands["gmake"] = makeCommand

	shellCommands["caffeinate"] = safe
	shellCommands["wrapper-alone"] = safe
	shellCommands["alias"] = func(c *call) {
		for _, w := range c.args {
			if name, val, ok := strings.Cut(w.s, "="); ok && name != "" {
				c.nested([]word{{s: val, hole: w.hole}}, "alias "+name)
			}
		}
	}
	shellCommands["trap"] = func(c *call) {
		ops := c.operands()
		if len(ops) > 1 {
			c.nested(ops[:1], "trap")
		}
	}
	shellCommands["cp"] = func(c *call) {
		ops := c.operands()
		if len(ops) == 2 && ops[0].s == "/dev/null" {
			c.add(level.Destructive, "truncate", "cp /dev/null %s: empties the file", rate.Display(ops[1].s))
			return
		}
		c.add(level.Caution, "cp", "cp: copies files")
		c.writeDest()
	}
	shellCommands["tee"] = func(c *call) {
		c.add(level.Caution, "tee", "tee: writes files")
		if c.pc.stdin == "devnull" && !hasShort(c.args, 'a') && !hasLong(c.args, "--append") {
			for _, w := range c.operands() {
				c.add(level.Destructive, "truncate", "tee %s with empty input: empties the file", rate.Display(w.s))
			}
		}
		// What tee writes is its input: curl … | tee ~/bin/x makes x a
		// download.
		content := fileComputed
		switch c.pc.stdin {
		case "download":
			content = fileDownloaded
		case "text":
			content = c.pc.text
		case "devnull":
			content = ""
		}
		if !hasShort(c.args, 'a') && !hasLong(c.args, "--append") && len(content) <= maxFileText {
			for _, w := range c.operands() {
				if !w.hole {
					c.a.setFile(w.s, content)
				}
			}
		}
		c.writeDest()
	}
	shellCommands["gpg"] = func(c *call) {
		switch {
		case hasLong(c.args, "--delete-secret-keys", "--delete-secret-and-public-key", "--delete-keys"):
			c.add(level.Destructive, "gpg", "gpg: deletes keys")
		case hasLong(c.args, "--export-secret-keys", "--export-secret-subkeys"):
			c.add(level.Dangerous, "gpg", "gpg: exports secret keys")
			c.a.secretAt(c.span)
		}
	}
	moreCommands()
	toolCommands()
}

func getterSetter(read ...string) func(*call) {
	return func(c *call) {
		if len(c.args) == 0 {
			return
		}
		flag := strings.ToLower(c.args[0].s)
		for _, r := range read {
			if strings.HasPrefix(flag, r) {
				return
			}
		}
		c.add(level.Dangerous, c.name, "%s %s: changes system settings", c.name, rate.Display(c.args[0].s))
	}
}

func rmCommand(c *call) {
	recursive := hasShort(c.args, 'r') || hasShort(c.args, 'R') || hasLong(c.args, "--recursive")
	force := hasShort(c.args, 'f') || hasLong(c.args, "--force")
	ops := c.operands()
	switch {
	case recursive && force:
		c.add(level.Destructive, "rm-recursive", "rm -rf: permanently deletes folders and everything in them, without asking")
	case recursive:
		c.add(level.Destructive, "rm-recursive", "rm -r: permanently deletes folders and everything in them")
	case force:
		c.add(level.Destructive, "rm-force", "rm -f: permanently deletes files without asking")
	}
	for _, w := range ops {
		if w.glob || w.hole {
			c.add(level.Destructive, "rm-bulk", "rm %s: permanently deletes every file the pattern or computed value matches", rate.Display(w.s))
		}
		if z := c.a.zoneOf(w); z.Critical() {
			c.add(level.Destructive, "rm-protected", "rm %s: deletes inside %s", rate.Display(w.s), z.Detail)
		}
	}
	if len(ops) > 1 {
		c.add(level.Destructive, "rm-bulk", "rm: permanently deletes %d files (not to the Trash)", len(ops))
	}
	c.add(level.Dangerous, "rm", "rm: permanently deletes (not to the Trash)")
}

func diskutilCommand(c *call) {
	ops := c.operands()
	if len(ops) == 0 {
		return
	}
	s := strings.ToLower(ops[0].s)
	if s == "apfs" || s == "cs" || s == "appleraid" || s == "ar" || s == "corestorage" {
		if len(ops) > 1 {
			s = s + " " + strings.ToLower(ops[1].s)
		}
	}
	switch {
	case s == "list" || s == "info" || s == "activity" || s == "apfs list" || strings.HasSuffix(s, " list") ||
		s == "verifyvolume" || s == "verifydisk" || s == "listfilesystems" || strings.HasPrefix(s, "apfs listsnapshots"):
	case strings.Contains(s, "erase") || strings.Contains(s, "zero") || strings.Contains(s, "random") ||
		strings.Contains(s, "partition") || strings.Contains(s, "reformat") || strings.Contains(s, "delete") ||
		strings.Contains(s, "secure") || strings.Contains(s, "merge") || strings.Contains(s, "split") ||
		strings.Contains(s, "resize") || strings.Contains(s, "destroy"):
		c.add(level.Destructive, "diskutil", "diskutil %s: erases or repartitions a disk", s)
	case s == "mount" || s == "unmount" || s == "umount" || s == "eject" || s == "mountdisk" || s == "unmountdisk" || s == "repairvolume" || s == "rename" || s == "renamevolume":
		c.add(level.Caution, "diskutil", "diskutil %s: changes a volume", s)
	default:
		c.add(level.Dangerous, "diskutil", "diskutil %s: changes disks", s)
	}
}

func permCommand(c *call) {
	recursive := hasShort(c.args, 'R') || hasLong(c.args, "--recursive")
	ops := c.operands()
	if len(ops) > 0 {
		ops = ops[1:] // the mode or owner
	}
	l := level.Caution
	why := "changes permissions"
	for _, w := range ops {
		z := c.a.zoneOf(w)
		broad := w.glob || w.hole || z.HomeRoot || z.Kind == rate.ZoneSystem || w.s == "/"
		switch {
		case recursive && broad:
			l, why = level.Destructive, "recursively changes ownership or permissions of "+rate.Display(w.s)
		case recursive && l < level.Dangerous:
			l, why = level.Dangerous, "recursively changes ownership or permissions"
		case z.Kind == rate.ZoneSystem || z.Kind == rate.ZoneCredential || z.Kind == rate.ZonePersistence:
			l, why = level.Max(l, level.Dangerous), "changes permissions inside "+z.Detail
		case z.HomeRoot && (c.name != "chmod" || len(c.operands()) > 0 && locksOwner(c.operands()[0].s)):
			// chmod 000 ~, chown nobody ~/Documents: you lose your own files.
			l, why = level.Max(l, level.Dangerous), "takes "+rate.Display(w.s)+" away from you"
		}
	}
	if len(c.args) > 0 && strings.Contains(c.args[0].s, "s") && c.name == "chmod" && strings.HasPrefix(c.args[0].s, "+") {
		l, why = level.Max(l, level.Dangerous), "sets the setuid/setgid bit"
	}
	c.add(l, c.name, "%s: %s", c.name, why)
}

// locksOwner reports a chmod mode that leaves the owner unable to read or
// enter a folder: 000, 0644 on a folder, u-rx, a=, go= is fine.
func locksOwner(mode string) bool {
	if mode == "" {
		return false
	}
	if n, err := strconv.ParseUint(mode, 8, 32); err == nil {
		return (n>>6)&5 != 5
	}
	for _, clause := range strings.Split(mode, ",") {
		i := strings.IndexAny(clause, "+-=")
		if i < 0 {
			continue
		}
		who, op, perms := clause[:i], clause[i], clause[i+1:]
		if who != "" && !strings.ContainsAny(who, "ua") {
			continue
		}
		switch {
		case op == '-' && strings.ContainsAny(perms, "rxX"):
			return true
		case op == '=' && !(strings.Contains(perms, "r") && strings.ContainsAny(perms, "xX")):
			return true
		}
	}
	return false
}

func findCommand(c *call) {
	for i, w := range c.args {
		switch w.s {
		case "-delete":
			c.add(level.Destructive, "find-delete", "find -delete: permanently deletes every match")
		case "-exec", "-execdir", "-ok", "-okdir":
			var inner []word
			for _, x := range c.args[i+1:] {
				if x.s == ";" || x.s == "+" {
					break
				}
				if strings.Contains(x.s, "{}") {
					x = word{s: rate.HoleMark, hole: true, glob: true, span: x.span}
				}
				inner = append(inner, x)
			}
			c.a.call(inner, c.span, pipeCtx{})
		}
	}
	for _, w := range c.args {
		if w.s == "-fprint" || w.s == "-fls" || w.s == "-fprintf" {
			c.add(level.Caution, "find", "find %s: writes a file", w.s)
		}
	}
}

func dockerCommand(c *call) {
	ops := c.operands()
	if len(ops) == 0 {
		return
	}
	s := strings.ToLower(ops[0].s)
	if s == "compose" || s == "run" || s == "create" || s == "container" && len(ops) > 1 && inList(strings.ToLower(ops[1].s), "run", "create") {
		for i, w := range c.args {
			if strings.EqualFold(w.s, s) {
				rest := c.args[i+1:]
				if s == "container" {
					rest = rest[1:]
				}
				if s == "compose" {
					c.compose(rest)
				} else {
					c.dockerRun(rest)
				}
				return
			}
		}
	}
	if len(ops) > 1 && (s == "system" || s == "volume" || s == "image" || s == "container" || s == "network" || s == "builder" || s == "compose") {
		s += " " + strings.ToLower(ops[1].s)
	}
	switch s {
	case "ps", "images", "info", "version", "inspect", "logs", "stats", "top", "port", "diff", "history", "search",
		"volume ls", "image ls", "container ls", "network ls", "system df", "compose ps", "compose logs", "system info":
	case "volume rm", "volume prune":
		c.add(level.Destructive, "docker-volumes", "docker %s: deletes volumes (their data is lost)", s)
	case "system prune":
		if hasLong(c.args, "--volumes") {
			c.add(level.Destructive, "docker-volumes", "docker system prune --volumes: deletes volumes (their data is lost)")
		} else {
			c.add(level.Dangerous, "docker-prune", "docker system prune: removes stopped containers, unused networks, images and build cache")
		}
	case "rm", "rmi", "image prune", "container prune", "network prune", "builder prune", "image rm", "container rm", "kill", "compose down":
		c.add(level.Dangerous, "docker-remove", "docker %s: removes containers or images", s)
	case "stop", "restart", "pause", "unpause", "start":
		c.add(level.Caution, "docker", "docker %s", s)
	default:
		c.add(level.Dangerous, "docker", "docker %s: runs or changes containers", s)
	}
}

// cosmeticDomains are preference domains whose settings change only how
// the interface looks or behaves (Dock, Finder, screenshots, trackpad): a
// write there is Caution. Every other domain — NSGlobalDomain, loginwindow,
// LaunchServices, Safari, the firewall, an application's own — is Dangerous.
var cosmeticDomains = map[string]bool{
	"com.apple.dock": true, "com.apple.finder": true, "com.apple.screencapture": true,
	"com.apple.menuextra.clock": true, "com.apple.menuextra.battery": true, "com.apple.textedit": true,
	"com.apple.applemultitouchtrackpad": true, "com.apple.driver.applebluetoothmultitouch.trackpad": true,
	"com.apple.applemultitouchmouse": true, "com.apple.driver.applebluetoothmultitouch.mouse": true,
	"com.apple.controlcenter": true, "com.apple.spaces": true, "com.apple.desktopservices": true,
	"com.apple.screensaver": false,
}

func securityCommand(c *call) {
	s := sub(c.args)
	switch {
	case strings.HasPrefix(s, "find-") && strings.HasSuffix(s, "-password"):
		if hasShort(c.args, 'w') || hasShort(c.args, 'g') {
			c.add(level.Dangerous, "keychain-read", "security %s: reads a password from the Keychain", s)
			c.a.secretAt(c.span)
		}
	case s == "dump-keychain" || s == "export":
		c.add(level.Dangerous, "keychain-read", "security %s: exports Keychain contents", s)
		c.a.secretAt(c.span)
	case strings.HasPrefix(s, "delete-") || s == "add-trusted-cert" || s == "remove-trusted-cert" || s == "authorizationdb" || s == "trust-settings-import":
		c.add(level.Destructive, "keychain-change", "security %s: changes the Keychain or system trust", s)
	case s == "list-keychains" || s == "show-keychain-info" || s == "find-certificate" || s == "find-identity" ||
		s == "default-keychain" || s == "login-keychain" || s == "verify-cert" || s == "cms" || s == "help" || s == "":
	default:
		c.add(level.Dangerous, "keychain", "security %s: changes Keychain settings", s)
	}
}

// shellInterp rates sh, bash, zsh …: -c strings are analysed recursively;
// reading commands from a download or decoded data is Destructive.
func shellInterp(c *call) {
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		s := w.s
		if s == "--" {
			break
		}
		// Options with a value: -o pipefail, +O extglob.
		if !w.hole && (s == "-o" || s == "+o" || s == "-O" || s == "+O") {
			i++
			continue
		}
		// --rcfile FILE: a script run before anything else.
		if !w.hole && (s == "--rcfile" || s == "--init-file") {
			if i+1 < len(c.args) {
				i++
				c.scriptFile(c.args[i])
			}
			continue
		}
		if len(s) > 1 && s[0] == '+' && !w.hole {
			continue // +x, +e: options turned off
		}
		if len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.IndexByte(s[1:], 'c') >= 0 && !w.hole {
			if i+1 >= len(c.args) {
				c.add(level.Dangerous, "sh-c", "%s -c without a command", c.name)
				return
			}
			c.nested(c.args[i+1:i+2], c.name+" -c")
			return
		}
		if !strings.HasPrefix(s, "-") || w.hole || w.proc {
			c.scriptFile(w)
			return
		}
	}
	c.fromStdin()
}

// scriptFile rates the script file a shell runs.
func (c *call) scriptFile(w word) {
	switch s := w.s; {
	case w.proc || w.hole:
		c.add(level.Destructive, "sh-computed", "%s runs a script computed at run time (%s)", c.name, rate.Display(s))
	case isStdinPath(s) || c.fdInput(w):
		c.fromStdin()
	case c.a.runFile(c, s):
	default:
		c.add(level.Dangerous, "sh-file", "%s %s: runs a script file that is not analysed", c.name, rate.Display(s))
	}
}

// nested analyses words as a shell script (sh -c, eval).
func (c *call) nested(ws []word, what string) {
	if len(ws) == 1 && ws[0].gen != "" {
		c.add(level.Dangerous, "eval-generated", "%s evaluates code generated by %s", what, ws[0].gen)
		return
	}
	var parts []string
	for _, w := range ws {
		if w.hole || w.proc {
			c.add(level.Destructive, "computed-script", "%s of text computed at run time: cannot tell what runs", what)
			return
		}
		parts = append(parts, w.s)
	}
	src := strings.Join(parts, " ")
	sp := c.span
	c.adopt(shellRunIn(c.a.v, src, c.a.env, anchorOr(c.a.anchor, &sp), c.a.depth+1, c.a.sh, c.pc))
}

func anchorOr(a, b *Span) *Span {
	if a != nil {
		return a
	}
	return b
}

// writeDest checks the destination of cp, mv, ln, tee, touch, mkdir, install.
func (c *call) writeDest() {
	ops := c.operands()
	if len(ops) == 0 {
		return
	}
	targets := ops[len(ops)-1:]
	switch c.name {
	case "tee", "touch", "mkdir":
		targets = ops
	case "cp", "mv", "ditto", "rsync", "install", "ln":
		sources := ops[:len(ops)-1]
		if hasShort(c.args, 't') && c.name != "ditto" {
			targets, sources = ops[:1], ops[1:]
		}
		dest, _ := c.a.pathOf(targets[0])
		trash := !targets[0].hole && strings.Contains("/"+dest+"/", "/.Trash/") || strings.Contains("/"+dest+"/", "/.Trashes/")
		if c.name == "mv" && !targets[0].hole && isSinkDevice(dest) && len(sources) > 0 {
			// mv x /dev/null copies x into nothing and removes it: rm -rf x.
			c.add(level.Caution, "move-to-sink", "mv into %s: what it moves is destroyed", rate.Display(dest))
			rm := append([]word{{s: "rm", span: c.span}, {s: "-rf", span: c.span}}, sources...)
			c.a.call(rm, c.span, pipeCtx{})
		}
		for _, w := range sources {
			if c.name != "ln" {
				c.a.read(w, c.span)
			}
			if c.name == "mv" {
				z := c.a.zoneOf(w)
				switch {
				case z.Kind == rate.ZoneSystem || z.Kind == rate.ZoneCredential || z.Kind == rate.ZonePersistence:
					c.add(level.Dangerous, "move-protected", "mv %s: moves something out of %s", rate.Display(w.s), z.Detail)
				case z.HomeRoot && !w.hole && isHome(w.s):
					c.add(level.Destructive, "move-home", "mv %s: moves your whole home folder away", rate.Display(w.s))
				case z.HomeRoot && !strings.Contains(strings.TrimPrefix(path.Base(w.s), "."), ".") || c.a.sandboxRoot(w):
					c.add(level.Dangerous, "move-protected", "mv %s: moves a top-level folder of your home away", rate.Display(w.s))
				}
				if trash && (w.glob || w.hole && c.a.loops > 0) {
					c.add(level.Destructive, "trash-bulk", "BULK DELETE: mv %s to the Trash moves every file it matches there", rate.Display(w.s))
				}
			}
			// A copy of a file this script downloaded is downloaded too.
			if content, ok := c.a.fileContent(w.s); ok && !w.hole && !targets[0].hole {
				t := targets[0].s
				c.a.setFile(t, content)
				c.a.setFile(strings.TrimSuffix(t, "/")+"/"+path.Base(w.s), content)
				if content == fileDownloaded {
					c.a.downloadedInto(targets[0], true)
				}
			}
		}
	}
	if c.name == "install" || c.name == "ditto" || c.name == "ln" && (hasShort(c.args, 'f') || hasLong(c.args, "--force")) {
		// install /dev/null x, ln -sf /dev/null x: x is replaced by nothing.
		for _, w := range ops[:len(ops)-1] {
			if !w.hole && isSinkDevice(w.s) {
				for _, t := range targets {
					c.add(level.Destructive, "truncate", "%s %s %s: replaces the file with an empty one", c.name, rate.Display(w.s), rate.Display(t.s))
				}
				break
			}
		}
	}
	for _, w := range targets {
		c.a.write(w, c.span, c.name+" writes to")
	}
}

// isSinkDevice reports a device that swallows what is written to it.
func isSinkDevice(p string) bool {
	switch path.Clean(p) {
	case "/dev/null", "/dev/zero", "/private/var/run/null":
		return true
	}
	return false
}

// isHome reports a path naming the home folder itself: ~, ~/, /Users/me.
func isHome(p string) bool {
	p = strings.TrimRight(p, "/")
	return p == "~" || strings.HasPrefix(p, "/Users/") && strings.Count(p, "/") == 2
}

// sandboxRoot reports a word that names one of the sandbox roots itself.
func (a *shellAn) sandboxRoot(w word) bool {
	p, ok := a.pathOf(w)
	if !ok || a.env == nil || a.env.Paths == nil {
		return false
	}
	abs, err := sanitize.ExpandHome(p, a.env.Paths.Home)
	if err != nil {
		return false
	}
	abs = path.Clean(abs)
	for _, r := range a.env.Paths.Roots {
		if strings.EqualFold(abs, r) {
			return true
		}
	}
	return false
}

func (c *call) writeOperands(verb string) {
	for _, w := range c.operands() {
		c.a.write(w, c.span, verb)
	}
}

// fdInput reports a path naming a descriptor the command's redirections
// or an earlier exec opened (bash /dev/fd/3 3<<<'…'), and makes what that
// descriptor reads the command's input.
func (c *call) fdInput(w word) bool {
	if w.hole {
		return false
	}
	n, ok := strings.CutPrefix(w.s, "/dev/fd/")
	if !ok {
		n, ok = strings.CutPrefix(w.s, "/proc/self/fd/")
	}
	if !ok {
		return false
	}
	src, ok := c.pc.fds[n]
	if !ok {
		src, ok = c.a.fds[n]
	}
	if !ok {
		src = pipeCtx{stdin: "file", text: "file descriptor " + n}
	}
	c.pc.stdin, c.pc.text, c.pc.obf = src.stdin, src.text, src.obf
	return true
}

func isStdinPath(s string) bool {
	switch s {
	case "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "-":
		return true
	}
	return false
}

// synthInput rates a tool that types or clicks on the person's behalf: what
// it does lands in whatever app is in front, and the gate checks the context
// lock (and that no approval is on screen) before it runs.
func synthInput(c *call) {
	c.add(level.Dangerous, "synth-input", "%s: types or clicks on your behalf, in whatever app is in front", rate.Display(c.name))
}

// moreCommands registers the handlers of commands that run other commands,
// write files, or reach the network in ways their names do not show.
func moreCommands() {
	for n, h := range map[string]func(*call){
		"kill": killCommand, "killall": killCommand, "pkill": killCommand,
		"curl": curlCommand, "wget": wgetCommand, "scp": copyRemote, "rsync": copyRemote,
		"open": openCommand, "osascript": osascriptCommand, "awk": awkCommand, "gawk": awkCommand,
		"nawk": awkCommand, "mawk": awkCommand, "git": gitCommand, "defaults": defaultsCommand,
		"su": suCommand, "at": atCommand, "batch": atCommand, "screen": screenCommand, "tmux": tmuxCommand,
		"xcrun": xcrunCommand, "man": manCommand, "fd": fdCommand, "fdfind": fdCommand, "rg": rgCommand,
		"plutil": plutilCommand, "plistbuddy": plistBuddyCommand, "sort": sortCommand, "uniq": uniqCommand,
		"base64": base64Command, "xxd": xxdCommand, "sed": sedCommand, "gsed": sedCommand, "tar": tarCommand,
		"bsdtar": tarCommand, "gtar": tarCommand, "unzip": unzipCommand, "chflags": chflagsCommand, "hash": hashCommand,
		"launchctl": launchctlCommand, "node": interpreter(nodeSpec), "nodejs": interpreter(nodeSpec),
		"swift": interpreter(interpSpec{code: "e"}), "php": interpreter(phpSpec), "lua": interpreter(luaSpec),
		"luajit": interpreter(luaSpec), "tclsh": interpreter(interpSpec{}), "wish": interpreter(interpSpec{}),
		"deno": runtimeCommand, "bun": runtimeCommand, "pwsh": pwshCommand, "powershell": pwshCommand,
		"automator": dangerous("runs a workflow (its actions are not analysed)"), "openssl": opensslCommand,
		"xdotool": synthInput, "ydotool": synthInput, "wtype": synthInput, "cliclick": synthInput, "xte": synthInput,
		"xvkbd": synthInput,
		"shortcuts": func(c *call) {
			switch s := sub(c.args); s {
			case "list", "help", "":
			case "run":
				c.add(level.Dangerous, "shortcuts-run", "shortcuts run: runs a shortcut, whose actions are not analysed")
			default:
				c.add(level.Caution, "shortcuts", "shortcuts %s: works with shortcuts", rate.Display(s))
			}
		},
	} {
		shellCommands[n] = h
	}
	brew := shellCommands["brew"]
	shellCommands["brew"] = func(c *call) {
		ops := c.operands()
		if len(ops) > 0 && strings.EqualFold(ops[0].s, "services") {
			s := ""
			if len(ops) > 1 {
				s = strings.ToLower(ops[1].s)
			}
			switch s {
			case "", "list", "ls", "info":
				return
			}
			c.add(level.Dangerous, "brew-services", "brew services %s: starts or stops background services", rate.Display(s))
			return
		}
		brew(c)
	}
}

func killCommand(c *call) {
	c.guardSignals()
	forced := false
	signal := func(s string) {
		u := strings.TrimPrefix(strings.ToUpper(s), "SIG")
		if u == "9" || u == "KILL" {
			forced = true
		}
	}
	args := c.args
	var targets []word
	if c.name == "kill" {
		sig, ts, list := killArgs(args)
		if list {
			return
		}
		signal(sig)
		if len(ts) > 0 {
			targets = ts
		}
	} else {
		for i, w := range args {
			s := w.s
			switch {
			case s == "-u" || s == "-U" || s == "--uid" || s == "--euid" || strings.HasPrefix(s, "--uid=") || strings.HasPrefix(s, "--euid="):
				c.add(level.Dangerous, "kill-user", "%s %s: kills every process of a user", c.name, s)
			case s == "-s" || s == "--signal":
				if i+1 < len(args) {
					signal(args[i+1].s)
				}
			case strings.HasPrefix(s, "--signal="):
				signal(s[len("--signal="):])
			case strings.HasPrefix(s, "-") && len(s) > 1 && !strings.HasPrefix(s, "--"):
				signal(s[1:])
			}
		}
		targets = c.operands()
	}
	for _, w := range targets {
		switch strings.ToLower(w.s) {
		case "windowserver", "loginwindow", "launchd", "kernel_task", "1", "-1":
			c.add(level.Dangerous, "kill-system", "%s %s: kills a process the session depends on (or every process)", c.name, w.s)
		}
	}
	if forced {
		c.add(level.Dangerous, "kill-forced", "%s -9: force-kills processes; unsaved work is lost", c.name)
		return
	}
	c.add(level.Caution, "kill", "%s: stops processes", c.name)
}

// shortOpts walks a command's arguments the way getopt does: clusters of
// short letters (-sLo file, -sLofile), long options (--name=value, --name
// value), operands. valued lists the short letters that take a value;
// longValued says whether a long option without = takes the next word.
// visit sees each option with its value (or each operand, opt "").
func shortOpts(args []word, valued string, longValued func(string) bool, visit func(opt string, val word, has bool)) {
	for i := 0; i < len(args); i++ {
		w := args[i]
		s := w.s
		switch {
		case w.hole || !strings.HasPrefix(s, "-") || s == "-":
			visit("", w, true)
		case s == "--":
			for _, o := range args[i+1:] {
				visit("", o, true)
			}
			return
		case strings.HasPrefix(s, "--"):
			name, val, has := strings.Cut(s, "=")
			if has {
				visit(name, word{s: val, hole: w.hole, span: w.span}, true)
			} else if longValued != nil && longValued(name) && i+1 < len(args) {
				visit(name, args[i+1], true)
				i++
			} else {
				visit(name, word{}, false)
			}
		default:
			letters := s[1:]
			for j := 0; j < len(letters); j++ {
				opt := "-" + letters[j:j+1]
				if strings.IndexByte(valued, letters[j]) < 0 {
					visit(opt, word{}, false)
					continue
				}
				if rest := letters[j+1:]; rest != "" {
					visit(opt, word{s: rest, span: w.span}, true)
				} else if i+1 < len(args) {
					visit(opt, args[i+1], true)
					i++
				} else {
					visit(opt, word{}, false)
				}
				break
			}
		}
	}
}

func inList(s string, list ...string) bool {
	for _, l := range list {
		if s == l {
			return true
		}
	}
	return false
}

// curlValued are curl's short options that take a value.
const curlValued = "oDdFTHXueAbcKxrCwmEUyYztQPh"

func curlLongValued(n string) bool {
	switch n {
	case "--output", "--output-dir", "--upload-file", "--form", "--form-string", "--json", "--header", "--request",
		"--user", "--referer", "--user-agent", "--cookie", "--cookie-jar", "--config", "--proxy", "--range",
		"--continue-at", "--write-out", "--max-time", "--connect-timeout", "--retry", "--retry-delay", "--retry-max-time",
		"--cert", "--key", "--cacert", "--capath", "--resolve", "--connect-to", "--url", "--dump-header", "--trace",
		"--trace-ascii", "--stderr", "--limit-rate", "--max-filesize", "--proto", "--proto-redir", "--interface",
		"--local-port", "--dns-servers", "--oauth2-bearer", "--aws-sigv4", "--variable", "--netrc-file", "--unix-socket",
		"--hsts", "--alt-svc", "--etag-save", "--etag-compare", "--url-query", "--mail-from", "--mail-rcpt", "--proxy-user",
		"--noproxy", "--max-redirs", "--time-cond", "--speed-limit", "--speed-time", "--quote", "--telnet-option",
		"--ftp-port", "--preproxy", "--socks5", "--socks5-hostname", "--socks4", "--socks4a", "--expect100-timeout",
		"--parallel-max", "--rate", "--create-file-mode", "--keepalive-time", "--ciphers", "--tls-max", "--pinnedpubkey":
		return true
	}
	return strings.HasPrefix(n, "--data")
}

func curlCommand(c *call) {
	upload, remoteName := false, false
	outDir := word{}
	var outputs []word
	var urls []word
	shortOpts(c.args, curlValued, curlLongValued, func(opt string, v word, has bool) {
		switch {
		case opt == "":
			urls = append(urls, v)
		case !has:
			if opt == "-O" || opt == "--remote-name" || opt == "--remote-name-all" || opt == "-J" || opt == "--remote-header-name" {
				remoteName = true
			}
		case opt == "-T" || opt == "--upload-file":
			upload = true
			if v.s != "-" && v.s != "." {
				c.a.read(v, c.span)
			}
		case opt == "-d" || opt == "-F" || strings.HasPrefix(opt, "--data") || opt == "--form" || opt == "--form-string" || opt == "--json":
			upload = true
			data := v.s
			if j := strings.IndexAny(data, "@<"); j >= 0 {
				c.a.read(word{s: data[j+1:], hole: v.hole, guess: v.guess}, c.span)
			}
		case opt == "-X" || opt == "--request":
			if !strings.EqualFold(v.s, "GET") && !strings.EqualFold(v.s, "HEAD") {
				upload = true
			}
		case opt == "-K" || opt == "--config":
			c.add(level.Dangerous, "curl-config", "%s -K: takes options from a file that is not analysed", c.name)
			c.a.read(v, c.span)
		case opt == "-o" || opt == "--output":
			outputs = append(outputs, v)
		case opt == "--output-dir":
			outDir = v
		case opt == "-D" || opt == "--dump-header" || opt == "-c" || opt == "--cookie-jar" || opt == "--trace" ||
			opt == "--trace-ascii" || opt == "--stderr" || opt == "--etag-save":
			if v.s != "-" && !isDevice(v.s) {
				c.a.write(v, c.span, c.name+" writes")
			}
		}
	})
	inDir := func(name word) word {
		if outDir.s == "" || name.hole || strings.HasPrefix(name.s, "/") || strings.HasPrefix(name.s, "~") {
			return name
		}
		return word{s: strings.TrimSuffix(outDir.s, "/") + "/" + name.s, hole: outDir.hole, guess: outDir.guess, span: name.span}
	}
	for _, o := range outputs {
		if o.s == "-" || isDevice(o.s) {
			continue
		}
		o = inDir(o)
		c.a.write(o, c.span, "downloads into")
		if !o.hole {
			c.a.setFile(o.s, fileDownloaded)
		}
	}
	if remoteName {
		for _, u := range urls {
			name := urlBase(u)
			if outDir.s == "" && c.a.cwd == "" {
				if name.s != "" && !name.hole {
					c.a.setFile(name.s, fileDownloaded)
				}
				continue
			}
			f := inDir(name)
			c.a.write(f, c.span, "downloads into")
			if !f.hole {
				c.a.setFile(f.s, fileDownloaded)
			}
		}
	}
	if upload {
		c.add(level.Dangerous, "upload", "%s: sends data to a server", c.name)
		return
	}
	c.add(level.Caution, "download", "%s: fetches from the network", c.name)
}

// urlBase is the file name a download of u is saved under (curl -O, wget).
func urlBase(u word) word {
	s := u.s
	if i := strings.IndexAny(s, "?#"); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, "://"); i >= 0 {
		s = s[i+3:]
	}
	_, p, ok := strings.Cut(s, "/")
	name := path.Base("/" + p)
	if !ok || name == "/" || name == "." {
		name = "index.html"
	}
	return word{s: name, hole: u.hole && strings.Contains(name, rate.HoleMark), span: u.span}
}

func wgetCommand(c *call) {
	dir := word{}
	var out []word
	var urls []word
	upload := false
	long := func(n string) bool {
		return inList(n, "--output-document", "--directory-prefix", "--post-data", "--post-file", "--body-data", "--body-file",
			"--method", "--input-file", "--output-file", "--append-output", "--header", "--user-agent", "--user", "--password",
			"--load-cookies", "--save-cookies", "--execute", "--tries", "--timeout", "--wait", "--referer", "--config")
	}
	shortOpts(c.args, "OoaPieUtTwQlARDXIB", long, func(opt string, v word, has bool) {
		switch {
		case opt == "":
			urls = append(urls, v)
		case opt == "-O" || opt == "--output-document":
			out = append(out, v)
		case opt == "-P" || opt == "--directory-prefix":
			dir = v
		case opt == "-o" || opt == "-a" || opt == "--output-file" || opt == "--append-output" || opt == "--save-cookies":
			if has {
				c.a.write(v, c.span, "wget writes")
			}
		case strings.HasPrefix(opt, "--post-") || strings.HasPrefix(opt, "--body-"):
			upload = true
			if strings.HasSuffix(opt, "-file") {
				c.a.read(v, c.span)
			}
		case opt == "--method":
			if !strings.EqualFold(v.s, "GET") && !strings.EqualFold(v.s, "HEAD") {
				upload = true
			}
		case opt == "-i" || opt == "--input-file" || opt == "--load-cookies":
			c.a.read(v, c.span)
		}
	})
	if upload {
		c.add(level.Dangerous, "upload", "wget: sends data to a server")
	}
	for _, o := range out {
		if o.s == "-" || isDevice(o.s) {
			continue
		}
		c.a.write(o, c.span, "downloads into")
		if !o.hole {
			c.a.setFile(o.s, fileDownloaded)
		}
	}
	if len(out) == 0 {
		for _, u := range urls {
			name := urlBase(u)
			f := name
			if dir.s != "" {
				f = word{s: strings.TrimSuffix(dir.s, "/") + "/" + name.s, hole: dir.hole || name.hole, guess: dir.guess, span: u.span}
			}
			if dir.s != "" || c.a.cwd != "" {
				c.a.write(f, c.span, "downloads into")
			}
			if !f.hole {
				c.a.setFile(f.s, fileDownloaded)
			}
		}
	}
	c.add(level.Caution, "download", "wget: fetches from the network")
}

// copyRemote rates scp and rsync: a host:path operand sends or fetches
// files over the network; rsync --delete deletes at the destination.
func copyRemote(c *call) {
	c.sshOptions()
	for i, w := range c.args {
		switch s := w.s; {
		case c.name != "rsync" || w.hole:
		case (s == "--rsh" || len(s) > 1 && s[0] == '-' && s[1] != '-' && s[len(s)-1] == 'e') && i+1 < len(c.args):
			c.optionCommand(c.args[i+1], "rsync -e")
		case strings.HasPrefix(s, "--rsh="):
			c.optionCommand(word{s: s[len("--rsh="):], span: w.span}, "rsync -e")
		}
	}
	ops := c.operands()
	remote := false
	for _, w := range ops {
		if i := strings.Index(w.s, ":"); i > 0 && !strings.Contains(w.s[:i], "/") {
			remote = true
		}
	}
	if hasLong(c.args, "--delete", "--del", "--delete-after", "--delete-before", "--delete-during", "--delete-delay", "--delete-excluded", "--delete-missing-args") {
		dest := word{}
		if len(ops) > 0 {
			dest = ops[len(ops)-1]
		}
		p, _ := c.a.pathOf(dest)
		if remote || strings.HasPrefix(p, "/Volumes/") {
			c.add(level.Dangerous, "rsync-delete", "%s --delete: deletes files at the destination that the source lacks", c.name)
		} else {
			c.add(level.Destructive, "rsync-delete", "%s --delete: deletes every file in %s that the source lacks", c.name, rate.Display(dest.s))
		}
	}
	if hasLong(c.args, "--remove-source-files") {
		c.add(level.Dangerous, "rsync-delete", "%s --remove-source-files: deletes the source files", c.name)
	}
	if remote {
		c.add(level.Dangerous, "upload", "%s: copies files to or from another machine", c.name)
		c.a.uploadAt(c.span)
		for _, w := range ops[:max(0, len(ops)-1)] {
			c.a.read(w, c.span)
		}
		return
	}
	c.add(level.Caution, c.name, "%s: copies files", c.name)
	c.writeDest()
}

func openCommand(c *call) {
	for i, w := range c.args {
		// -a APP, -b ID, alone or ending a cluster: -na, -gb
		if s := w.s; len(s) > 1 && s[0] == '-' && s[1] != '-' && (s[len(s)-1] == 'a' || s[len(s)-1] == 'b') &&
			strings.Trim(s[1:], "abnFWRgjhstfeuD") == "" && i+1 < len(c.args) {
			app := strings.ToLower(c.args[i+1].s)
			term := c.args[i+1].hole
			for _, t := range facts.CommandRunners {
				if strings.Contains(app, t) {
					term = true
				}
			}
			if term {
				c.add(level.Dangerous, "open-terminal", "open -a %s: opens a terminal or script runner", rate.Display(c.args[i+1].s))
				c.terminalArgs()
				return
			}
		}
	}
	for _, w := range c.operands() {
		s := strings.ToLower(w.s)
		if scheme, ok := facts.URLScheme(s); ok {
			l, why := facts.SchemeRisk(scheme)
			if l > level.Caution {
				c.add(l, "open-url", "open %s: %s", rate.Display(w.s), why)
				continue
			}
			c.add(level.Caution, "open-url", "open: %s", why)
			continue
		}
		tail := s[strings.LastIndex(s, rate.HoleMark)+1:]
		exe := executablePath(tail)
		switch {
		case exe && !w.hole:
			if content, ok := c.a.fileContent(w.s); ok && (content == fileDownloaded || content == fileComputed) {
				c.add(level.Destructive, "download-exec", "open %s: launches something this script downloaded", rate.Display(w.s))
			}
			c.add(level.Dangerous, "open-executable", "open %s: launches something that runs code", rate.Display(w.s))
		case w.hole && (exe || strings.Trim(w.s, rate.HoleMark+"/") == ""):
			c.add(level.Dangerous, "open-computed", "open %s: opens something computed at run time", rate.Display(w.s))
		case w.hole:
			c.add(level.Caution, "open-computed", "open %s: opens a file named partly at run time", rate.Display(w.s))
		}
	}
	c.add(level.Caution, "open", "open: opens a file, folder or application")
}

// executablePath reports a file that runs code when opened: one of the
// DSL's facts.RunnableExts, or a program inside an application bundle.
func executablePath(s string) bool {
	s = strings.TrimSuffix(strings.ToLower(s), "/")
	if strings.Contains(s, ".app/contents/macos/") {
		return true
	}
	for _, ext := range facts.RunnableExts {
		if strings.HasSuffix(s, ext) {
			return true
		}
	}
	return false
}

// terminalArgs analyses the command a terminal opened with open -a … --args
// runs: after -e, --command, -x or --, or the arguments themselves.
func (c *call) terminalArgs() {
	for i, w := range c.args {
		if w.s != "--args" {
			continue
		}
		rest := c.args[i+1:]
		marker := func(s string) bool { return inList(s, "-e", "--command", "-x", "--execute", "--", "start", "-c") }
		for j, r := range rest {
			if marker(r.s) {
				rest = rest[j+1:]
				break
			}
		}
		for len(rest) > 0 && marker(rest[0].s) && len(rest) > 1 && !shells[commandName(rest[0].s)] {
			rest = rest[1:]
		}
		if len(rest) > 0 && strings.HasPrefix(rest[0].s, "-") && !rest[0].hole {
			c.add(level.Dangerous, "terminal-args", "%s: the terminal's arguments are not analysed", c.name)
			return
		}
		if len(rest) == 1 && (rest[0].hole || strings.ContainsAny(rest[0].s, " ;|&\n")) {
			c.nested(rest, "terminal command")
			return
		}
		if len(rest) > 0 {
			c.a.call(rest, c.span, pipeCtx{})
		}
		return
	}
}

// fromStdin rates an interpreter that reads its program from stdin:
// reading commands from a download or decoded data is Destructive.
func (c *call) fromStdin() { c.fromStdinAs(shells[c.name]) }

// fromStdinAs rates a program that reads its program from stdin; shell
// says the program is shell commands (sh, at, source /dev/stdin).
func (c *call) fromStdinAs(shell bool) {
	switch c.pc.stdin {
	case "download":
		c.add(level.Destructive, "curl-pipe-sh", "%s reads commands from a download: runs code from the network unseen", c.name)
	case "decoded":
		c.add(level.Destructive, "decoded-exec", "%s runs decoded or transformed data as commands", c.name)
	case "text":
		if c.pc.obf {
			c.add(level.Dangerous, "decoded-exec", "%s runs text spelled with hex or octal escapes", c.name)
		}
		if shell {
			c.nested([]word{{s: c.pc.text}}, c.name)
		} else {
			c.add(level.Dangerous, "interp-stdin", "%s runs a program that is not analysed", c.name)
			scanCode(c, c.pc.text)
		}
	case "computed":
		c.add(level.Destructive, "stdin-computed", "%s runs commands computed at run time", c.name)
	case "file":
		if shell {
			c.add(level.Dangerous, "sh-file", "%s < %s: runs a script file that is not analysed", c.name, c.pc.text)
		} else {
			c.add(level.Dangerous, "interp-stdin", "%s < %s: runs a program that is not analysed", c.name, c.pc.text)
		}
	case "pipe":
		c.add(level.Destructive, "pipe-exec", "%s runs another program's output as commands", c.name)
	}
}

// runFile rates running a script file this same input wrote or downloaded
// earlier; it reports false for a file the input did not produce.
func (a *shellAn) runFile(c *call, name string) bool {
	content, ok := a.fileContent(name)
	if !ok {
		return false
	}
	if content == fileDownloaded {
		c.add(level.Destructive, "download-exec", "%s %s: runs a file downloaded by this same script", c.name, rate.Display(name))
		return true
	}
	if content == fileComputed {
		c.add(level.Destructive, "write-exec", "%s %s: runs a file this script wrote with computed content", c.name, rate.Display(name))
		return true
	}
	c.add(level.Caution, "write-exec", "%s %s: runs a script written earlier in this input", c.name, rate.Display(name))
	c.nested([]word{{s: content}}, c.name+" "+name)
	return true
}

func osascriptCommand(c *call) {
	c.add(level.Dangerous, "osascript", "osascript: runs AppleScript or JavaScript for Automation")
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
						c.add(level.Destructive, "osascript-computed", "osascript -e with a script computed at run time")
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
				c.add(level.Destructive, "osascript-computed", "osascript runs a script file computed at run time")
				return
			}
			content, ok := c.a.fileContent(file.s)
			switch {
			case !ok:
				c.add(level.Dangerous, "osascript-file", "osascript runs a script file that is not analysed")
				return
			case content == fileDownloaded || content == fileComputed:
				c.add(level.Destructive, "download-exec", "osascript %s: runs a script this input downloaded or computed", rate.Display(file.s))
				return
			}
			src = content
			if strings.HasSuffix(strings.ToLower(file.s), ".js") {
				jxa = true
			}
		case c.pc.stdin == "text":
			src = c.pc.text
		case c.pc.stdin == "":
			return
		default:
			c.fromStdin()
			return
		}
	}
	sp := c.span
	at := anchorOr(c.a.anchor, &sp)
	if c.a.depth+1 > rate.MaxDepth {
		c.add(level.Destructive, "too-deep", "scripts nested more than %d deep: %s", rate.MaxDepth, rate.TooDeep)
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
type interpSpec struct {
	code, valued, optional, module string
	longCode, longValued           []string
}

var (
	pythonSpec = interpSpec{code: "c", valued: "XWQ", module: "m", longValued: []string{"--check-hash-based-pycs"}}
	perlSpec   = interpSpec{code: "eE", valued: "IMm", optional: "ilCdx0DFV"}
	rubySpec   = interpSpec{code: "e", valued: "rICEF", optional: "TWxi0Kdl"}
	nodeSpec   = interpSpec{code: "ep", valued: "rC", longCode: []string{"--eval", "--print"},
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
		for i := 0; i < len(args); i++ {
			w := args[i]
			s := w.s
			if s == "--version" || s == "-V" || s == "--help" || s == "-h" || s == "-v" && len(args) == 1 {
				return
			}
			switch {
			case w.hole:
				c.add(level.Destructive, "interp-computed", "%s runs a program computed at run time", c.name)
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
					case strings.IndexByte(sp.code, l) >= 0:
						code := word{s: rest, span: w.span}
						next := i + 1
						if rest == "" && i+1 < len(args) {
							code, next = args[i+1], i+2
						}
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
							return
						}
						c.add(level.Dangerous, "interp-module", "%s -%c %s: runs a module that is not analysed", c.name, l, rate.Display(m))
						return
					case strings.IndexByte(sp.valued, l) >= 0:
						if rest == "" {
							i++
						}
					case strings.IndexByte(sp.optional, l) >= 0:
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
			c.add(level.Dangerous, "python-module", "%s -m %s: serves %s to the network", c.name, m, rate.Display(dir.s))
		}
		c.add(level.Caution, "python-module", "%s -m %s: serves the current folder over HTTP", c.name, m)
	case "json.tool", "venv", "virtualenv", "ensurepip", "py_compile", "compileall", "webbrowser", "calendar", "site", "platform":
		c.add(level.Caution, "python-module", "%s -m %s: runs a standard module", c.name, m)
	default:
		return false
	}
	return true
}

// perlEdit rates perl -pe, -ne and -pi -e whose code only substitutes,
// transliterates or prints (s///, tr///, y///, print) as sed: a text
// edit. It reports false for anything else.
func (c *call) perlEdit() bool {
	var code *word
	inplace := false
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
			}
		}
	}
	if code == nil || code.hole || !perlSimple(code.s) {
		return false
	}
	c.add(level.Caution, "perl-edit", "%s: edits text with substitutions", c.name)
	if inplace {
		c.add(level.Caution, "perl-edit", "%s -i: edits files in place", c.name)
		for _, f := range files {
			c.a.write(f, c.span, "edits")
		}
	}
	return true
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

// inlineCode rates program text given on the command line.
func (c *call) inlineCode(w word) {
	c.add(level.Dangerous, "interp-code", "%s runs inline code that is not analysed", c.name)
	if w.hole {
		c.add(level.Destructive, "interp-computed", "%s runs code computed at run time", c.name)
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
		c.add(level.Dangerous, "interp-file", "%s %s: runs a program that is not analysed", c.name, rate.Display(w.s))
	case content == fileDownloaded:
		c.add(level.Destructive, "download-exec", "%s %s: runs a file downloaded by this same script", c.name, rate.Display(w.s))
	case content == fileComputed:
		c.add(level.Destructive, "write-exec", "%s %s: runs a file this script wrote with computed content", c.name, rate.Display(w.s))
	default:
		c.add(level.Dangerous, "interp-file", "%s %s: runs a program that is not analysed", c.name, rate.Display(w.s))
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
		c.add(level.Dangerous, "interp-file", "%s %s: runs a program that is not analysed", c.name, rate.Display(s))
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
			c.add(level.Destructive, "decoded-exec", "%s -EncodedCommand: runs base64-encoded code", c.name)
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
	c.add(level.Dangerous, "interp-file", "%s: runs code that is not analysed", c.name)
}

// scanCode looks through unanalysed program text for the obvious.
func scanCode(c *call, code string) {
	low := strings.ToLower(code)
	for _, k := range []string{"rmtree", "remove_tree", "unlink(", "os.remove", "remove_dir", "rm -rf", "rm -r", "fileutils.rm", "rmsync", "rimraf", "shutil.rmtree", "removeitematpath", "rm_rf"} {
		if strings.Contains(low, k) {
			c.add(level.Destructive, "interp-delete", "%s code deletes files (%s)", c.name, k)
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
			c.add(level.Destructive, "interp-decode-exec", "%s code decodes data and runs it (%s … %s)", c.name, k, runs)
			return
		}
	}
	c.add(level.Dangerous, "interp-shell", "%s code runs other commands (%s)", c.name, runs)
}

// awkCommand rates awk programs: system(), print … | "cmd" and
// "cmd" | getline run shell commands; print > "file" writes a file.
func awkCommand(c *call) {
	var buf [1]word
	progs := buf[:0]
	file := false
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
			i++
		}
	}
	if !file && len(progs) == 0 && i < len(args) {
		progs = append(progs, args[i])
	}
	if file && len(progs) == 0 {
		c.add(level.Dangerous, "awk-file", "%s runs a program file that is not analysed", c.name)
	}
	for _, p := range progs {
		if p.hole {
			c.add(level.Dangerous, "awk-system", "%s program is computed at run time", c.name)
			continue
		}
		c.awkProgram(p.s)
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

func awkBoundary(t awkTok) bool {
	return !t.str && (t.s == ";" || t.s == "{" || t.s == "}" || t.s == "\n" || t.s == "&&" || t.s == "||")
}

func (c *call) awkProgram(prog string) {
	if !strings.Contains(prog, "system") && !strings.ContainsAny(prog, "|>") {
		return // no command, pipe or output file
	}
	toks := awkTokens(prog)
	shellRuns := false
	run := func(cmd []awkTok, what string) {
		text := awkText(cmd)
		if strings.Contains(text, rate.HoleUnquoted) || len(cmd) == 0 {
			shellRuns = true
		} else {
			c.add(level.Caution, "awk-command", "%s program runs %s", c.name, rate.Display(text))
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
				if toks[i+1].str {
					c.a.write(word{s: toks[i+1].s}, c.span, c.name+" writes to")
				} else {
					c.add(level.Caution, "awk-write", "%s program writes a file named at run time", c.name)
				}
			}
		}
	}
	if shellRuns {
		c.add(level.Dangerous, "awk-system", "%s program runs shell commands", c.name)
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

// gitConfigs are one command's -c settings.
type gitConfigs map[string]word

func splitGitConfig(w word) (string, word) {
	k, v, ok := strings.Cut(w.s, "=")
	if !ok {
		return strings.ToLower(k), word{s: "true"}
	}
	return strings.ToLower(k), word{s: v, hole: w.hole, span: w.span}
}

// gitCommandKey reports a configuration key whose value is a command (or
// names code) git runs: core.fsmonitor, core.pager, alias.x (with !) …
func gitCommandKey(k string) bool {
	switch k {
	case "core.fsmonitor", "core.pager", "core.editor", "core.sshcommand", "core.askpass", "core.hookspath", "core.gitproxy",
		"sequence.editor", "diff.external", "gpg.program", "credential.helper", "uploadpack.packobjectshook", "init.templatedir",
		"include.path", "web.browser", "interactive.difffilter", "core.worktree", "core.alternaterefscommand":
		return true
	}
	first, rest, _ := strings.Cut(k, ".")
	last := rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		last = rest[i+1:]
	}
	switch first {
	case "alias", "pager":
		return true
	case "diff":
		return last == "textconv" || last == "command"
	case "merge":
		return last == "driver"
	case "filter":
		return last == "clean" || last == "smudge" || last == "process"
	case "gpg", "credential":
		return last == "program" || last == "helper"
	case "includeif":
		return last == "path"
	case "difftool", "mergetool", "browser", "man":
		return last == "cmd" || last == "path"
	case "remote":
		return last == "uploadpack" || last == "receivepack" || last == "proxy"
	}
	return false
}

// gitHarmlessValue reports a command-valued setting set to a plain, known
// program: core.editor "code --wait", credential.helper osxkeychain.
func gitHarmlessValue(k string, v word) bool {
	if v.hole || strings.ContainsAny(v.s, ";&|<>$`()\n\\!") {
		return false
	}
	f := strings.Fields(v.s)
	if len(f) == 0 {
		return true
	}
	name := commandName(f[0])
	switch {
	case k == "core.editor" || k == "sequence.editor":
		return inList(name, "vim", "vi", "nvim", "nano", "emacs", "emacsclient", "code", "code-insiders", "cursor", "subl",
			"mate", "bbedit", "micro", "hx", "kak", "zed", "ed", "pico", "atom", "windsurf", "idea", "open")
	case k == "core.pager" || strings.HasPrefix(k, "pager."):
		return inList(name, "less", "more", "cat", "delta", "diff-so-fancy", "bat", "most", "true", "false", "diff-highlight")
	case strings.HasPrefix(k, "credential.") || strings.HasPrefix(k, "credential"):
		return inList(name, "osxkeychain", "store", "cache", "manager", "manager-core", "libsecret", "wincred", "gcloud.sh") && !strings.HasPrefix(f[0], "/")
	case k == "core.fsmonitor":
		return inList(strings.ToLower(v.s), "true", "false", "0", "1", "yes", "no")
	case k == "gpg.program" || strings.HasPrefix(k, "gpg."):
		return inList(name, "gpg", "gpg2", "ssh-keygen", "smimesign", "gpgsm")
	case strings.HasPrefix(k, "alias."):
		return !strings.HasPrefix(strings.TrimSpace(v.s), "!")
	case k == "core.sshcommand":
		return name == "ssh" && !strings.Contains(strings.ToLower(v.s), "command")
	}
	return false
}

// gitSetting rates a command-valued setting: once (git -c) or lasting
// (git config): the command is analysed; lasting, it is persistence.
func (c *call) gitSetting(k string, v word, lasting bool) {
	if !gitCommandKey(k) {
		return
	}
	harmless := gitHarmlessValue(k, v)
	switch {
	case lasting && harmless:
		c.add(level.Caution, "git-config", "git config %s: changes which program git runs", k)
	case lasting:
		c.add(level.Destructive, "git-config-persistence", "git config %s %s: makes git run a command later (persistence)", k, rate.Display(v.s))
	case !harmless:
		c.add(level.Dangerous, "git-config-command", "git -c %s: makes git run %s", k, rate.Display(v.s))
	}
	if harmless {
		return
	}
	cmd := v
	cmd.s = strings.TrimPrefix(strings.TrimSpace(cmd.s), "!")
	if cmd.hole {
		c.add(level.Destructive, "git-config-computed", "git %s: runs a command computed at run time", k)
		return
	}
	switch k {
	case "core.hookspath", "init.templatedir", "include.path", "core.worktree":
		return // a folder or file, not a command
	}
	if strings.HasPrefix(k, "includeif.") {
		return
	}
	c.nestedText(cmd.s, "git "+k)
}

func gitCommand(c *call) {
	c.gitRun(gitConfigs{}, 0)
}

func (c *call) gitRun(cfg gitConfigs, depth int) {
	// Global options before the subcommand, some with a value: git -C dir clean.
	for len(c.args) > 0 && strings.HasPrefix(c.args[0].s, "-") {
		opt := c.args[0].s
		c.args = c.args[1:]
		switch {
		case opt == "-c" && len(c.args) > 0:
			k, v := splitGitConfig(c.args[0])
			cfg[k] = v
			c.gitSetting(k, v, false)
			c.args = c.args[1:]
		case strings.HasPrefix(opt, "-c") && len(opt) > 2:
			k, v := splitGitConfig(word{s: opt[2:]})
			cfg[k] = v
			c.gitSetting(k, v, false)
		case opt == "--config-env" && len(c.args) > 0 || strings.HasPrefix(opt, "--config-env="):
			// --config-env=key=ENVVAR: the value comes from the environment.
			kv := strings.TrimPrefix(opt, "--config-env=")
			if opt == "--config-env" {
				kv = c.args[0].s
				c.args = c.args[1:]
			}
			k, _ := splitGitConfig(word{s: kv})
			cfg[k] = word{s: rate.HoleMark, hole: true}
			c.gitSetting(k, cfg[k], false)
		case opt == "-C" || opt == "--git-dir" || opt == "--work-tree" || opt == "--namespace" || opt == "--exec-path" || opt == "--super-prefix":
			if len(c.args) > 0 {
				c.args = c.args[1:]
			}
		}
		c.ops = nil // the operands change with the arguments
	}
	ops := c.operands()
	s := sub(c.args)
	rest := c.args
	for i, w := range c.args {
		if strings.EqualFold(w.s, s) {
			rest = c.args[i+1:]
			break
		}
	}
	if v, ok := cfg["alias."+s]; ok && depth < 4 {
		// git -c alias.x='!cmd' x, or an alias for another subcommand.
		if !v.hole && !strings.HasPrefix(strings.TrimSpace(v.s), "!") {
			var args []word
			for _, f := range strings.Fields(v.s) {
				args = append(args, word{s: f, span: v.span})
			}
			inner := &call{a: c.a, name: "git", args: append(args, rest...), span: c.span, pc: c.pc}
			inner.gitRun(cfg, depth+1)
			return
		}
		c.add(level.Dangerous, "git-alias", "git %s: runs the shell command of an alias", rate.Display(s))
		return
	}
	switch s {
	case "status", "log", "diff", "show", "rev-parse", "describe", "blame", "ls-files", "shortlog",
		"version", "help", "ls-remote", "cat-file", "rev-list", "whatchanged", "":
	case "grep":
		for i, w := range rest {
			switch {
			case (w.s == "-O" || w.s == "--open-files-in-pager") && i+1 < len(rest):
				c.nestedText(rest[i+1].s, "git grep -O")
			case strings.HasPrefix(w.s, "-O") && len(w.s) > 2:
				c.nestedText(w.s[2:], "git grep -O")
			case strings.HasPrefix(w.s, "--open-files-in-pager="):
				c.nestedText(w.s[len("--open-files-in-pager="):], "git grep -O")
			}
		}
	case "remote":
		if len(ops) > 1 && !inList(strings.ToLower(ops[1].s), "-v", "show", "get-url") {
			c.add(level.Caution, "git", "git remote: changes repository settings")
		}
	case "config":
		c.gitConfig(rest)
	case "clean":
		force := hasShort(rest, 'f') || hasLong(rest, "--force")
		if v, ok := cfg["clean.requireforce"]; ok && inList(strings.ToLower(v.s), "false", "no", "off", "0") {
			force = true
		}
		if hasShort(rest, 'n') || hasLong(rest, "--dry-run") {
			force = false
		}
		if force {
			c.add(level.Destructive, "git-clean", "git clean -f: permanently deletes untracked files")
		} else {
			c.add(level.Caution, "git", "git clean")
		}
	case "reset":
		if hasLong(rest, "--hard", "--merge", "--keep") {
			c.add(level.Destructive, "git-reset", "git reset --hard: discards uncommitted work irreversibly")
		} else {
			c.add(level.Caution, "git", "git reset: moves the branch")
		}
	case "checkout", "switch":
		switch {
		case hasLong(rest, "--force", "--discard-changes") || hasShort(rest, 'f'):
			c.add(level.Destructive, "git-discard", "git %s --force: discards uncommitted changes irreversibly", s)
		case s == "checkout" && (hasArg(rest, ".", "--", ":/", "*", ":/*") || hasLong(rest, "--pathspec-from-file")):
			c.add(level.Destructive, "git-discard", "git checkout -- …: discards uncommitted changes irreversibly")
		default:
			c.add(level.Caution, "git", "git %s: changes the working tree", s)
		}
	case "restore":
		staged := hasLong(rest, "--staged") || hasShort(rest, 'S')
		worktree := hasLong(rest, "--worktree") || hasShort(rest, 'W')
		switch {
		case staged && !worktree:
			c.add(level.Caution, "git", "git restore --staged: unstages changes")
		case hasArg(rest, ".", ":/", "*", ":/*") || hasLong(rest, "--pathspec-from-file"):
			c.add(level.Destructive, "git-discard", "git restore .: discards uncommitted changes irreversibly")
		default:
			c.add(level.Dangerous, "git-discard", "git restore: discards uncommitted changes")
		}
	case "read-tree":
		switch {
		case hasShort(rest, 'u') && hasLong(rest, "--reset"):
			c.add(level.Destructive, "git-discard", "git read-tree -u --reset: overwrites the working tree, discarding uncommitted changes")
		case hasShort(rest, 'u'):
			c.add(level.Dangerous, "git-discard", "git read-tree -u: overwrites files in the working tree")
		default:
			c.add(level.Caution, "git", "git read-tree: changes the index")
		}
	case "push":
		refspecForce := false
		rops := operands(rest)
		for i, w := range rops {
			if i > 0 && (strings.HasPrefix(w.s, "+") || strings.HasPrefix(w.s, ":")) {
				refspecForce = true
			}
		}
		if refspecForce || hasShort(rest, 'f') || hasLong(rest, "--force", "--force-with-lease", "--force-if-includes", "--mirror", "--delete", "--prune") || hasShort(rest, 'd') {
			c.add(level.Dangerous, "git-push-force", "git push --force/--delete (+ref, :ref): rewrites or deletes remote history")
		} else {
			c.add(level.Caution, "git", "git push: publishes commits")
		}
	case "branch":
		if hasShort(rest, 'D') || hasLong(rest, "--delete") && hasLong(rest, "--force") {
			c.add(level.Dangerous, "git-branch-delete", "git branch -D: deletes a branch with unmerged work")
		}
	case "stash":
		switch sub(rest) {
		case "list", "show":
		case "drop", "clear":
			c.add(level.Destructive, "git-stash-drop", "git stash drop/clear: permanently discards stashed work")
		default:
			c.add(level.Caution, "git", "git stash")
		}
	case "submodule":
		c.add(level.Caution, "git", "git submodule: changes submodules")
		for i, w := range rest {
			if w.s == "foreach" {
				cmd := rest[i+1:]
				for len(cmd) > 0 && (cmd[0].s == "--recursive" || cmd[0].s == "-q" || cmd[0].s == "--quiet") {
					cmd = cmd[1:]
				}
				c.gitShell(cmd, "git submodule foreach")
				break
			}
		}
	case "rebase":
		c.add(level.Caution, "git", "git rebase: rewrites commits")
		for i, w := range rest {
			switch {
			case (w.s == "-x" || w.s == "--exec") && i+1 < len(rest):
				c.gitShell(rest[i+1:i+2], "git rebase --exec")
			case strings.HasPrefix(w.s, "--exec="):
				c.gitShell([]word{{s: w.s[len("--exec="):], hole: w.hole}}, "git rebase --exec")
			}
		}
	case "bisect":
		c.add(level.Caution, "git", "git bisect")
		if len(rest) > 1 && rest[0].s == "run" {
			c.a.call(rest[1:], c.span, pipeCtx{})
		}
	case "filter-branch", "filter-repo", "update-ref", "gc", "prune", "reflog":
		if s == "reflog" && !hasArg(rest, "expire", "delete") {
			return
		}
		now := false
		for i, w := range rest {
			name, v, has := strings.Cut(w.s, "=")
			if !has && i+1 < len(rest) && inList(name, "--expire", "--expire-unreachable") {
				v = rest[i+1].s
			}
			if inList(name, "--expire", "--expire-unreachable", "--prune") && inList(strings.ToLower(v), "now", "all", "0") {
				now = true
			}
		}
		switch {
		case now:
			c.add(level.Destructive, "git-history", "git %s …=now: drops unreachable commits at once; lost work can no longer be recovered", s)
		case s == "gc":
			c.add(level.Caution, "git", "git gc: cleans up the repository")
		default:
			c.add(level.Dangerous, "git-history", "git %s: rewrites or prunes history", s)
		}
		for i, w := range rest {
			if strings.HasSuffix(w.s, "-filter") && strings.HasPrefix(w.s, "--") && i+1 < len(rest) {
				c.gitShell(rest[i+1:i+2], "git filter-branch "+w.s)
			}
		}
	case "difftool", "mergetool":
		c.add(level.Caution, "git", "git %s: runs a diff or merge tool", s)
		for i, w := range rest {
			switch {
			case (w.s == "-x" || w.s == "--extcmd") && i+1 < len(rest):
				c.gitShell(rest[i+1:i+2], "git "+s+" --extcmd")
			case strings.HasPrefix(w.s, "--extcmd="):
				c.gitShell([]word{{s: w.s[len("--extcmd="):], hole: w.hole}}, "git "+s+" --extcmd")
			}
		}
	case "clone", "fetch", "pull":
		c.add(level.Caution, "git", "git %s: changes the repository", s)
		if rops := operands(rest); s == "clone" && len(rops) > 1 {
			c.a.write(rops[len(rops)-1], c.span, "git clone into")
			c.a.downloadedInto(rops[len(rops)-1], true) // its files come from the network
		} else if s == "clone" && len(rops) == 1 && !rops[0].hole {
			dir := strings.TrimSuffix(path.Base(strings.TrimRight(rops[0].s, "/")), ".git")
			if dir != "" && dir != "." && dir != "/" {
				c.a.downloadedInto(word{s: dir}, true)
			}
		}
		for i, w := range rest {
			switch {
			case (w.s == "-u" || w.s == "--upload-pack") && i+1 < len(rest):
				c.gitShell(rest[i+1:i+2], "git "+s+" --upload-pack")
			case strings.HasPrefix(w.s, "--upload-pack="):
				c.gitShell([]word{{s: w.s[len("--upload-pack="):], hole: w.hole}}, "git "+s+" --upload-pack")
			case (w.s == "-c" || w.s == "--config") && i+1 < len(rest) && s == "clone":
				k, v := splitGitConfig(rest[i+1])
				c.gitSetting(k, v, true)
			case strings.HasPrefix(w.s, "--config=") && s == "clone":
				k, v := splitGitConfig(word{s: w.s[len("--config="):], hole: w.hole})
				c.gitSetting(k, v, true)
			}
		}
	default:
		c.add(level.Caution, "git", "git %s: changes the repository", rate.Display(s))
	}
}

// gitShell analyses a command git hands to the shell (submodule foreach,
// rebase --exec): the words are joined and run by sh -c.
func (c *call) gitShell(ws []word, what string) {
	if len(ws) == 0 {
		return
	}
	parts := make([]string, len(ws))
	for i, w := range ws {
		if w.hole {
			c.add(level.Destructive, "computed-script", "%s of text computed at run time: cannot tell what runs", what)
			return
		}
		parts[i] = w.s
	}
	c.nestedText(strings.Join(parts, " "), what)
}

// gitConfig rates git config: reading is safe; setting a key whose value
// git runs as a command is persistence.
func (c *call) gitConfig(rest []word) {
	var names []word
	read, write, unset := false, false, false
	for i := 0; i < len(rest); i++ {
		s := rest[i].s
		switch {
		case rest[i].hole:
			names = append(names, rest[i])
		case inList(s, "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "-l", "--list"):
			read = true
		case inList(s, "--unset", "--unset-all", "--remove-section", "--rename-section"):
			write, unset = true, true
		case inList(s, "--add", "--replace-all"):
			write = true
		case s == "-e" || s == "--edit":
			c.add(level.Caution, "git", "git config --edit: opens the configuration in an editor")
			return
		case inList(s, "-f", "--file", "--blob", "--type", "--default", "--comment", "--value", "--url"):
			i++
		case strings.HasPrefix(s, "-"):
		default:
			names = append(names, rest[i])
		}
	}
	if len(names) > 0 && !names[0].hole {
		switch strings.ToLower(names[0].s) {
		case "get", "list":
			read = true
			names = names[1:]
		case "set":
			write = true
			names = names[1:]
		case "unset", "remove-section", "rename-section":
			write, unset = true, true
			names = names[1:]
		case "edit":
			c.add(level.Caution, "git", "git config edit: opens the configuration in an editor")
			return
		}
	}
	if read || !write && len(names) < 2 {
		return
	}
	if unset || len(names) < 2 {
		c.add(level.Caution, "git", "git config: removes a setting")
		return
	}
	k := strings.ToLower(names[0].s)
	if names[0].hole {
		c.add(level.Dangerous, "git-config-computed", "git config sets a setting named at run time")
		return
	}
	if gitCommandKey(k) {
		c.gitSetting(k, names[1], true)
		return
	}
	c.add(level.Caution, "git", "git config: changes repository settings")
}

func defaultsCommand(c *call) {
	args := c.args
	for len(args) > 0 && (args[0].s == "-currentHost" || args[0].s == "-host") {
		if args[0].s == "-host" && len(args) > 1 {
			args = args[1:]
		}
		args = args[1:]
	}
	s := sub(args)
	switch s {
	case "read", "read-type", "domains", "find", "export", "help", "":
	case "write", "delete", "import", "rename":
		ops := operands(args)
		domain := ""
		if len(ops) > 1 {
			domain = strings.ToLower(ops[1].s)
			if d := ops[1]; strings.HasPrefix(d.s, "/") || strings.HasPrefix(d.s, "~") || d.guess {
				// A domain given as a path is that property list.
				if !strings.HasSuffix(strings.ToLower(d.s), ".plist") {
					d.s += ".plist"
				}
				c.a.write(d, c.span, "defaults "+s+" changes")
			}
		}
		if d := ops[min(1, len(ops)-1)]; len(ops) > 1 && !d.hole && !strings.ContainsAny(d.s, "/~") {
			// A domain is a property list in ~/Library/Preferences: some
			// of them (login items) are persistence.
			plist := word{s: "~/Library/Preferences/" + d.s + ".plist", span: d.span}
			if z := c.a.zoneOf(plist); z.Kind == rate.ZonePersistence {
				c.a.write(plist, c.span, "defaults "+s+" changes")
			}
		}
		if strings.Contains(domain, "loginwindow") && hasArg(args, "LoginHook", "LogoutHook") {
			c.add(level.Destructive, "defaults-hook", "defaults write … LoginHook: runs a script at every login (persistence)")
			return
		}
		if cosmeticDomains[domain] && s == "write" {
			c.add(level.Caution, "defaults-write", "defaults write %s: changes how %s looks or behaves", domain, domain)
			return
		}
		c.add(level.Dangerous, "defaults-write", "defaults %s: changes preferences", s)
	default:
		c.add(level.Dangerous, "defaults", "defaults %s: changes preferences", rate.Display(s))
	}
}

// suCommand rates su: a shell as another user; -c runs a command there.
func suCommand(c *call) {
	c.add(level.Dangerous, "su", "su: runs commands as another user")
	for i, w := range c.args {
		switch {
		case (w.s == "-c" || w.s == "--command") && i+1 < len(c.args):
			c.nested(c.args[i+1:i+2], "su -c")
			return
		case strings.HasPrefix(w.s, "--command="):
			c.nested([]word{{s: w.s[len("--command="):], hole: w.hole}}, "su -c")
			return
		}
	}
	c.fromStdinAs(true)
}

// atCommand rates at and batch: they run commands read from stdin (or
// -f file) later.
func atCommand(c *call) {
	if hasShort(c.args, 'l') || hasShort(c.args, 'r') || hasShort(c.args, 'd') || c.name == "at" && hasShort(c.args, 'c') {
		c.add(level.Caution, "at", "%s: lists or removes scheduled jobs", c.name)
		return
	}
	c.add(level.Dangerous, "at", "%s: schedules commands to run later", c.name)
	for i, w := range c.args {
		if w.s == "-f" && i+1 < len(c.args) {
			f := c.args[i+1]
			switch {
			case f.hole:
				c.add(level.Destructive, "at-computed", "%s -f: runs a file named at run time", c.name)
			case isStdinPath(f.s):
				c.fromStdinAs(true)
			case c.a.runFile(c, f.s):
			default:
				c.add(level.Dangerous, "at-file", "%s -f %s: runs commands from a file that is not analysed", c.name, rate.Display(f.s))
			}
			return
		}
	}
	c.fromStdinAs(true)
}

// typed rates text typed into a terminal session (tmux send-keys, screen
// -X stuff): it runs as commands there.
func (c *call) typed(ws []word, what string) {
	c.add(level.Dangerous, "type-into-terminal", "%s types into a terminal session: the text runs as commands", what)
	var b strings.Builder
	for _, w := range ws {
		if w.hole {
			c.add(level.Destructive, "computed-script", "%s types text computed at run time: cannot tell what runs", what)
			return
		}
		b.WriteString(w.s)
	}
	c.nestedText(b.String(), what)
}

func screenCommand(c *call) {
	c.add(level.Caution, "screen", "screen: controls terminal sessions")
	args := c.args
	attach, detached, mflag := false, false, false
	for i := 0; i < len(args); i++ {
		w := args[i]
		s := w.s
		if w.hole || !strings.HasPrefix(s, "-") {
			if attach || detached && !mflag {
				return // a session name
			}
			c.a.call(args[i:], c.span, pipeCtx{})
			return
		}
		switch {
		case s == "-X" || s == "-Q":
			cmd := args[i+1:]
			if len(cmd) == 0 {
				return
			}
			switch strings.ToLower(cmd[0].s) {
			case "stuff":
				var keys []word
				for _, k := range cmd[1:] {
					if !k.hole {
						k.s = strings.NewReplacer("^M", "\n", "^J", "\n", `\n`, "\n", `\r`, "\n", `\015`, "\n", `\012`, "\n").Replace(k.s)
					}
					keys = append(keys, k)
				}
				c.typed(keys, "screen -X stuff")
			case "exec", "screen":
				if len(cmd) > 1 {
					c.a.call(cmd[1:], c.span, pipeCtx{})
				}
			case "source":
				c.add(level.Dangerous, "screen-source", "screen -X source: runs screen commands from a file")
			}
			return
		case inList(s, "-ls", "-list", "-wipe", "-v", "-h", "-help", "--help", "-version"):
			return
		case strings.HasPrefix(s, "-Logfile"):
			if s == "-Logfile" {
				i++
			}
			continue
		}
		letters := s[1:]
		for j := 0; j < len(letters); j++ {
			l := letters[j]
			switch {
			case strings.IndexByte("rRxD", l) >= 0:
				attach = true
			case l == 'd':
				detached = true
			case l == 'm':
				mflag = true
			case strings.IndexByte("ScehpTtsL", l) >= 0 && l != 'L':
				if j == len(letters)-1 {
					i++
				}
				j = len(letters)
			}
		}
	}
}

// tmuxSubs are the tmux commands that run a shell command (kind 1), type
// keys (2), test a shell command (3) or run tmux commands from a file
// (4), with their valued options.
var tmuxSubs = map[string]struct {
	valued string
	kind   int
}{
	"new-session": {"cefFnstxy", 1}, "new": {"cefFnstxy", 1}, "new-window": {"cenFt", 1}, "neww": {"cenFt", 1},
	"split-window": {"celpFt", 1}, "splitw": {"celpFt", 1}, "respawn-pane": {"cet", 1}, "respawnp": {"cet", 1},
	"respawn-window": {"cet", 1}, "respawnw": {"cet", 1}, "run-shell": {"cdt", 1}, "run": {"cdt", 1},
	"display-popup": {"bcdehsStTwxy", 1}, "popup": {"bcdehsStTwxy", 1}, "pipe-pane": {"t", 1}, "pipep": {"t", 1},
	"send-keys": {"cNt", 2}, "send": {"cNt", 2}, "if-shell": {"t", 3}, "if": {"t", 3},
	"source-file": {"t", 4}, "source": {"t", 4},
}

func tmuxCommand(c *call) {
	c.add(level.Caution, "tmux", "tmux: controls terminal sessions")
	args := c.args
	i := 0
	for i < len(args) && !args[i].hole && strings.HasPrefix(args[i].s, "-") && len(args[i].s) > 1 {
		s := args[i].s
		i++
		if s == "--" {
			break
		}
		letters := s[1:]
		for j := 0; j < len(letters); j++ {
			l := letters[j]
			if strings.IndexByte("LSfcT", l) < 0 {
				continue
			}
			v := word{s: letters[j+1:]}
			if v.s == "" && i < len(args) {
				v = args[i]
				i++
			}
			if l == 'c' {
				c.nested([]word{v}, "tmux -c")
			}
			break
		}
	}
	for i < len(args) {
		j := i
		for j < len(args) && args[j].s != ";" {
			j++
		}
		c.tmuxOne(args[i:j])
		i = j + 1
	}
}

func (c *call) tmuxOne(ws []word) {
	if len(ws) == 0 {
		return
	}
	sub := strings.ToLower(ws[0].s)
	spec, ok := tmuxSubs[sub]
	if !ok {
		return
	}
	rest := ws[1:]
	literal := false
	for len(rest) > 0 && !rest[0].hole && strings.HasPrefix(rest[0].s, "-") && len(rest[0].s) > 1 {
		s := rest[0].s
		rest = rest[1:]
		if s == "--" {
			break
		}
		letters := s[1:]
		for j := 0; j < len(letters); j++ {
			if letters[j] == 'l' && spec.kind == 2 {
				literal = true
			}
			if strings.IndexByte(spec.valued, letters[j]) >= 0 {
				if j == len(letters)-1 && len(rest) > 0 {
					rest = rest[1:]
				}
				break
			}
		}
	}
	what := "tmux " + sub
	switch spec.kind {
	case 1:
		if len(rest) == 1 {
			c.nested(rest, what)
		} else if len(rest) > 1 {
			c.a.call(rest, c.span, pipeCtx{})
		}
	case 2:
		keys := make([]word, 0, len(rest))
		for _, k := range rest {
			if !literal && !k.hole {
				switch k.s {
				case "Enter", "C-m", "KPEnter", "C-j", "C-c", "C-d", "C-z", "C-u", "Escape", "C-M", "C-J", "C-C", "C-D":
					k.s = "\n"
				case "Space":
					k.s = " "
				case "Tab", "C-i":
					k.s = "\t"
				case "Up", "Down", "Left", "Right", "Home", "End", "BSpace", "PageUp", "PageDown", "PPage", "NPage", "C-l":
					k.s = ""
				}
			}
			keys = append(keys, k)
		}
		c.typed(keys, what)
	case 3:
		if len(rest) > 0 {
			c.nested(rest[:1], what)
		}
		if len(rest) > 1 {
			c.add(level.Dangerous, "tmux-commands", "%s: runs tmux commands that are not analysed", what)
		}
	case 4:
		c.add(level.Dangerous, "tmux-source", "%s: runs tmux commands from a file that is not analysed", what)
	}
}

// xcodeTools are the developer tools xcrun finds in Xcode.
var xcodeTools = map[string]bool{
	"clang": true, "clang++": true, "swiftc": true, "altool": true, "notarytool": true, "stapler": true, "actool": true,
	"ibtool": true, "momc": true, "agvtool": true, "xctrace": true, "instruments": true, "lldb": true, "ld": true, "ar": true,
	"nm": true, "otool": true, "strip": true, "dsymutil": true, "libtool": true, "size": true, "devicectl": true,
	"xcresulttool": true, "docc": true, "metal": true, "metallib": true, "swift-demangle": true, "llvm-cov": true,
	"llvm-profdata": true, "dwarfdump": true, "sourcekit-lsp": true, "simctl": true, "xcodebuild": true, "pngcrush": true,
	"ranlib": true, "lipo": true, "codesign_allocate": true, "swift-format": true, "coremlc": true, "texturetool": true,
}

// xcrunCommand rates xcrun TOOL args as TOOL args (simctl by its own
// rules); xcrun -f only finds a tool.
func xcrunCommand(c *call) {
	args := c.args
	for len(args) > 0 && strings.HasPrefix(args[0].s, "-") && !args[0].hole {
		s := args[0].s
		args = args[1:]
		switch {
		case inList(s, "-f", "--find", "-h", "--help", "--version", "--kill-cache") || strings.HasPrefix(s, "--show-"):
			return
		case inList(s, "-sdk", "--sdk", "-toolchain", "--toolchain"):
			if len(args) > 0 {
				args = args[1:]
			}
		}
	}
	if len(args) == 0 {
		return
	}
	tool := commandName(args[0].s)
	if tool == "simctl" {
		if len(args) > 1 {
			switch strings.ToLower(args[1].s) {
			case "list", "help", "getenv", "listapps", "appinfo", "get_app_container":
				return
			case "erase", "delete", "uninstall":
				c.add(level.Dangerous, "simctl", "simctl %s: wipes simulator data", args[1].s)
				return
			}
		}
		c.add(level.Caution, "xcrun", "xcrun simctl: controls simulators")
		return
	}
	_, known := shellCommands[tool]
	if !known && xcodeTools[tool] && !args[0].hole {
		c.add(level.Caution, "xcrun", "xcrun %s: runs a developer tool", rate.Display(tool))
		return
	}
	c.a.call(args, c.span, c.pc)
}

// manCommand rates man: -P (pager) and -H (browser) name commands it runs.
func manCommand(c *call) {
	for i, w := range c.args {
		s := w.s
		var v word
		switch {
		case (s == "-P" || s == "--pager") && i+1 < len(c.args):
			v = c.args[i+1]
		case strings.HasPrefix(s, "--pager=") || strings.HasPrefix(s, "--html="):
			_, val, _ := strings.Cut(s, "=")
			v = word{s: val, hole: w.hole}
		case (strings.HasPrefix(s, "-P") || strings.HasPrefix(s, "-H")) && len(s) > 2:
			v = word{s: s[2:], hole: w.hole}
		default:
			continue
		}
		c.add(level.Caution, "man-pager", "man: runs %s to show the page", rate.Display(v.s))
		c.nested([]word{v}, "man pager")
	}
}

// fdCommand rates fd: -x/--exec and -X/--exec-batch run a command on every
// match, like find -exec.
func fdCommand(c *call) {
	for i, w := range c.args {
		if !inList(w.s, "-x", "--exec", "-X", "--exec-batch") {
			continue
		}
		var inner []word
		placeholder := false
		for _, x := range c.args[i+1:] {
			if x.s == ";" {
				break
			}
			if strings.Contains(x.s, "{") && strings.Contains(x.s, "}") {
				x = word{s: rate.HoleMark, hole: true, glob: true, span: x.span}
				placeholder = true
			}
			inner = append(inner, x)
		}
		if !placeholder {
			inner = append(inner, word{s: rate.HoleMark, hole: true, glob: true})
		}
		c.a.call(inner, c.span, pipeCtx{})
		return
	}
}

// rgCommand rates ripgrep: --pre runs a command on every file searched.
func rgCommand(c *call) {
	for i, w := range c.args {
		var pre word
		switch {
		case w.s == "--pre" && i+1 < len(c.args):
			pre = c.args[i+1]
		case strings.HasPrefix(w.s, "--pre="):
			pre = word{s: w.s[len("--pre="):], hole: w.hole, span: w.span}
		default:
			continue
		}
		if pre.s == "" {
			continue
		}
		c.add(level.Caution, "rg-pre", "rg --pre: runs %s on every file searched", rate.Display(pre.s))
		c.a.call([]word{pre, {s: rate.HoleMark, hole: true, glob: true}}, c.span, pipeCtx{})
	}
}

// plutilCommand rates plutil: -p, -lint, -type read; -convert, -insert,
// -replace, -remove, -create and -extract (without -o -) write.
func plutilCommand(c *call) {
	mode := ""
	var out word
	hasOut := false
	args := c.args
	for i, w := range args {
		switch w.s {
		case "-extract":
			if mode == "" {
				mode = "extract"
			}
		case "-convert", "-insert", "-replace", "-remove", "-create", "-append":
			mode = "write"
		case "-o":
			if i+1 < len(args) {
				out, hasOut = args[i+1], true
			}
		}
	}
	switch {
	case hasOut && out.s != "-" && !isDevice(out.s):
		c.add(level.Caution, "plutil", "plutil: writes a property list")
		c.a.write(out, c.span, "plutil writes")
	case hasOut:
	case mode != "" && len(args) > 0:
		c.add(level.Caution, "plutil", "plutil: changes a property list in place")
		last := args[len(args)-1]
		c.a.write(last, c.span, "plutil changes")
	}
}

// plistBuddyCommand rates /usr/libexec/PlistBuddy: commands other than
// Print change the file.
func plistBuddyCommand(c *call) {
	write, cmds := false, 0
	var file word
	hasFile := false
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		switch {
		case w.s == "-c" && i+1 < len(c.args):
			cmds++
			cmd := c.args[i+1]
			f := strings.Fields(cmd.s)
			if cmd.hole || len(f) == 0 || !inList(strings.ToLower(f[0]), "print", "help", "exit", "quit") {
				write = true
			}
			i++
		case strings.HasPrefix(w.s, "-"):
		default:
			file, hasFile = w, true
		}
	}
	if cmds == 0 {
		write = true // interactive
	}
	if write {
		c.add(level.Caution, "plistbuddy", "PlistBuddy: edits a property list")
		if hasFile {
			c.a.write(file, c.span, "PlistBuddy changes")
		}
	}
}

// sortCommand rates sort -o FILE.
func sortCommand(c *call) {
	long := func(n string) bool {
		return inList(n, "--output", "--key", "--field-separator", "--temporary-directory", "--buffer-size", "--files0-from", "--parallel", "--batch-size", "--compress-program", "--random-source")
	}
	var out word
	var ins []word
	shortOpts(c.args, "oktTS", long, func(opt string, v word, has bool) {
		switch {
		case (opt == "-o" || opt == "--output") && has:
			c.add(level.Caution, "sort", "sort -o: writes a file")
			c.a.write(v, c.span, "sort -o writes")
			out = v
		case opt == "":
			ins = append(ins, v)
		case opt == "--compress-program" && has:
			c.a.call([]word{v}, c.span, pipeCtx{})
		}
	})
	empty := len(ins) == 0 && c.pc.stdin == "devnull"
	for i, in := range ins {
		empty = in.s == "/dev/null" && (i == 0 || empty)
	}
	if out.s != "" && !isDevice(out.s) && empty {
		c.add(level.Destructive, "truncate", "sort -o %s of empty input: empties the file", rate.Display(out.s))
	}
}

// uniqCommand rates uniq IN OUT: the second operand is written.
func uniqCommand(c *call) {
	var ops []word
	shortOpts(c.args, "fsw", func(n string) bool { return inList(n, "--skip-fields", "--skip-chars", "--check-chars") }, func(opt string, v word, has bool) {
		if opt == "" {
			ops = append(ops, v)
		}
	})
	if len(ops) > 1 && ops[1].s != "-" && !isDevice(ops[1].s) {
		c.add(level.Caution, "uniq", "uniq: writes a file")
		c.a.write(ops[1], c.span, "uniq writes")
		if ops[0].s == "/dev/null" || ops[0].s == "-" && c.pc.stdin == "devnull" {
			c.add(level.Destructive, "truncate", "uniq /dev/null %s: empties the file", rate.Display(ops[1].s))
		}
	}
}

// base64Command rates base64 -o FILE (macOS) and --output.
func base64Command(c *call) {
	shortOpts(c.args, "ioBbw", func(n string) bool { return inList(n, "--input", "--output", "--break", "--wrap") }, func(opt string, v word, has bool) {
		if (opt == "-o" || opt == "--output") && has && v.s != "-" && !isDevice(v.s) {
			c.add(level.Caution, "base64", "base64 -o: writes a file")
			c.a.write(v, c.span, "base64 writes")
			if !v.hole {
				c.a.setFile(v.s, fileComputed)
			}
		}
	})
}

// xxdCommand rates xxd IN OUT: the second operand is written.
func xxdCommand(c *call) {
	var ops []word
	shortOpts(c.args, "cglsonR", nil, func(opt string, v word, has bool) {
		if opt == "" {
			ops = append(ops, v)
		}
	})
	if len(ops) > 1 && ops[1].s != "-" && !isDevice(ops[1].s) {
		c.add(level.Caution, "xxd", "xxd: writes a file")
		c.a.write(ops[1], c.span, "xxd writes")
		if !ops[1].hole {
			c.a.setFile(ops[1].s, fileComputed)
		}
	}
}

// sedCommand rates sed: -i edits files; the script's w, W and s///w write
// files, r and R read them, e and s///e (GNU) run commands.
func sedCommand(c *call) {
	var buf [4]word
	scripts, files := buf[:0:1], buf[1:1]
	inplace, fromFile := false, false
	args := c.args
	for i := 0; i < len(args); i++ {
		w := args[i]
		s := w.s
		if w.hole || !strings.HasPrefix(s, "-") || s == "-" {
			if len(scripts) == 0 && !fromFile {
				scripts = append(scripts, w)
			} else {
				files = append(files, w)
			}
			continue
		}
		if s == "--" {
			for _, o := range args[i+1:] {
				if len(scripts) == 0 && !fromFile {
					scripts = append(scripts, o)
				} else {
					files = append(files, o)
				}
			}
			break
		}
		if strings.HasPrefix(s, "--") {
			name, val, has := strings.Cut(s, "=")
			switch name {
			case "--expression":
				if has {
					scripts = append(scripts, word{s: val, hole: w.hole})
				} else if i+1 < len(args) {
					scripts = append(scripts, args[i+1])
					i++
				}
			case "--file":
				fromFile = true
				if !has {
					i++
				}
			case "--in-place":
				inplace = true
			case "--line-length":
				if !has {
					i++
				}
			}
			continue
		}
		letters := s[1:]
		for j := 0; j < len(letters); j++ {
			l := letters[j]
			rest := letters[j+1:]
			switch l {
			case 'e', 'f':
				v := word{s: rest, span: w.span}
				if rest == "" && i+1 < len(args) {
					i++
					v = args[i]
				}
				if l == 'e' {
					scripts = append(scripts, v)
				} else {
					fromFile = true
				}
				j = len(letters)
			case 'i', 'I':
				inplace = true
				// BSD sed -i takes the backup suffix as the next word:
				// sed -i '' … and sed -i .bak …
				if rest == "" && i+1 < len(args) && (args[i+1].s == "" || strings.HasPrefix(args[i+1].s, ".")) {
					i++
				}
				j = len(letters)
			case 'l':
				if rest == "" {
					i++
				}
				j = len(letters)
			}
		}
	}
	if fromFile {
		c.add(level.Caution, "sed-file", "%s runs a sed script from a file", c.name)
	}
	if inplace {
		c.add(level.Caution, "sed", "sed -i: edits files in place")
		for _, f := range files {
			c.a.write(f, c.span, "edits")
		}
		if len(scripts) == 1 && !scripts[0].hole {
			switch strings.Join(strings.Fields(strings.TrimRight(scripts[0].s, "; \n")), "") {
			case "d", "1,$d", "0,$d", ",$d", "D", "1,$D":
				c.add(level.Destructive, "truncate", "sed -i %s: deletes every line, emptying the files", rate.Display(scripts[0].s))
			}
		}
	}
	for _, sc := range scripts {
		if sc.hole {
			c.add(level.Caution, "sed-computed", "%s script computed at run time", c.name)
			continue
		}
		c.sedScript(sc.s)
	}
}

// sedScript finds the file names and commands in a sed script.
func (c *call) sedScript(s string) {
	restOfLine := func(i int) (string, int) {
		j := strings.IndexByte(s[i:], '\n')
		if j < 0 {
			return strings.TrimSpace(s[i:]), len(s)
		}
		return strings.TrimSpace(s[i : i+j]), i + j
	}
	// skipDelim skips a delimited part (/re/, s's pattern and replacement).
	skipDelim := func(i int, d byte) int {
		for i < len(s) && s[i] != d {
			if s[i] == '\\' {
				i++
			}
			i++
		}
		return i + 1
	}
	for i := 0; i < len(s); {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == ';' || ch == '{' || ch == '}' || ch == '!' || ch == ',' || ch == '$' || ch == '+' || ch == '~' || ch >= '0' && ch <= '9':
			i++
		case ch == '/':
			i = skipDelim(i+1, '/')
			if i < len(s) && (s[i] == 'I' || s[i] == 'M') {
				i++
			}
		case ch == '\\' && i+1 < len(s):
			i = skipDelim(i+2, s[i+1])
		case ch == '#':
			_, i = restOfLine(i + 1)
		case ch == ':' || ch == 'b' || ch == 't' || ch == 'T':
			// A label ends at ; (GNU) or at the end of the line (BSD):
			// taking the shorter reading sees any command after it.
			i++
			for i < len(s) && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				i++
			}
		case ch == 'a' || ch == 'i' || ch == 'c':
			// Text to the end of the line; a\ continues on the next lines.
			var text string
			text, i = restOfLine(i + 1)
			for strings.HasSuffix(text, "\\") && i < len(s) {
				text, i = restOfLine(i + 1)
			}
		case ch == 's' || ch == 'y':
			if i+1 >= len(s) {
				return
			}
			d := s[i+1]
			i = skipDelim(i+2, d)
			i = skipDelim(i, d)
			for i < len(s) && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				switch s[i] {
				case 'w':
					var f string
					f, i = restOfLine(i + 1)
					c.sedFile(f, true)
					continue
				case 'e':
					c.add(level.Dangerous, "sed-exec", "%s s///e: runs the pattern space as a command", c.name)
				}
				i++
			}
		case ch == 'w' || ch == 'W' || ch == 'r' || ch == 'R':
			var f string
			f, i = restOfLine(i + 1)
			c.sedFile(f, ch == 'w' || ch == 'W')
		case ch == 'e':
			var cmd string
			cmd, i = restOfLine(i + 1)
			c.add(level.Dangerous, "sed-exec", "%s e: runs a command", c.name)
			c.nestedText(cmd, "sed e")
		default:
			i++
		}
	}
}

func (c *call) sedFile(f string, write bool) {
	if f == "" || isDevice(f) || f == "/dev/stdout" {
		return
	}
	if write {
		c.add(level.Caution, "sed-write", "%s script writes %s", c.name, rate.Display(f))
		c.a.write(word{s: f}, c.span, "sed writes to")
		return
	}
	c.a.read(word{s: f}, c.span)
}

// tarCommand rates tar: extracting writes into -C DIR (or the working
// directory); creating writes the archive.
func tarCommand(c *call) {
	c.add(level.Caution, "tar", "tar: archives or extracts files")
	var mode byte
	var archive, dir word
	hasArchive, hasDir := false, false
	setMode := func(l byte) {
		switch l {
		case 'x', 'c', 'r', 'u':
			mode = l
		case 't':
			if mode == 0 {
				mode = l
			}
		}
	}
	args := c.args
	i := 0
	take := func() (word, bool) {
		if i < len(args) {
			i++
			return args[i-1], true
		}
		return word{}, false
	}
	// Operands are read relative to the -C folder given before them.
	var files []word
	assign := func(l byte, v word) {
		switch l {
		case 'f':
			archive, hasArchive = v, true
		case 'C':
			dir, hasDir = v, true
		}
	}
	const valued = "fCbTXIs"
	// The first word may be a bundle without a dash: tar xzf a.tgz
	if len(args) > 0 && !args[0].hole && !strings.HasPrefix(args[0].s, "-") {
		i = 1
		for _, l := range []byte(args[0].s) {
			setMode(l)
			if strings.IndexByte(valued, l) >= 0 {
				if v, ok := take(); ok {
					assign(l, v)
				}
			}
		}
	}
	for i < len(args) {
		w := args[i]
		i++
		s := w.s
		switch {
		case w.hole || !strings.HasPrefix(s, "-") || s == "-":
			if hasDir && !w.hole && !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "~") {
				if d, ok := c.a.pathOf(dir); ok && (strings.HasPrefix(d, "/") || strings.HasPrefix(d, "~")) {
					if j := joinPath(d, s); j != "" {
						w.s = j
					}
				}
			}
			files = append(files, w)
		case strings.HasPrefix(s, "--"):
			name, val, has := strings.Cut(s, "=")
			v := word{s: val, hole: w.hole, span: w.span}
			switch name {
			case "--remove-files":
				c.add(level.Destructive, "tar-remove", "tar --remove-files: deletes the files it archives")
			case "--extract", "--get":
				mode = 'x'
			case "--create":
				mode = 'c'
			case "--append":
				mode = 'r'
			case "--update":
				mode = 'u'
			case "--list":
				setMode('t')
			case "--file", "--directory", "--files-from", "--exclude-from", "--exclude":
				if !has {
					if v, has = take(); !has {
						continue
					}
				}
				if name == "--file" {
					assign('f', v)
				} else if name == "--directory" {
					assign('C', v)
				}
			}
		default:
			letters := s[1:]
			for j := 0; j < len(letters); j++ {
				l := letters[j]
				setMode(l)
				if strings.IndexByte(valued, l) < 0 {
					continue
				}
				v := word{s: letters[j+1:], span: w.span}
				if v.s == "" {
					var ok bool
					if v, ok = take(); !ok {
						break
					}
				}
				assign(l, v)
				break
			}
		}
	}
	switch mode {
	case 'x':
		switch {
		case hasDir:
			c.a.write(dir, c.span, "tar extracts into")
		case c.a.cwd != "":
			c.a.write(word{s: c.a.cwd}, c.span, "tar extracts into")
		}
		content, _ := c.a.fileContent(archive.s)
		if (!hasArchive || archive.s == "-") && c.pc.stdin == "download" || hasArchive && !archive.hole && content == fileDownloaded {
			c.a.downloadedInto(dir, hasDir)
		}
	case 'c', 'r', 'u':
		if hasArchive && archive.s != "-" && !isDevice(archive.s) {
			c.a.write(archive, c.span, "tar writes the archive")
		}
		for _, f := range files {
			c.a.read(f, c.span)
		}
	}
}

// unzipCommand rates unzip: it writes into -d DIR or the working
// directory.
func unzipCommand(c *call) {
	c.add(level.Caution, "unzip", "unzip: extracts files")
	list, hasDir := false, false
	var dir, archive word
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		switch {
		case w.s == "-d" && i+1 < len(c.args):
			i++
			dir, hasDir = c.args[i], true
		case strings.HasPrefix(w.s, "-d") && len(w.s) > 2:
			dir, hasDir = word{s: w.s[2:], hole: w.hole, span: w.span}, true
		case w.s == "-x":
			i = len(c.args) // exclusion patterns to the end (or -d, rarely)
		case strings.HasPrefix(w.s, "-") && !strings.HasPrefix(w.s, "--") && strings.ContainsAny(w.s[1:], "lptvZz"):
			list = true
		case !strings.HasPrefix(w.s, "-") && archive.s == "" && !archive.hole:
			archive = w
		}
	}
	switch {
	case list:
		return
	case hasDir:
		c.a.write(dir, c.span, "unzip extracts into")
	case c.a.cwd != "":
		c.a.write(word{s: c.a.cwd}, c.span, "unzip extracts into")
	}
	if content, ok := c.a.fileContent(archive.s); ok && !archive.hole && content == fileDownloaded {
		c.a.downloadedInto(dir, hasDir)
	}
}

// chflagsCommand rates chflags: recursive changes and immutable flags
// (schg, uchg) lock files away from their owner.
func chflagsCommand(c *call) {
	ops := c.operands()
	flags := ""
	if len(ops) > 0 {
		flags = strings.ToLower(ops[0].s)
	}
	lock := false
	for _, f := range strings.Split(flags, ",") {
		if inList(f, "schg", "schange", "simmutable", "uchg", "uchange", "uimmutable", "sappnd", "sappend", "uappnd", "uappend", "sunlnk", "sunlink") {
			lock = true
		}
	}
	switch {
	case lock:
		c.add(level.Dangerous, "chflags", "chflags %s: locks files so that they cannot be changed or deleted", rate.Display(flags))
	case hasShort(c.args, 'R'):
		c.add(level.Dangerous, "chflags", "chflags -R %s: changes the flags of every file in a folder", rate.Display(flags))
	default:
		c.add(level.Caution, "chflags", "chflags: changes file flags")
	}
}

// hashCommand rates hash -p (bash) and hash name=path (zsh): a command
// name now runs another program.
func hashCommand(c *call) {
	for _, w := range c.args {
		if w.s == "-p" || strings.Contains(w.s, "=") {
			c.add(level.Dangerous, "hash", "hash: makes a command name run another program")
			return
		}
	}
}

// launchctlCommand rates launchctl; asuser and bsexec run a command.
func launchctlCommand(c *call) {
	s := sub(c.args)
	switch s {
	case "list", "print", "print-disabled", "blame", "version", "help", "getenv", "print-cache", "dumpstate", "procinfo", "hostinfo", "resolveport", "examine", "":
		return
	case "load", "bootstrap", "submit", "enable":
		c.add(level.Destructive, "launchctl", "launchctl %s: installs or enables a background service (persistence)", s)
		return
	case "asuser", "bsexec":
		c.add(level.Dangerous, "launchctl", "launchctl %s: runs a command in another session", s)
		for i, w := range c.args {
			if strings.EqualFold(w.s, s) && i+2 < len(c.args) {
				c.a.call(c.args[i+2:], c.span, c.pc)
				break
			}
		}
		return
	}
	c.add(level.Dangerous, "launchctl", "launchctl %s: changes background services", rate.Display(s))
}

// opensslCommand rates openssl: -out writes a file, s_client and s_server
// talk to the network.
func opensslCommand(c *call) {
	s := sub(c.args)
	switch s {
	case "version", "help", "list", "":
		return
	case "s_client", "s_server", "s_time":
		c.add(level.Dangerous, "openssl-connect", "openssl %s: opens a network connection that carries stdin", s)
		c.a.uploadAt(c.span)
		return
	}
	c.add(level.Caution, "openssl", "openssl %s: works with keys, certificates or encryption", rate.Display(s))
	for i, w := range c.args {
		if i+1 >= len(c.args) {
			break
		}
		switch w.s {
		case "-out", "-keyout", "-signkey":
			if w.s != "-signkey" && !isDevice(c.args[i+1].s) {
				c.a.write(c.args[i+1], c.span, "openssl writes")
			}
		case "-in", "-key", "-inkey", "-passin":
			c.a.read(c.args[i+1], c.span)
		}
	}
}

// toolCommands registers stock macOS tools that only read, and the rules
// for archivers, databases, clouds, package runners, editors and
// supply-chain settings.
func toolCommands() {
	for _, n := range []string{"lpstat", "networkquality", "afinfo", "lesspipe.sh", "lesspipe"} {
		shellCommands[n] = safe
	}
	// dns-sd: browsing and lookups only read; registering or proxying
	// advertises a service on the network.
	shellCommands["dns-sd"] = func(c *call) {
		for _, w := range c.args {
			switch w.s {
			case "-R", "-P", "-X":
				c.add(level.Caution, "dns-sd", "dns-sd %s: advertises a service on the network", w.s)
				return
			}
		}
	}
	shellCommands["log"] = bySub(level.Dangerous, "changes or erases the system log", map[string]level.Level{
		"show": level.Safe, "stream": level.Safe, "stats": level.Safe, "help": level.Safe, "": level.Safe, "collect": level.Caution,
	})
	shellCommands["wdutil"] = bySub(level.Dangerous, "changes Wi-Fi diagnostics", map[string]level.Level{
		"info": level.Safe, "help": level.Safe, "": level.Safe, "diagnose": level.Caution,
	})
	shellCommands["kmutil"] = bySub(level.Dangerous, "loads, unloads or rebuilds kernel extensions", map[string]level.Level{
		"showloaded": level.Safe, "inspect": level.Safe, "print-diagnostics": level.Safe, "help": level.Safe, "": level.Safe,
	})
	shellCommands["mas"] = bySub(level.Caution, "changes App Store apps", map[string]level.Level{
		"list": level.Safe, "outdated": level.Safe, "search": level.Safe, "info": level.Safe, "version": level.Safe,
		"help": level.Safe, "account": level.Safe, "vendor": level.Safe, "": level.Safe, "uninstall": level.Dangerous,
	})
	hdiutil := bySub(level.Caution, "works with disk images", map[string]level.Level{
		"info": level.Safe, "imageinfo": level.Safe, "verify": level.Safe, "isencrypted": level.Safe, "plugins": level.Safe,
		"help": level.Safe, "pmap": level.Safe, "checksum": level.Safe, "": level.Safe,
	})
	shellCommands["hdiutil"] = func(c *call) {
		hdiutil(c)
		ops := c.operands()
		if len(ops) > 1 && inList(strings.ToLower(ops[0].s), "attach", "mount") {
			if content, ok := c.a.fileContent(ops[1].s); ok && content == fileDownloaded {
				c.a.downloadedInto(word{s: "/Volumes"}, true) // what the image holds is downloaded
			}
		}
	}
	shellCommands["arp"] = func(c *call) {
		if hasShort(c.args, 'd') || hasShort(c.args, 's') || hasShort(c.args, 'S') || hasShort(c.args, 'f') {
			c.add(level.Dangerous, "arp", "arp: changes the ARP table")
		}
	}
	shellCommands["dscacheutil"] = func(c *call) {
		if hasArg(c.args, "-flushcache") {
			c.add(level.Caution, "dscacheutil", "dscacheutil -flushcache: flushes the directory service cache")
		}
	}
	shellCommands["xcode-select"] = func(c *call) {
		for _, w := range c.args {
			if !inList(w.s, "-p", "--print-path", "-v", "--version", "-h", "--help") {
				c.add(level.Caution, "xcode-select", "xcode-select %s: changes or installs the developer tools", rate.Display(w.s))
				return
			}
		}
	}
	shellCommands["memory_pressure"] = func(c *call) {
		if hasShort(c.args, 'l') || hasShort(c.args, 'p') {
			c.add(level.Caution, "memory_pressure", "memory_pressure: applies memory pressure to the system")
		}
	}
	shellCommands["profiles"] = func(c *call) {
		s := sub(c.args)
		switch {
		case inList(s, "status", "list", "show", "help", "version", "validate"):
		case s == "" && !hasShort(c.args, 'I') && !hasShort(c.args, 'R') && !hasShort(c.args, 'D') && !hasShort(c.args, 'N'):
		default:
			c.add(level.Dangerous, "profiles", "profiles %s: installs or removes configuration profiles", rate.Display(s))
		}
	}
	shellCommands["mdutil"] = func(c *call) {
		for _, l := range []byte("iEdXpLt") {
			if hasShort(c.args, l) {
				c.add(level.Caution, "mdutil", "mdutil: changes Spotlight indexing")
				return
			}
		}
		if !hasShort(c.args, 's') {
			c.add(level.Caution, "mdutil", "mdutil: changes Spotlight indexing")
		}
	}
	shellCommands["codesign"] = func(c *call) {
		if hasShort(c.args, 's') || hasLong(c.args, "--sign", "--remove-signature") ||
			!hasShort(c.args, 'd') && !hasShort(c.args, 'v') && !hasLong(c.args, "--verify", "--display") {
			c.add(level.Caution, "codesign", "codesign: signs code")
		}
	}
	shellCommands["sips"] = func(c *call) {
		for i := 0; i < len(c.args); i++ {
			switch s := c.args[i].s; {
			case s == "-g" || s == "--getProperty":
				i++
			case inList(s, "-1", "--oneLine", "-h", "--help", "-H", "--helpProperties", "--formats", "--debug"):
			case strings.HasPrefix(s, "-") || c.args[i].hole && i == 0:
				c.add(level.Caution, "sips", "sips: edits images")
				return
			}
		}
	}
	shellCommands["pkgutil"] = func(c *call) {
		if hasLong(c.args, "--forget", "--expand", "--expand-full", "--flatten", "--learn", "--unlink") {
			c.add(level.Caution, "pkgutil", "pkgutil: forgets, expands or builds packages")
		}
	}
	shellCommands["installer"] = func(c *call) {
		c.add(level.Dangerous, "installer", "installer: installs a package as root")
		for i, w := range c.args {
			if (w.s == "-pkg" || w.s == "-package") && i+1 < len(c.args) {
				if content, ok := c.a.fileContent(c.args[i+1].s); ok && (content == fileDownloaded || content == fileComputed) {
					c.add(level.Destructive, "download-exec", "installer installs %s, downloaded by this same script", rate.Display(c.args[i+1].s))
				}
			}
		}
	}
	ns := shellCommands["networksetup"]
	shellCommands["networksetup"] = func(c *call) {
		if len(c.args) > 0 && strings.EqualFold(c.args[0].s, "-setairportpower") {
			c.add(level.Caution, "networksetup", "networksetup -setairportpower: turns Wi-Fi on or off")
			return
		}
		ns(c)
	}
	shellCommands["docker-compose"] = func(c *call) { c.compose(c.args) }
	shellCommands["zip"] = zipCommand
	shellCommands["ssh"] = func(c *call) {
		c.add(level.Dangerous, "ssh", "ssh: runs commands on another machine")
		c.sshOptions()
	}
	shellCommands["sftp"] = func(c *call) {
		c.add(level.Dangerous, "sftp", "sftp: transfers files to another machine")
		c.sshOptions()
	}
	for _, n := range []string{"vim", "vi", "nvim", "view", "vimdiff", "nvi", "ex", "gvim", "mvim"} {
		shellCommands[n] = vimCommand
	}
	shellCommands["expect"] = expectCommand
	shellCommands["sqlite3"] = sqliteCommand
	for _, n := range []string{"psql", "mysql", "mariadb"} {
		shellCommands[n] = sqlClientCommand
	}
	shellCommands["redis-cli"] = redisCommand
	shellCommands["terraform"] = terraformCommand
	shellCommands["tofu"] = terraformCommand
	for _, n := range []string{"aws", "gcloud", "gsutil", "az"} {
		shellCommands[n] = cloudCommand
	}
	for _, n := range []string{"npx", "bunx", "uvx", "pnpx"} {
		shellCommands[n] = packageRunner
	}
	shellCommands["npm"] = npmCommand
	shellCommands["pnpm"] = npmCommand
	shellCommands["yarn"] = npmCommand
	shellCommands["pipx"] = func(c *call) {
		switch sub(c.args) {
		case "run":
			packageRunner(c)
		case "list", "--version", "--help", "":
		default:
			c.add(level.Caution, "pipx", "pipx: installs Python applications")
		}
	}
	shellCommands["go"] = func(c *call) {
		ops := c.operands()
		if len(ops) > 1 && strings.EqualFold(ops[0].s, "run") {
			for _, o := range ops[1:] {
				if strings.Contains(o.s, "@") || o.hole {
					packageRunner(c)
					return
				}
			}
		}
		c.add(level.Caution, "go", "go: builds code")
	}
	for _, n := range []string{"pip", "pip3"} {
		shellCommands[n] = pipCommand
	}
	shellCommands["gem"] = func(c *call) {
		if sub(c.args) == "sources" && (hasShort(c.args, 'a') || hasLong(c.args, "--add")) {
			c.add(level.Dangerous, "supply-chain", "gem sources --add: installs gems from another source from now on")
			return
		}
		c.add(level.Caution, "gem", "gem: installs gems")
	}
	brew := shellCommands["brew"]
	shellCommands["brew"] = func(c *call) {
		ops := c.operands()
		s := sub(c.args)
		switch {
		case s == "tap" && len(ops) > 2 && !strings.Contains(strings.ToLower(ops[2].s), "github.com/homebrew/"):
			c.add(level.Dangerous, "supply-chain", "brew tap %s: installs formulae from %s", rate.Display(ops[1].s), rate.Display(ops[2].s))
			return
		case inList(s, "uninstall", "remove", "rm") && hasLong(c.args, "--zap"):
			c.add(level.Dangerous, "brew-zap", "brew %s --zap: also deletes the application's settings and data", s)
			return
		}
		brew(c)
	}
}

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
		c.add(level.Destructive, "docker-volumes", "docker compose %s -v: deletes the project's volumes (their data is lost)", s)
	case inList(s, "up", "down", "stop", "start", "restart", "pull", "build", "create", "pause", "unpause", "kill", "rm"):
		c.add(level.Caution, "docker-compose", "docker compose %s: starts, stops or builds the project's containers", s)
	default:
		c.add(level.Dangerous, "docker-compose", "docker compose %s: runs commands in containers", rate.Display(s))
	}
}

// dockerRun rates docker run: a container with a folder of this Mac
// mounted can change it, so its command is analysed as if run here.
func (c *call) dockerRun(args []word) {
	c.add(level.Dangerous, "docker", "docker run: runs a container")
	mounted := false
	mount := func(v word, spec bool) {
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
			return // a named volume
		}
		mounted = true
		if z := c.a.zoneOf(word{s: src, hole: strings.Contains(src, rate.HoleMark)}); z.HomeRoot || z.Critical() {
			c.add(level.Dangerous, "docker-mount", "docker run -v %s: gives the container %s", rate.Display(src), z.Detail)
		}
	}
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
				c.add(level.Dangerous, "zip-command", "zip -TT: runs a command to test the archive")
				c.optionCommand(c.args[i], "zip -TT")
			}
			continue
		case strings.HasPrefix(s, "--unzip-command="):
			c.add(level.Dangerous, "zip-command", "zip -TT: runs a command to test the archive")
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
		c.add(level.Destructive, "zip-move", "zip -m with -r or a password: archives files and deletes the originals")
	case move:
		c.add(level.Dangerous, "zip-move", "zip -m: deletes the files it archives")
	default:
		c.add(level.Caution, "zip", "zip: archives files")
	}
	if archive != nil && archive.s != "-" {
		c.a.write(*archive, c.span, "zip writes")
	}
}

// optionCommand analyses a command given as an option's value (zip -TT,
// ssh -o ProxyCommand=, rsync -e).
func (c *call) optionCommand(w word, what string) {
	c.add(level.Caution, "option-command", "%s: runs %s", what, rate.Display(w.s))
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
			c.add(level.Dangerous, "ssh-option", "%s -o: an option computed at run time", c.name)
			continue
		}
		if !inList(k, "proxycommand", "localcommand", "knownhostscommand") || strings.EqualFold(strings.TrimSpace(val), "none") {
			continue
		}
		c.add(level.Dangerous, "ssh-command", "%s -o %s: runs a command on this Mac", c.name, k)
		c.nested([]word{{s: val, hole: v.hole, span: v.span}}, c.name+" -o "+k)
	}
}

// vimCommand rates vim and its kin: commands given with -c, --cmd or +,
// and read from stdin in ex mode, are rated; ! and :r ! run shell commands.
func vimCommand(c *call) {
	c.add(level.Caution, "editor", "%s: opens files in an editor", c.name)
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
			c.add(level.Dangerous, "editor-script", "%s %s %s: runs editor commands from a file that is not analysed", c.name, s, rate.Display(c.args[i].s))
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
		c.add(level.Destructive, "editor-stdin", "%s runs editor commands from a download or decoded data", c.name)
	case "pipe", "computed":
		c.add(level.Dangerous, "editor-stdin", "%s runs editor commands computed at run time", c.name)
	}
}

// vimCmd rates one command line of vim: ! (with a range: a filter), r !
// and w ! run shell commands; system(), :terminal, :python, :lua … run
// code; other commands edit text.
func (c *call) vimCmd(w word) {
	if w.hole {
		c.add(level.Dangerous, "editor-command", "%s runs an editor command computed at run time", c.name)
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
			c.add(level.Caution, "editor-shell", "%s runs a shell command: %s", c.name, rate.Display(shell))
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
			c.add(level.Dangerous, "editor-code", "%s command %q runs code", c.name, rate.Display(strings.TrimSpace(piece)))
			scanCode(c, piece)
		}
		rest = next
	}
}

// expectCommand rates expect: its Tcl program is not analysed, but what
// it spawns or execs is, and the program is scanned for the obvious.
func expectCommand(c *call) {
	c.add(level.Dangerous, "expect", "expect: runs a Tcl program that drives other programs")
	found := false
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		switch {
		case w.s == "-c" && i+1 < len(c.args):
			i++
			found = true
			if c.args[i].hole {
				c.add(level.Destructive, "interp-computed", "%s runs code computed at run time", c.name)
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
	c.add(level.Caution, "sqlite3", "sqlite3: opens a database")
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
			c.add(level.Dangerous, "sql-file", "sqlite3 -init: runs commands from a file that is not analysed")
			i++
		case "separator", "nullvalue", "newline", "vfs", "mmap", "maxsize", "heap", "lookaside", "pagecache", "escape", "A":
			i++
		}
	}
	switch {
	case len(ops) > 1:
		for _, o := range ops[1:] {
			c.sql(o)
		}
	case c.pc.stdin == "text":
		c.sql(word{s: c.pc.text})
	case c.pc.stdin == "download" || c.pc.stdin == "decoded":
		c.add(level.Dangerous, "sql-computed", "%s runs SQL computed at run time", c.name)
	}
}

// sqlClientCommand rates psql (-c) and mysql (-e): the SQL given is rated.
func sqlClientCommand(c *call) {
	c.add(level.Caution, c.name, "%s: runs SQL on a database server", c.name)
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

// sql rates SQL text: dropping or truncating tables and deleting every
// row are destructive; the clients' shell escapes (sqlite3 .shell,
// psql \!, mysql system) are analysed.
func (c *call) sql(w word) {
	if w.hole {
		c.add(level.Dangerous, "sql-computed", "%s runs SQL computed at run time", c.name)
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
			c.add(level.Dangerous, "sql-shell", "%s runs a shell command", c.name)
			c.nestedText(cmd, c.name+" shell escape")
		case strings.HasPrefix(low, ".output ") || strings.HasPrefix(low, ".once "):
			_, f, _ := strings.Cut(t, " ")
			c.a.write(word{s: strings.Trim(strings.TrimSpace(f), `'"`)}, c.span, c.name+" writes to")
		case strings.HasPrefix(t, "."):
		default:
			body.WriteString(line)
			body.WriteByte('\n')
		}
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
			c.add(level.Destructive, "sql-drop", "%s: DROP %s deletes it with all its data", c.name, f[1])
		case f[0] == "TRUNCATE":
			c.add(level.Destructive, "sql-drop", "%s: TRUNCATE deletes every row", c.name)
		case f[0] == "DELETE" && !where:
			c.add(level.Destructive, "sql-delete-all", "%s: DELETE without WHERE deletes every row", c.name)
		case f[0] == "UPDATE" && !where:
			c.add(level.Dangerous, "sql-update-all", "%s: UPDATE without WHERE changes every row", c.name)
		}
	}
}

// redisCommand rates redis-cli: FLUSHALL and FLUSHDB delete every key.
func redisCommand(c *call) {
	cmd := ""
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		if strings.HasPrefix(w.s, "-") && !w.hole {
			if w.s == "--eval" {
				c.add(level.Dangerous, "redis", "redis-cli --eval: runs a Lua script on the server")
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
		c.add(level.Destructive, "redis-flush", "redis-cli FLUSHALL/FLUSHDB: deletes every key")
	case inList(cmd, "SHUTDOWN", "DEBUG", "SLAVEOF", "REPLICAOF", "MODULE", "EVAL", "EVALSHA", "FUNCTION", "SCRIPT", "CONFIG", "MIGRATE"):
		c.add(level.Dangerous, "redis", "redis-cli %s: changes or runs code on the server", cmd)
	default:
		c.add(level.Caution, "redis", "redis-cli: talks to a Redis server")
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
		c.add(level.Destructive, "terraform-destroy", "%s destroy: deletes the infrastructure it manages", c.name)
	case inList(s, "init", "plan", "get", "refresh", "import", "taint", "untaint", "login", "logout", "console", "test"), s == "workspace" && next != "delete":
		c.add(level.Caution, "terraform", "%s %s", c.name, s)
	default:
		c.add(level.Dangerous, "terraform", "%s %s: changes real infrastructure", c.name, rate.Display(s))
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
			c.a.uploadAt(c.span) // local files may go up
		}
	}
	for i, w := range words {
		switch {
		case w == "delete" || strings.HasPrefix(w, "delete-") || strings.HasPrefix(w, "terminate-"),
			w == "rm" && recursive, w == "rb" && hasLong(c.args, "--force"):
			c.add(level.Destructive, "cloud-delete", "%s … %s: deletes cloud resources or data", c.name, words[i])
			return
		}
	}
	c.add(level.Dangerous, "cloud", "%s: acts on cloud resources", c.name)
}

// packageRunner rates npx and its kin: they download a package from a
// registry and run it.
func packageRunner(c *call) {
	if len(c.args) == 1 && inList(c.args[0].s, "--version", "-v", "--help", "-h") {
		return
	}
	c.add(level.Dangerous, "package-runner", "%s: downloads a package from a registry and runs it", c.name)
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
				c.add(level.Dangerous, "supply-chain", "%s config set %s: changes where packages come from or what runs their scripts", c.name, rate.Display(k))
				return
			}
		}
		c.add(level.Caution, c.name, "%s config: changes settings", c.name)
		return
	}
	if hasLong(c.args, "--registry") {
		for _, w := range c.args {
			if strings.HasPrefix(w.s, "--registry=http:") {
				c.add(level.Dangerous, "supply-chain", "%s --registry over plain http: packages can be swapped in transit", c.name)
			}
		}
	}
	c.add(level.Caution, c.name, "%s: runs package scripts", c.name)
}

// pipCommand rates pip: package indexes over plain http, trusted hosts
// and index settings change where packages come from.
func pipCommand(c *call) {
	ops := c.operands()
	if sub(c.args) == "config" && len(ops) > 2 && strings.EqualFold(ops[1].s, "set") {
		k := strings.ToLower(ops[2].s)
		if strings.Contains(k, "index-url") || strings.Contains(k, "trusted-host") || strings.Contains(k, "find-links") {
			c.add(level.Dangerous, "supply-chain", "%s config set %s: changes where packages come from", c.name, rate.Display(k))
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
			c.add(level.Dangerous, "supply-chain", "%s %s %s: installs packages that can be swapped in transit", c.name, name, rate.Display(val))
			return
		}
	}
	c.add(level.Caution, c.name, "%s: installs packages", c.name)
}
