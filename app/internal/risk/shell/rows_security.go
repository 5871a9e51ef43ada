package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// The OS's security controls: Gatekeeper, SIP, the firewalls, quarantine,
// XProtect, TCC, FileVault, the screen lock, sudo. Weakening any of them
// is Destructive (DESIGN.md, "Risk levels"): it always asks. Each tool's
// read-only uses are listed; any other use, an unknown option included,
// changes the control.

// securityOff rates a change to a security control.
func (c *call) securityOff(format string, args ...any) {
	c.add(effect.Of(effect.SecurityOff), "security-off", format, args...)
}

// spctlCommand rates spctl (Gatekeeper): --status, --assess and --list
// read; --master-enable and --global-enable turn it back on; anything
// else (--master-disable, --global-disable, --add, --remove, --disable,
// --enable of a rule, an option not modelled) changes what may run.
func spctlCommand(c *call) {
	enable := false
	if ops := c.operands(); len(ops) > 0 && inList(strings.ToLower(ops[0].s), "kext-consent", "developer-mode") {
		if len(ops) < 2 || inList(strings.ToLower(ops[1].s), "status", "list") {
			return
		}
		c.securityOff("spctl %s %s: lets code run that the OS would refuse", ops[0].s, rate.Display(ops[1].s))
		return
	}
	for _, w := range c.args {
		name, _, _ := strings.Cut(w.s, "=")
		switch {
		case w.hole:
			c.securityOff("spctl %s: changes Gatekeeper with an option computed at run time", rate.Display(w.s))
			return
		case inList(name, "--status", "--assess", "--list", "--test", "--type", "--verbose", "--raw", "--context", "--ignore-cache", "--no-cache", "--label", "--path", "--requirement", "--anchor", "--hash", "--rule", "--priority", "--continue", "--help"):
		case inList(w.s, "--master-enable", "--global-enable"):
			enable = true
		case strings.HasPrefix(w.s, "-") && !strings.HasPrefix(w.s, "--") && strings.Trim(w.s[1:], "atvRh") == "":
			// -a (assess), -t TYPE, -v, -vv, -vvv (more detail), -R (raw), -h:
			// an assessment, which reads.
		case strings.HasPrefix(w.s, "-"):
			c.securityOff("spctl %s: changes what Gatekeeper lets run", rate.Display(w.s))
			return
		}
	}
	if enable {
		c.add(effect.Of(effect.Setting), "spctl", "spctl: turns Gatekeeper on")
	}
}

// socketfilterfwRead are the application firewall's reading options.
var socketfilterfwRead = set(`--getglobalstate --getblockall --getallowsigned --getstealthmode --getloggingmode
	--getloggingopt --listapps --getappblocked --help -h --version`)

// socketfilterfwCommand rates the application firewall's tool: its --get…
// and --list options read; everything else changes the firewall.
func socketfilterfwCommand(c *call) {
	for _, w := range c.args {
		if !strings.HasPrefix(w.s, "-") && !w.hole {
			continue // an application path, on, off
		}
		if w.hole || !socketfilterfwRead[w.s] {
			c.securityOff("socketfilterfw %s: changes the application firewall", rate.Display(w.s))
			return
		}
	}
}

// pfctlCommand rates pfctl (the packet filter): -s shows and -e enables;
// -d disables, -f loads rules, -F flushes them, and anything else changes
// the filter.
func pfctlCommand(c *call) {
	for _, w := range c.args {
		s := w.s
		if w.hole {
			c.securityOff("pfctl: changes the packet filter with options computed at run time")
			return
		}
		if !strings.HasPrefix(s, "-") || len(s) < 2 {
			continue
		}
		switch s[1] {
		case 's', 'v', 'n', 'q', 'g', 'h', 'a', 'E', 'X':
			// show, verbose, dry run, quiet, debug, help, anchor, enable with a token
		case 'e':
			c.add(effect.Of(effect.Setting), "pfctl", "pfctl -e: enables the packet filter")
		default:
			c.securityOff("pfctl %s: disables the packet filter or changes its rules", rate.Display(s))
			return
		}
	}
}

// quarantineAttr is the attribute Gatekeeper checks on downloaded files.
const quarantineAttr = "com.apple.quarantine"

// xattrCommand rates xattr: -p and -l read; -w writes an attribute;
// removing the quarantine attribute (-d com.apple.quarantine, -c for all
// of them) or writing it (-w com.apple.quarantine) skips Gatekeeper's
// check of a download.
func xattrCommand(c *call) {
	var del, clear, write bool
	for _, w := range c.args {
		if !strings.HasPrefix(w.s, "-") || len(w.s) < 2 || w.hole {
			continue
		}
		for _, l := range w.s[1:] {
			switch l {
			case 'd':
				del = true
			case 'c':
				clear = true
			case 'w':
				write = true
			case 'p', 'l', 'r', 's', 'v', 'x', 'h':
			default:
				c.unmodelled(w.s)
				return
			}
		}
	}
	switch {
	case clear || del && (hasArg(c.args, quarantineAttr) || hasHole(c.args)):
		c.securityOff("xattr %s: removes the quarantine attribute, so Gatekeeper never checks the file", map[bool]string{true: "-c", false: "-d " + quarantineAttr}[clear])
	case write && (hasArg(c.args, quarantineAttr) || hasHole(c.args)):
		// The attribute's flags say whether the person already approved
		// the file: a value written with that flag set skips the check
		// as surely as removing it (a fourth red team's).
		c.securityOff("xattr -w %s: rewrites the quarantine attribute, whose flags can mark the file as already approved, so Gatekeeper never checks it", quarantineAttr)
	case del || write:
		c.add(effect.Of(effect.Change), "xattr", "xattr: changes extended attributes")
	}
}

// hasHole reports a word computed at run time among ws.
func hasHole(ws []word) bool {
	for _, w := range ws {
		if w.hole {
			return true
		}
	}
	return false
}

// nvramCommand rates nvram: printing reads; boot-args and the security
// variables weaken the boot; any other write changes firmware settings.
func nvramCommand(c *call) {
	if len(c.args) == 0 || hasShort(c.args, 'p') || hasShort(c.args, 'x') && len(c.args) == 1 {
		return
	}
	for _, w := range c.args {
		name, _, set := strings.Cut(w.s, "=")
		low := strings.ToLower(name)
		if w.hole || set && (low == "boot-args" || strings.Contains(low, "csr-active-config") || strings.Contains(low, "security")) || hasShort(c.args, 'c') || hasShort(c.args, 'd') || hasShort(c.args, 'f') {
			c.securityOff("nvram %s: changes the boot arguments or security variables of the firmware", rate.Display(w.s))
			return
		}
	}
	c.add(effect.Of(effect.Setting, effect.Session), "nvram", "nvram: changes firmware variables")
}

// tccutilCommand rates tccutil: reset forgets the person's privacy
// decisions (every app asks again, or a stale grant is moved).
func tccutilCommand(c *call) {
	switch strings.ToLower(sub(c.args)) {
	case "", "--help", "-h", "help", "--version":
		return
	}
	c.securityOff("tccutil %s: resets privacy permissions (TCC)", rate.Display(sub(c.args)))
}

// fdesetupSubs are fdesetup's reading subcommands; enable and the key
// changes keep FileVault on (Dangerous); disable and everything else
// weakens it.
var fdesetupSubs = map[string]effect.Effect{
	"status": readOnly, "list": readOnly, "isactive": readOnly, "haspersonalrecoverykey": readOnly,
	"hasinstitutionalrecoverykey": readOnly, "supportsauthrestart": readOnly, "usingrecoverykey": readOnly,
	"showdeferralinfo": readOnly, "validaterecovery": readOnly, "help": readOnly, "version": readOnly, "": readOnly,
	"enable": effect.Of(effect.Setting, effect.Session), "changerecovery": effect.Of(effect.Setting, effect.Session), "sync": effect.Of(effect.Setting, effect.Session),
}

func fdesetupCommand(c *call) {
	s := sub(c.args)
	e, ok := fdesetupSubs[s]
	switch {
	case !ok:
		c.securityOff("fdesetup %s: changes FileVault", rate.Display(s))
	case weight(e) > level.Safe:
		c.add(e, "fdesetup", "fdesetup %s: changes FileVault", s)
	}
}

// securityDefaults are preference keys whose value turns a protection
// off, by domain (lower case) and key, with the values that do.
var securityDefaults = map[string]map[string][]string{
	"com.apple.launchservices": {"lsquarantine": {"no", "false", "0"}},
	"com.apple.screensaver":    {"askforpassword": {"0", "no", "false"}, "askforpassworddelay": nil},
	"com.apple.softwareupdate": {"configdatainstall": {"no", "false", "0"}, "criticalupdateinstall": {"no", "false", "0"},
		"automaticcheckenabled": {"no", "false", "0"}, "automaticdownload": {"no", "false", "0"}},
	"com.apple.alf":                  {"globalstate": {"0"}, "stealthenabled": {"0", "no", "false"}, "allowsignedenabled": nil},
	"com.apple.security":             {"gkautorearm": {"no", "false", "0"}},
	"com.apple.systempolicy.control": {"enableassessment": {"no", "false", "0"}},
	"com.apple.loginwindow":          {"guestenabled": {"1", "yes", "true"}, "autologinuser": nil, "disablefdeautologin": {"0", "no", "false"}},
}

// defaultsSecurity reports a defaults write that turns a protection off:
// domain (a name or a path), then key and value among ops.
func defaultsSecurity(ops []word) (string, bool) {
	if len(ops) < 3 {
		return "", false
	}
	domain := strings.ToLower(strings.TrimSuffix(ops[1].s, ".plist"))
	if i := strings.LastIndex(domain, "/"); i >= 0 {
		domain = domain[i+1:]
	}
	keys, ok := securityDefaults[domain]
	if !ok {
		return "", false
	}
	key := strings.ToLower(ops[2].s)
	off, ok := keys[key]
	if !ok {
		return "", false
	}
	if off == nil || len(ops) < 4 || ops[3].hole {
		return domain + " " + ops[2].s, true // any value weakens it, or the value is not known
	}
	if inList(strings.ToLower(ops[len(ops)-1].s), off...) {
		return domain + " " + ops[2].s, true
	}
	return "", false
}

// securityPaths are the files of the OS's protections: writing, moving or
// removing them turns the protection off.
var securityPaths = []struct{ prefix, what string }{
	{"/Library/Apple/System/Library/CoreServices/XProtect", "XProtect, the malware scanner"},
	{"/System/Library/CoreServices/XProtect", "XProtect, the malware scanner"},
	{"/Library/Apple/System/Library/CoreServices/MRT.app", "the Malware Removal Tool"},
	{"/Library/Apple/System/Library/CoreServices/MRTAgent.app", "the Malware Removal Tool"},
	{"/var/db/SystemPolicy", "Gatekeeper's policy database"},
	{"/private/var/db/SystemPolicy", "Gatekeeper's policy database"},
	{"/Library/Application Support/com.apple.TCC", "the privacy database (TCC)"},
	{"/etc/sudoers", "sudo's rules"},
	{"/private/etc/sudoers", "sudo's rules"},
	{"/etc/pam.d", "the login rules (PAM)"},
	{"/private/etc/pam.d", "the login rules (PAM)"},
	{"/Library/Preferences/com.apple.alf.plist", "the application firewall"},
	{"/etc/pf.conf", "the packet filter's rules"},
	{"/Library/Keychains/System.keychain", "the System keychain"},
	{"~/Library/Application Support/com.apple.TCC", "the privacy database (TCC)"},
}

// securityPath reports the protection a path (~ not expanded) belongs to.
func securityPath(p string) (string, bool) {
	for _, s := range securityPaths {
		if strings.HasPrefix(p, s.prefix) && (len(p) == len(s.prefix) || strings.IndexByte("/._-", p[len(s.prefix)]) >= 0) {
			return s.what, true
		}
	}
	return "", false
}

// securityTarget rates a write, move or removal of w, resolved, when it is
// a file of the OS's protections.
func (a *shellAn) securityTarget(w word, sp Span, verb string) {
	p, ok := a.pathOf(w)
	if !ok {
		return
	}
	what, ok := securityPath(p)
	if !ok && strings.Contains(p, "/Library/Application Support/com.apple.TCC") {
		what, ok = "the privacy database (TCC)", true
	}
	if ok {
		a.add(effect.Of(effect.SecurityOff).On(w.s), "shell.security-off", sp, "%s %s: changes %s, a protection of the OS", verb, rate.Display(w.s), what)
	}
}

// securityDefaultKey reports a domain and key of securityDefaults among
// ops (defaults delete DOMAIN KEY).
func securityDefaultKey(ops []word) bool {
	domain := strings.ToLower(strings.TrimSuffix(ops[1].s, ".plist"))
	if i := strings.LastIndex(domain, "/"); i >= 0 {
		domain = domain[i+1:]
	}
	_, ok := securityDefaults[domain][strings.ToLower(ops[2].s)]
	return ok
}

// isTCCDatabase reports the privacy database, the user's or the system's.
func isTCCDatabase(w word) bool {
	return w.hole && strings.HasSuffix(w.s, "/TCC.db") || strings.HasSuffix(w.s, "com.apple.TCC/TCC.db")
}

// tccWrite rates SQL given to sqlite3 on the privacy database: a write
// (INSERT, UPDATE, DELETE, REPLACE, DROP, ALTER, CREATE) grants or removes
// permissions behind the person's back; SQL not shown may be one.
func (c *call) tccWrite(sql []word) {
	if len(sql) == 0 && c.pc.stdin != "text" {
		c.securityOff("sqlite3 on TCC.db with SQL this input does not show: may grant privacy permissions")
		return
	}
	texts := []word{{s: c.pc.text}}
	if len(sql) > 0 {
		texts = sql
	}
	for _, t := range texts {
		up := strings.ToUpper(t.s)
		if t.hole {
			c.securityOff("sqlite3 on TCC.db with SQL computed at run time: may grant privacy permissions")
			return
		}
		for _, kw := range []string{"INSERT", "UPDATE", "DELETE", "REPLACE", "DROP", "ALTER", "CREATE", "ATTACH", ".IMPORT", ".RESTORE"} {
			if strings.Contains(up, kw) {
				c.securityOff("sqlite3 %s on TCC.db: writes the privacy database, granting or removing permissions", kw)
				return
			}
		}
	}
}

// securityServices are the launchd labels of the OS's protections.
var securityServices = []string{"com.apple.alf", "com.apple.xprotect", "com.apple.syspolicy", "com.apple.tccd",
	"com.apple.mrt", "com.apple.security", "com.apple.trustd", "com.apple.managedclient", "com.apple.endpointsecurity",
	"com.apple.amfid", "com.apple.sandboxd", "com.apple.opendirectoryd", "com.apple.screensharing"}

// codeVars are environment variables that make every program load or run
// what they name.
var codeVars = []string{"DYLD_", "LD_PRELOAD", "LD_LIBRARY_PATH", "NODE_OPTIONS", "PERL5OPT", "PYTHONSTARTUP",
	"RUBYOPT", "JAVA_TOOL_OPTIONS", "BASH_ENV", "PYTHONPATH", "CFNETWORK_LIBRARY_PATH"}

// launchctlSecurity rates stopping or disabling a protection's service,
// and setenv of a variable that injects code into every app started from
// now on. It reports whether it rated c.
func (c *call) launchctlSecurity(s string) bool {
	ops := c.operands()
	switch s {
	case "bootout", "disable", "unload", "remove", "kill", "stop":
		for _, o := range ops[1:] {
			low := strings.ToLower(o.s)
			for _, svc := range securityServices {
				if strings.Contains(low, svc) {
					c.securityOff("launchctl %s %s: stops a protection of the OS", s, rate.Display(o.s))
					return true
				}
			}
		}
	case "setenv":
		if len(ops) > 1 {
			for _, v := range codeVars {
				if strings.HasPrefix(strings.ToUpper(ops[1].s), v) || ops[1].hole {
					c.add(effect.Of(effect.LoadCode, effect.Planted), "persistence", "launchctl setenv %s: every app started from now on loads or runs what it names (persistence)", rate.Display(ops[1].s))
					return true
				}
			}
		}
	}
	return false
}
