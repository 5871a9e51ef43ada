package shell

import (
	"path"
	"strconv"
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

func rmCommand(c *call) {
	recursive := hasShort(c.args, 'r') || hasShort(c.args, 'R') || hasLong(c.args, "--recursive")
	force := hasShort(c.args, 'f') || hasLong(c.args, "--force")
	ops := c.operands()
	switch {
	case recursive && force:
		c.add(effect.Of(effect.Remove, effect.Bulk, effect.Forced), "rm-recursive", "rm -rf: permanently deletes folders and everything in them, without asking")
	case recursive:
		c.add(effect.Of(effect.Remove, effect.Bulk), "rm-recursive", "rm -r: permanently deletes folders and everything in them")
	case force:
		c.add(effect.Of(effect.Remove, effect.Forced), "rm-force", "rm -f: permanently deletes files without asking")
	}
	for _, w := range ops {
		if w.glob || w.hole {
			c.add(effect.Of(effect.Remove, effect.Bulk, effect.Computed).On(w.s), "rm-bulk", "rm %s: permanently deletes every file the pattern or computed value matches", rate.Display(w.s))
		}
		if z := c.a.zoneOf(w); z.Critical() {
			c.add(effect.Of(effect.Remove).On(w.s), "rm-protected", "rm %s: deletes inside %s", rate.Display(w.s), z.Detail)
		}
		c.a.securityTarget(c.a.resolved(w), c.span, "rm")
	}
	if len(ops) > 1 {
		c.add(effect.Of(effect.Remove, effect.Bulk), "rm-bulk", "rm: permanently deletes %d files (not to the Trash)", len(ops))
	}
	c.removes("rm", ops)
}

// removes rates the permanent removal of ops by verb (rm, unlink): it is
// Destructive, unless every one is a scratch file (in /tmp, /var/folders)
// or a file this same input wrote, which is Dangerous.
func (c *call) removes(verb string, ops []word) {
	scratch := len(ops) > 0
	for _, w := range ops {
		p, ok := c.a.pathOf(w)
		_, own := c.a.fileContent(w.s)
		if !ok || w.hole || w.glob || !(own || scratchPath(p)) {
			scratch = false
		}
	}
	if scratch {
		c.add(effect.Of(effect.Overwrite), verb, "%s: permanently deletes scratch files (not to the Trash)", verb)
		return
	}
	c.add(effect.Of(effect.Remove), verb, "%s: permanently deletes (not to the Trash)", verb)
}

// scratchPath reports a path in the system's temporary folders, on the
// disk too: a link there into the home (/tmp/docs → ~/Documents) makes
// /tmp/docs/report.txt the person's report (scratchOnDisk).
func scratchPath(p string) bool {
	return scratchName(p) && scratchOnDisk(p)
}

// scratchName reports a path whose words put it in the system's
// temporary folders.
func scratchName(p string) bool {
	for _, t := range []string{"/tmp", "/private/tmp", "/var/tmp", "/private/var/tmp", "/var/folders", "/private/var/folders"} {
		if p == t || strings.HasPrefix(p, t+"/") {
			return !strings.Contains(p, "/../")
		}
	}
	return false
}

func diskutilCommand(c *call) {
	ops := c.operands()
	if len(ops) == 0 {
		return
	}
	s := strings.ToLower(ops[0].s)
	if diskutilGroups[s] && len(ops) > 1 {
		s = s + " " + strings.ToLower(ops[1].s)
	}
	switch {
	case diskutilReads[s] || strings.HasSuffix(s, " list") || strings.HasPrefix(s, "apfs listsnapshots"):
	case erasesDisk(s):
		c.add(effect.Of(effect.Disk), "diskutil", "diskutil %s: erases or repartitions a disk", s)
	case diskutilVolume[s]:
		c.add(effect.Of(effect.Change), "diskutil", "diskutil %s: changes a volume", s)
	default:
		c.add(effect.Of(effect.Setting, effect.Session), "diskutil", "diskutil %s: changes disks", s)
	}
}

// diskutil's verbs: groups whose verb is their second word, verbs that
// only print, and verbs that mount, eject, repair or rename a volume.
var (
	diskutilGroups = set("apfs cs appleraid ar corestorage")
	diskutilReads  = set("list info activity verifyvolume verifydisk listfilesystems")
	diskutilVolume = set("mount unmount umount eject mountdisk unmountdisk repairvolume rename renamevolume")
)

// erasesDisk reports a diskutil verb that erases, partitions or resizes.
func erasesDisk(verb string) bool {
	for _, w := range []string{"erase", "zero", "random", "partition", "reformat", "delete", "secure", "merge", "split", "resize", "destroy"} {
		if strings.Contains(verb, w) {
			return true
		}
	}
	return false
}

func permCommand(c *call) {
	recursive := hasShort(c.args, 'R') || hasLong(c.args, "--recursive")
	ops := c.operands()
	if len(ops) > 0 {
		ops = ops[1:] // the mode or owner
	}
	e := effect.Of(effect.Change)
	why := "changes permissions"
	heavier := func(x effect.Effect, w string) {
		if weight(x) > weight(e) {
			e = x
		}
		why = w
	}
	for _, w := range ops {
		z := c.a.zoneOf(w)
		broad := w.glob || w.hole || z.HomeRoot || z.Kind == rate.ZoneSystem || w.s == "/"
		switch {
		case recursive && broad:
			wide := effect.Session // the whole home or the system
			if w.glob || w.hole {
				wide = effect.Computed
			}
			e, why = effect.Of(effect.Change, effect.Bulk, wide).On(w.s), "recursively changes ownership or permissions of "+rate.Display(w.s)
		case recursive && weight(e) < level.Dangerous:
			e, why = effect.Of(effect.Change, effect.Bulk), "recursively changes ownership or permissions"
		case z.Kind == rate.ZoneSystem || z.Kind == rate.ZoneCredential || z.Kind == rate.ZonePersistence:
			heavier(effect.Of(effect.Change, effect.Session).On(w.s), "changes permissions inside "+z.Detail)
		case z.HomeRoot && (c.name != "chmod" || len(c.operands()) > 0 && locksOwner(c.operands()[0].s)):
			// chmod 000 ~, chown nobody ~/Documents: you lose your own files.
			heavier(effect.Of(effect.Change, effect.Session).On(w.s), "takes "+rate.Display(w.s)+" away from you")
		}
	}
	if all := c.operands(); c.name == "chmod" && len(all) > 0 && !all[0].hole && setsID(all[0].s) {
		// The program then runs as its owner, root after chown root.
		heavier(effect.Of(effect.Admin), "sets the setuid/setgid bit")
	}
	c.add(e, c.name, "%s: %s", c.name, why)
}

// setsID reports a chmod mode that sets the setuid or setgid bit: +s,
// u+s, g=rxs, 4755, 2711.
func setsID(mode string) bool {
	if n, err := strconv.ParseUint(mode, 8, 32); err == nil {
		return n&0o6000 != 0
	}
	for _, clause := range strings.Split(mode, ",") {
		for i := 0; i < len(clause); i++ {
			if op := clause[i]; op == '+' || op == '=' {
				j := i + 1
				for j < len(clause) && clause[j] != '+' && clause[j] != '-' && clause[j] != '=' {
					j++
				}
				if strings.ContainsRune(clause[i+1:j], 's') {
					return true
				}
				i = j - 1
			}
		}
	}
	return false
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
			c.add(effect.Of(effect.Remove, effect.Bulk), "find-delete", "find -delete: permanently deletes every match")
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
	// -fprint, -fprint0, -fprintf and -fls create or truncate the file
	// named by the next word, once, before the walk: rated as > onto it.
	for i, w := range c.args {
		if !inList(w.s, "-fprint", "-fprint0", "-fprintf", "-fls") {
			continue
		}
		c.add(effect.Of(effect.Create).On(w.s), "find", "find %s: writes a file", w.s)
		if i+1 < len(c.args) {
			c.a.replaces(c.args[i+1], c.span, "find "+w.s+" writes to")
			c.a.write(c.args[i+1], c.span, "find "+w.s+" writes to")
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
		c.add(effect.Of(effect.Remove, effect.Bulk), "docker-volumes", "docker %s: deletes volumes (their data is lost)", s)
	case "system prune":
		if hasLong(c.args, "--volumes") {
			c.add(effect.Of(effect.Remove, effect.Bulk), "docker-volumes", "docker system prune --volumes: deletes volumes (their data is lost)")
		} else {
			c.add(effect.Of(effect.Change, effect.Bulk), "docker-prune", "docker system prune: removes stopped containers, unused networks, images and build cache")
		}
	case "rm", "rmi", "image prune", "container prune", "network prune", "builder prune", "image rm", "container rm", "kill", "compose down":
		c.add(effect.Of(effect.Change, effect.Bulk), "docker-remove", "docker %s: removes containers or images", s)
	case "stop", "restart", "pause", "unpause", "start":
		c.add(effect.Of(effect.AppState), "docker", "docker %s", s)
	default:
		c.add(effect.Of(effect.RunUnseen), "docker", "docker %s: runs or changes containers", s)
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
			c.a.add(effect.Of(effect.ReadSecret), "secret.keychain", c.span, "security %s: reads a password from the Keychain", s)
			c.a.secretAt(c.span)
		}
	case s == "dump-keychain" || s == "export":
		c.a.add(effect.Of(effect.ReadSecret), "secret.keychain", c.span, "security %s: exports Keychain contents", s)
		c.a.secretAt(c.span)
	case strings.HasPrefix(s, "delete-") || s == "add-trusted-cert" || s == "remove-trusted-cert" || s == "authorizationdb" || s == "trust-settings-import" ||
		s == "set-key-partition-list" || s == "set-generic-password-partition-list" || s == "set-internet-password-partition-list":
		// A partition list names the programs that read a key without
		// the Keychain asking the person (apple-tool:, unsigned:).
		c.add(effect.Of(effect.SecurityOff), "keychain-change", "security %s: changes the Keychain or system trust", s)
	case s == "list-keychains" || s == "show-keychain-info" || s == "find-certificate" || s == "find-identity" ||
		s == "default-keychain" || s == "login-keychain" || s == "verify-cert" || s == "cms" || s == "help" || s == "":
	default:
		c.add(effect.Of(effect.Setting, effect.Session), "keychain", "security %s: changes Keychain settings", s)
	}
}

// shellInterp rates sh, bash, zsh …: -c strings are analysed recursively;
// reading commands from a download or decoded data is Destructive.
func shellInterp(c *call) {
	xtrace := false // -x, -o xtrace: each command is printed expanded (xtraceNested)
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		s := w.s
		if s == "--" {
			break
		}
		// Options with a value: -o pipefail, +O extglob.
		if !w.hole && (s == "-o" || s == "+o" || s == "-O" || s == "+O") {
			if s == "-o" && i+1 < len(c.args) && c.args[i+1].s == "xtrace" {
				xtrace = true
			}
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
		if len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.IndexByte(s[1:], 'x') >= 0 && !w.hole {
			xtrace = true
		}
		if len(s) > 1 && s[0] == '-' && s[1] != '-' && strings.IndexByte(s[1:], 'c') >= 0 && !w.hole {
			if i+1 >= len(c.args) {
				c.add(effect.Of(effect.Unknown), "sh-c", "%s -c without a command", c.name)
				return
			}
			c.nested(xtraceNested(c.args[i+1:i+2], xtrace), c.name+" -c")
			return
		}
		if !strings.HasPrefix(s, "-") || w.hole || w.proc {
			c.scriptFile(w)
			return
		}
	}
	c.fromStdin()
}

// xtraceNested is the command text of sh -x -c as the shell runs it: with
// set -x before it, so each command, its secret variables expanded, is
// printed on stderr (bash -xc '… $TOKEN …' prints the token), as the
// analyzer rates a script after set -x (xtraced).
func xtraceNested(ws []word, xtrace bool) []word {
	if !xtrace || len(ws) != 1 || ws[0].hole || ws[0].proc || ws[0].gen != "" {
		return ws
	}
	w := ws[0]
	w.s = "set -x\n" + w.s
	return []word{w}
}

// scriptFile rates the script file a shell runs.
func (c *call) scriptFile(w word) {
	switch s := w.s; {
	case w.proc || w.hole:
		c.add(effect.Of(effect.RunComputed), "sh-computed", "%s runs a script computed at run time (%s)", c.name, rate.Display(s))
	case isStdinPath(s) || c.fdInput(w):
		c.fromStdin()
	case c.a.runFile(c, s):
	default:
		c.add(effect.Of(effect.RunUnseen).On(s), "sh-file", "%s %s: runs a script file that is not analysed", c.name, rate.Display(s))
	}
}

// nested analyses words as a shell script (sh -c, eval).
func (c *call) nested(ws []word, what string) {
	if len(ws) == 1 && ws[0].gen != "" {
		c.add(effect.Of(effect.RunUnseen), "eval-generated", "%s evaluates code generated by %s", what, ws[0].gen)
		return
	}
	var parts []string
	for _, w := range ws {
		if w.hole || w.proc {
			c.add(effect.Of(effect.RunComputed), "computed-script", "%s of text computed at run time: cannot tell what runs", what)
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
	case "tee":
		targets = ops
		if !hasShort(c.args, 'a') && !hasLong(c.args, "--append") {
			for _, w := range targets {
				c.a.replaces(w, c.span, "tee writes to")
			}
		}
	case "touch", "mkdir":
		targets = ops
	case "cp", "mv", "ditto", "rsync", "install", "ln":
		targets = c.copyDest(ops, targets)
	}
	if c.name == "install" || c.name == "ditto" || c.name == "ln" && (hasShort(c.args, 'f') || hasLong(c.args, "--force")) {
		// install /dev/null x, ln -sf /dev/null x: x is replaced by nothing.
		for _, w := range ops[:len(ops)-1] {
			if !w.hole && isSinkDevice(w.s) {
				for _, t := range targets {
					c.add(effect.Of(effect.Remove).On(t.s), "truncate", "%s %s %s: replaces the file with an empty one", c.name, rate.Display(w.s), rate.Display(t.s))
				}
				break
			}
		}
	}
	verb := c.name + " writes to"
	if c.name == "cp" || c.name == "install" || c.name == "ditto" || c.name == "rsync" {
		// cp /dev/stdin x, install /dev/fd/3 x: what is written is the
		// input, any text the script chose, as tee x or > x would write
		// it: a file's contents written, not a copy (a sixth red team's
		// find: `echo … | cp /dev/stdin x` was Caution, "copies files").
		for _, w := range ops[:len(ops)-1] {
			if w.proc || !w.hole && w.s != "-" && isInputDevice(w.s) {
				verb = "writes its input (" + c.name + " " + rate.Display(w.s) + ") to"
				break
			}
		}
	}
	for _, w := range targets {
		if (c.name == "tee" || c.name == "cp") && !w.hole && isStreamDevice(w.s) {
			continue // tee /dev/stderr prints; cp x /dev/null writes nothing
		}
		c.a.write(w, c.span, verb)
	}
	c.plantsInto(ops, targets)
}

// plantsInto rates what cp, mv, ln, install and ditto put into a folder
// by the sources' names: cp x.fish ~/.config/fish/conf.d/ and mv
// tasks.json ~/Projects/app/.vscode/ put code where the person's shell or
// editor runs it later, though the folder alone names no file that does.
func (c *call) plantsInto(ops, targets []word) {
	switch c.name {
	case "cp", "mv", "ln", "install", "ditto":
	default:
		return
	}
	if len(targets) != 1 || len(ops) < 2 || hasShort(c.args, 'T') || hasLong(c.args, "--no-target-directory") || c.name == "install" && hasShort(c.args, 'd') {
		return
	}
	dir := targets[0]
	sources := ops[:len(ops)-1]
	named := false // -t names the folder: it is one, whatever the disk says
	if hasShort(c.args, 't') && c.name != "ditto" {
		dir, sources, named = ops[0], ops[1:], true
	}
	if dir.hole || !named && !strings.HasSuffix(dir.s, "/") && len(sources) < 2 && c.a.presence(dir) != rate.PresentFolder {
		return
	}
	for _, s := range sources {
		base := path.Base(strings.TrimRight(s.s, "/"))
		if s.hole || s.glob || base == "" || base == "." || base == "/" || base == ".." {
			continue
		}
		into := word{s: joinPath(strings.TrimRight(dir.s, "/"), base), span: dir.span}
		if c.name == "ditto" {
			into = dir // ditto src dir: src's contents land in dir
		}
		if z := c.a.zone(into); z.Persist != "" || z.Kind == rate.ZonePersistence || z.Kind == rate.ZoneCredential || homeBin(into.s) {
			c.a.writeTarget(into, c.span, c.name+" writes to")
		}
	}
}

// isStreamDevice reports a device that is the script's own output or
// nothing at all: writing there prints or discards, and no file changes.
func isStreamDevice(s string) bool {
	switch s {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2":
		return true
	}
	return false
}

// isInputDevice reports whether p names what a process reads as input
// rather than a file: its standard input or another descriptor it was
// given (a process substitution's /dev/fd/63), or a terminal.
func isInputDevice(p string) bool {
	p = path.Clean(p)
	return isStdinPath(p) || strings.HasPrefix(p, "/dev/fd/") || strings.HasPrefix(p, "/proc/self/fd/") ||
		strings.HasPrefix(p, "/dev/tty") || strings.HasPrefix(p, "/proc/") && strings.Contains(p, "/fd/")
}

// copyDest rates what cp, mv, ditto, rsync, install and ln do to their
// sources and the destination among ops (targets, unless -t names it
// first): a move out of a protected place, into the sink or the Trash, a
// downloaded file copied, a folder merged. It returns the destination.
func (c *call) copyDest(ops, targets []word) []word {
	sources := ops[:len(ops)-1]
	if hasShort(c.args, 't') && c.name != "ditto" {
		targets, sources = ops[:1], ops[1:]
	}
	dest, _ := c.a.pathOf(targets[0])
	trash := !targets[0].hole && strings.Contains("/"+dest+"/", "/.Trash/") || strings.Contains("/"+dest+"/", "/.Trashes/")
	if c.name == "mv" && !targets[0].hole && isSinkDevice(dest) && len(sources) > 0 {
		// mv x /dev/null copies x into nothing and removes it: rm -rf x.
		c.add(effect.Of(effect.Change).On(dest), "move-to-sink", "mv into %s: what it moves is destroyed", rate.Display(dest))
		rm := append([]word{{s: "rm", span: c.span}, {s: "-rf", span: c.span}}, sources...)
		c.a.call(rm, c.span, pipeCtx{})
	}
	for _, w := range sources {
		if c.name != "ln" {
			c.a.read(w, c.span)
		}
		if c.name == "mv" {
			c.movesAway(w, trash)
		}
		c.copiesContent(w, targets[0])
	}
	if c.name == "ditto" && hasShort(c.args, 'x') {
		c.extracts("ditto -x", targets[0], true, nil)
		return targets
	}
	intoDir := c.name == "ditto" || !hasShort(c.args, 'T') && !hasLong(c.args, "--no-target-directory")
	c.copiesOnto(targets[0], sources, intoDir)
	return targets
}

// movesAway rates mv moving w: out of a protected place, the home folder
// itself or a top-level folder of it, or, into the Trash (trash), every
// file a pattern matches.
func (c *call) movesAway(w word, trash bool) {
	z := c.a.zoneOf(w)
	switch {
	case z.Kind == rate.ZoneSystem || z.Kind == rate.ZoneCredential || z.Kind == rate.ZonePersistence:
		c.add(effect.Of(effect.Change, effect.Bulk).On(w.s), "move-protected", "mv %s: moves something out of %s", rate.Display(w.s), z.Detail)
	case z.HomeRoot && !w.hole && isHome(w.s):
		c.add(effect.Of(effect.Trash, effect.Bulk).On(w.s), "move-home", "mv %s: moves your whole home folder away", rate.Display(w.s))
	case z.HomeRoot && !strings.Contains(strings.TrimPrefix(path.Base(w.s), "."), ".") || c.a.sandboxRoot(w):
		c.add(effect.Of(effect.Change, effect.Bulk).On(w.s), "move-protected", "mv %s: moves a top-level folder of your home away", rate.Display(w.s))
	}
	if trash && (w.glob || w.hole && c.a.loops > 0) {
		c.add(effect.Of(effect.Trash, effect.Bulk).On(w.s), "trash-bulk", "BULK DELETE: mv %s to the Trash moves every file it matches there", rate.Display(w.s))
	}
}

// copiesContent notes that a copy of w at target holds what w held: a copy
// of a file this script downloaded is downloaded too.
func (c *call) copiesContent(w, target word) {
	content, ok := c.a.fileContent(w.s)
	if !ok || w.hole || target.hole {
		return
	}
	c.a.setFile(target.s, content)
	c.a.setFile(strings.TrimSuffix(target.s, "/")+"/"+path.Base(w.s), content)
	if content == fileDownloaded {
		c.a.downloadedInto(target, true)
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

func unlinkCommand(c *call) {
	c.removes("unlink", c.operands())
}
