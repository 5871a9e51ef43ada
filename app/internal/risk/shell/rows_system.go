package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// The row functions of system tools: settings, accounts, services, disks.

func csrutilCommand(c *call) {
	if s := sub(c.args); s == "status" || s == "" {
		return
	}
	c.add(effect.Of(effect.SecurityOff), "csrutil", "csrutil %s: changes System Integrity Protection", sub(c.args))
}

func truncateCommand(c *call) {
	c.add(effect.Of(effect.Remove), "truncate", "truncate: cuts files to a given size, losing their contents")
	c.writeOperands("resizes")
}

func ddCommand(c *call) {
	for _, w := range c.args {
		if strings.HasPrefix(strings.ToLower(w.s), "of=") {
			c.add(effect.Of(effect.Remove).On(w.s), "dd", "dd %s: overwrites a file or disk block by block", rate.Display(w.s))
			return
		}
	}
	c.add(effect.Of(effect.Create), "dd", "dd: copies data block by block")
}

func crontabCommand(c *call) {
	switch {
	case hasShort(c.args, 'l'):
	case hasShort(c.args, 'r'):
		c.add(effect.Of(effect.Remove, effect.Bulk), "crontab", "crontab -r: removes every cron job")
	default:
		c.add(effect.Of(effect.Persist), "crontab", "crontab: installs scheduled commands (persistence)")
	}
}

func softwareupdateCommand(c *call) {
	if hasShort(c.args, 'i') || hasShort(c.args, 'a') || hasLong(c.args, "--install", "--all", "--install-rosetta", "--restart") {
		c.add(effect.Of(effect.Install), "softwareupdate", "softwareupdate: installs system updates")
	}
	for i, w := range c.args {
		switch {
		case w.s == "--schedule" && i+1 < len(c.args) && strings.EqualFold(c.args[i+1].s, "on"):
			c.add(effect.Of(effect.Setting, effect.Session), "softwareupdate", "softwareupdate --schedule on: changes when updates are checked")
		case w.s == "--schedule" && i+1 < len(c.args):
			// Off, or a word a later macOS may read as off: security
			// updates stop arriving.
			c.add(effect.Of(effect.SecurityOff), "security-off", "softwareupdate --schedule: turns automatic update checks off, so security fixes stop arriving")
		case w.s == "--ignore" || strings.HasPrefix(w.s, "--ignore="):
			c.add(effect.Of(effect.Setting, effect.Session), "softwareupdate", "softwareupdate --ignore: hides updates from the person")
		}
	}
}

func pmsetCommand(c *call) {
	switch {
	case hasShort(c.args, 'g') && !hasArg(c.args, "sleepnow", "restart", "shutdown"):
	case hasArg(c.args, "sleepnow", "restart", "shutdown"):
		c.add(effect.Of(effect.Power), "pmset", "pmset %s: SYSTEM POWER: sleeps, restarts or shuts down the Mac", sub(c.args))
	case hasArg(c.args, "displaysleepnow"):
		c.add(effect.Of(effect.Setting), "pmset", "pmset displaysleepnow: turns the display off")
	default:
		c.add(effect.Of(effect.Setting, effect.Session), "pmset", "pmset: changes power settings")
	}
}

func sysctlCommand(c *call) {
	for _, w := range c.args {
		if w.s == "-w" || strings.Contains(w.s, "=") {
			c.add(effect.Of(effect.Setting, effect.Session), "sysctl", "sysctl: changes kernel settings")
			return
		}
	}
}

func ifconfigCommand(c *call) {
	if len(c.args) > 1 && !hasShort(c.args, 'a') && !hasShort(c.args, 'l') {
		c.add(effect.Of(effect.Setting, effect.Session), "ifconfig", "ifconfig: changes a network interface")
	}
}

func routeCommand(c *call) {
	if s := sub(c.args); s != "get" && s != "monitor" && s != "" {
		c.add(effect.Of(effect.Setting, effect.Session), "route", "route %s: changes network routes", s)
	}
}

func arpCommand(c *call) {
	if hasShort(c.args, 'd') || hasShort(c.args, 's') || hasShort(c.args, 'S') || hasShort(c.args, 'f') {
		c.add(effect.Of(effect.Setting, effect.Session), "arp", "arp: changes the ARP table")
	}
}

func dscacheutilCommand(c *call) {
	if hasArg(c.args, "-flushcache") {
		c.add(effect.Of(effect.Setting), "dscacheutil", "dscacheutil -flushcache: flushes the directory service cache")
	}
}

// dnssdCommand: browsing and lookups only read; registering or proxying
// advertises a service on the network.
func dnssdCommand(c *call) {
	for _, w := range c.args {
		switch w.s {
		case "-R", "-P", "-X":
			c.add(effect.Of(effect.Egress), "dns-sd", "dns-sd %s: advertises a service on the network", w.s)
			return
		}
	}
}

func xcodeSelectCommand(c *call) {
	for _, w := range c.args {
		if !inList(w.s, "-p", "--print-path", "-v", "--version", "-h", "--help") {
			c.add(effect.Of(effect.Setting), "xcode-select", "xcode-select %s: changes or installs the developer tools", rate.Display(w.s))
			return
		}
	}
}

func memoryPressureCommand(c *call) {
	if hasShort(c.args, 'l') || hasShort(c.args, 'p') {
		c.add(effect.Of(effect.Setting), "memory_pressure", "memory_pressure: applies memory pressure to the system")
	}
}

func profilesCommand(c *call) {
	s := sub(c.args)
	switch {
	case inList(s, "status", "list", "show", "help", "version", "validate"):
	case s == "" && !hasShort(c.args, 'I') && !hasShort(c.args, 'R') && !hasShort(c.args, 'D') && !hasShort(c.args, 'N'):
	default:
		c.add(effect.Of(effect.Install), "profiles", "profiles %s: installs or removes configuration profiles", rate.Display(s))
	}
}

func mdutilCommand(c *call) {
	for _, l := range []byte("iEdXpLt") {
		if hasShort(c.args, l) {
			c.add(effect.Of(effect.Setting), "mdutil", "mdutil: changes Spotlight indexing")
			return
		}
	}
	if !hasShort(c.args, 's') {
		c.add(effect.Of(effect.Setting), "mdutil", "mdutil: changes Spotlight indexing")
	}
}

func codesignCommand(c *call) {
	if hasShort(c.args, 's') || hasLong(c.args, "--sign", "--remove-signature") ||
		!hasShort(c.args, 'd') && !hasShort(c.args, 'v') && !hasLong(c.args, "--verify", "--display") {
		c.add(effect.Of(effect.Change), "codesign", "codesign: signs code")
	}
}

func sipsCommand(c *call) {
	for i := 0; i < len(c.args); i++ {
		switch s := c.args[i].s; {
		case s == "-g" || s == "--getProperty":
			i++
		case inList(s, "-1", "--oneLine", "-h", "--help", "-H", "--helpProperties", "--formats", "--debug"):
		case strings.HasPrefix(s, "-") || c.args[i].hole && i == 0:
			c.add(effect.Of(effect.Change), "sips", "sips: edits images")
			c.sipsWrites()
			return
		}
	}
}

func pkgutilCommand(c *call) {
	if hasLong(c.args, "--forget", "--expand", "--expand-full", "--flatten", "--learn", "--unlink") {
		c.add(effect.Of(effect.Change), "pkgutil", "pkgutil: forgets, expands or builds packages")
	}
}

func installerCommand(c *call) {
	c.add(effect.Of(effect.Install), "installer", "installer: installs a package as root")
	for i, w := range c.args {
		if (w.s == "-pkg" || w.s == "-package") && i+1 < len(c.args) {
			if content, ok := c.a.fileContent(c.args[i+1].s); ok && (content == fileDownloaded || content == fileComputed) {
				c.add(effect.Of(effect.RunComputed).On(c.args[i+1].s), "download-exec", "installer installs %s, downloaded by this same script", rate.Display(c.args[i+1].s))
			}
		}
	}
}

var hdiutilSubs = map[string]effect.Effect{
	"info": readOnly, "imageinfo": readOnly, "verify": readOnly, "isencrypted": readOnly, "plugins": readOnly,
	"help": readOnly, "pmap": readOnly, "checksum": readOnly, "": readOnly,
}

func hdiutilCommand(c *call) {
	c.bySub(effect.Of(effect.Change), "works with disk images", hdiutilSubs)
	ops := c.operands()
	if len(ops) > 1 && inList(strings.ToLower(ops[0].s), "attach", "mount") {
		if content, ok := c.a.fileContent(ops[1].s); ok && content == fileDownloaded {
			c.a.downloadedInto(word{s: "/Volumes"}, true) // what the image holds is downloaded
		}
	}
}

func networksetupCommand(c *call) {
	if len(c.args) > 0 && strings.EqualFold(c.args[0].s, "-setairportpower") {
		c.add(effect.Of(effect.Setting), "networksetup", "networksetup -setairportpower: turns Wi-Fi on or off")
		return
	}
	getterSetter("-get", "-list", "-print", "-version", "-help", "-isnetworkserviceenabled", "-showpppoestatus")(c)
}

// getterSetter rates a tool whose first argument is a -get… (reads) or a
// -set… (changes system settings) flag.
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
		c.add(effect.Of(effect.Setting, effect.Session), c.name, "%s %s: changes system settings", c.name, rate.Display(c.args[0].s))
	}
}

func shortcutsCommand(c *call) {
	switch s := sub(c.args); s {
	case "list", "help", "":
	case "run":
		c.add(effect.Of(effect.RunUnseen), "shortcuts-run", "shortcuts run: runs a shortcut, whose actions are not analysed")
	default:
		c.add(effect.Of(effect.AppState), "shortcuts", "shortcuts %s: works with shortcuts", rate.Display(s))
	}
}

// sipsWrites rates what an editing sips writes: --out's file or folder,
// or else every image it is given, in place.
func (c *call) sipsWrites() {
	for i, w := range c.args {
		if (w.s == "--out" || w.s == "-o") && i+1 < len(c.args) {
			c.a.write(c.args[i+1], c.span, "sips writes to")
			return
		}
	}
	valued := map[string]bool{"-s": true, "--setProperty": true, "-d": true, "--deleteProperty": true, "-r": true,
		"--rotate": true, "-f": true, "--flip": true, "-c": true, "--cropToHeightWidth": true, "-p": true,
		"--padToHeightWidth": true, "-z": true, "--resampleHeightWidth": true, "-Z": true, "--resampleHeightWidthMax": true,
		"--resampleWidth": true, "--resampleHeight": true, "-i": true, "-e": true, "-m": true, "--matchTo": true,
		"--cropOffset": true, "--padColor": true, "-g": true, "--getProperty": true}
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		switch {
		case valued[w.s]:
			i++
			if inList(w.s, "-s", "--setProperty", "-z", "--resampleHeightWidth", "-c", "--cropToHeightWidth", "-p", "--padToHeightWidth") {
				i++ // two values
			}
		case !strings.HasPrefix(w.s, "-"):
			c.a.write(w, c.span, "sips edits in place")
		}
	}
}

// systemsetupCommand rates systemsetup: -get… and -list… read; turning on
// remote login or remote Apple events opens the Mac to others; other
// -set… flags change system settings.
func systemsetupCommand(c *call) {
	for i, w := range c.args {
		if inList(strings.ToLower(w.s), "-setremotelogin", "-setremoteappleevents") && i+1 < len(c.args) && !inList(strings.ToLower(c.args[i+1].s), "off", "no") {
			c.add(effect.Of(effect.SecurityOff), "security-off", "systemsetup %s %s: lets others log in or send Apple events from the network", w.s, rate.Display(c.args[i+1].s))
			return
		}
	}
	getterSetter("-get", "-list", "-print", "-version", "-help")(c)
}

// memToolCommand rates leaks and footprint: they inspect a process and
// print what they find, but given "-- command" (leaks --atExit -- cmd) they
// start that command first, which is rated as itself.
func memToolCommand(c *call) {
	for i, w := range c.args {
		if w.s == "--" && i+1 < len(c.args) {
			c.a.call(c.args[i+1:], c.span, pipeCtx{})
			return
		}
	}
}

// splitCommand rates split FILE PREFIX: it creates PREFIXaa, PREFIXab …,
// rated where they land (a prefix in ~/Library/LaunchAgents plants there).
func splitCommand(c *call) {
	c.add(effect.Of(effect.Create), c.name, "%s: splits files", c.name)
	if ops := c.operands(); len(ops) > 1 {
		p := ops[len(ops)-1]
		c.a.write(word{s: p.s + "aa", hole: p.hole, span: p.span}, c.span, c.name+" makes")
	}
}
