package shell

import (
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// screen (screen(1)): a command after its options starts a new session,
// the action's own child; -X sends a command to a running session, which
// the person started outside the sandbox (screenX).

const screenSession = "the screen session"

func screenCommand(c *call) {
	c.add(effect.Of(effect.AppState), "screen", "screen: controls terminal sessions")
	args := c.args
	attach, detached, mflag, named := false, false, false, false
	for i := 0; i < len(args); i++ {
		w := args[i]
		s := w.s
		if w.hole || !strings.HasPrefix(s, "-") {
			if (attach || detached && !mflag) && !named {
				named = true // a session name; -X may follow
				continue
			}
			if attach || detached && !mflag {
				return
			}
			c.a.call(args[i:], c.span, pipeCtx{})
			return
		}
		switch {
		case s == "-X" || s == "-Q":
			cmd := args[i+1:]
			c.screenX(cmd, 0)
			return
		case inList(s, "-ls", "-list", "-wipe", "-v", "-h", "-help", "--help", "-version"):
			return
		case strings.HasPrefix(s, "-Logfile"):
			f := word{s: strings.TrimPrefix(strings.TrimPrefix(s, "-Logfile"), "="), span: w.span}
			if s == "-Logfile" && i+1 < len(args) {
				i++
				f = args[i]
			}
			if f.s != "" && !isDevice(f.s) {
				c.a.write(f, c.span, "screen -Logfile writes")
			}
			continue
		}
		letters := s[1:]
		for j := 0; j < len(letters); j++ {
			l := letters[j]
			switch {
			case strings.IndexByte("rRxD", l) >= 0:
				attach = true
			case l == 'd':
				detached = true
			case l == 'm':
				mflag = true
			case strings.IndexByte("ScehpTtsL", l) >= 0 && l != 'L':
				if j == len(letters)-1 {
					i++
				}
				j = len(letters)
			}
		}
	}
}

// screenFileCommand rates the screen commands (screen(1), -X) that write
// the file they name — the window's text (hardcopy), its log (logfile),
// the paste buffer (writebuf, bufferfile) — or read one into the paste
// buffer (readbuf), and eval's commands, each as a command of its own.
func (c *call) screenFileCommand(cmd []word) {
	name, args := strings.ToLower(cmd[0].s), cmd[1:]
	var files []word
	for _, a := range args {
		if a.hole || !strings.HasPrefix(a.s, "-") {
			files = append(files, a)
		}
	}
	switch name {
	case "hardcopy", "logfile", "writebuf", "bufferfile":
		if len(files) > 0 && !inList(files[0].s, "on", "off") {
			c.a.write(files[0], c.span, "screen -X "+name+" writes")
		}
	case "readbuf", "readreg":
		if len(files) > 0 {
			c.a.read(files[len(files)-1], c.span)
		}
	case "eval":
		// Each argument is a screen command line, quoted as the shell
		// quotes: analysed as screen -X with that line.
		for _, a := range args {
			if a.hole {
				c.add(effect.Of(effect.RunComputed), "computed-script", "screen -X eval: runs screen commands computed at run time")
				return
			}
			c.nestedText("screen -X "+a.s, "screen -X eval")
		}
	}
}

// screenX rates a screen command sent to a running session (-X): those
// that run a command there (exec, screen, at), type into a window
// (stuff, paste), run screen commands from a file (source), or keep a
// command or program for later (bind, bindkey, shell, defshell); the
// others read or write files (screenFileCommand).
func (c *call) screenX(cmd []word, depth int) {
	if len(cmd) == 0 || depth > tmuxMaxDepth {
		return
	}
	name, args := strings.ToLower(cmd[0].s), cmd[1:]
	switch name {
	case "stuff":
		var keys []word
		for _, k := range args {
			if !k.hole {
				k.s = strings.NewReplacer("^M", "\n", "^J", "\n", `\n`, "\n", `\r`, "\n", `\015`, "\n", `\012`, "\n").Replace(k.s)
			}
			keys = append(keys, k)
		}
		c.typed(keys, "screen -X stuff")
	case "paste", "process":
		c.add(effect.Of(effect.Input, effect.Terminal), "type-into-terminal", "screen -X %s types a register into a window: the text runs as commands", name)
		c.add(effect.Of(effect.RunUnseen, effect.Unconfined), "screen-paste", "screen -X %s: the register's text, which is not analysed, runs in a shell outside the sandbox", name)
	case "exec":
		if len(args) > 0 && !args[0].hole && strings.Trim(args[0].s, ".!:|") == "" {
			args = args[1:] // the file descriptor pattern: exec !.. cmd
		}
		c.handOff(args, "screen -X exec", screenSession)
	case "screen":
		c.handOff(screenWindowCommand(args), "screen -X screen", screenSession)
	case "at":
		if len(args) > 1 {
			c.screenX(args[1:], depth+1)
		}
	case "source":
		for _, f := range args {
			c.add(effect.Of(effect.RunUnseen, effect.Unconfined).On(f.s), "screen-source", "screen -X source %s: %s runs the screen commands of a file that is not analysed, outside the sandbox", rate.Display(f.s), screenSession)
		}
	case "bind", "bindkey":
		if rest := screenBound(args); len(rest) > 0 {
			if screenRuns[strings.ToLower(rest[0].s)] || rest[0].hole {
				c.add(effect.Of(effect.Persist), "screen-persist", "screen -X %s: %s keeps a command and runs it whenever the key is pressed, outside the sandbox, after this action is over", name, screenSession)
			}
			c.screenX(rest, depth+1)
		}
	case "shell", "defshell":
		if len(args) > 0 {
			c.add(effect.Of(effect.Persist).On(args[0].s), "screen-persist", "screen -X %s %s: every new window of %s starts the program it names, outside the sandbox, after this action is over", name, rate.Display(args[0].s), screenSession)
		}
	case "setenv":
		if len(args) > 0 && (args[0].hole || strings.ToUpper(args[0].s) == "PATH" || hasAnyPrefix(strings.ToUpper(args[0].s), codeVars)) {
			c.add(effect.Of(effect.LoadCode).On(args[0].s), "screen-env", "screen -X setenv %s: every program %s starts from now on loads or runs what it names", rate.Display(args[0].s), screenSession)
		}
	default:
		c.screenFileCommand(cmd)
	}
}

// screenRuns are the screen commands that run or type something: a key
// bound to one is persistence.
var screenRuns = set("exec screen stuff paste process at source eval bind bindkey shell defshell")

// screenWindowCommand is the command of screen's screen command: after
// its options (-t, -T, -h take a value) and a window number.
func screenWindowCommand(args []word) []word {
	for len(args) > 0 && !args[0].hole && strings.HasPrefix(args[0].s, "-") {
		if inList(args[0].s, "-t", "-T", "-h") && len(args) > 1 {
			args = args[1:]
		}
		args = args[1:]
	}
	if len(args) > 0 && !args[0].hole && strings.Trim(args[0].s, "0123456789") == "" {
		args = args[1:]
	}
	return args
}

// screenBound is the command bind or bindkey binds: after the options
// (-c, -k, -t take a value) and the key.
func screenBound(args []word) []word {
	for len(args) > 0 && !args[0].hole && strings.HasPrefix(args[0].s, "-") && len(args[0].s) > 1 {
		if inList(args[0].s, "-c", "-k", "-t") && len(args) > 1 {
			args = args[1:]
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return nil
	}
	return args[1:]
}
