package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// The terminal multiplexers, tmux and screen. Their clients ask a server
// to act: the server of a session the person started is outside the
// sandbox, so what it runs for the client — a window's command, run-shell,
// a format's #(…), a hook or key binding kept for later — is a hand-off
// (handOff), rated as such and analysed as well.

// typed rates text typed into a terminal session (tmux send-keys, screen
// -X stuff): it runs as commands there.
func (c *call) typed(ws []word, what string) {
	c.add(effect.Of(effect.Input, effect.Terminal), "type-into-terminal", "%s types into a terminal session: the text runs as commands", what)
	var b strings.Builder
	for _, w := range ws {
		if w.hole {
			c.add(effect.Of(effect.RunComputed), "computed-script", "%s types text computed at run time: cannot tell what runs", what)
			return
		}
		b.WriteString(w.s)
	}
	c.nestedText(b.String(), what)
}

// The terminal multiplexers' option models (screen(1), tmux(1)): their
// own options, up to the command they run (screen CMD) or the first tmux
// command; -X and the tmux commands are rated by their functions. A
// configuration file holds commands that are not analysed.
var (
	screenModel = &opts{
		short:  "aAdDrRxmqUOlifv",
		valued: "ehpStTX",
		cmdAt:  true,
		stop:   "-X",
		long:   "-ls -list -wipe -version -help --help -ln -Logfile= -Q",
		effects: map[string]optEffect{
			"-c": optFx(effect.RunUnseen, "reads screen commands from a configuration file that is not analysed"),
			"-s": optFx(effect.RunUnseen, "starts windows with the shell program it names"),
			"-L": optFx(effect.Overwrite, "logs every window to a file"),
		},
	}
	tmuxModel = &opts{
		short:  "2CDlNuvV",
		valued: "cLST",
		cmdAt:  true,
		effects: map[string]optEffect{
			"-f": optFx(effect.RunUnseen, "reads tmux commands from a configuration file that is not analysed"),
		},
	}
)

const tmuxServer = "tmux's server"

// tmuxCommand rates tmux: its own options (-c runs a command in the
// client, -C reads tmux commands from its input), then its commands, which
// the server runs.
func tmuxCommand(c *call) {
	c.add(effect.Of(effect.AppState), "tmux", "tmux: controls terminal sessions")
	args := c.args
	i, control := 0, false
	for i < len(args) && !args[i].hole && strings.HasPrefix(args[i].s, "-") && len(args[i].s) > 1 {
		s := args[i].s
		i++
		if s == "--" {
			break
		}
		letters := s[1:]
		for j := 0; j < len(letters); j++ {
			l := letters[j]
			control = control || l == 'C'
			if strings.IndexByte("LSfcT", l) < 0 {
				continue
			}
			v := word{s: letters[j+1:], span: args[i-1].span}
			if v.s == "" && i < len(args) {
				v = args[i]
				i++
			}
			if l == 'c' {
				c.nested([]word{v}, "tmux -c")
			}
			break
		}
	}
	if control {
		c.tmuxControl()
	}
	c.tmuxArgv(args[i:], 0)
}

// tmuxControl rates tmux -C (control mode): the server runs the tmux
// commands of the client's input.
func (c *call) tmuxControl() {
	switch c.pc.stdin {
	case "", "devnull":
	case "text":
		c.tmuxText(word{s: c.pc.text}, "tmux -C", 0)
	default:
		c.add(effect.Of(effect.RunUnseen, effect.Unconfined), "tmux-commands", "tmux -C: %s runs the tmux commands of its input, which are not analysed, outside the sandbox", tmuxServer)
	}
}

// tmuxArgv rates tmux commands given as words, as tmux splits them
// (cmd_parse_from_arguments): a word ";", or a word ending in ";" that
// is not "\;", ends a command.
func (c *call) tmuxArgv(ws []word, depth int) {
	var cmd []word
	for _, w := range ws {
		if w.hole {
			cmd = append(cmd, w)
			continue
		}
		s, end := w.s, false
		if t, ok := strings.CutSuffix(s, ";"); ok {
			if t2, esc := strings.CutSuffix(t, `\`); esc {
				s = t2 + ";"
			} else {
				s, end = t, true
			}
		}
		if !end || s != "" {
			w.s = s
			cmd = append(cmd, w)
		}
		if end {
			c.tmuxOne(cmd, depth)
			cmd = nil
		}
	}
	c.tmuxOne(cmd, depth)
}

// tmuxText rates tmux commands given as text: a hook, a key binding,
// if-shell's commands, a menu item, control mode's input.
func (c *call) tmuxText(w word, what string, depth int) {
	if w.hole || w.proc {
		c.add(effect.Of(effect.Shell, effect.Unconfined, effect.Computed), "handoff", "%s: %s runs tmux commands computed at run time, outside the sandbox", what, tmuxServer)
		return
	}
	for _, cmd := range tmuxSplit(w.s) {
		c.tmuxOne(cmd, depth)
	}
}

// tmuxMaxDepth bounds tmux commands inside tmux commands (if-shell in a
// hook in a binding …); deeper text is not analysed.
const tmuxMaxDepth = 8

// tmuxOne rates one tmux command, by its resolved name (tmuxSpecs).
func (c *call) tmuxOne(ws []word, depth int) {
	if len(ws) == 0 {
		return
	}
	if depth > tmuxMaxDepth {
		c.add(effect.Of(effect.RunUnseen, effect.Unconfined), "tmux-commands", "tmux commands nested too deep to analyse, run by %s outside the sandbox", tmuxServer)
		return
	}
	if ws[0].hole {
		c.add(effect.Of(effect.Unknown, effect.Computed), "tmux-unmodelled", "tmux: a command computed at run time (it may run shell commands in %s)", tmuxServer)
		return
	}
	name := tmuxResolve(ws[0].s)
	spec, ok := tmuxSpecs[name]
	if !ok {
		c.add(effect.Of(effect.Unknown).On(ws[0].s), "tmux-unmodelled", "tmux %s: a tmux command Airlock does not model (options, hooks and key bindings can run shell commands)", rate.Display(ws[0].s))
		return
	}
	rest, flags := tmuxOptions(ws[1:], spec.valued)
	c.tmuxFormats(name, ws[1:])
	what := "tmux " + name
	if e, ok := flags.values['e']; ok && spec.kind == tmuxRuns {
		c.tmuxEnv([]word{e}, tmuxFlags{})
	}
	switch spec.kind {
	case tmuxKill:
		c.add(effect.Of(effect.Signal), "tmux-kill", "%s: stops the programs running in it", what)
	case tmuxKillServer:
		c.add(effect.Of(effect.Signal, effect.Session), "tmux-kill", "tmux kill-server: stops every session and the programs running in them; unsaved work is lost")
	case tmuxRuns:
		c.handOff(rest, what, tmuxServer)
	case tmuxRunShell:
		if flags.has('C') {
			c.tmuxCommandArgs(rest, what, depth)
		} else {
			c.handOff(rest, what, tmuxServer)
		}
	case tmuxTypes:
		c.typed(tmuxKeys(rest, flags.has('l')), what)
	case tmuxPastes:
		c.add(effect.Of(effect.Input, effect.Terminal), "type-into-terminal", "%s types a paste buffer into a pane: the text runs as commands", what)
		c.add(effect.Of(effect.RunUnseen, effect.Unconfined), "tmux-paste", "%s: the buffer's text, which is not analysed, runs in a shell outside the sandbox", what)
	case tmuxIf:
		if len(rest) > 0 && !flags.has('F') {
			c.handOff(rest[:1], what, tmuxServer)
		}
		for _, w := range rest[min(1, len(rest)):] {
			c.tmuxText(w, what, depth+1)
		}
	case tmuxTemplate:
		for _, w := range rest {
			c.tmuxText(w, what, depth+1)
		}
	case tmuxMenu:
		c.tmuxMenu(rest, depth)
	default:
		c.tmuxKeeps(spec.kind, rest, flags, depth)
	}
}

// tmuxKeeps rates the tmux commands that read or write files, and those
// that keep commands in the server for later: hooks, key bindings,
// options that name commands or hold formats, the environment of new
// windows.
func (c *call) tmuxKeeps(kind tmuxKind, rest []word, flags tmuxFlags, depth int) {
	switch kind {
	case tmuxDetach:
		if v, ok := flags.values['E']; ok {
			c.handOff([]word{v}, "tmux detach-client -E", "the detached client")
		}
	case tmuxAccess:
		if flags.has('a') || flags.has('w') {
			c.add(effect.Of(effect.SecurityOff), "tmux-access", "tmux server-access: lets another user of this Mac attach to %s and run commands as you", tmuxServer)
		}
	case tmuxSource:
		for _, f := range rest {
			c.add(effect.Of(effect.RunUnseen, effect.Unconfined).On(f.s), "tmux-source", "tmux source-file %s: %s runs the tmux commands of a file that is not analysed, outside the sandbox", rate.Display(f.s), tmuxServer)
		}
	case tmuxSave:
		if len(rest) > 0 && rest[0].s != "-" && !isDevice(rest[0].s) {
			c.a.write(rest[0], c.span, "tmux save-buffer writes")
		}
	case tmuxLoad:
		if len(rest) > 0 && rest[0].s != "-" {
			c.a.read(rest[0], c.span)
		}
	case tmuxHook:
		if len(rest) > 1 && !flags.has('u') {
			c.tmuxKept("tmux set-hook "+rate.Display(rest[0].s), "on that event")
			c.tmuxCommandArgs(rest[1:], "tmux set-hook", depth)
		}
	case tmuxBind:
		if len(rest) > 1 {
			c.tmuxKept("tmux bind-key "+rate.Display(rest[0].s), "whenever the key is pressed")
			c.tmuxCommandArgs(rest[1:], "tmux bind-key", depth)
		}
	case tmuxSetOption:
		c.tmuxOption(rest, flags, depth)
	case tmuxSetEnv:
		c.tmuxEnv(rest, flags)
	}
}

// tmuxKept rates commands the server keeps and runs later by itself,
// after this action is over: persistence for as long as the server runs.
func (c *call) tmuxKept(what, when string) {
	c.add(effect.Of(effect.Persist), "tmux-persist", "%s: %s keeps commands and runs them %s, outside the sandbox, after this action is over", what, tmuxServer, when)
}

// tmuxCommandArgs rates the commands of a hook, a binding or run-shell
// -C: one word is tmux command text, more are a command's words.
func (c *call) tmuxCommandArgs(ws []word, what string, depth int) {
	if len(ws) == 1 {
		c.tmuxText(ws[0], what, depth+1)
		return
	}
	c.tmuxArgv(ws, depth+1)
}

// tmuxMenu rates display-menu's items: a name, a key and a command each;
// an empty name or one starting with "-" is a separator, one word.
func (c *call) tmuxMenu(ops []word, depth int) {
	for i := 0; i < len(ops); {
		if !ops[i].hole && (ops[i].s == "" || strings.HasPrefix(ops[i].s, "-")) {
			i++
			continue
		}
		if i+2 < len(ops) {
			c.tmuxText(ops[i+2], "tmux display-menu", depth+1)
		}
		i += 3
	}
}

// tmuxOption rates set-option and set-window-option: an option that
// names a command, a program or tmux commands (tmuxCodeOptions), or a hook
// set as an option, makes the server run it later; a value with #(…) was
// rated by tmuxFormats. Other options are not modelled.
func (c *call) tmuxOption(rest []word, flags tmuxFlags, depth int) {
	if len(rest) == 0 || rest[0].hole {
		c.add(effect.Of(effect.Unknown, effect.Computed), "tmux-unmodelled", "tmux set-option: an option computed at run time")
		return
	}
	name, _, _ := strings.Cut(rest[0].s, "[")
	code, isCode := tmuxCodeOptions[name]
	hook := tmuxHookName(name)
	switch {
	case flags.has('u') || len(rest) < 2 && (isCode || hook):
	case hook:
		c.tmuxKept("tmux set-option "+rate.Display(name), "on that event")
		c.tmuxText(rest[1], "tmux set-option "+name, depth+1)
	case isCode:
		c.tmuxKept("tmux set-option "+rate.Display(name), code.when)
		switch code.kind {
		case tmuxOptShell:
			c.handOff(rest[1:2], "tmux set-option "+name, tmuxServer)
		case tmuxOptCommands:
			if _, cmd, ok := strings.Cut(rest[1].s, "="); ok || rest[1].hole {
				c.tmuxText(word{s: cmd, hole: rest[1].hole}, "tmux set-option "+name, depth+1)
			}
		}
	case tmuxHasShellFormat(rest[1:]):
		c.tmuxKept("tmux set-option "+rate.Display(name), "whenever it shows the option")
	default:
		c.add(effect.Of(effect.Unknown).On(name), "tmux-unmodelled", "tmux set-option %s: an option Airlock does not model (options can name commands the server runs)", rate.Display(name))
	}
}

// tmuxEnv rates set-environment: a variable that makes programs load code
// (codeVars, PATH) reaches every program the server starts from now on.
func (c *call) tmuxEnv(rest []word, flags tmuxFlags) {
	if len(rest) == 0 || flags.has('u') || flags.has('r') {
		return
	}
	name, _, _ := strings.Cut(strings.ToUpper(rest[0].s), "=")
	if rest[0].hole || name == "PATH" || hasAnyPrefix(name, codeVars) {
		c.add(effect.Of(effect.LoadCode).On(rest[0].s), "tmux-env", "tmux set-environment %s: every program %s starts from now on loads or runs what it names", rate.Display(rest[0].s), tmuxServer)
	}
}

// hasAnyPrefix reports s starting with one of prefixes.
func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// tmuxFormats rates the #(…) of a command's words: tmux expands formats
// in many arguments (display-message, -F of the list commands, option
// values, run-shell's and if-shell's commands), and #(…) in a format runs
// a shell command in the server. A format computed at run time may hold
// one.
func (c *call) tmuxFormats(name string, ws []word) {
	for i, w := range ws {
		if w.hole {
			if name == "display-message" && (i == len(ws)-1) || i > 0 && ws[i-1].s == "-F" && !ws[i-1].hole {
				c.add(effect.Of(effect.Shell, effect.Unconfined, effect.Computed), "handoff", "tmux %s: a format computed at run time, whose #(…) %s would run outside the sandbox", name, tmuxServer)
			}
			continue
		}
		for _, cmd := range tmuxShellFormats(w.s) {
			c.handOff([]word{{s: cmd, span: w.span}}, "tmux "+name+" #(…)", tmuxServer)
		}
	}
}

// tmuxHasShellFormat reports a #(…) among ws.
func tmuxHasShellFormat(ws []word) bool {
	for _, w := range ws {
		if len(tmuxShellFormats(w.s)) > 0 {
			return true
		}
	}
	return false
}

// tmuxShellFormats returns the shell commands of the #(…) in s (tmux(1),
// "FORMATS"): up to the parenthesis that closes it; ## is a literal #.
func tmuxShellFormats(s string) []string {
	var out []string
	for i := 0; i+1 < len(s); i++ {
		if s[i] != '#' {
			continue
		}
		if s[i+1] == '#' {
			i++
			continue
		}
		if s[i+1] != '(' {
			continue
		}
		depth, j := 1, i+2
		for ; j < len(s) && depth > 0; j++ {
			switch s[j] {
			case '(':
				depth++
			case ')':
				depth--
			}
		}
		end := j
		if depth == 0 {
			end = j - 1
		}
		out = append(out, s[i+2:end])
	}
	return out
}

// tmuxFlags are the options given to a tmux command: the letters, and
// the values of those that take one.
type tmuxFlags struct {
	letters string
	values  map[byte]word
}

// has reports the option letter l given.
func (f tmuxFlags) has(l byte) bool { return strings.IndexByte(f.letters, l) >= 0 }

// tmuxOptions reads a tmux command's options (those in valued take a
// value, joined or the next word) and returns its other words.
func tmuxOptions(rest []word, valued string) ([]word, tmuxFlags) {
	var letters strings.Builder
	f := tmuxFlags{values: map[byte]word{}}
	for len(rest) > 0 && !rest[0].hole && strings.HasPrefix(rest[0].s, "-") && len(rest[0].s) > 1 {
		w := rest[0]
		rest = rest[1:]
		if w.s == "--" {
			break
		}
		opts := w.s[1:]
		for j := 0; j < len(opts); j++ {
			letters.WriteByte(opts[j])
			if strings.IndexByte(valued, opts[j]) < 0 {
				continue
			}
			v := word{s: opts[j+1:], span: w.span}
			if v.s == "" && len(rest) > 0 {
				v, rest = rest[0], rest[1:]
			}
			f.values[opts[j]] = v
			break
		}
	}
	f.letters = letters.String()
	return rest, f
}

// tmuxKeys turns send-keys' key names into the text they type (Enter is a
// new line, which runs what was typed), unless they are literal.
func tmuxKeys(rest []word, literal bool) []word {
	keys := make([]word, 0, len(rest))
	for _, k := range rest {
		if !literal && !k.hole {
			switch k.s {
			case "Enter", "C-m", "KPEnter", "C-j", "C-c", "C-d", "C-z", "C-u", "Escape", "C-M", "C-J", "C-C", "C-D":
				k.s = "\n"
			case "Space":
				k.s = " "
			case "Tab", "C-i":
				k.s = "\t"
			case "Up", "Down", "Left", "Right", "Home", "End", "BSpace", "PageUp", "PageDown", "PPage", "NPage", "C-l":
				k.s = ""
			}
		}
		keys = append(keys, k)
	}
	return keys
}

// tmuxResolve is the command a name spells, as tmux finds it (cmd_find):
// an alias exactly, or a command's full name, or a unique prefix of one;
// "" when it spells none or more than one (tmux refuses it).
func tmuxResolve(name string) string {
	if full, ok := tmuxAliases[name]; ok {
		return full
	}
	if _, ok := tmuxSpecs[name]; ok || name == "" {
		return name
	}
	found := ""
	for full := range tmuxSpecs {
		if strings.HasPrefix(full, name) {
			if found != "" {
				return ""
			}
			found = full
		}
	}
	return found
}
