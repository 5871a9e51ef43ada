package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
)

// A row of the table: what one program does and how bad that is.
//
// A row with run set is rated by that function alone (a rule a table
// cannot say). Otherwise the row says it: every use is level, "name: why",
// except that with subs the first operand picks the level (an operand not
// in subs gets level), and with writes the last operand is a file it
// writes, rated by where it is.
type row struct {
	level  level.Level
	why    string
	subs   map[string]level.Level
	writes bool
	run    func(*call)
}

// rate adds what the row says of c.
func (r row) rate(c *call) {
	switch {
	case r.run != nil:
		r.run(c)
	case r.subs != nil:
		c.bySub(r.level, r.why, r.subs)
	default:
		if r.level > level.Safe {
			c.add(r.level, c.name, "%s: %s", c.name, r.why)
		}
		if r.writes {
			c.writeDest()
		}
	}
}

// bySub rates c by its first operand, lower-cased: subs gives its level,
// an operand not in subs gets def, "name sub: defWhy".
func (c *call) bySub(def level.Level, defWhy string, subs map[string]level.Level) {
	s := sub(c.args)
	l, ok := subs[s]
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

// Row makers, so a row reads as what it says.
var (
	safe = row{}
)

func caution(why string) row     { return row{level: level.Caution, why: why} }
func dangerous(why string) row   { return row{level: level.Dangerous, why: why} }
func destructive(why string) row { return row{level: level.Destructive, why: why} }
func writes(why string) row      { return row{level: level.Caution, why: why, writes: true} }
func custom(f func(*call)) row   { return row{run: f} }

// rows finds a command's row. The rows name functions that analyse nested
// scripts, which look rows up again; a direct reference from them to
// commands would make its initialiser depend on itself, which Go refuses.
// So lookups go through this interface value, whose dynamic call Go's
// initialisation order does not follow.
var rows rowTable = tableRef{}

type rowTable interface{ row(name string) (row, bool) }

type tableRef struct{}

func (tableRef) row(name string) (row, bool) {
	r, ok := commands[name]
	return r, ok
}

// commands is the table: one row per program, keyed by the lower-case base
// name the analyzer sees once wrappers (sudo, env, xargs …) are peeled off.
// A Go map literal refuses a duplicate key; table_test.go refuses a row no
// command name can reach. Programs named by a prefix (python3.12, perl5.30,
// mkfs.ext4 …) are in prefixCommand. Everything else is unknown: Dangerous.
var commands = map[string]row{
	// Read-only tools: they print what they find.
	"ls": safe, "cat": safe, "echo": safe, "printf": safe, "pwd": safe, "whoami": safe, "id": safe, "groups": safe,
	"date": safe, "cal": safe, "uptime": safe, "df": safe, "du": safe, "sw_vers": safe, "uname": safe,
	"hostname": safe, "which": safe, "whereis": safe, "type": safe, "file": safe, "stat": safe, "head": safe,
	"tail": safe, "wc": safe, "grep": safe, "egrep": safe, "fgrep": safe, "ag": safe, "cut": safe, "tr": safe,
	"column": safe, "paste": safe, "join": safe, "comm": safe, "fold": safe, "fmt": safe, "nl": safe, "rev": safe,
	"expand": safe, "unexpand": safe, "diff": safe, "cmp": safe, "less": custom(lessCommand), "more": custom(lessCommand), "ps": safe,
	"pgrep": safe, "lsof": safe, "netstat": safe, "ipconfig": safe, "ping": safe, "traceroute": safe, "dig": safe,
	"nslookup": safe, "host": safe, "whois": safe, "mdfind": safe, "mdls": safe, "system_profiler": safe,
	"ioreg": safe, "vm_stat": safe, "iostat": safe, "top": safe, "htop": safe, "w": safe, "who": safe, "last": safe,
	"printenv": custom(printenvCommand), "env": custom(printenvCommand), "locale": safe, "basename": safe, "dirname": safe, "realpath": safe, "readlink": safe,
	"test": safe, "[": safe, "[[": safe, "true": safe, "false": safe, ":": safe, "sleep": safe, "exit": safe,
	"return": safe, "cd": safe, "pushd": safe, "popd": safe, "read": safe, "continue": safe, "break": safe,
	"seq": safe, "jot": safe, "bc": safe, "expr": safe, "md5": safe, "md5sum": safe, "shasum": safe,
	"sha1sum": safe, "sha256sum": safe, "cksum": safe, "od": safe, "hexdump": safe, "strings": safe,
	"pbpaste": safe, "info": safe, "help": safe, "history": safe, "jobs": safe, "wait": safe, "shift": safe,
	"set": safe, "unset": safe, "export": safe, "local": safe, "declare": safe, "typeset": safe, "readonly": safe,
	"getopts": safe, "umask": safe, "ulimit": safe, "tput": safe, "clear": safe, "stty": safe, "tty": safe,
	"afplay": safe, "say": safe, "command": safe, "nproc": safe, "getconf": safe, "shopt": safe, "let": safe,
	"fc": safe, "times": safe, "logname": safe, "users": safe, "lastlog": safe, "jq": custom(jqCommand), "yq": safe,
	"xmllint": safe, "iconv": safe, "uuidgen": safe, "bat": safe, "fzf": safe, "tree": safe, "exa": safe,
	"eza": safe, "tac": safe, "tldr": safe, "whatis": safe, "apropos": safe, "lsappinfo": safe, "lpstat": safe,
	"networkquality": safe, "afinfo": safe, "lesspipe.sh": safe, "lesspipe": safe,
	"wrapper-alone": safe, // sudo, nohup … with nothing to run (peel)

	// Tools that change files or settings in ways that can be undone.
	"pbcopy": custom(pbcopyCommand), "rmdir": caution("removes empty folders"),
	"gzip": caution("compresses files"), "gunzip": caution("decompresses files"), "bzip2": caution("compresses files"),
	"xz": caution("compresses files"), "screencapture": caution("takes a screenshot"),
	"purge": caution("flushes disk caches"), "mount": caution("mounts a volume"), "umount": caution("unmounts a volume"),
	"code": caution("opens VS Code"), "subl": caution("opens Sublime Text"), "qlmanage": caution("previews files"),
	"ssh-keygen": caution("manages SSH keys"), "ssh-add": caution("manages the SSH agent"),
	"split": caution("splits files"), "lipo": caution("edits binaries"),
	"install_name_tool": caution("edits binaries"), "convert": caution("converts images"),
	"ffmpeg": caution("converts media"), "pandoc": caution("converts documents"), "textutil": caution("converts documents"),
	"mv": writes("changes files"), "install": writes("changes files"), "ditto": writes("copies files"),
	"ln": writes("creates links"), "touch": writes("creates or updates files"), "mkdir": writes("creates folders"),
	"cp": custom(cpCommand), "tee": custom(teeCommand),

	// Hard to reverse, or reaching beyond the Mac.
	"nc": dangerous("opens raw network connections"), "ncat": dangerous("opens raw network connections"),
	"netcat": dangerous("opens raw network connections"), "socat": dangerous("relays network connections"),
	"telnet": dangerous("opens raw network connections"), "ssh-copy-id": dangerous("installs a key on another machine"),
	"shutdown": dangerous("powers the Mac off or restarts it"), "reboot": dangerous("restarts the Mac"),
	"halt": dangerous("halts the Mac"), "tccutil": custom(tccutilCommand),
	"unlink": custom(unlinkCommand), "osacompile": dangerous("compiles a script"),
	"bless": dangerous("changes the startup disk"), "kextload": dangerous("loads a kernel extension"),
	"kextunload": dangerous("unloads a kernel extension"), "systemextensionsctl": dangerous("manages system extensions"),
	"dsenableroot": custom(dsenablerootCommand), "passwd": destructive("changes a password"),
	"createhomedir": destructive("creates home folders for accounts"), "dseditgroup": custom(dseditgroupCommand),
	"pwpolicy": custom(pwpolicyCommand), "dsmemberutil": custom(dsmemberutilCommand),
	"chsh": dangerous("changes the login shell"), "visudo": destructive("edits sudo rules, which decide who may run anything as root"),
	"mount_smbfs": dangerous("mounts a network share"),
	"automator":   dangerous("runs a workflow (its actions are not analysed)"),

	// Irreversible.
	"srm": destructive("securely erases files: unrecoverable"), "shred": destructive("overwrites files: unrecoverable"),
	"wipe": destructive("wipes files: unrecoverable"), "gshred": destructive("overwrites files: unrecoverable"),
	"gsrm": destructive("securely erases files: unrecoverable"), "fdisk": destructive("edits the partition table"),
	"gpt": destructive("edits the partition table"), "asr": destructive("restores over a volume"),
	"csrutil": custom(csrutilCommand), "truncate": custom(truncateCommand), "rm": custom(rmCommand),
	"dd": custom(ddCommand), "diskutil": custom(diskutilCommand),

	// By subcommand.
	"tmutil": {level: level.Dangerous, why: "changes Time Machine", subs: map[string]level.Level{
		"status": level.Safe, "listbackups": level.Safe, "latestbackup": level.Safe, "listlocalsnapshots": level.Safe,
		"listlocalsnapshotdates": level.Safe, "machinedirectory": level.Safe, "isexcluded": level.Safe, "destinationinfo": level.Safe,
		"version": level.Safe, "compare": level.Safe, "calculatedrift": level.Safe, "uniquesize": level.Safe,
		"startbackup": level.Caution, "stopbackup": level.Caution, "addexclusion": level.Caution,
		"delete": level.Destructive, "deletelocalsnapshots": level.Destructive, "thinlocalsnapshots": level.Destructive,
		"deleteinprogress": level.Destructive, "disable": level.Dangerous, "removeexclusion": level.Caution,
	}},
	"kubectl": {level: level.Dangerous, why: "changes a cluster", subs: map[string]level.Level{
		"get": level.Safe, "describe": level.Safe, "logs": level.Safe, "version": level.Safe, "config": level.Caution,
		"top": level.Safe, "explain": level.Safe, "api-resources": level.Safe, "delete": level.Destructive,
		"completion": level.Safe, "cluster-info": level.Safe, "api-versions": level.Safe,
	}},
	"log": {level: level.Dangerous, why: "changes or erases the system log", subs: map[string]level.Level{
		"show": level.Safe, "stream": level.Safe, "stats": level.Safe, "help": level.Safe, "": level.Safe, "collect": level.Caution,
	}},
	"wdutil": {level: level.Dangerous, why: "changes Wi-Fi diagnostics", subs: map[string]level.Level{
		"info": level.Safe, "help": level.Safe, "": level.Safe, "diagnose": level.Caution,
	}},
	"kmutil": {level: level.Dangerous, why: "loads, unloads or rebuilds kernel extensions", subs: map[string]level.Level{
		"showloaded": level.Safe, "inspect": level.Safe, "print-diagnostics": level.Safe, "help": level.Safe, "": level.Safe,
	}},
	"mas": {level: level.Caution, why: "changes App Store apps", subs: map[string]level.Level{
		"list": level.Safe, "outdated": level.Safe, "search": level.Safe, "info": level.Safe, "version": level.Safe,
		"help": level.Safe, "account": level.Safe, "vendor": level.Safe, "": level.Safe, "uninstall": level.Dangerous,
	}},

	// Files, text and archives.
	"chmod": custom(permCommand), "chown": custom(permCommand), "chgrp": custom(permCommand),
	"find": custom(findCommand), "fd": custom(fdCommand), "fdfind": custom(fdCommand), "rg": custom(rgCommand),
	"sort": custom(sortCommand), "uniq": custom(uniqCommand), "base64": custom(base64Command), "xxd": custom(xxdCommand),
	"sed": custom(sedCommand), "gsed": custom(sedCommand), "awk": custom(awkCommand), "gawk": custom(awkCommand),
	"nawk": custom(awkCommand), "mawk": custom(awkCommand), "tar": custom(tarCommand), "bsdtar": custom(tarCommand),
	"gtar": custom(tarCommand), "zip": custom(zipCommand), "unzip": custom(unzipCommand),
	"chflags": custom(chflagsCommand), "xattr": custom(xattrCommand), "plutil": custom(plutilCommand),
	"plistbuddy": custom(plistBuddyCommand), "defaults": custom(defaultsCommand), "sips": custom(sipsCommand),
	"hdiutil": custom(hdiutilCommand), "pkgutil": custom(pkgutilCommand), "codesign": custom(codesignCommand),
	"mdutil": custom(mdutilCommand), "man": custom(manCommand), "gpg": custom(gpgCommand),
	"openssl": custom(opensslCommand), "security": custom(securityCommand),
	"vim": custom(vimCommand), "vi": custom(vimCommand), "nvim": custom(vimCommand), "view": custom(vimCommand),
	"vimdiff": custom(vimCommand), "nvi": custom(vimCommand), "ex": custom(vimCommand), "gvim": custom(vimCommand),
	"mvim": custom(vimCommand),

	// System settings, accounts, services.
	"crontab": custom(crontabCommand), "launchctl": custom(launchctlCommand), "at": custom(atCommand),
	"batch": custom(atCommand), "atq": safe, "atrm": caution("removes scheduled jobs"),
	"periodic": dangerous("runs the periodic maintenance scripts, which are not analysed"),
	"sfltool":  {level: level.Dangerous, why: "changes login and background items", subs: map[string]level.Level{"dumpbtm": level.Safe, "": level.Safe}}, "dscl": custom(dsclCommand), "sysadminctl": custom(sysadminctlCommand),
	"softwareupdate": custom(softwareupdateCommand), "spctl": custom(spctlCommand), "socketfilterfw": custom(socketfilterfwCommand),
	"pfctl": custom(pfctlCommand), "fdesetup": custom(fdesetupCommand), "nvram": custom(nvramCommand),
	"pmset": custom(pmsetCommand), "sysctl": custom(sysctlCommand), "ifconfig": custom(ifconfigCommand),
	"route": custom(routeCommand), "arp": custom(arpCommand), "dscacheutil": custom(dscacheutilCommand),
	"dns-sd": custom(dnssdCommand), "xcode-select": custom(xcodeSelectCommand),
	"memory_pressure": custom(memoryPressureCommand), "profiles": custom(profilesCommand),
	"installer": custom(installerCommand), "networksetup": custom(networksetupCommand),
	"systemsetup": custom(getterSetter("-get", "-list", "-print", "-version", "-help")),
	"scutil":      custom(getterSetter("--get", "--dns", "--proxy", "--nwi", "-r", "-w", "--nc")),
	"shortcuts":   custom(shortcutsCommand), "kill": custom(killCommand), "killall": custom(killCommand),
	"pkill": custom(killCommand), "su": custom(suCommand), "hash": custom(hashCommand),

	// Network.
	"curl": custom(curlCommand), "wget": custom(wgetCommand), "scp": custom(copyRemote), "rsync": custom(copyRemote),
	"ssh": custom(sshCommand), "sftp": custom(sftpCommand),

	// Scripts, interpreters, terminals: what they run is analysed when it can be.
	"sh": custom(shellInterp), "bash": custom(shellInterp), "zsh": custom(shellInterp), "dash": custom(shellInterp),
	"ksh": custom(shellInterp), "mksh": custom(shellInterp), "fish": custom(shellInterp), "tcsh": custom(shellInterp),
	"csh": custom(shellInterp), "eval": custom(evalCommand), "source": custom(sourceCommand), ".": custom(sourceCommand),
	"alias": custom(aliasCommand), "trap": custom(trapCommand), "osascript": custom(osascriptCommand),
	"open": custom(openCommand), "node": custom(interpreter(nodeSpec)), "nodejs": custom(interpreter(nodeSpec)),
	"swift": custom(interpreter(interpSpec{code: "e"})), "php": custom(interpreter(phpSpec)),
	"lua": custom(interpreter(luaSpec)), "luajit": custom(interpreter(luaSpec)),
	"tclsh": custom(interpreter(interpSpec{})), "wish": custom(interpreter(interpSpec{})),
	"deno": custom(runtimeCommand), "bun": custom(runtimeCommand), "pwsh": custom(pwshCommand),
	"powershell": custom(pwshCommand), "expect": custom(expectCommand), "screen": custom(screenCommand),
	"tmux": custom(tmuxCommand), "xcrun": custom(xcrunCommand), "xdotool": custom(synthInput),
	"ydotool": custom(synthInput), "wtype": custom(synthInput), "cliclick": custom(synthInput), "xte": custom(synthInput),
	"xvkbd": custom(synthInput),

	// Build tools, package managers, containers, databases, clouds.
	"cargo": custom(cargoCommand), "xcodebuild": dangerous("runs the project's build phases and scripts, which are not analysed"),
	"pod":    dangerous("runs the Podfile and podspecs (Ruby), which are not analysed"),
	"bundle": dangerous("runs the Gemfile (Ruby) and the gems' code, which are not analysed"),
	"make":   custom(makeCommand), "gmake": custom(makeCommand), "go": custom(goCommand), "npm": custom(npmCommand),
	"pnpm": custom(npmCommand), "yarn": custom(npmCommand), "npx": custom(packageRunner), "bunx": custom(packageRunner),
	"uvx": custom(packageRunner), "pnpx": custom(packageRunner), "pipx": custom(pipxCommand), "pip": custom(pipCommand),
	"pip3": custom(pipCommand), "gem": custom(gemCommand), "brew": custom(brewCommand),
	"docker": custom(dockerCommand), "podman": custom(dockerCommand), "docker-compose": custom(composeCommand),
	"sqlite3": custom(sqliteCommand), "psql": custom(sqlClientCommand), "mysql": custom(sqlClientCommand),
	"mariadb": custom(sqlClientCommand), "redis-cli": custom(redisCommand), "terraform": custom(terraformCommand),
	"tofu": custom(terraformCommand), "aws": custom(cloudCommand), "gcloud": custom(cloudCommand),
	"gsutil": custom(cloudCommand), "az": custom(cloudCommand), "git": custom(gitCommand),
}

// set makes a set of the words of a space-separated list.
func set(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}
