package shell

import (
	"path"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/interp"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// Program text an interpreter is given (python -c, perl -e, a script on
// tclsh's input …): package interp reads what it does, and each effect
// gets the level the same effect gets in shell — a removal is rm's, a
// write a redirection's, a command run is that command's — so the same
// facts get the same level in every language (DESIGN.md, "Risk levels").
// The code stays "not analysed", at least Dangerous, because interp reads
// calls, not the whole language.

// scanCode rates program text by what interp finds in it; a language it
// does not read (PowerShell) is looked through for the obvious.
func scanCode(c *call, code string) {
	lang := interp.LangOf(c.name)
	if lang == 0 {
		scanKeywords(c, code)
		return
	}
	var argv []string
	for _, w := range c.argv {
		if w.hole {
			argv = append(argv, interp.Hole)
		} else {
			argv = append(argv, w.s)
		}
	}
	c.codeEffects(interp.ScanArgs(lang, c.use+code, argv))
}

// codeKind is the effect kind of one of interp's kinds: the one place the
// shell reads interp's vocabulary (interp may come to report effect kinds
// itself). Decoding is no effect alone: 0, which codeEffects keeps for
// the decode-then-run combination.
func codeKind(k interp.Kind) effect.Kind {
	switch k {
	case interp.Remove:
		return effect.Remove
	case interp.Trash:
		return effect.Trash
	case interp.Write:
		return effect.Overwrite // a write where nothing was is rated by its path (shellAn.write)
	case interp.Append:
		return effect.Change
	case interp.Read:
		return effect.Read
	case interp.Run:
		return effect.Run
	case interp.Net:
		return effect.Egress
	case interp.Eval:
		return effect.RunUnseen
	}
	return 0
}

// codeEffects rates the effects of a program run by c.
func (c *call) codeEffects(effects []interp.Effect) {
	var network, control, decode, fed bool
	var controlAPI string
	for _, e := range effects {
		w := codeWord(e.Target, c.span)
		api := rate.Display(e.API)
		switch codeKind(e.Kind) {
		case effect.Remove:
			c.codeRemoves(api, w, e.Tree)
		case effect.Trash:
			c.add(effect.Of(effect.Trash).On(w.s), "interp-trash", "%s code moves %s to the Trash (%s)", c.name, rate.Display(shownTarget(w)), api)
		case effect.Overwrite:
			c.a.replaces(w, c.span, c.name+" code ("+api+") writes to")
			c.a.write(w, c.span, c.name+" code ("+api+") writes to")
		case effect.Change:
			c.a.write(w, c.span, c.name+" code ("+api+") appends to")
		case effect.Read:
			c.a.guard(w, c.span, rate.UseRead)
			c.a.read(w, c.span)
		case effect.Run:
			if c.codeRuns(e, api) {
				control, controlAPI = true, api
				fed = fed || startsShell(e)
			}
		case effect.Egress:
			network = true
			c.a.egress("network", c.span, "%s code talks to the network (%s)", c.name, api)
		case effect.RunUnseen:
			if !e.Known() {
				control, controlAPI = true, api
				c.add(effect.Of(effect.RunUnseen), "interp-eval", "%s code runs code built at run time (%s)", c.name, api)
			}
		case 0:
			decode = decode || e.Kind == interp.Decode
		}
	}
	switch {
	case fed && !network:
		// open(F, "| sh"); print F "…", Popen(["sh"], stdin=PIPE),
		// IO.popen("sh", "w"): the shell runs what the program writes to
		// it, which no analysis here reads as commands.
		c.add(effect.Of(effect.Shell, effect.Computed), "interp-shell-fed", "%s code starts a shell that runs the commands the program writes to it (%s): what they are is not shown", c.name, controlAPI)
	case network && control:
		c.add(effect.Of(effect.Connect, effect.Terminal), "interp-remote-control", "%s code talks to the network and runs commands or code it cannot show (%s): a remote host can take control of this Mac", c.name, controlAPI)
	case decode && control:
		c.add(effect.Of(effect.RunComputed), "interp-decode-exec", "%s code decodes data and runs it (%s)", c.name, controlAPI)
	}
}

// codeWord is a target of interp's as a shell word: computed where it
// holds a hole, a pattern where it holds glob characters.
func codeWord(t string, sp Span) word {
	w := word{s: strings.ReplaceAll(t, interp.Hole, rate.HoleMark), span: sp}
	w.hole = t == "" || strings.Contains(t, interp.Hole)
	if w.hole && w.s == "" {
		w.s = rate.HoleMark
	}
	w.glob = strings.ContainsAny(t, "*?[")
	return w
}

// shownTarget is a target for a warning: "…" for what is computed.
func shownTarget(w word) string {
	return strings.ReplaceAll(w.s, rate.HoleMark, "…")
}

// codeRemoves rates code deleting w (not to the Trash) by api: rm's
// level, Destructive unless w is a scratch file, and its zone and guard.
func (c *call) codeRemoves(api string, w word, tree bool) {
	c.a.guard(w, c.span, map[bool]rate.Use{true: rate.UseTreeWrite, false: rate.UseWrite}[tree])
	what := "permanently deletes"
	cut := strings.Contains(strings.ToLower(api), "truncate") // os.truncate, fs.truncateSync …
	switch {
	case tree:
		what = "permanently deletes, folders and all they hold,"
	case cut:
		what = "cuts short"
	}
	p, ok := c.a.pathOf(w)
	switch {
	case w.hole || w.glob:
		c.add(effect.Of(effect.Remove, effect.Computed), "interp-delete", "%s code %s %s (%s): what is computed or matched at run time, not to the Trash", c.name, what, rate.Display(shownTarget(w)), api)
	case ok && scratchPath(p):
		c.add(effect.Of(effect.Overwrite).On(w.s), "interp-delete", "%s code %s the scratch file %s (%s)", c.name, what, rate.Display(w.s), api)
	case cut:
		c.add(effect.Of(effect.Remove).On(w.s), "interp-delete", "%s code cuts %s short (%s): what lay past the new end is destroyed, not moved to the Trash", c.name, rate.Display(w.s), api)
	default:
		c.add(effect.Of(effect.Remove).On(w.s), "interp-delete", "%s code %s %s (%s), not to the Trash", c.name, what, rate.Display(w.s), api)
	}
	if !w.hole {
		c.a.securityTarget(c.a.resolved(w), c.span, c.name+" code")
	}
}

// codeRuns rates a command the code runs: as the shell command it is, when
// the code spells it; computed, it is code Airlock cannot see. It reports
// a command that hands control away: computed, or a shell reading its
// commands from its input (sh -i, bash with no -c), which a socket may be.
func (c *call) codeRuns(e interp.Effect, api string) bool {
	if e.Shell {
		w := codeWord(e.Target, c.span)
		if strings.Trim(e.Target, interp.Hole+" ") == "" {
			c.add(effect.Of(effect.Shell), "interp-shell", "%s code runs commands computed at run time (%s)", c.name, api)
			c.stdinAsCommand(api)
			return true
		}
		c.add(effect.Of(effect.Run), "interp-run", "%s code runs %s (%s)", c.name, rate.Display(shownTarget(w)), api)
		c.nestedText(strings.ReplaceAll(e.Target, interp.Hole, rate.HoleUnquoted), c.name+" "+api)
		return interactiveShell(strings.Fields(strings.ReplaceAll(e.Target, interp.Hole, rate.HoleMark)))
	}
	if len(e.Argv) == 0 || strings.Trim(e.Argv[0], interp.Hole) == "" {
		c.add(effect.Of(effect.Shell), "interp-shell", "%s code runs a program computed at run time (%s)", c.name, api)
		c.stdinAsCommand(api)
		return true
	}
	words := make([]word, len(e.Argv))
	for i, a := range e.Argv {
		words[i] = codeWord(a, c.span)
	}
	c.add(effect.Of(effect.Run), "interp-run", "%s code runs %s (%s)", c.name, rate.Display(shownTarget(words[0])), api)
	c.a.call(words, c.span, pipeCtx{})
	return interactiveShell(e.Argv)
}

// stdinAsCommand analyses the literal text fed to code that runs a
// computed command (os.system(input()) <<< 'rm -rf ~') as the command it
// may well be: the input is the likeliest place the command came from.
func (c *call) stdinAsCommand(api string) {
	if c.pc.stdin == "text" && strings.TrimSpace(c.pc.text) != "" {
		c.nestedText(c.pc.text, c.name+" "+api+" (its input)")
	}
}

// startsShell reports code that starts a shell with no command of its
// own (sh, bash -s, a shell through a pipe), which runs what it reads.
func startsShell(e interp.Effect) bool {
	if e.Shell {
		t := strings.Trim(e.Target, interp.Hole+" ")
		return t != "" && interactiveShell(strings.Fields(strings.ReplaceAll(e.Target, interp.Hole, rate.HoleMark)))
	}
	return len(e.Argv) > 0 && strings.Trim(e.Argv[0], interp.Hole) != "" && interactiveShell(e.Argv)
}

// interactiveShell reports a shell given no command (sh, bash -i, zsh -l):
// it runs whatever its input says.
func interactiveShell(argv []string) bool {
	if len(argv) == 0 || !shells[commandName(path.Base(argv[0]))] {
		return false
	}
	for _, a := range argv[1:] {
		if strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c") {
			return false
		}
		if !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "<") && !strings.HasPrefix(a, ">") && !strings.Contains(a, "&") {
			return false // a script file
		}
	}
	return true
}
