package risk

import (
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/airlockhq/airlock/app/internal/datadir"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// The guard: the hard rules every kind's paths pass, whatever the analyzer
// that found them (DESIGN.md, "Containment"; seed 003's sanitisation rules
// 3 and 4):
//
//   - Airlock's own files (its data folder, settings, history, logs,
//     socket, program; see sanitize.Config.WithOwn) are blocked for every
//     use but naming them, and so is a folder that holds them for a use
//     that reaches everything inside (rm -r, mv, cp -r, tar, rsync, a link
//     to it);
//   - credential stores are blocked the same way (a public key may be
//     read);
//   - system folders are blocked for a write and never safe for a read:
//     reading public configuration changes nothing, so a read is caution
//     with a reason, as the benign corpora label it.
//
// A path computed at run time that may name Airlock's own files is at
// least dangerous. Globs are matched as the shell would expand them.

// use is how an action uses a path it names.
type use int

const (
	useList      use = iota // reads its name or metadata, or lists the folder (ls, du, find without actions)
	useRead                 // reads its content (cat, the source of cp)
	useWrite                // creates, writes, changes or removes it (>, the target of cp, rm, chmod)
	useTreeRead             // reads everything inside it (cp -r, tar c, grep -r)
	useTreeWrite            // changes everything inside it (rm -r, mv, rsync's target, tar x -C, a link to it)
)

func (u use) tree() bool   { return u == useTreeRead || u == useTreeWrite }
func (u use) writes() bool { return u == useWrite || u == useTreeWrite }

// finding is one guard result: a level, the rule's name after the
// analyzer's prefix, and the warning.
type finding struct {
	l    level.Level
	rule string
	text string
}

// guardMemo remembers literal classifications: they are pure functions of
// the configuration and the path.
var (
	guardMemo     sync.Map // zoneKey → guardZones
	guardMemoSize atomic.Int64
)

type guardZones struct {
	in, holds sanitize.Zone
	pub       bool
}

func guardZonesOf(env *Env, abs string) guardZones {
	key := zoneKey{env.Paths, abs}
	if z, ok := guardMemo.Load(key); ok {
		return z.(guardZones)
	}
	z := guardZones{in: env.Paths.Classify(abs), holds: env.Paths.Encloses(abs)}
	base := strings.ToLower(path.Base(abs))
	z.pub = strings.HasSuffix(base, ".pub") || base == "known_hosts"
	if guardMemoSize.Add(1) > maxZoneMemo {
		guardMemo.Clear()
		guardMemoSize.Store(0)
	}
	guardMemo.Store(key, z)
	return z
}

// guardPath applies the guard to a literal path (absolute, or starting
// with ~) used as u. shown is how the warning names it.
func guardPath(env *Env, p string, u use, shown string) []finding {
	if env == nil || env.Paths == nil || p == "" {
		return nil
	}
	abs, err := sanitize.ExpandHome(p, env.Paths.Home)
	if err != nil || !strings.HasPrefix(abs, "/") {
		return nil
	}
	abs = path.Clean(abs)
	z := guardZonesOf(env, abs)
	var out []finding
	switch in := z.in; in.Kind {
	case sanitize.ZoneOwn:
		return []finding{ownFinding(shown, "is", in)}
	case sanitize.ZoneCredential:
		if z.pub && !u.writes() {
			break
		}
		return []finding{{level.Blocked, "credential-store", "blocked: " + shown + " is inside a credential store (" + in.Root + ": " + in.Detail + ")"}}
	case sanitize.ZoneSystem:
		if isDevicePath(in.Root) {
			break
		}
		if in.Root == "/" {
			if u == useTreeWrite {
				return []finding{{level.Blocked, "system-path", "blocked: " + shown + " is the root folder: it holds the whole disk"}}
			}
			break
		}
		if u.writes() {
			return []finding{{level.Blocked, "system-path", "blocked: " + shown + " is inside a system folder (" + in.Root + ": " + in.Detail + ")"}}
		}
		{
			out = append(out, finding{level.Caution, "system-read", "reads " + shown + ", inside a system folder (" + in.Root + ": " + in.Detail + ")"})
		}
	}
	if !u.tree() {
		return out
	}
	switch h := z.holds; h.Kind {
	case sanitize.ZoneOwn:
		out = append(out, ownFinding(shown, "holds", h))
	case sanitize.ZoneCredential:
		out = append(out, finding{level.Blocked, "credential-store", "blocked: " + shown + " holds a credential store (" + h.Root + ": " + h.Detail + ")"})
	case sanitize.ZoneSystem:
		if u == useTreeWrite {
			out = append(out, finding{level.Blocked, "system-path", "blocked: " + shown + " holds system folders (" + h.Root + ")"})
		}
	}
	return out
}

func ownFinding(shown, verb string, z sanitize.Zone) finding {
	return finding{level.Blocked, "own-files", "blocked: " + shown + " " + verb + " " + z.Detail + " (" + z.Root + "): no action may touch Airlock's own files"}
}

// isDevicePath: /dev is a system folder to the sanitiser, but devices have
// rules of their own (raw disks, sinks), and seed 003 does not list it.
func isDevicePath(root string) bool {
	return root == "/dev" || root == "/private/dev"
}

// guardPattern applies the guard to a path with globs or parts computed at
// run time (sanitize.Hole stands for those), absolute or starting with ~
// or a Hole.
func guardPattern(env *Env, pat string, u use, shown string) []finding {
	if env == nil || env.Paths == nil {
		return nil
	}
	computed := strings.Contains(pat, sanitize.Hole)
	var out []finding
	for _, h := range env.Paths.Pattern(pat) {
		if h.Reach == sanitize.ReachHolds && !u.tree() {
			continue
		}
		if u == useList && !computed && h.Zone.Kind == sanitize.ZoneOwn {
			// Listing what a glob matches (du -sh ~/*) singles nothing
			// out, wherever AIRLOCK_DATA_DIR put the data folder.
			continue
		}
		verb := "may name"
		if h.Reach == sanitize.ReachHolds {
			verb = "may name a folder that holds"
		}
		where := h.Zone.Root + ": " + h.Zone.Detail
		switch h.Zone.Kind {
		case sanitize.ZoneOwn:
			if computed {
				out = append(out, finding{level.Dangerous, "own-files-maybe", shown + " is computed at run time and " + verb + " Airlock's own files (" + h.Zone.Root + ")"})
			} else {
				out = append(out, finding{level.Blocked, "own-files", "blocked: the pattern " + shown + " " + verb + " " + h.Zone.Detail + " (" + h.Zone.Root + "): no action may touch Airlock's own files"})
			}
		case sanitize.ZoneCredential:
			if !computed {
				out = append(out, finding{level.Blocked, "credential-store", "blocked: the pattern " + shown + " " + verb + " a credential store (" + where + ")"})
			}
		case sanitize.ZoneSystem:
			switch {
			case computed || isDevicePath(h.Zone.Root):
			case u.writes():
				out = append(out, finding{level.Blocked, "system-path", "blocked: the pattern " + shown + " " + verb + " a system folder (" + where + ")"})
			case h.Reach == sanitize.ReachInside:
				out = append(out, finding{level.Caution, "system-read", "reads " + shown + ", which may name a system folder (" + where + ")"})
			}
		}
	}
	return out
}

// guard applies the guard to one shell word used as u, and adds what it
// finds.
func (a *shellAn) guard(w word, sp Span, u use) {
	for _, f := range a.guardWord(w, u) {
		a.add(f.l, "shell."+f.rule, sp, "%s", f.text)
	}
}

// guardWord works out the path a word names — a literal, a glob, or one
// with parts computed at run time — and applies the guard to it. A
// relative path is taken from the working directory the script set, or
// from the home (where the gate starts commands) when it set none; after a
// cd the analysis could not follow, it may lie anywhere.
func (a *shellAn) guardWord(w word, u use) []finding {
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
	shown := display(s)
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
			u = useWrite
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
	relative := !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && !strings.HasPrefix(p, holeMark)
	if relative {
		switch {
		case a.cwd != "":
			if j := joinPath(a.cwd, p); j != "" {
				p = j
			} else {
				p = holeMark + "/" + p
			}
		case a.cwdLost:
			p = holeMark + "/" + p
		default:
			p = "~/" + p
		}
	}
	if literal && !w.glob && !strings.Contains(p, holeMark) {
		if a.env.Paths != nil && strings.HasPrefix(p, "/") {
			p = otherHome(path.Clean(p), a.env.Paths.Home)
		}
		return guardPath(a.env, p, u, shown)
	}
	return guardPattern(a.env, p, u, shown)
}

// nameOnly lists commands whose operands are text or names, never files
// they open: no guard applies to them (kill and its kin have rules of
// their own).
var nameOnly = map[string]bool{
	"echo": true, "printf": true, "basename": true, "dirname": true, "test": true, "[": true, "[[": true,
	"cd": true, "pushd": true, "popd": true, ":": true, "true": true, "false": true, "sleep": true, "type": true,
	"which": true, "whence": true, "command": true, "hash": true, "alias": true, "unalias": true, "export": true,
	"unset": true, "read": true, "exit": true, "return": true, "wait": true, "kill": true, "pkill": true,
	"killall": true, "pgrep": true, "pidof": true, "printenv": true, "eval": true, "let": true, "local": true,
	"declare": true, "typeset": true, "shift": true, "set": true, "trap": true, "say": true,
}

// listers read names and metadata only.
var listers = map[string]bool{
	"ls": true, "du": true, "stat": true, "file": true, "mdls": true, "realpath": true, "readlink": true,
	"tree": true, "exa": true, "eza": true, "lsd": true, "df": true, "getfattr": true, "fd": true, "fdfind": true,
	"gstat": true, "gls": true, "gdu": true, "lsof": true,
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
		if namesSelf(w.s) {
			c.add(level.Blocked, "own-keys", "blocked: %s %s names Airlock's key-store items or its app (%s): no action may touch them", c.name, display(w.s), "dev.airlock.Airlock")
			break
		}
	}
	if a.env == nil || a.env.Paths == nil {
		return
	}
	if a.cwd != "" {
		// Whatever runs inside Airlock's own folders may touch them by a
		// name the analysis never sees (sqlite3, git init, a script).
		if abs, err := sanitize.ExpandHome(a.cwd, a.env.Paths.Home); err == nil {
			switch z := a.env.Paths.Classify(otherHome(path.Clean(abs), a.env.Paths.Home)); z.Kind {
			case sanitize.ZoneOwn:
				c.add(level.Blocked, "own-files", "blocked: %s runs inside %s (%s): no action may touch Airlock's own files", c.name, z.Detail, z.Root)
			case sanitize.ZoneCredential:
				c.add(level.Blocked, "credential-store", "blocked: %s runs inside a credential store (%s: %s)", c.name, z.Root, z.Detail)
			}
		}
	}
	c.guardMentions()
	ops := c.operands()
	each := func(ws []word, u use) {
		for _, w := range ws {
			a.guard(w, c.span, u)
		}
	}
	if sshTools[c.name] {
		// ssh -i ~/.ssh/id_ed25519: the tools of the SSH store use it for
		// what it is for. Anything else they are given (scp's files) is
		// guarded as usual.
		keys := c.name == "ssh-add" || c.name == "ssh-keygen" // every file they take is a key
		var rest []word
		end := false
		for i, w := range c.args {
			switch {
			case keys || i > 0 && !end && sshKeyOption(c.args[i-1].s):
				a.guardExcept(w, c.span, useRead, "~/.ssh")
			case !end && w.s == "--":
				end = true
			case !end && strings.HasPrefix(w.s, "-") && len(w.s) > 1 && !w.hole:
				a.guardExcept(w, c.span, useRead, "~/.ssh")
			default:
				rest = append(rest, w)
			}
		}
		ops = rest
	}
	recursive := hasShort(c.args, 'r') || hasShort(c.args, 'R') || hasLong(c.args, "--recursive")
	switch c.name {
	case "rm", "unlink", "shred", "srm", "trash", "truncate", "touch", "mkdir", "rmdir", "tee", "mktemp", "gzip", "gunzip",
		"bzip2", "bunzip2", "xz", "unxz", "zstd", "setfile", "SetFile":
		u := useWrite
		if recursive || c.name == "trash" {
			u = useTreeWrite
		}
		each(ops, u)
	case "chmod", "chown", "chgrp", "chflags", "setfacl", "chattr":
		u := useWrite
		if recursive {
			u = useTreeWrite
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
	case "grep", "egrep", "fgrep", "ggrep":
		u := useRead
		if recursive || hasArg(c.args, "-d", "--directories=recurse") {
			u = useTreeRead
		}
		each(ops, u)
	case "rg", "ag", "ack", "pt", "ugrep":
		each(ops, useTreeRead)
	case "sed", "gsed", "perl":
		u := useRead
		if hasShort(c.args, 'i') || hasLong(c.args, "--in-place") {
			u = useWrite
		}
		each(ops, u)
	case "xattr":
		u := useList
		if hasShort(c.args, 'w') || hasShort(c.args, 'd') || hasShort(c.args, 'c') {
			u = useWrite
		}
		each(ops, u)
	case "dd":
		each(ops, useRead) // if= and of= are told apart by guardWord
	default:
		u := useRead
		if listers[c.name] {
			u = useList
		}
		each(ops, u)
	}
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
	src, dst := useRead, useWrite
	switch c.name {
	case "mv", "gmv":
		src = useTreeWrite // what moves, moves with everything inside
	case "ln", "gln":
		src = useTreeWrite // a link to a folder reaches everything inside
		if len(ops) == 1 {
			sources, targets = ops, nil // the link is made in the working folder
		}
	case "rsync":
		src, dst = useTreeRead, useTreeWrite
		if hasLong(c.args, "--remove-source-files") {
			src = useTreeWrite
		}
	case "ditto", "scp", "sftp":
		src, dst = useTreeRead, useTreeWrite
	default:
		if tree {
			src, dst = useTreeRead, useTreeWrite
		}
	}
	for _, w := range sources {
		a.guard(w, c.span, src)
	}
	for _, t := range targets {
		if fs := a.guardWord(t, dst); len(fs) > 0 {
			for _, f := range fs {
				a.add(f.l, "shell."+f.rule, c.span, "%s", f.text)
			}
			continue // the target itself says enough
		}
		if t.hole || t.glob {
			continue
		}
		for _, w := range sources {
			base := path.Base(strings.TrimRight(w.s, "/"))
			switch {
			case w.hole && strings.Contains(base, holeMark):
				// A computed name, into the very folder that holds one of
				// Airlock's own: it may be that one.
				j := word{s: strings.TrimRight(t.s, "/") + "/" + holeMark, hole: true, span: t.span}
				for _, f := range a.guardWord(j, dst) {
					if f.l >= level.Dangerous {
						c.add(level.Dangerous, "own-files-maybe", "%s %s into %s: the name is computed at run time and may be one of Airlock's own files", c.name, display(w.s), display(t.s))
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
	u := useList
	var starts []word
	expr := false
	for _, w := range c.args {
		s := w.s
		switch {
		case s == "-delete" || s == "-exec" || s == "-execdir" || s == "-ok" || s == "-okdir" || strings.HasPrefix(s, "-fprint") || s == "-fls":
			u = useTreeWrite
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

// guardArchive: tar, zip, cpio, pax, 7z. Creating an archive reads what it
// holds; extracting writes into its folder (-C, -d, or the working folder).
func (c *call) guardArchive(ops []word) {
	a := c.a
	extract := false
	switch c.name {
	case "unzip", "cpio", "pax":
		extract = c.name == "unzip" || hasShort(c.args, 'i') || hasShort(c.args, 'r')
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
	}
	if !extract {
		for _, w := range ops {
			a.guard(w, c.span, useTreeRead)
		}
		return
	}
	for _, w := range ops {
		a.guard(w, c.span, useTreeWrite)
	}
	into := hasShort(c.args, 'C') || hasLong(c.args, "--directory") || c.name == "unzip" && hasShort(c.args, 'd')
	if into {
		for _, w := range c.args {
			if v, ok := strings.CutPrefix(w.s, "-d"); ok && v != "" && c.name == "unzip" {
				a.guard(word{s: v, hole: w.hole, span: w.span}, c.span, useTreeWrite)
			}
			if v, ok := strings.CutPrefix(w.s, "-C"); ok && v != "" && c.name != "unzip" {
				a.guard(word{s: v, hole: w.hole, span: w.span}, c.span, useTreeWrite)
			}
		}
		return
	}
	// Into the working folder: one the script chose is named like any
	// other; the home, where commands start, holds Airlock's own files,
	// and what the archive holds is not known.
	if a.cwd != "" {
		a.guard(word{s: a.cwd}, c.span, useTreeWrite)
		return
	}
	if a.cwdLost {
		return
	}
	for _, f := range guardPath(a.env, "~", useTreeWrite, "~") {
		if f.rule == "own-files" {
			c.add(level.Dangerous, "extract-home", "%s extracts into the home folder, which holds Airlock's own files: what the archive holds is not known", c.name)
			break
		}
	}
}

// selfID is the name of Airlock's key-store items (their service) and of
// its app bundle; storeItems are the history's items in the key store.
const selfID = "dev.airlock.airlock"

var storeItems = []string{"history-key-", "history-anchor-", "history-current-"}

// selfNames are the process names the gate runs under, whatever Env
// says: the Linux program and the macOS bundle's executable (compared
// without case).
var selfNames = []string{"airlock", "airlock.app"}

// selfCommandLines are command lines a gate is commonly started with, for
// pkill -f when Env knows none.
var selfCommandLines = []string{"airlock serve --prompter=terminal", "/Applications/Airlock.app/Contents/MacOS/Airlock"}

// namesSelf reports a word that names Airlock's key-store items or bundle
// id: security find-generic-password -s dev.airlock.Airlock, secret-tool
// clear service …, launchctl kill … gui/501/dev.airlock.Airlock.
func namesSelf(s string) bool {
	if containsFold(s, selfID) {
		return true
	}
	for _, k := range storeItems {
		if containsFold(s, k) {
			return true
		}
	}
	return false
}

// containsFold is strings.Contains ignoring ASCII case, for a lower-case
// sub, without copying s.
func containsFold(s, sub string) bool {
	if len(sub) == 0 {
		return true
	}
	first := sub[0]
	for i := 0; i+len(sub) <= len(s); i++ {
		if c := s[i]; c == first || c|0x20 == first {
			if strings.EqualFold(s[i:i+len(sub)], sub) {
				return true
			}
		}
	}
	return false
}

// processNames returns the names and command lines a pattern must not
// match.
func (e *Env) processNames() (names, lines []string) {
	names = append(names, selfNames...)
	lines = append(lines, selfCommandLines...)
	if e != nil && e.Self != nil {
		names = append(names, e.Self.Names...)
		lines = append(lines, e.Self.CommandLines...)
	}
	return names, lines
}

// gatePID reports a process id of the gate.
func (e *Env) gatePID(n int) bool {
	if e == nil || e.Self == nil {
		return false
	}
	for _, p := range e.Self.PIDs {
		if p == n {
			return true
		}
	}
	return false
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
		if mentionsSelf(w.s) {
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
		targets = c.operands()
		if user && len(targets) > 0 {
			targets = targets[1:] // the user's name
		}
	}
	if s := strings.TrimPrefix(strings.ToUpper(sig), "SIG"); s == "0" {
		return // a probe: no signal is sent
	}
	if len(targets) == 0 && user {
		c.add(level.Blocked, "signal-self", "blocked: %s of a whole user's processes reaches Airlock's gate", c.name)
		return
	}
	names, lines := a.env.processNames()
	for _, w := range targets {
		switch {
		case c.name == "kill":
			c.killTarget(w)
		case w.hole:
			if a.selfLookup || a.srcMentionsSelf(w.span) {
				c.add(level.Blocked, "signal-self", "blocked: %s %s: the processes are looked up by Airlock's name", c.name, display(w.s))
			} else {
				c.add(level.Dangerous, "signal-computed", "%s %s: a process name computed at run time may be Airlock's gate", c.name, display(w.s))
			}
		default:
			pat := w.s
			if c.name == "killall" && !hasShort(args, 'm') && !hasShort(args, 'r') && !hasLong(args, "--regexp") {
				pat = "^" + regexp.QuoteMeta(path.Base(pat)) + "$"
			} else if exact {
				pat = "^(?:" + pat + ")$"
			}
			re, err := regexp.Compile("(?i)" + pat)
			if err != nil {
				c.add(level.Dangerous, "signal-pattern", "%s %s: cannot tell which processes the pattern matches", c.name, display(w.s))
				continue
			}
			cands := names
			if full || c.name == "killall" && hasShort(args, 'c') {
				cands = append(append([]string(nil), names...), lines...)
			}
			for _, n := range cands {
				if re.MatchString(n) {
					c.add(level.Blocked, "signal-self", "blocked: %s %s matches Airlock's gate (%s): nothing may stop or freeze it", c.name, display(w.s), display(n))
					break
				}
			}
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
		c.add(level.Blocked, "signal-self", "blocked: kill %s: the shell's parent may be Airlock's gate", display(s))
		return
	case w.hole:
		if a.selfLookup || a.srcMentionsSelf(w.span) {
			c.add(level.Blocked, "signal-self", "blocked: kill %s: the process id is looked up by Airlock's name", display(s))
		} else {
			c.add(level.Dangerous, "signal-computed", "kill %s: a process id computed at run time may be Airlock's gate", display(s))
		}
		return
	case strings.HasPrefix(s, "%"):
		return // a job of this shell
	}
	n, err := strconv.Atoi(s)
	switch {
	case err != nil:
		c.add(level.Dangerous, "signal-unknown", "kill %s: cannot tell which process that is", display(s))
	case n == 0 || n == -1:
		c.add(level.Blocked, "signal-self", "blocked: kill %d signals every process of a group or of the user, Airlock's gate included", n)
	case a.env.gatePID(n) || n < -1 && a.env.gatePID(-n):
		c.add(level.Blocked, "signal-self", "blocked: kill %d: that is Airlock's gate: nothing may stop or freeze it", n)
	case n < -1:
		c.add(level.Dangerous, "signal-unknown", "kill %d signals process group %d, which Airlock cannot identify (it may hold the gate)", n, -n)
	default:
		c.add(level.Dangerous, "signal-unknown", "kill %d signals a process Airlock cannot identify (it may be the gate)", n)
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
	return mentionsSelf(a.src[sp.Start:sp.End])
}

// shownPlaceholders shows the placeholders of computed text as "…".
var shownPlaceholders = strings.NewReplacer(holeQuoted, "…", holeUnquoted, "…")

// noPlaceholders removes the placeholders of computed text (whose names
// say AIRLOCK).
var noPlaceholders = strings.NewReplacer(holeQuoted, "", holeUnquoted, "")

// mentionsSelf reports text that names Airlock's program or the gate's
// lock file.
func mentionsSelf(s string) bool {
	if !containsFold(s, "airlock") && !containsFold(s, datadir.LockFile) {
		return false
	}
	s = noPlaceholders.Replace(s)
	return containsFold(s, "airlock") || containsFold(s, datadir.LockFile)
}

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
func (a *shellAn) guardExcept(w word, sp Span, u use, root string) {
	for _, f := range a.guardWord(w, u) {
		if f.rule == "credential-store" && strings.Contains(f.text, "("+root+":") {
			continue
		}
		a.add(f.l, "shell."+f.rule, sp, "%s", f.text)
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
	spellings := a.env.ownSpellings()
	if len(spellings) == 0 {
		return
	}
	for _, w := range c.args {
		if len(w.s) < 8 || strings.HasPrefix(w.s, "/") || strings.HasPrefix(w.s, "~") {
			continue // a path: guarded as one
		}
		low := strings.ToLower(w.s)
		for _, sp := range spellings {
			if strings.Contains(low, sp.text) {
				c.add(level.Blocked, "own-files", "blocked: %s %s mentions %s (%s): no action may touch Airlock's own files", c.name, display(w.s), sp.what, sp.root)
				return
			}
		}
	}
}

// ownSpelling is how an own place is looked for in free text.
type ownSpelling struct{ text, what, root string }

var spellMemo sync.Map // *sanitize.Config → []ownSpelling

// ownSpellings lists the own places' spellings in free text, lower case:
// from the home (".local/share/airlock") for those in it, whole for the
// rest.
func (e *Env) ownSpellings() []ownSpelling {
	if e == nil || e.Paths == nil {
		return nil
	}
	if v, ok := spellMemo.Load(e.Paths); ok {
		return v.([]ownSpelling)
	}
	var out []ownSpelling
	home := strings.ToLower(strings.TrimSuffix(e.Paths.Home, "/")) + "/"
	for _, p := range e.Paths.Own() {
		low := strings.ToLower(p.Path)
		text := low
		if strings.HasPrefix(low, home) {
			text = low[len(home):]
		}
		if len(text) < 8 || !strings.Contains(text, "airlock") {
			continue // a place spelled too plainly to look for in text
		}
		out = append(out, ownSpelling{text, p.What, e.Paths.ShortPath(p.Path)})
	}
	spellMemo.Store(e.Paths, out)
	return out
}
