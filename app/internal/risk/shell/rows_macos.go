package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

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
	case "read", "read-type", "export":
		if !hasArg(args, "-g", "-globalDomain") {
			defaultsRead(c, operands(args))
		}
	case "find":
		// Every domain's keys and values that hold the word: any app's
		// preferences, where apps keep tokens.
		c.a.readSource(word{s: "~/Library/Preferences", span: c.span}, c.span)
	case "domains", "help", "":
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
			c.add(effect.Of(effect.Persist), "defaults-hook", "defaults write … LoginHook: runs a script at every login (persistence)")
			return
		}
		if what, ok := defaultsSecurity(ops); ok && s == "write" || s == "delete" && len(ops) > 2 && securityDefaultKey(ops) {
			if !ok {
				what = ops[1].s + " " + ops[2].s
			}
			c.add(effect.Of(effect.SecurityOff), "security-off", "defaults %s %s: turns a protection of the OS off", s, rate.Display(what))
			return
		}
		if cosmeticDomains[domain] && s == "write" {
			c.add(effect.Of(effect.Setting).On(domain), "defaults-write", "defaults write %s: changes how %s looks or behaves", domain, domain)
			return
		}
		c.add(effect.Of(effect.Setting, effect.Session), "defaults-write", "defaults %s: changes preferences", s)
	default:
		c.add(effect.Of(effect.Setting, effect.Session), "defaults", "defaults %s: changes preferences", rate.Display(s))
	}
}

// defaultsRead rates defaults read (export, read-type) of an
// application's domain as reading its property list in
// ~/Library/Preferences, where apps keep tokens: what it prints goes back
// to the agent, as plutil -p of the file would. Apple's own domains
// (com.apple.*, the global domain) keep no credential, which macOS keeps
// in the Keychain; a domain given as a path is read as that file
// (readSource, for every operand).
func defaultsRead(c *call, ops []word) {
	if len(ops) < 2 {
		// defaults read alone prints every domain, any app's among them.
		c.a.readSource(word{s: "~/Library/Preferences", span: c.span}, c.span)
		return
	}
	d := ops[1]
	if d.hole && !strings.ContainsAny(d.s, "/~") {
		// A domain named at run time may be any app's.
		c.a.readSource(word{s: "~/Library/Preferences", span: d.span}, c.span)
		return
	}
	low := strings.ToLower(d.s)
	if d.hole || d.guess || strings.ContainsAny(d.s, "/~") || strings.HasPrefix(low, "com.apple.") ||
		low == "nsglobaldomain" || low == "apple global domain" {
		return
	}
	c.a.readSource(word{s: "~/Library/Preferences/" + d.s + ".plist", span: d.span}, c.span)
}

// suCommand rates su: a shell as another user; -c runs a command there.
func suCommand(c *call) {
	c.add(effect.Of(effect.Admin), "su", "su: runs commands as another user")
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
		c.add(effect.Of(effect.Change), "at", "%s: lists or removes scheduled jobs", c.name)
		return
	}
	c.add(effect.Of(effect.Persist), "persistence", "%s: schedules commands to run later, after this action is over (persistence)", c.name)
	for i, w := range c.args {
		if w.s == "-f" && i+1 < len(c.args) {
			f := c.args[i+1]
			switch {
			case f.hole:
				c.add(effect.Of(effect.Persist), "at-computed", "%s -f: runs a file named at run time", c.name)
			case isStdinPath(f.s):
				c.fromStdinAs(true)
			case c.a.runFile(c, f.s):
			default:
				c.add(effect.Of(effect.RunUnseen).On(f.s), "at-file", "%s -f %s: runs commands from a file that is not analysed", c.name, rate.Display(f.s))
			}
			return
		}
	}
	c.fromStdinAs(true)
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
				c.add(effect.Of(effect.Change, effect.Bulk), "simctl", "simctl %s: wipes simulator data", args[1].s)
				return
			}
		}
		c.add(effect.Of(effect.AppState), "xcrun", "xcrun simctl: controls simulators")
		return
	}
	_, known := rows.row(tool)
	if !known && xcodeTools[tool] && !args[0].hole {
		c.add(effect.Of(effect.Run).On(tool), "xcrun", "xcrun %s: runs a developer tool", rate.Display(tool))
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
		c.add(effect.Of(effect.Run).On(v.s), "man-pager", "man: runs %s to show the page", rate.Display(v.s))
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
		c.add(effect.Of(effect.Run).On(pre.s), "rg-pre", "rg --pre: runs %s on every file searched", rate.Display(pre.s))
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
		c.add(effect.Of(effect.Create), "plutil", "plutil: writes a property list")
		c.a.write(out, c.span, "plutil writes")
	case hasOut:
	case mode != "" && len(args) > 0:
		c.add(effect.Of(effect.Change), "plutil", "plutil: changes a property list in place")
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
		c.add(effect.Of(effect.Change), "plistbuddy", "PlistBuddy: edits a property list")
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
			c.add(effect.Of(effect.Create), "sort", "sort -o: writes a file")
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
		c.add(effect.Of(effect.Remove).On(out.s), "truncate", "sort -o %s of empty input: empties the file", rate.Display(out.s))
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
		c.add(effect.Of(effect.Create), "uniq", "uniq: writes a file")
		c.a.write(ops[1], c.span, "uniq writes")
		if ops[0].s == "/dev/null" || ops[0].s == "-" && c.pc.stdin == "devnull" {
			c.add(effect.Of(effect.Remove).On(ops[1].s), "truncate", "uniq /dev/null %s: empties the file", rate.Display(ops[1].s))
		}
	}
}

// base64Command rates base64 -o FILE (macOS) and --output.
func base64Command(c *call) {
	shortOpts(c.args, "ioBbw", func(n string) bool { return inList(n, "--input", "--output", "--break", "--wrap") }, func(opt string, v word, has bool) {
		if (opt == "-o" || opt == "--output") && has && v.s != "-" && !isDevice(v.s) {
			c.add(effect.Of(effect.Create), "base64", "base64 -o: writes a file")
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
		c.add(effect.Of(effect.Create), "xxd", "xxd: writes a file")
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
		c.add(effect.Of(effect.Run), "sed-file", "%s runs a sed script from a file", c.name)
	}
	if inplace {
		c.add(effect.Of(effect.Change), "sed", "sed -i: edits files in place")
		for _, f := range files {
			c.a.write(f, c.span, "edits")
		}
		if len(scripts) == 1 && !scripts[0].hole {
			switch strings.Join(strings.Fields(strings.TrimRight(scripts[0].s, "; \n")), "") {
			case "d", "1,$d", "0,$d", ",$d", "D", "1,$D":
				c.add(effect.Of(effect.Remove), "truncate", "sed -i %s: deletes every line, emptying the files", rate.Display(scripts[0].s))
			}
		}
	}
	for _, sc := range scripts {
		if sc.hole {
			c.add(effect.Of(effect.Change), "sed-computed", "%s script computed at run time", c.name)
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
					c.add(effect.Of(effect.Shell), "sed-exec", "%s s///e: runs the pattern space as a command", c.name)
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
			c.add(effect.Of(effect.Shell), "sed-exec", "%s e: runs a command", c.name)
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
		c.add(effect.Of(effect.Create).On(f), "sed-write", "%s script writes %s", c.name, rate.Display(f))
		c.a.write(word{s: f}, c.span, "sed writes to")
		return
	}
	c.a.read(word{s: f}, c.span)
}

// tarEffects rates what tar does in its mode: extracting writes into -C
// DIR (or here), creating writes the archive and reads the files.
func (c *call) tarEffects(mode byte, archive, dir word, hasArchive, hasDir bool, files []word) {
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
		switch {
		case !hasArchive || archive.s == "-" || isDevice(archive.s):
		case mode == 'c' && (c.a.presence(archive) == rate.Absent || !archive.hole && scratchPath(archive.s)):
			// A new archive, or one in a scratch folder (nobody's work).
			c.a.write(archive, c.span, "tar creates the archive")
		case mode == 'c':
			c.a.replaces(archive, c.span, "tar writes the archive")
			c.a.write(archive, c.span, "tar writes the archive")
		default:
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
	c.add(effect.Of(effect.Create), "unzip", "unzip: extracts files")
	if !unzipLists(c.args) {
		var dir word
		has := false
		for i, w := range c.args {
			switch {
			case w.s == "-d" && i+1 < len(c.args):
				dir, has = c.args[i+1], true
			case strings.HasPrefix(w.s, "-d") && len(w.s) > 2:
				dir, has = word{s: w.s[2:], hole: w.hole, span: w.span}, true
			}
		}
		c.extracts("unzip", dir, has, nil)
	}
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
		c.add(effect.Of(effect.Change, effect.Bulk), "chflags", "chflags %s: locks files so that they cannot be changed or deleted", rate.Display(flags))
	case hasShort(c.args, 'R'):
		c.add(effect.Of(effect.Change, effect.Bulk), "chflags", "chflags -R %s: changes the flags of every file in a folder", rate.Display(flags))
	default:
		c.add(effect.Of(effect.Change), "chflags", "chflags: changes file flags")
	}
}

// hashCommand rates hash -p (bash) and hash name=path (zsh): a command
// name now runs another program.
func hashCommand(c *call) {
	for _, w := range c.args {
		if w.s == "-p" || strings.Contains(w.s, "=") {
			c.add(effect.Of(effect.LoadCode), "hash", "hash: makes a command name run another program")
			return
		}
	}
}

// launchctlCommand rates launchctl; asuser and bsexec run a command.
func launchctlCommand(c *call) {
	s := sub(c.args)
	if c.launchctlSecurity(s) {
		return
	}
	switch s {
	case "getenv":
		// launchd's environment, which every app it starts inherits.
		if ops := c.operands(); len(ops) > 1 {
			c.variableRead(ops[1].s, "launchctl getenv")
		}
		return
	case "export", "procinfo":
		c.environmentRead("launchctl " + s) // launchd's, or a process's, whole environment
		return
	case "list", "print", "print-disabled", "blame", "version", "help", "print-cache", "dumpstate", "hostinfo", "resolveport", "examine", "":
		return
	case "load", "bootstrap", "submit", "enable":
		c.add(effect.Of(effect.Persist), "launchctl", "launchctl %s: installs or enables a background service (persistence)", s)
		return
	case "config":
		// launchctl config user|system path …: launchd keeps the search
		// path it gives every service and app it starts, across restarts,
		// so a folder put first runs its programs in place of the system's.
		for _, w := range c.operands() {
			if strings.EqualFold(w.s, "path") || w.hole {
				c.add(effect.Of(effect.Persist), "launchctl", "launchctl config %s: sets the command search path of every service and app launchd starts, kept across restarts (persistence)", rate.Display(w.s))
				return
			}
		}
	case "asuser", "bsexec":
		c.add(effect.Of(effect.Admin), "launchctl", "launchctl %s: runs a command in another session", s)
		for i, w := range c.args {
			if strings.EqualFold(w.s, s) && i+2 < len(c.args) {
				c.a.call(c.args[i+2:], c.span, c.pc)
				break
			}
		}
		return
	}
	c.add(effect.Of(effect.Setting, effect.Session), "launchctl", "launchctl %s: changes background services", rate.Display(s))
}
