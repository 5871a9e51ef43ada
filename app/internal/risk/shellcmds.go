package risk

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
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
	"sudo": "ugCDhpRrtTU", "doas": "uC", "env": "uCS", "nohup": "", "time": "", "nice": "n",
	"ionice": "cnp", "timeout": "sk", "gtimeout": "sk", "command": "", "exec": "a", "builtin": "",
	"caffeinate": "tw", "stdbuf": "ioe", "chroot": "", "arch": "e", "setsid": "", "unbuffer": "",
	"noglob": "", "nocorrect": "", "watch": "nd", "xargs": "nIILPsEadS", "flock": "wE", "taskset": "",
	"chrt": "", "script": "Ft", "then": "", "do": "", "sh-wrapper": "",
}

// peel strips wrappers (sudo, env, nohup, xargs, timeout …) and returns the
// command they run. With report set it rates the wrappers on the way.
func (a *shellAn) peel(words []word, sp Span, report bool) (name string, args []word, bulk bool) {
	for len(words) > 0 {
		w := words[0]
		if w.hole || w.glob {
			return "", words, bulk
		}
		name = commandName(w.s)
		opts, ok := wrappers[name]
		if !ok {
			return name, words[1:], bulk
		}
		rest := words[1:]
		switch name {
		case "sudo", "doas":
			if report {
				a.add(level.Dangerous, "shell.sudo", sp, "%s: runs as root", name)
			}
		case "command":
			if hasShort(rest, 'v') || hasShort(rest, 'V') {
				return "command", rest, bulk // a lookup, not a run
			}
		case "xargs":
			bulk = true
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
					rest = rest[1:]
				}
				if len(rest) == before {
					break
				}
			}
		case "timeout", "gtimeout", "watch", "flock", "chroot", "taskset", "chrt":
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
		}
		if len(rest) == 0 {
			return "wrapper-alone", nil, bulk
		}
		words = rest
	}
	return "", nil, bulk
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

func (a *shellAn) unwrap(words []word) (string, []word) {
	name, args, _ := a.peel(words, Span{}, false)
	return name, args
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
	name, args, bulk := a.peel(words, sp, true)
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
		a.add(l, "shell.dynamic-command", sp, "command name is %s (%s): cannot tell what runs", what, display(head.s))
		for _, w := range args[1:] {
			a.readSource(w, sp)
		}
		return
	}
	if bulk {
		// xargs appends many words read from stdin.
		args = append(args, word{s: holeMark, hole: true, glob: true})
	}
	c := &call{a: a, name: name, args: args, span: sp, pc: pc}
	if knownOps != nil && !bulk {
		c.ops = knownOps
	}
	if a.funcs[name] {
		return // the script's own function or alias: its body is analysed where it is defined
	}
	if h, ok := shellCommands[name]; ok {
		h(c)
	} else if h := prefixCommand(name); h != nil {
		h(c)
	} else {
		c.add(level.Dangerous, "unknown-command", "unknown command %q: cannot tell what it does", display(name))
	}
	// Reading from credential stores, whatever the command.
	if !noPathRead[name] {
		for _, w := range operands(args) {
			a.readSource(w, sp)
		}
	}
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
		return interpreter("c")
	case strings.HasPrefix(name, "perl") || strings.HasPrefix(name, "ruby"):
		return interpreter("e")
	}
	return nil
}

var downloaders = map[string]bool{"curl": true, "wget": true, "fetch": true, "aria2c": true, "http": true, "https": true, "lwp-download": true, "ftp": true}

var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "mksh": true, "fish": true, "tcsh": true, "csh": true, "busybox": true}

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
				c.add(level.Destructive, "dd", "dd %s: overwrites a file or disk block by block", display(w.s))
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
	})
	shellCommands["brew"] = bySub(level.Caution, "changes installed software", map[string]level.Level{
		"list": level.Safe, "ls": level.Safe, "info": level.Safe, "search": level.Safe, "--prefix": level.Safe,
		"config": level.Safe, "doctor": level.Safe, "outdated": level.Safe, "deps": level.Safe, "uses": level.Safe,
		"leaves": level.Safe, "home": level.Caution, "services": level.Dangerous, "--version": level.Safe, "": level.Safe,
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
			if len(ops) > 0 && (ops[0].proc || ops[0].hole) {
				c.add(level.Destructive, "source", "%s: runs commands computed at run time", c.name)
				return
			}
			if len(ops) > 0 && isStdinPath(ops[0].s) {
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
	shellCommands["node"] = interpreter("e")
	shellCommands["swift"] = interpreter("e")
	shellCommands["awk"] = awkCommand
	shellCommands["gawk"] = awkCommand
	shellCommands["sed"] = func(c *call) {
		if hasShort(c.args, 'i') || hasLong(c.args, "--in-place") {
			c.add(level.Caution, "sed", "sed -i: edits files in place")
			c.writeOperands("edits")
		}
	}
	shellCommands["xcrun"] = func(c *call) {
		ops := c.operands()
		if len(ops) >= 2 && strings.EqualFold(ops[0].s, "simctl") {
			switch strings.ToLower(ops[1].s) {
			case "list", "help", "getenv", "listapps", "appinfo", "get_app_container":
				return
			case "erase", "delete", "uninstall":
				c.add(level.Dangerous, "simctl", "simctl %s: wipes simulator data", ops[1].s)
				return
			}
		}
		c.add(level.Caution, "xcrun", "xcrun: runs a developer tool")
	}
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
			c.add(level.Destructive, "truncate", "cp /dev/null %s: empties the file", display(ops[1].s))
			return
		}
		c.add(level.Caution, "cp", "cp: copies files")
		c.writeDest()
	}
	shellCommands["tee"] = func(c *call) {
		c.add(level.Caution, "tee", "tee: writes files")
		if c.pc.stdin == "devnull" && !hasShort(c.args, 'a') && !hasLong(c.args, "--append") {
			for _, w := range c.operands() {
				c.add(level.Destructive, "truncate", "tee %s with empty input: empties the file", display(w.s))
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
		c.add(level.Dangerous, c.name, "%s %s: changes system settings", c.name, display(c.args[0].s))
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
			c.add(level.Destructive, "rm-bulk", "rm %s: permanently deletes every file the pattern or computed value matches", display(w.s))
		}
		if z := c.a.zone(w); z.critical() {
			c.add(level.Destructive, "rm-protected", "rm %s: deletes inside %s", display(w.s), z.detail)
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
		z := c.a.zone(w)
		broad := w.glob || w.hole || z.homeRoot || z.kind == zoneSystem || w.s == "/"
		switch {
		case recursive && broad:
			l, why = level.Destructive, "recursively changes ownership or permissions of "+display(w.s)
		case recursive && l < level.Dangerous:
			l, why = level.Dangerous, "recursively changes ownership or permissions"
		case z.kind == zoneSystem || z.kind == zoneCredential || z.kind == zonePersistence:
			l, why = level.Max(l, level.Dangerous), "changes permissions inside "+z.detail
		}
	}
	if len(c.args) > 0 && strings.Contains(c.args[0].s, "s") && c.name == "chmod" && strings.HasPrefix(c.args[0].s, "+") {
		l, why = level.Max(l, level.Dangerous), "sets the setuid/setgid bit"
	}
	c.add(l, c.name, "%s: %s", c.name, why)
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
					x = word{s: holeMark, hole: true, glob: true, span: x.span}
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

func gitCommand(c *call) {
	// Global options before the subcommand, some with a value: git -C dir clean.
	for len(c.args) > 0 && strings.HasPrefix(c.args[0].s, "-") {
		opt := c.args[0].s
		c.args = c.args[1:]
		if (opt == "-C" || opt == "-c" || opt == "--git-dir" || opt == "--work-tree" || opt == "--namespace" || opt == "--exec-path") && len(c.args) > 0 {
			c.args = c.args[1:]
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
	switch s {
	case "status", "log", "diff", "show", "rev-parse", "describe", "blame", "grep", "ls-files", "shortlog",
		"remote", "config", "version", "help", "ls-remote", "cat-file", "rev-list", "whatchanged", "":
		if s == "remote" || s == "config" {
			if len(ops) > 1 && !strings.HasPrefix(strings.ToLower(ops[1].s), "get") && ops[1].s != "-v" && ops[1].s != "show" {
				c.add(level.Caution, "git", "git %s: changes repository settings", s)
			}
		}
	case "clean":
		if hasShort(rest, 'f') || hasLong(rest, "--force") {
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
	case "checkout", "restore":
		if hasArg(rest, ".", "--", ":/", "*") || hasLong(rest, "--force") || hasShort(rest, 'f') {
			c.add(level.Dangerous, "git-discard", "git %s: discards uncommitted changes", s)
		} else {
			c.add(level.Caution, "git", "git %s: changes the working tree", s)
		}
	case "push":
		if hasShort(rest, 'f') || hasLong(rest, "--force", "--force-with-lease", "--mirror", "--delete", "--prune") || hasShort(rest, 'd') {
			c.add(level.Dangerous, "git-push-force", "git push --force/--delete: rewrites or deletes remote history")
		} else {
			c.add(level.Caution, "git", "git push: publishes commits")
		}
	case "branch":
		if hasShort(rest, 'D') || hasLong(rest, "--delete") && hasLong(rest, "--force") {
			c.add(level.Dangerous, "git-branch-delete", "git branch -D: deletes a branch with unmerged work")
		}
	case "stash":
		if hasArg(rest, "drop", "clear") {
			c.add(level.Dangerous, "git-stash-drop", "git stash drop/clear: discards stashed work")
		} else {
			c.add(level.Caution, "git", "git stash")
		}
	case "filter-branch", "filter-repo", "update-ref", "gc", "prune", "reflog":
		if s == "reflog" && !hasArg(rest, "expire", "delete") {
			return
		}
		c.add(level.Dangerous, "git-history", "git %s: rewrites or prunes history", s)
	default:
		c.add(level.Caution, "git", "git %s: changes the repository", display(s))
	}
}

func dockerCommand(c *call) {
	ops := c.operands()
	if len(ops) == 0 {
		return
	}
	s := strings.ToLower(ops[0].s)
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

func defaultsCommand(c *call) {
	s := sub(c.args)
	switch s {
	case "read", "read-type", "domains", "find", "export", "help", "":
	case "write", "delete", "import", "rename":
		ops := c.operands()
		domain := ""
		if len(ops) > 1 {
			domain = strings.ToLower(ops[1].s)
		}
		if strings.Contains(domain, "loginwindow") && hasArg(c.args, "LoginHook", "LogoutHook") {
			c.add(level.Destructive, "defaults-hook", "defaults write … LoginHook: runs a script at every login (persistence)")
			return
		}
		if cosmeticDomains[domain] && s == "write" {
			c.add(level.Caution, "defaults-write", "defaults write %s: changes how %s looks or behaves", domain, domain)
			return
		}
		c.add(level.Dangerous, "defaults-write", "defaults %s: changes preferences", s)
	default:
		c.add(level.Dangerous, "defaults", "defaults %s: changes preferences", display(s))
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

func killCommand(c *call) {
	forced := false
	for _, w := range c.args {
		switch strings.ToUpper(w.s) {
		case "-9", "-KILL", "-SIGKILL", "--SIGNAL=KILL", "-S9":
			forced = true
		}
	}
	for i, w := range c.args {
		if (w.s == "-s" || w.s == "--signal") && i+1 < len(c.args) && strings.Contains(strings.ToUpper(c.args[i+1].s), "KILL") || w.s == "9" && i > 0 && c.args[i-1].s == "-s" {
			forced = true
		}
	}
	for _, w := range c.operands() {
		switch strings.ToLower(w.s) {
		case "windowserver", "loginwindow", "launchd", "kernel_task", "1", "-1", "systemuiserver":
			c.add(level.Dangerous, "kill-system", "%s %s: kills a process the session depends on", c.name, w.s)
		}
	}
	if forced {
		c.add(level.Dangerous, "kill-forced", "%s -9: force-kills processes; unsaved work is lost", c.name)
		return
	}
	c.add(level.Caution, "kill", "%s: stops processes", c.name)
}

func curlCommand(c *call) {
	upload := false
	for i, w := range c.args {
		s := w.s
		next := func() (word, bool) {
			if i+1 < len(c.args) {
				return c.args[i+1], true
			}
			return word{}, false
		}
		switch {
		case s == "-T" || s == "--upload-file" || s == "-F" || s == "--form" || strings.HasPrefix(s, "--data") || s == "-d" || s == "--json":
			upload = true
			if v, ok := next(); ok {
				data := v.s
				if j := strings.Index(data, "@"); j >= 0 {
					data = data[j+1:]
				}
				c.a.readSource(word{s: data, hole: v.hole}, c.span)
				if s == "-T" || s == "--upload-file" {
					c.a.readSource(v, c.span)
				}
			}
		case strings.HasPrefix(s, "-d") && len(s) > 2 || strings.HasPrefix(s, "-F") && len(s) > 2 || strings.HasPrefix(s, "-T") && len(s) > 2:
			upload = true
		case s == "-X" || s == "--request":
			if v, ok := next(); ok && !strings.EqualFold(v.s, "GET") && !strings.EqualFold(v.s, "HEAD") {
				upload = true
			}
		case s == "-o" || s == "--output" || strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && strings.HasSuffix(s, "o"):
			if v, ok := next(); ok {
				c.a.writeTarget(v, c.span, "downloads into")
				if !v.hole {
					c.a.setFile(v.s, fileDownloaded)
				}
			}
		}
	}
	if upload {
		c.add(level.Dangerous, "upload", "%s: sends data to a server", c.name)
		c.a.uploadAt(c.span)
		return
	}
	c.add(level.Caution, "download", "%s: fetches from the network", c.name)
}

func wgetCommand(c *call) {
	for i, w := range c.args {
		switch {
		case strings.HasPrefix(w.s, "--post-") || strings.HasPrefix(w.s, "--body-") || w.s == "--method=POST" || w.s == "--method=PUT":
			c.add(level.Dangerous, "upload", "wget %s: sends data to a server", w.s)
			c.a.uploadAt(c.span)
			if strings.HasPrefix(w.s, "--post-file") || strings.HasPrefix(w.s, "--body-file") {
				if v := strings.TrimPrefix(strings.TrimPrefix(w.s, "--post-file="), "--body-file="); v != w.s {
					c.a.readSource(word{s: v}, c.span)
				} else if i+1 < len(c.args) {
					c.a.readSource(c.args[i+1], c.span)
				}
			}
			return
		case (w.s == "-O" || w.s == "--output-document") && i+1 < len(c.args):
			c.a.writeTarget(c.args[i+1], c.span, "downloads into")
			if !c.args[i+1].hole {
				c.a.setFile(c.args[i+1].s, fileDownloaded)
			}
		}
	}
	c.add(level.Caution, "download", "wget: fetches from the network")
}

// copyRemote rates scp and rsync: a host:path operand sends or fetches
// files over the network; rsync --delete deletes at the destination.
func copyRemote(c *call) {
	ops := c.operands()
	remote := false
	for _, w := range ops {
		if i := strings.Index(w.s, ":"); i > 0 && !strings.Contains(w.s[:i], "/") {
			remote = true
		}
	}
	if hasLong(c.args, "--delete", "--delete-after", "--delete-before", "--delete-during", "--delete-excluded", "--remove-source-files") {
		c.add(level.Dangerous, "rsync-delete", "%s --delete: deletes files at the destination", c.name)
	}
	if remote {
		c.add(level.Dangerous, "upload", "%s: copies files to or from another machine", c.name)
		c.a.uploadAt(c.span)
		for _, w := range ops[:max(0, len(ops)-1)] {
			c.a.readSource(w, c.span)
		}
		return
	}
	c.add(level.Caution, c.name, "%s: copies files", c.name)
	c.writeDest()
}

func openCommand(c *call) {
	for i, w := range c.args {
		if (w.s == "-a" || w.s == "-b") && i+1 < len(c.args) {
			app := strings.ToLower(c.args[i+1].s)
			if strings.Contains(app, "terminal") || strings.Contains(app, "iterm") || strings.Contains(app, "warp") ||
				strings.Contains(app, "alacritty") || strings.Contains(app, "kitty") || strings.Contains(app, "script editor") || c.args[i+1].hole {
				c.add(level.Dangerous, "open-terminal", "open -a %s: opens a terminal or script runner", display(c.args[i+1].s))
				return
			}
		}
	}
	for _, w := range c.operands() {
		s := strings.ToLower(w.s)
		if scheme, ok := urlScheme(s); ok {
			if l, why := schemeRisk(scheme); l > level.Caution {
				c.add(l, "open-url", "open %s: %s", display(w.s), why)
				continue
			}
			c.add(level.Caution, "open-url", "open: opens a web page")
			continue
		}
		for _, ext := range []string{".app", ".command", ".tool", ".sh", ".terminal", ".pkg", ".mpkg", ".workflow", ".scpt", ".applescript", ".dmg"} {
			if strings.HasSuffix(strings.TrimSuffix(s, "/"), ext) {
				c.add(level.Dangerous, "open-executable", "open %s: launches something that runs code", display(w.s))
			}
		}
		if w.hole {
			c.add(level.Dangerous, "open-computed", "open: opens something computed at run time")
		}
	}
	c.add(level.Caution, "open", "open: opens a file, folder or application")
}

func urlScheme(s string) (string, bool) {
	i := strings.Index(s, ":")
	if i <= 0 {
		return "", false
	}
	for _, r := range s[:i] {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.') {
			return "", false
		}
	}
	return s[:i], true
}

// schemeRisk rates a URL scheme: web pages are Caution; local files,
// scripts, data and settings panes are Dangerous.
func schemeRisk(scheme string) (level.Level, string) {
	switch scheme {
	case "http", "https", "mailto":
		return level.Caution, "opens a web page"
	case "file":
		return level.Dangerous, "file: URL opens a local file or application"
	case "javascript", "vbscript":
		return level.Dangerous, "javascript: URL runs script"
	case "data", "blob":
		return level.Dangerous, "data: URL carries its own content"
	case "x-apple.systempreferences", "x-apple-systempreferences":
		return level.Dangerous, "opens a System Settings pane"
	case "applescript", "x-apple-script", "shortcuts", "ssh", "vnc", "smb", "afp", "ftp", "sftp", "telnet", "x-man-page":
		return level.Dangerous, scheme + ": URL runs or connects to something"
	}
	return level.Dangerous, scheme + ": URL hands over to an application that may act on it"
}

// shellInterp rates sh, bash, zsh …: -c strings are analysed recursively;
// reading commands from a download or decoded data is Destructive.
func shellInterp(c *call) {
	for i, w := range c.args {
		s := w.s
		if s == "--" {
			break
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
			switch {
			case w.proc || w.hole:
				c.add(level.Destructive, "sh-computed", "%s runs a script computed at run time (%s)", c.name, display(s))
			case isStdinPath(s):
				c.fromStdin()
			case c.a.runFile(c, s):
			default:
				c.add(level.Dangerous, "sh-file", "%s %s: runs a script file that is not analysed", c.name, display(s))
			}
			return
		}
	}
	c.fromStdin()
}

// fromStdin rates an interpreter that reads its program from stdin.
func (c *call) fromStdin() {
	switch c.pc.stdin {
	case "download":
		c.add(level.Destructive, "curl-pipe-sh", "%s reads commands from a download: runs code from the network unseen", c.name)
	case "decoded":
		c.add(level.Destructive, "decoded-exec", "%s runs decoded or transformed data as commands", c.name)
	case "text":
		if shells[c.name] {
			c.nested([]word{{s: c.pc.text}}, c.name)
		} else {
			c.add(level.Dangerous, "interp-stdin", "%s runs a program that is not analysed", c.name)
			scanCode(c, c.pc.text)
		}
	case "computed":
		c.add(level.Destructive, "stdin-computed", "%s runs commands computed at run time", c.name)
	case "pipe":
		c.add(level.Destructive, "pipe-exec", "%s runs another program's output as commands", c.name)
	}
}

// nested analyses words as a shell script (sh -c, eval).
func (c *call) nested(ws []word, what string) {
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
	shellInto(c.a.v, src, c.a.env, anchorOr(c.a.anchor, &sp), c.a.depth+1)
}

func anchorOr(a, b *Span) *Span {
	if a != nil {
		return a
	}
	return b
}

func osascriptCommand(c *call) {
	c.add(level.Dangerous, "osascript", "osascript: runs AppleScript or JavaScript for Automation")
	jxa := false
	var lines []string
	file := false
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		switch {
		case w.s == "-l" && i+1 < len(c.args):
			jxa = strings.EqualFold(c.args[i+1].s, "JavaScript")
			i++
		case w.s == "-e" && i+1 < len(c.args):
			if c.args[i+1].hole {
				c.add(level.Destructive, "osascript-computed", "osascript -e with a script computed at run time")
				return
			}
			lines = append(lines, c.args[i+1].s)
			i++
		case strings.HasPrefix(w.s, "-"):
		default:
			if len(lines) == 0 {
				file = true
			}
			i = len(c.args)
		}
	}
	src := strings.Join(lines, "\n")
	if len(lines) == 0 {
		if file {
			c.add(level.Dangerous, "osascript-file", "osascript runs a script file that is not analysed")
			return
		}
		switch c.pc.stdin {
		case "text":
			src = c.pc.text
		case "":
			return
		default:
			c.fromStdin()
			return
		}
	}
	sp := c.span
	at := anchorOr(c.a.anchor, &sp)
	if c.a.depth+1 > maxDepth {
		c.add(level.Destructive, "too-deep", "scripts nested too deeply: not analysed")
		return
	}
	var inner Verdict
	if jxa {
		inner = jxaAt(src, c.a.env, c.a.depth+1)
	} else {
		inner = appleScriptAt(src, c.a.env, c.a.depth+1)
	}
	c.a.v.merge(inner, at)
}

// interpreter rates python, perl, ruby, node …: their code is not analysed,
// so they are at least Dangerous; plain keyword scanning raises that to
// Destructive for deletion and shell-outs with destructive commands.
func interpreter(codeFlag string) func(*call) {
	return func(c *call) {
		if len(c.args) == 0 {
			c.fromStdin()
			if c.pc.stdin == "" {
				return
			}
			return
		}
		for i, w := range c.args {
			s := w.s
			if s == "--version" || s == "-V" || s == "--help" || s == "-h" || s == "-v" && len(c.args) == 1 {
				return
			}
			if len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.ContainsAny(s[1:], codeFlag) {
				c.add(level.Dangerous, "interp-code", "%s runs inline code that is not analysed", c.name)
				if i+1 < len(c.args) {
					if c.args[i+1].hole {
						c.add(level.Destructive, "interp-computed", "%s runs code computed at run time", c.name)
					}
					scanCode(c, c.args[i+1].s)
				}
				return
			}
			if s == "-" {
				c.fromStdin()
				return
			}
			if !strings.HasPrefix(s, "-") {
				if s == "-m" {
					continue
				}
				c.add(level.Dangerous, "interp-file", "%s %s: runs a program that is not analysed", c.name, display(s))
				return
			}
		}
		c.fromStdin()
	}
}

// scanCode looks through unanalysed program text for the obvious.
func scanCode(c *call, code string) {
	low := strings.ToLower(code)
	for _, k := range []string{"rmtree", "unlink(", "os.remove", "remove_dir", "rm -rf", "rm -r", "fileutils.rm", "rmsync", "rimraf", "shutil.rmtree", "removeitematpath", "rm_rf"} {
		if strings.Contains(low, k) {
			c.add(level.Destructive, "interp-delete", "%s code deletes files (%s)", c.name, k)
			return
		}
	}
	for _, k := range []string{"os.system", "subprocess", "system(", "exec(", "popen", "spawn", "`", "eval("} {
		if strings.Contains(low, k) {
			c.add(level.Dangerous, "interp-shell", "%s code runs other commands (%s)", c.name, k)
			return
		}
	}
}

func awkCommand(c *call) {
	ops := c.operands()
	if len(ops) > 0 {
		prog := strings.ToLower(ops[0].s)
		if strings.Contains(prog, "system(") || strings.Contains(prog, "| \"sh") || strings.Contains(prog, "|\"sh") || strings.Contains(prog, "| \"bash") || ops[0].hole {
			c.add(level.Dangerous, "awk-system", "%s program runs shell commands", c.name)
		}
		if strings.Contains(prog, "> \"") || strings.Contains(prog, ">\"") {
			c.add(level.Caution, "awk-write", "%s program writes files", c.name)
		}
	}
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
		for _, w := range ops[:len(ops)-1] {
			if c.name != "ln" {
				c.a.readSource(w, c.span)
			}
			if c.name == "mv" {
				if z := c.a.zone(w); z.kind == zoneSystem || z.kind == zoneCredential || z.kind == zonePersistence {
					c.add(level.Dangerous, "move-protected", "mv %s: moves something out of %s", display(w.s), z.detail)
				}
			}
		}
		if hasShort(c.args, 't') {
			targets = ops[:1]
		}
	}
	for _, w := range targets {
		c.a.writeTarget(w, c.span, c.name+" writes to")
	}
}

func (c *call) writeOperands(verb string) {
	for _, w := range c.operands() {
		c.a.writeTarget(w, c.span, verb)
	}
}

func isStdinPath(s string) bool {
	switch s {
	case "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "-":
		return true
	}
	return false
}

// runFile rates running a script file this same input wrote or downloaded
// earlier; it reports false for a file the input did not produce.
func (a *shellAn) runFile(c *call, name string) bool {
	content, ok := a.files[name]
	if !ok {
		return false
	}
	if content == fileDownloaded {
		c.add(level.Destructive, "download-exec", "%s %s: runs a file downloaded by this same script", c.name, display(name))
		return true
	}
	if content == fileComputed {
		c.add(level.Destructive, "write-exec", "%s %s: runs a file this script wrote with computed content", c.name, display(name))
		return true
	}
	c.add(level.Caution, "write-exec", "%s %s: runs a script written earlier in this input", c.name, display(name))
	c.nested([]word{{s: content}}, c.name+" "+name)
	return true
}
