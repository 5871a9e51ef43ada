package shell

import (
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// guard applies the guard to one shell word used as u, and adds what it
// finds.
func (a *shellAn) guard(w word, sp Span, u rate.Use) {
	for _, f := range a.guardWord(w, u) {
		a.addFinding(f, sp)
	}
}

// addFinding adds one of the guard's findings (rate.Finding) with its
// effect: a refusal is Refused, a name computed at run time that may be
// Airlock's own files Unknown, a read of a system folder Read (session).
// The lighter ones are anchored where the command's words are (a.anchor).
func (a *shellAn) addFinding(f rate.Finding, sp Span) {
	if f.Level() < level.Dangerous && a.anchor != nil {
		sp = *a.anchor
	}
	a.add(f.Effect, "shell."+f.Rule, sp, "%s", f.Text)
}

// guardWord works out the path a word names — a literal, a glob, or one
// with parts computed at run time — and applies the guard to it. A
// relative path is taken from the working directory the script set, or
// from the home (where the gate starts commands) when it set none; after a
// cd the analysis could not follow, it may lie anywhere.
func (a *shellAn) guardWord(w word, u rate.Use) []rate.Finding {
	if a.env == nil || a.env.Paths == nil || w.proc || w.s == "" || isDevice(w.s) {
		return nil
	}
	s := w.s
	if rest, ok := strings.CutPrefix(s, "file://"); ok {
		s, w.s = rest, rest
	} else if strings.Contains(s, "://") {
		return nil // a URL
	}
	if rest, ok := strings.CutPrefix(s, "@"); ok && rest != "" {
		// curl -d @FILE, http's @FILE: the file is read.
		s, w.s = rest, rest
	}
	shown := rate.Display(s)
	if strings.HasPrefix(s, "-") {
		// --file=PATH: the value is a path like any other.
		if name, val, ok := strings.Cut(s, "="); ok && strings.HasPrefix(name, "--") && (strings.HasPrefix(val, "/") || strings.HasPrefix(val, "~")) {
			w.s = val
			return a.guardWord(w, u)
		}
		return nil
	}
	if k, v, ok := strings.Cut(s, "="); ok && k != "" && !strings.ContainsAny(k, "/~") {
		// dd's if=PATH and of=PATH, curl -F name=@PATH and name=<PATH;
		// anything else of this shape is a setting, not a path.
		at := strings.TrimLeft(v, "@<")
		if k == "of" {
			u = rate.UseWrite
		}
		if strings.HasPrefix(at, "/") || strings.HasPrefix(at, "~") || at != v && at != "" {
			w.s = at
			return a.guardWord(w, u)
		}
		return nil
	}
	p, literal := a.pathOf(w)
	if !literal {
		p = s
	}
	relative := !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, rate.HoleMark)
	if relative {
		switch {
		case a.cwd != "":
			if j := joinPath(a.cwd, p); j != "" {
				p = j
			} else {
				p = rate.HoleMark + "/" + p
			}
		case a.cwdLost:
			p = rate.HoleMark + "/" + p
		default:
			p = "~/" + p
		}
	}
	if literal && !w.glob && !strings.Contains(p, rate.HoleMark) {
		if a.env.Paths != nil && strings.HasPrefix(p, "/") {
			p = rate.OtherHome(path.Clean(p), a.env.Paths.Home)
		}
		return rate.GuardPath(a.env, p, u, shown)
	}
	return rate.GuardPattern(a.env, p, u, shown)
}

// nameOnly lists commands whose operands are text or names, never files
// they open: no guard applies to them (kill and its kin have rules of
// their own).
var nameOnly = map[string]bool{
	"echo": true, "printf": true, "basename": true, "dirname": true, "test": true, "[": true, "[[": true,
	"cd": true, "pushd": true, "popd": true, ":": true, "true": true, "false": true, "sleep": true, "type": true,
	"which": true, "whence": true, "command": true, "hash": true, "alias": true, "unalias": true, "export": true,
	"unset": true, "read": true, "mapfile": true, "readarray": true, "exit": true, "return": true, "wait": true, "kill": true, "pkill": true,
	"killall": true, "pgrep": true, "pidof": true, "printenv": true, "eval": true, "let": true, "local": true,
	"declare": true, "typeset": true, "shift": true, "set": true, "trap": true, "say": true,
}

// listers read names and metadata only.
var listers = map[string]bool{
	"ls": true, "du": true, "stat": true, "file": true, "mdls": true, "realpath": true, "readlink": true,
	"tree": true, "exa": true, "eza": true, "lsd": true, "df": true, "getfattr": true, "fd": true, "fdfind": true,
	"gstat": true, "gls": true, "gdu": true, "lsof": true,
}

// guardCwd refuses a command run inside Airlock's own folders or a
// credential store: whatever runs there may touch them by a name the
// analysis never sees (sqlite3, git init, a script).
func (c *call) guardCwd() {
	a := c.a
	if a.cwd == "" {
		return
	}
	if abs, err := sanitize.ExpandHome(a.cwd, a.env.Paths.Home); err == nil {
		switch z := a.env.Paths.Classify(rate.OtherHome(path.Clean(abs), a.env.Paths.Home)); z.Kind {
		case sanitize.ZoneOwn:
			c.add(effect.Of(effect.Refused), "own-files", "blocked: %s runs inside %s (%s): no action may touch Airlock's own files", c.name, z.Detail, z.Root)
		case sanitize.ZoneCredential:
			c.add(effect.Of(effect.Refused), "credential-store", "blocked: %s runs inside a credential store (%s: %s)", c.name, z.Root, z.Detail)
		}
	}
}

// guardSSHKeys guards the arguments of the SSH tools and returns their
// operands: ssh -i ~/.ssh/id_ed25519 uses the SSH store for what it is
// for, so their keys are not refused; anything else they are given (scp's
// files) is guarded as usual.
func (c *call) guardSSHKeys() []word {
	a := c.a
	keys := c.name == "ssh-add" || c.name == "ssh-keygen" // every file they take is a key
	var rest []word
	end := false
	for i, w := range c.args {
		switch {
		case keys || i > 0 && !end && sshKeyOption(c.args[i-1].s):
			a.guardExcept(w, c.span, rate.UseRead, "~/.ssh")
		case !end && w.s == "--":
			end = true
		case !end && strings.HasPrefix(w.s, "-") && len(w.s) > 1 && !w.hole:
			a.guardExcept(w, c.span, rate.UseRead, "~/.ssh")
		default:
			rest = append(rest, w)
		}
	}
	return rest
}

// guardCall applies the guard to a command's arguments by what the command
// does with them: listing, reading, writing, or reaching everything inside
// a folder. Reads and writes the command's own rules found were guarded
// already (a.read, a.write); this adds the rest.
func (c *call) guardCall() {
	a := c.a
	if nameOnly[c.name] {
		return
	}
	for _, w := range c.args {
		if rate.NamesSelf(w.s) {
			c.add(effect.Of(effect.Refused).On(w.s), "own-keys", "blocked: %s %s names Airlock's key-store items or its app (%s): no action may touch them", c.name, rate.Display(w.s), "dev.airlock.Airlock")
			break
		}
	}
	if a.env == nil || a.env.Paths == nil {
		return
	}
	c.guardCwd()
	c.guardMentions()
	ops := c.operands()
	each := func(ws []word, u rate.Use) {
		for _, w := range ws {
			a.guard(w, c.span, u)
		}
	}
	if sshTools[c.name] {
		ops = c.guardSSHKeys()
	}
	recursive := hasShort(c.args, 'r') || hasShort(c.args, 'R') || hasLong(c.args, "--recursive")
	switch c.name {
	case "rm", "unlink", "shred", "srm", "trash", "truncate", "touch", "mkdir", "rmdir", "tee", "mktemp", "gzip", "gunzip",
		"bzip2", "bunzip2", "xz", "unxz", "zstd", "setfile", "SetFile":
		u := rate.UseWrite
		if recursive || c.name == "trash" {
			u = rate.UseTreeWrite
		}
		each(ops, u)
	case "chmod", "chown", "chgrp", "chflags", "setfacl", "chattr":
		u := rate.UseWrite
		if recursive {
			u = rate.UseTreeWrite
		}
		if len(ops) > 0 {
			each(ops[1:], u)
		}
	case "cp", "gcp", "mv", "gmv", "ln", "gln", "install", "ditto", "rsync", "scp", "sftp":
		c.guardCopy(ops, recursive)
	case "find", "gfind":
		c.guardFind()
	case "tar", "gtar", "bsdtar", "unzip", "7z", "7za", "7zz", "cpio", "pax", "zip", "ditto-x":
		c.guardArchive(ops)
	default:
		each(ops, c.argUse(recursive))
	}
}

// argUse is how a command that reads, lists or edits its operands uses
// them: grep -r and rg reach everything inside a folder, sed -i writes,
// xattr -w/-d/-c writes, ls and its kin only list.
func (c *call) argUse(recursive bool) rate.Use {
	switch c.name {
	case "grep", "egrep", "fgrep", "ggrep":
		if recursive || hasArg(c.args, "-d", "--directories=recurse") {
			return rate.UseTreeRead
		}
	case "rg", "ag", "ack", "pt", "ugrep":
		return rate.UseTreeRead
	case "sed", "gsed", "perl":
		if hasShort(c.args, 'i') || hasLong(c.args, "--in-place") {
			return rate.UseWrite
		}
	case "xattr":
		if hasShort(c.args, 'w') || hasShort(c.args, 'd') || hasShort(c.args, 'c') {
			return rate.UseWrite
		}
		return rate.UseList
	case "dd":
		return rate.UseRead // if= and of= are told apart by guardWord
	}
	if listers[c.name] {
		return rate.UseList
	}
	return rate.UseRead
}

// guardCopy: cp, mv, ln, install, ditto, rsync, scp. The target is
// written; with a folder as the target, so is the target joined with each
// source's name (cp -r evil/airlock ~/.local/share/ writes into the data
// folder).
func (c *call) guardCopy(ops []word, recursive bool) {
	a := c.a
	if len(ops) == 0 {
		return
	}
	targets, sources := ops[len(ops)-1:], ops[:len(ops)-1]
	if hasShort(c.args, 't') && c.name != "ditto" && c.name != "rsync" && c.name != "scp" {
		targets, sources = ops[:1], ops[1:]
	}
	tree := recursive || hasShort(c.args, 'a') || hasLong(c.args, "--archive")
	src, dst := rate.UseRead, rate.UseWrite
	switch c.name {
	case "mv", "gmv":
		src = rate.UseTreeWrite // what moves, moves with everything inside
	case "ln", "gln":
		src = rate.UseTreeWrite // a link to a folder reaches everything inside
		if len(ops) == 1 {
			sources, targets = ops, nil // the link is made in the working folder
		}
	case "rsync":
		src, dst = rate.UseTreeRead, rate.UseTreeWrite
		if hasLong(c.args, "--remove-source-files") {
			src = rate.UseTreeWrite
		}
	case "ditto", "scp", "sftp":
		src, dst = rate.UseTreeRead, rate.UseTreeWrite
	default:
		if tree {
			src, dst = rate.UseTreeRead, rate.UseTreeWrite
		}
	}
	for _, w := range sources {
		a.guard(w, c.span, src)
	}
	for _, t := range targets {
		if fs := a.guardWord(t, dst); len(fs) > 0 {
			for _, f := range fs {
				a.addFinding(f, c.span)
			}
			continue // the target itself says enough
		}
		if t.hole || t.glob {
			continue
		}
		for _, w := range sources {
			base := path.Base(strings.TrimRight(w.s, "/"))
			switch {
			case w.hole && strings.Contains(base, rate.HoleMark):
				// A computed name, into the very folder that holds one of
				// Airlock's own: it may be that one.
				j := word{s: strings.TrimRight(t.s, "/") + "/" + rate.HoleMark, hole: true, span: t.span}
				for _, f := range a.guardWord(j, dst) {
					if f.Level() >= level.Dangerous {
						c.add(effect.Of(effect.Unknown).On(t.s), "own-files-maybe", "%s %s into %s: the name is computed at run time and may be one of Airlock's own files", c.name, rate.Display(w.s), rate.Display(t.s))
						break
					}
				}
			case base != "" && base != "." && base != "/" && !w.glob:
				a.guard(word{s: strings.TrimRight(t.s, "/") + "/" + base, span: t.span}, c.span, dst)
			}
		}
	}
}

// guardFind: the starting points are listed, or changed everywhere inside
// when an action runs on what is found.
func (c *call) guardFind() {
	u := rate.UseList
	var starts []word
	expr := false
	for _, w := range c.args {
		s := w.s
		switch {
		case s == "-delete" || s == "-exec" || s == "-execdir" || s == "-ok" || s == "-okdir" || strings.HasPrefix(s, "-fprint") || s == "-fls":
			u = rate.UseTreeWrite
		}
		if expr {
			continue
		}
		if strings.HasPrefix(s, "-") && !w.hole && s != "-" || s == "(" || s == "!" {
			if s != "-H" && s != "-L" && s != "-P" && s != "-E" && s != "-X" && s != "-x" && s != "-s" {
				expr = true
			}
			continue
		}
		starts = append(starts, w)
	}
	if len(starts) == 0 {
		starts = []word{{s: "."}}
	}
	for _, w := range starts {
		c.a.guard(w, c.span, u)
	}
}

// extracting reports an archive tool's use that writes what the archive
// holds: unzip but for its listings, cpio and pax -i/-r, 7z x and e, tar
// -x but to standard output.
func (c *call) extracting() bool {
	extract := false
	switch c.name {
	case "unzip", "cpio", "pax":
		extract = c.name == "unzip" && !unzipLists(c.args) || c.name != "unzip" && (hasShort(c.args, 'i') || hasShort(c.args, 'r'))
	case "7z", "7za", "7zz":
		s := sub(c.args)
		extract = s == "x" || s == "e"
	case "zip":
	default:
		first := ""
		if len(c.args) > 0 && !strings.HasPrefix(c.args[0].s, "-") {
			first = c.args[0].s
		}
		extract = strings.Contains(first, "x") || hasShort(c.args, 'x') || hasLong(c.args, "--extract", "--get")
		if strings.Contains(first, "O") || hasShort(c.args, 'O') || hasLong(c.args, "--to-stdout") {
			extract = false // to standard output: nothing is written
		}
	}
	return extract
}

// guardArchive: tar, zip, cpio, pax, 7z. Creating an archive reads what it
// holds; extracting writes into its folder (-C, -d, or the working folder).
func (c *call) guardArchive(ops []word) {
	a := c.a
	extract := c.extracting()
	if !extract {
		for _, w := range ops {
			a.guard(w, c.span, rate.UseTreeRead)
		}
		return
	}
	for _, w := range ops {
		a.guard(w, c.span, rate.UseTreeWrite)
	}
	into := hasShort(c.args, 'C') || hasLong(c.args, "--directory") || c.name == "unzip" && hasShort(c.args, 'd')
	if into {
		for _, w := range c.args {
			if v, ok := strings.CutPrefix(w.s, "-d"); ok && v != "" && c.name == "unzip" {
				a.guard(word{s: v, hole: w.hole, span: w.span}, c.span, rate.UseTreeWrite)
			}
			if v, ok := strings.CutPrefix(w.s, "-C"); ok && v != "" && c.name != "unzip" {
				a.guard(word{s: v, hole: w.hole, span: w.span}, c.span, rate.UseTreeWrite)
			}
		}
		return
	}
	// Into the working folder: one the script chose is named like any
	// other; the home, where commands start, holds Airlock's own files,
	// and what the archive holds is not known.
	if a.cwd != "" {
		a.guard(word{s: a.cwd}, c.span, rate.UseTreeWrite)
		return
	}
	if a.cwdLost {
		return
	}
	for _, f := range rate.GuardPath(a.env, "~", rate.UseTreeWrite, "~") {
		if f.Rule == "own-files" {
			c.add(effect.Of(effect.Create, effect.Bulk, effect.Computed), "extract-home", "%s extracts into the home folder, which holds Airlock's own files: what the archive holds is not known", c.name)
			break
		}
	}
}

// lookupTools find processes by name: one that names Airlock finds the
// gate's pid, which a later kill of a computed pid may use.
var processLookup = map[string]bool{
	"pgrep": true, "pidof": true, "ps": true, "grep": true, "egrep": true, "awk": true, "lsof": true,
	"launchctl": true, "pstree": true, "top": true, "fuser": true, "cat": true, "head": true, "pkill": true,
}

// noteSelfLookup remembers that the script looked Airlock's process up.
func (c *call) noteSelfLookup() {
	if !processLookup[c.name] {
		return
	}
	for _, w := range c.args {
		if rate.MentionsSelf(w.s) {
			c.a.selfLookup = true
			return
		}
	}
}

// killArgs reads kill's arguments: kill [-s SIG | -n NUM | -SIG] [--]
// pid…, where after the signal -1 is a target (every process), not an
// option. list reports kill -l (which lists signal names and sends none).
func killArgs(args []word) (sig string, targets []word, list bool) {
	i := 0
	if i < len(args) && !args[i].hole && strings.HasPrefix(args[i].s, "-") && args[i].s != "--" && len(args[i].s) > 1 {
		switch s := args[i].s; s {
		case "-l", "-L":
			return "", nil, true
		case "-s", "-n", "--signal":
			if i+1 < len(args) {
				sig = args[i+1].s
			}
			i += 2
		default:
			sig = s[1:]
			i++
		}
	}
	if i < len(args) && args[i].s == "--" {
		i++
	}
	return sig, args[min(i, len(args)):], false
}

// guardSignals rates kill, pkill and killall by whom they reach: a signal
// that can reach the gate (by its pid, its name, a pattern matching it, a
// pid looked up by its name, or every process: -1, 0, a whole user) is
// blocked, whatever the signal (STOP freezes it as surely as KILL ends
// it); a pid Airlock cannot identify is dangerous. Signal 0 sends nothing.
func (c *call) guardSignals() {
	a := c.a
	args := c.args
	sig := ""
	var targets []word
	full, exact, user := false, false, false
	switch c.name {
	case "kill":
		var list bool
		if sig, targets, list = killArgs(args); list {
			return
		}
	default:
		sig, full, exact, user = pkillArgs(args)
		targets = c.operands()
		if user && len(targets) > 0 {
			targets = targets[1:] // the user's name
		}
	}
	if s := strings.TrimPrefix(strings.ToUpper(sig), "SIG"); s == "0" {
		return // a probe: no signal is sent
	}
	if len(targets) == 0 && user {
		c.add(effect.Of(effect.Refused), "signal-self", "blocked: %s of a whole user's processes reaches Airlock's gate", c.name)
		return
	}
	names, lines := a.env.ProcessNames()
	for _, w := range targets {
		switch {
		case c.name == "kill":
			c.killTarget(w)
		case w.hole:
			if a.selfLookup || a.srcMentionsSelf(w.span) {
				c.add(effect.Of(effect.Refused), "signal-self", "blocked: %s %s: the processes are looked up by Airlock's name", c.name, rate.Display(w.s))
			} else {
				c.add(effect.Of(effect.Signal, effect.Computed), "signal-computed", "%s %s: a process name computed at run time may be Airlock's gate", c.name, rate.Display(w.s))
			}
		default:
			c.signalPattern(w, names, lines, full, exact)
		}
	}
}

// pkillArgs reads pkill's, pgrep's and killall's options: the signal, and
// whether patterns match whole command lines (full), whole names (exact)
// or a user's processes (user).
func pkillArgs(args []word) (sig string, full, exact, user bool) {
	for i, w := range args {
		s := w.s
		switch {
		case s == "-f" || s == "--full":
			full = true
		case s == "-x" || s == "--exact" || s == "-e":
			exact = true
		case s == "-u" || s == "-U" || s == "--uid" || s == "--euid" || s == "--user" || strings.HasPrefix(s, "--uid=") || strings.HasPrefix(s, "--euid="):
			user = true
		case s == "-s" || s == "--signal":
			if i+1 < len(args) {
				sig = args[i+1].s
			}
		case strings.HasPrefix(s, "--signal="):
			sig = s[len("--signal="):]
		case strings.HasPrefix(s, "-") && len(s) > 1 && !strings.HasPrefix(s, "--") && !w.hole:
			for _, l := range s[1:] {
				switch l {
				case 'f':
					full = true
				case 'x':
					exact = true
				}
			}
			if strings.ToUpper(s[1:]) == s[1:] || strings.Trim(s[1:], "0123456789") == "" {
				sig = s[1:] // -STOP, -9
			}
		}
	}
	return sig, full, exact, user
}

// signalPattern rates a process pattern of pkill or killall: one that
// matches Airlock's gate, by name or (full) command line, is refused.
func (c *call) signalPattern(w word, names, lines []string, full, exact bool) {
	args := c.args
	pat := w.s
	if c.name == "killall" && !hasShort(args, 'm') && !hasShort(args, 'r') && !hasLong(args, "--regexp") {
		pat = "^" + regexp.QuoteMeta(path.Base(pat)) + "$"
	} else if exact {
		pat = "^(?:" + pat + ")$"
	}
	re, err := regexp.Compile("(?i)" + pat)
	if err != nil {
		c.add(effect.Of(effect.Signal, effect.Computed), "signal-pattern", "%s %s: cannot tell which processes the pattern matches", c.name, rate.Display(w.s))
		return
	}
	cands := names
	if full || c.name == "killall" && hasShort(args, 'c') {
		cands = append(append([]string(nil), names...), lines...)
	}
	for _, n := range cands {
		if re.MatchString(n) {
			c.add(effect.Of(effect.Refused), "signal-self", "blocked: %s %s matches Airlock's gate (%s): nothing may stop or freeze it", c.name, rate.Display(w.s), rate.Display(n))
			break
		}
	}
}

// killTarget rates one target of kill.
func (c *call) killTarget(w word) {
	a := c.a
	s := w.s
	src := a.srcText(w.span)
	if src != "" {
		s = shownPlaceholders.Replace(src)
	}
	switch {
	case src == "$!" || src == "${!}" || src == "$$" || src == "${$}" || src == "\"$!\"" || src == "\"$$\"":
		return // the job this script started, or the script itself
	case strings.Contains(src, "PPID"):
		c.add(effect.Of(effect.Refused), "signal-self", "blocked: kill %s: the shell's parent may be Airlock's gate", rate.Display(s))
		return
	case w.hole:
		if a.selfLookup || a.srcMentionsSelf(w.span) {
			c.add(effect.Of(effect.Refused), "signal-self", "blocked: kill %s: the process id is looked up by Airlock's name", rate.Display(s))
		} else {
			c.add(effect.Of(effect.Signal, effect.Computed), "signal-computed", "kill %s: a process id computed at run time may be Airlock's gate", rate.Display(s))
		}
		return
	case strings.HasPrefix(s, "%"):
		return // a job of this shell
	}
	n, err := strconv.Atoi(s)
	switch {
	case err != nil:
		c.add(effect.Of(effect.Signal, effect.Computed), "signal-unknown", "kill %s: cannot tell which process that is", rate.Display(s))
	case n == 0 || n == -1:
		c.add(effect.Of(effect.Refused), "signal-self", "blocked: kill %d signals every process of a group or of the user, Airlock's gate included", n)
	case a.env.GatePID(n) || n < -1 && a.env.GatePID(-n):
		c.add(effect.Of(effect.Refused), "signal-self", "blocked: kill %d: that is Airlock's gate: nothing may stop or freeze it", n)
	case n < -1:
		c.add(effect.Of(effect.Signal, effect.Session), "signal-unknown", "kill %d signals process group %d, which Airlock cannot identify (it may hold the gate)", n, -n)
	default:
		c.add(effect.Of(effect.Signal, effect.Computed), "signal-unknown", "kill %d signals a process Airlock cannot identify (it may be the gate)", n)
	}
}

// srcText is the source text of a span of this analysis's input ("" when
// the span is not in it).
func (a *shellAn) srcText(sp Span) string {
	if sp.Start < 0 || sp.End > len(a.src) || sp.Start >= sp.End {
		return ""
	}
	return a.src[sp.Start:sp.End]
}

// srcMentionsSelf reports a computed word whose source text names Airlock
// or its lock file: kill $(pgrep airlock), kill $(cat …/gate.lock).
func (a *shellAn) srcMentionsSelf(sp Span) bool {
	if sp.Start < 0 || sp.End > len(a.src) || sp.Start >= sp.End {
		return false
	}
	return rate.MentionsSelf(a.src[sp.Start:sp.End])
}

// shownPlaceholders shows the placeholders of computed text as "…".
var shownPlaceholders = strings.NewReplacer(rate.HoleQuoted, "…", rate.HoleUnquoted, "…")

// sshTools use the SSH store for what it is for.
var sshTools = map[string]bool{"ssh": true, "scp": true, "sftp": true, "ssh-add": true, "ssh-keygen": true, "ssh-copy-id": true, "autossh": true, "mosh": true}

// sshKeyOption is an option of the ssh tools whose value is a key or
// configuration file.
func sshKeyOption(s string) bool {
	switch s {
	case "-i", "-F", "-f", "-S", "-E", "-o":
		return true
	}
	return false
}

// guardExcept is guard without the credential-store findings for the
// store at root (~/.ssh for the ssh tools).
func (a *shellAn) guardExcept(w word, sp Span, u rate.Use, root string) {
	for _, f := range a.guardWord(w, u) {
		if f.Rule == "credential-store" && strings.Contains(f.Text, "("+root+":") {
			continue
		}
		a.addFinding(f, sp)
	}
}

// guardMentions blocks a command whose arguments spell out one of
// Airlock's own places anywhere in their text: code handed to an
// interpreter (python3 -c "open('~/.local/share/airlock/settings.json')"),
// a URL, a setting. A place in the home is looked for by its spelling
// from the home (.local/share/airlock), so $HOME, ~ and os.path.join all
// count.
func (c *call) guardMentions() {
	a := c.a
	spellings := a.env.OwnSpellings()
	if len(spellings) == 0 {
		return
	}
	for _, w := range c.args {
		if len(w.s) < 8 || strings.HasPrefix(w.s, "/") || strings.HasPrefix(w.s, "~") {
			continue // a path: guarded as one
		}
		low := strings.ToLower(w.s)
		for _, sp := range spellings {
			if strings.Contains(low, sp.Text) {
				c.add(effect.Of(effect.Refused), "own-files", "blocked: %s %s mentions %s (%s): no action may touch Airlock's own files", c.name, rate.Display(w.s), sp.What, sp.Root)
				return
			}
		}
	}
}
