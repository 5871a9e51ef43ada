package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// Extracting archives. What an archive holds is not in the command: its
// members may be named .git/hooks/pre-commit, .zshrc, .envrc or
// ../../Library/LaunchAgents/x.plist, and may replace files that exist. So
// extracting one Airlock cannot see into is Dangerous (tar -x, unzip,
// bsdtar, ditto -x, 7z x, cpio -i, pax -r, xar -x, aa extract), and
// Destructive where a member can plant code the person runs later: into a
// folder that holds a git repository, start-up files or a persistence
// place (the home, ~/Library, a .git folder), or with a rule that renames
// members into .git or a dotfile (tar --transform, bsdtar -s, pax -s).

// extracts rates extracting an archive into dir (has: named by the
// command; otherwise the working directory) with the member-renaming rules
// renames, by tool ("tar -x").
func (c *call) extracts(tool string, dir word, has bool, renames []word) {
	c.add(effect.Of(effect.Create, effect.Bulk, effect.Computed), "extract", "%s extracts an archive whose member names Airlock cannot see: they may be dotfiles, git hooks or files that exist", tool)
	for _, r := range renames {
		if why := plantingRename(r); why != "" {
			c.add(effect.Of(effect.Create, effect.Planted).On(r.s), "extract-rename", "%s %s: renames members %s, where they become code that runs later (git hooks, start-up files)", tool, rate.Display(r.s), why)
		}
	}
	into, ok := c.a.extractDir(dir, has)
	if !ok {
		return
	}
	if why := c.a.plantingDir(into); why != "" {
		c.add(effect.Of(effect.Create, effect.Planted).On(into.s), "extract-planting", "%s extracts into %s, which %s: a member can plant code that runs later", tool, rate.Display(into.s), why)
	}
}

// extractDir is the folder an extraction writes into: the one named, or
// the working directory (the home until a literal cd; unknown after one
// the analysis cannot follow).
func (a *shellAn) extractDir(dir word, has bool) (word, bool) {
	switch {
	case has:
		return dir, !dir.hole
	case a.cwd != "":
		return word{s: a.cwd}, true
	case a.cwdLost:
		return word{}, false
	}
	return word{s: "~"}, true
}

// plantingDir says why a folder is one where an archive's member can plant
// code ("" when it is not): it holds start-up files, a persistence place, a
// credential store or Airlock's own files, or it is a git repository.
func (a *shellAn) plantingDir(w word) string {
	p, ok := a.pathOf(w)
	if !ok || a.env == nil || a.env.Paths == nil {
		return ""
	}
	if !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") {
		p = joinPath("~", p)
	}
	if p == "" {
		return ""
	}
	if isHome(p) || p == "~" {
		return "is the home folder (start-up files such as .zshrc, LaunchAgents, SSH keys)"
	}
	switch z := a.env.Paths.Encloses(p); z.Kind {
	case sanitize.ZonePersistence, sanitize.ZoneCredential, sanitize.ZoneSystem, sanitize.ZoneOwn:
		return "holds " + z.Detail
	}
	if a.presence(word{s: joinPath(p, ".git")}) == rate.PresentFolder {
		return "is a git repository (a member named .git/hooks/… becomes a hook git runs)"
	}
	return ""
}

// plantingRename says how a member-renaming rule (s/re/replacement/flags,
// any delimiter; GNU tar's may hold several, separated by ;) can name a
// member into .git or a dotfile, or "" when it cannot: its replacement
// holds ".git", starts with a dot or puts one after a slash, or is computed
// at run time.
func plantingRename(w word) string {
	if w.hole {
		return "by a rule computed at run time"
	}
	for _, rule := range strings.Split(w.s, ";") {
		rule = strings.TrimSpace(rule)
		if len(rule) >= 2 && rule[0] == 's' && !isWordByte(rule[1]) {
			rule = rule[1:] // GNU tar's s/old/new/; bsdtar's and pax's are /old/new/
		}
		if len(rule) < 2 || isWordByte(rule[0]) {
			continue
		}
		parts := splitRule(rule[1:], rule[0])
		if len(parts) < 2 {
			continue
		}
		repl := strings.ReplaceAll(parts[1], `\`, "")
		switch low := strings.ToLower(repl); {
		case strings.Contains(low, ".git"):
			return "into .git"
		case strings.HasPrefix(repl, "."), strings.Contains(repl, "/."):
			return "into dotfiles"
		}
	}
	return ""
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == ' '
}

// splitRule splits the body of a substitution at its unescaped delimiter d.
func splitRule(body string, d byte) []string {
	var parts []string
	start := 0
	for i := 0; i < len(body); i++ {
		switch body[i] {
		case '\\':
			i++
		case d:
			parts = append(parts, body[start:i])
			start = i + 1
		}
	}
	return append(parts, body[start:])
}

// unzipLists reports unzip options that only list, test or print the
// archive (-l, -v, -t, -Z, -z, -p, -c): nothing is written.
func unzipLists(args []word) bool {
	for _, w := range args {
		s := w.s
		if s == "-x" || s == "-d" {
			return false
		}
		if strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && !w.hole && strings.ContainsAny(s[1:], "lvtZzpc") {
			return true
		}
	}
	return false
}

// sevenZipCommand rates 7z, 7za and 7zz: x and e extract (into -o DIR),
// a, u, d and rn change the archive, l, t, h, i and b read.
func sevenZipCommand(c *call) {
	cmd := strings.ToLower(sub(c.args))
	var dir word
	has := false
	for _, w := range c.args {
		switch s := w.s; {
		case strings.HasPrefix(s, "-o") && len(s) > 2:
			dir, has = word{s: s[2:], hole: w.hole, span: w.span}, true
		case strings.HasPrefix(s, "-spf"):
			c.add(effect.Of(effect.Overwrite), "tar-absolute", "%s -spf: extracts to the absolute paths the archive names, anywhere on the disk", c.name)
		case strings.HasPrefix(s, "-") && !w.hole && !sevenZipSwitch(s):
			c.unmodelled(s)
		}
	}
	switch cmd {
	case "x", "e":
		c.extracts(c.name+" "+cmd, dir, has, nil)
		if has {
			c.a.write(dir, c.span, c.name+" extracts into")
		}
	case "a", "u", "d", "rn":
		c.add(effect.Of(effect.Change), "7z", "%s %s: changes an archive", c.name, cmd)
		if ops := c.operands(); len(ops) > 1 {
			c.a.write(ops[1], c.span, c.name+" writes the archive")
		}
	case "l", "t", "h", "i", "b", "":
	default:
		c.add(effect.Of(effect.Unknown).On(cmd), "7z", "%s %s: a command Airlock does not model", c.name, rate.Display(cmd))
	}
}

// sevenZipSwitch reports a 7-Zip switch that does no more than its command
// says: yes to all, passwords, types, recursion, file selection, overwrite
// modes, output and log levels (its manual's -y, -p, -t, -r, -i, -x, -ao,
// -bs, -bb, -bt, -mmt, -m, -v, -w, -sc, -scs, -slt, -sse, -ssc, -o).
func sevenZipSwitch(s string) bool {
	for _, p := range []string{"-y", "-p", "-t", "-r", "-i", "-x", "-ao", "-bs", "-bb", "-bt", "-bd", "-m", "-v", "-w", "-sc", "-slt", "-sse", "-ssc", "-snh", "-o", "-an", "-ai", "-ax", "-u", "-l", "-so", "-si"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// cpioCommand rates cpio: -i extracts from its input into the working
// directory (-D DIR with GNU cpio), -p copies files into a folder, -o
// writes an archive, -t lists; -r and --rename-batch-file rename members
// as they come, which cannot be seen.
func cpioCommand(c *call) {
	p := cpioModel.parse(c.args)
	if p.unmodelled != "" {
		c.unmodelled(p.unmodelled)
	}
	dir, has := p.value("-D", "--directory")
	if p.has("--absolute-filenames") {
		c.add(effect.Of(effect.Overwrite), "tar-absolute", "cpio --absolute-filenames: extracts to the absolute paths the archive names, anywhere on the disk")
	}
	switch {
	case p.has("-t", "--list"):
		c.add(effect.Of(effect.Read), "cpio", "cpio -t: lists an archive")
	case p.has("-i", "--extract"):
		var renames []word
		if p.has("-r", "--rename", "--rename-batch-file") {
			renames = append(renames, word{s: rate.HoleMark, hole: true})
		}
		c.extracts("cpio -i", dir, has, renames)
	case p.has("-p", "--pass-through"):
		ops := p.operands()
		if len(ops) > 0 {
			c.add(effect.Of(effect.Create), "cpio", "cpio -p: copies the files its input names into %s", rate.Display(ops[len(ops)-1].s))
			c.a.write(ops[len(ops)-1], c.span, "cpio -p copies into")
		}
	case p.has("-o", "--create"):
		c.add(effect.Of(effect.Create), "cpio", "cpio -o: writes an archive")
		if f, ok := p.value("-O", "-F", "--file"); ok {
			c.a.write(f, c.span, "cpio writes the archive")
		}
	default:
		c.add(effect.Of(effect.Unknown), "cpio", "cpio: a mode Airlock does not model")
	}
}

var cpioModel = &opts{short: "iopt0aAbBcdfklLmnrsSuvV", valued: "CDEFHIMORe", long: `--extract --create --pass-through --list
	--null --append --reset-access-time --block-size= --format= --directory= --pattern-file= --file= --message=
	--owner= --io-size= --make-directories --nonmatching --link --dereference --preserve-modification-time
	--numeric-uid-gid --rename --rename-batch-file= --swap --swap-bytes --swap-halfwords --unconditional --verbose
	--dot --quiet --no-absolute-filenames --absolute-filenames --no-preserve-owner --only-verify-crc --sparse
	--force-local --to-stdout --help --version --usage`}

// paxCommand rates pax: -r reads an archive and extracts it, -w writes one,
// both copy files into a folder; neither lists. -s renames members.
func paxCommand(c *call) {
	p := paxModel.parse(c.args)
	if p.unmodelled != "" {
		c.unmodelled(p.unmodelled)
	}
	renames := c.paxRenames()
	read, write := p.has("-r"), p.has("-w")
	ops := p.operands()
	switch {
	case read && write:
		if len(ops) > 0 {
			dest := ops[len(ops)-1]
			c.extracts("pax -rw", dest, true, renames)
			c.a.write(dest, c.span, "pax -rw copies into")
		}
	case read:
		c.extracts("pax -r", word{}, false, renames)
	case write:
		c.add(effect.Of(effect.Create), "pax", "pax -w: writes an archive")
		if f, ok := p.value("-f"); ok {
			c.a.write(f, c.span, "pax writes the archive")
		}
	default:
		c.add(effect.Of(effect.Read), "pax", "pax: lists an archive")
	}
}

// paxRenames are the values of pax's -s options, which may be repeated.
func (c *call) paxRenames() []word {
	var out []word
	for i, w := range c.args {
		switch {
		case w.s == "--":
			return out
		case w.s == "-s" && i+1 < len(c.args):
			out = append(out, c.args[i+1])
		case strings.HasPrefix(w.s, "-s") && len(w.s) > 2 && !w.hole:
			out = append(out, word{s: w.s[2:], span: w.span})
		}
	}
	return out
}

var paxModel = &opts{short: "rwacdiklnPtuvXHLOz0", valued: "bfopsxBDEGTUY"}

// xarCommand rates xar: -x extracts (into -C DIR), -c creates, -t lists.
func xarCommand(c *call) {
	p := xarModel.parse(c.args)
	if p.unmodelled != "" {
		c.unmodelled(p.unmodelled)
	}
	dir, has := p.value("-C")
	switch {
	case p.has("-x"):
		c.extracts("xar -x", dir, has, nil)
	case p.has("-c"):
		c.add(effect.Of(effect.Create), "xar", "xar -c: writes an archive")
		if f, ok := p.value("-f"); ok {
			c.a.write(f, c.span, "xar writes the archive")
		}
	}
}

var xarModel = &opts{short: "cxtvk", valued: "fCsn", long: `--compression= --toc-cksum= --file-cksum= --dump-toc=
	--dump-header --exclude= --rsize= --coalesce-heap --link-same --no-compress= --prop-include= --prop-exclude=
	--distribution --keep-existing --keep-setuid --help --version`}

// aaCommand rates Apple Archive's aa: extract writes into -d DIR (or
// here); archive and append write the archive; list and verify read.
func aaCommand(c *call) {
	cmd := sub(c.args)
	var dir word
	has := false
	for i, w := range c.args {
		if (w.s == "-d" || w.s == "-o") && i+1 < len(c.args) {
			if w.s == "-d" {
				dir, has = c.args[i+1], true
			} else {
				c.a.write(c.args[i+1], c.span, "aa writes")
			}
		}
	}
	switch cmd {
	case "extract":
		c.extracts("aa extract", dir, has, nil)
	case "list", "verify", "manifest", "check-and-fix":
	default:
		c.add(effect.Of(effect.Create), "aa", "aa %s: archives files", rate.Display(cmd))
	}
}

// aaModel is aa's option model (its manual): single-dash words, some with
// a value.
var aaModel = &opts{long: `-d= -i= -o= -v -h -a= -b= -t= -wt= -x -p= -subdir= -include-path= -exclude-path=
	-include-path-list= -exclude-path-list= -include-regex= -exclude-regex= -include-type= -exclude-type=
	-include-field= -exclude-field= -list-format= -enable-dedup -enable-holes -ignore-eperm -manifest`}
