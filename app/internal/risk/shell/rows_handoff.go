package shell

import (
	"regexp"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// Hand-offs: programs that do not run a command themselves but ask
// another process to — a server, a daemon, a terminal, another session.
// The action's own process is confined (namespaces, Landlock, seccomp;
// Seatbelt on macOS), but the process it asks was started by the person,
// outside any sandbox of Airlock's, and has the person's full rights: the
// containment layer does not hold there, only the analysis does. So a
// handed-off command is rated for that (effect.Unconfined) and analysed as
// well, the higher rating kept. What is covered, and where:
//
//   - terminal multiplexers (rows_mux.go, rows_tmux.go, rows_screen.go):
//     tmux's commands that start a command (new-session, new-window,
//     split-window, new-pane, respawn-*, display-popup, pipe-pane,
//     run-shell, if-shell, detach-client -E), #(…) in formats, and what
//     its server keeps to run later (set-hook, bind-key, options naming
//     commands or holding #(…), command-alias); screen -X exec, screen,
//     at, source, bind, shell;
//   - terminals driven from the command line (here): kitty's and
//     kitten's @ launch, run, send-text; wezterm cli spawn and send-text;
//     zellij run, edit, action new-pane and write-chars;
//   - editors' servers: vim and nvim --remote-send and --remote-expr
//     (rows_vim.go), emacsclient --eval (here);
//   - the database servers (rows_sql.go, rows_dev.go): COPY … PROGRAM on
//     a server of this Mac, redis MODULE LOAD and CONFIG SET dir;
//   - the service manager: systemd-run (here); launchd and at are
//     persistence already (rows_macos.go);
//   - another machine: ssh's remote command (rows_tools.go).

// handOff rates a command that who runs for the action, outside the
// sandbox: a shell command whatever it is (Shell, unconfined; computed
// when any of it is), analysed as well. One word is a command line for a
// shell; more are a program and its arguments.
func (c *call) handOff(ws []word, what, who string) {
	if len(ws) == 0 {
		return
	}
	e := effect.Of(effect.Shell, effect.Unconfined)
	parts := make([]string, 0, len(ws))
	for _, w := range ws {
		if w.hole || w.proc || w.gen != "" {
			e = e.With(effect.Computed)
		}
		parts = append(parts, w.s)
	}
	c.add(e, "handoff", "%s: %s runs %s outside the sandbox, with your full rights", what, who, rate.Display(strings.Join(parts, " ")))
	if len(ws) == 1 {
		c.nested(ws, what)
		return
	}
	c.a.call(ws, c.span, pipeCtx{})
}

// emacsclientModel is emacsclient's option model (emacsclient(1), its
// --help): how to reach the server and show the files. -e/--eval is rated
// by emacsclientCommand.
var emacsclientModel = &opts{
	short:  "VHnqucrte",
	valued: "FadfswT",
	abbrev: true,
	long: `--version --help --no-wait --quiet --suppress-output --create-frame --reuse-frame --tty -nw --eval
		--frame-parameters= --display= --parent-id= --server-file= --socket-name= --timeout= --tramp=`,
	effects: map[string]optEffect{
		"-a":                 optFx(effect.RunUnseen, "runs the editor it names when no Emacs server answers"),
		"--alternate-editor": optFx(effect.RunUnseen, "runs the editor it names when no Emacs server answers"),
	},
}

// emacsclientCommand rates emacsclient: with -e/--eval the Emacs server
// evaluates Lisp, which is not analysed, outside the sandbox; otherwise
// the server opens the files, as an editor the person uses.
func emacsclientCommand(c *call) {
	p := emacsclientModel.parse(c.args)
	switch {
	case p.has("-e", "--eval"):
		c.add(effect.Of(effect.RunUnseen, effect.Unconfined), "emacs-eval", "emacsclient --eval: the Emacs server evaluates Lisp, which is not analysed, outside the sandbox, with your full rights")
	case len(p.operands()) > 0:
		c.add(effect.Of(effect.Launch), "editor", "emacsclient: the Emacs server opens the files")
	}
}

// kittyCommand rates kitty's and kitten's remote control (kitten @ …,
// "Control kitty from scripts"): the terminal, which the person runs
// outside the sandbox, starts what launch and run name and types what
// send-text sends. Other uses of kitty start a terminal, not modelled.
func kittyCommand(c *call) {
	args := c.args
	if len(args) == 0 || args[0].hole || args[0].s != "@" {
		c.add(effect.Of(effect.Unknown).On(c.name), "kitty", "%s: starts a terminal or a kitten, which Airlock does not model", c.name)
		return
	}
	args = skipOpts(args[1:], "--to --password --password-file --password-env")
	if len(args) == 0 {
		return
	}
	sub := strings.ToLower(args[0].s)
	what := c.name + " @ " + sub
	switch {
	case args[0].hole:
		c.add(effect.Of(effect.Unknown, effect.Computed), "kitty", "%s @: a command computed at run time", c.name)
	case sub == "launch" || sub == "run":
		c.handOff(skipOpts(args[1:], kittyValued), what, "kitty")
	case sub == "send-text":
		c.typed(skipOpts(args[1:], kittyValued), what)
	case sub == "send-key":
		c.add(effect.Of(effect.Input, effect.Terminal), "type-into-terminal", "%s presses keys in a terminal window: they may run commands", what)
	case kittyHarmless[sub]:
	default:
		c.add(effect.Of(effect.Unknown).On(sub), "kitty", "%s: a remote command Airlock does not model", what)
	}
}

// kittyValued are the options of kitty's remote commands that take a
// value (kitten @ launch --help, send-text --help); the others are flags.
const kittyValued = `--match -m --match-tab -t --type --title --tab-title --cwd --env --var --location --next-to --bias
	--window-type --os-window-class --os-window-name --os-window-title --os-window-state --logo --logo-position
	--logo-alpha --color --spacing --marker --add-to-session --source-window --watcher -w --from-file --bracketed-paste
	--stdin-source --remote-control-password --set-var`

// kittyHarmless are kitty's remote commands that show, select, resize or
// retitle windows and tabs: they run nothing.
var kittyHarmless = set(`ls get-text get-colors focus-window focus-tab set-window-title set-tab-title set-font-size
	resize-window resize-os-window goto-layout last-used-layout scroll-window select-window close-window close-tab
	detach-window detach-tab set-colors set-background-opacity set-spacing disable-ligatures set-tab-color
	set-user-vars signal-child`)

// skipOpts returns args after their leading options: --x=v and flags
// are one word, those in valued take the next word as well; "--" ends
// them.
func skipOpts(args []word, valued string) []word {
	for len(args) > 0 && !args[0].hole && strings.HasPrefix(args[0].s, "-") && len(args[0].s) > 1 {
		s := args[0].s
		args = args[1:]
		if s == "--" {
			break
		}
		if !strings.Contains(s, "=") && hasField(valued, s) && len(args) > 0 {
			args = args[1:]
		}
	}
	return args
}

// weztermCommand rates wezterm cli (wezterm.org, "wezterm cli"): spawn
// and split-pane start a program in wezterm's mux server, outside the
// sandbox; send-text types into a pane. wezterm start may hand its
// program to a running wezterm as well.
func weztermCommand(c *call) {
	ops := c.args
	if len(ops) == 0 || ops[0].hole {
		c.add(effect.Of(effect.Unknown), "wezterm", "wezterm: a use Airlock does not model")
		return
	}
	sub, rest := strings.ToLower(ops[0].s), ops[1:]
	if sub == "cli" && len(rest) > 0 && !rest[0].hole {
		sub, rest = "cli "+strings.ToLower(rest[0].s), skipOpts(rest[1:], weztermValued)
	} else {
		rest = skipOpts(rest, weztermValued)
	}
	what := "wezterm " + sub
	switch sub {
	case "cli spawn", "cli split-pane", "start":
		c.handOff(rest, what, "wezterm")
	case "cli send-text":
		c.typed(rest, what)
	case "cli kill-pane":
		c.add(effect.Of(effect.Signal), "wezterm", "%s: stops the programs running in it", what)
	case "cli list", "cli list-clients", "cli get-text", "cli activate-pane", "cli activate-pane-direction", "cli activate-tab",
		"cli get-pane-direction", "cli set-tab-title", "cli set-window-title", "cli rename-workspace", "cli zoom-pane",
		"cli adjust-pane-size", "cli move-pane-to-new-tab", "--version", "--help", "-h", "-V":
	default:
		c.add(effect.Of(effect.Unknown).On(sub), "wezterm", "%s: a use Airlock does not model", what)
	}
}

// weztermValued are wezterm cli's options that take a value.
const weztermValued = `--pane-id --domain-name --window-id --cwd --workspace --cells --percent --move-pane-id --class
	--position --config-file --config --tab-id --start-line --end-line --format`

// zellijCommand rates zellij (zellij.dev, "CLI Actions", "Zellij Run"):
// run, action new-pane and edit start a program in the zellij session,
// outside the sandbox; action write-chars and write type into a pane.
func zellijCommand(c *call) {
	args := c.args
	for len(args) > 0 && !args[0].hole && strings.HasPrefix(args[0].s, "-") {
		s := args[0].s
		args = args[1:]
		if inList(s, "-l", "--layout") || strings.HasPrefix(s, "--layout=") {
			c.add(effect.Of(effect.RunUnseen), "zellij-layout", "zellij %s: a layout file can name commands, which are not analysed", s)
		}
		if !strings.Contains(s, "=") && hasField(zellijValued, s) && len(args) > 0 {
			args = args[1:]
		}
	}
	if len(args) == 0 || args[0].hole {
		return
	}
	sub := strings.ToLower(args[0].s)
	rest := args[1:]
	if sub == "action" && len(rest) > 0 && !rest[0].hole {
		sub, rest = "action "+strings.ToLower(rest[0].s), rest[1:]
	}
	what := "zellij " + sub
	rest = skipOpts(rest, zellijValued)
	switch sub {
	case "run", "r", "action new-pane":
		c.handOff(rest, what, "the zellij session")
	case "edit", "e", "action edit":
		c.add(effect.Of(effect.Launch), "editor", "%s: the zellij session opens the files in your editor", what)
	case "action write-chars":
		c.typed(rest, what)
	case "action write":
		c.add(effect.Of(effect.Input, effect.Terminal), "type-into-terminal", "%s types bytes into a pane: they run as commands", what)
		c.add(effect.Of(effect.RunUnseen, effect.Unconfined), "zellij-write", "%s: the bytes, which are not analysed, run in a shell outside the sandbox", what)
	case "list-sessions", "ls", "attach", "a", "--version", "--help", "-V", "-h", "action list-panes", "action list-tabs",
		"action dump-layout", "action focus-next-pane", "action focus-previous-pane", "action go-to-next-tab",
		"action go-to-previous-tab", "action go-to-tab", "action go-to-tab-name", "action move-focus", "action resize",
		"action rename-pane", "action rename-tab", "action toggle-fullscreen", "action query-tab-names":
	case "kill-session", "k", "action close-pane", "action close-tab":
		c.add(effect.Of(effect.Signal), "zellij", "%s: stops the programs running in it", what)
	default:
		c.add(effect.Of(effect.Unknown).On(sub), "zellij", "%s: a use Airlock does not model", what)
	}
}

// zellijValued are zellij's options that take a value (its own and those
// of run and new-pane).
const zellijValued = `-s --session -l --layout -c --config --config-dir --data-dir --max-panes -d --direction -n --name
	--cwd --width --height -x -y -b --borderless -p --pane-id -t --tab-id`

// systemdRunCommand rates systemd-run (systemd-run(1)): the service
// manager, outside the sandbox, runs the command as a unit of its own; a
// timer, path or socket option makes it run later by itself.
func systemdRunCommand(c *call) {
	args := c.args
	later := false
	for len(args) > 0 && !args[0].hole && strings.HasPrefix(args[0].s, "-") && len(args[0].s) > 1 {
		s := args[0].s
		args = args[1:]
		if s == "--" {
			break
		}
		name, val, has := strings.Cut(s, "=")
		valued := hasField(systemdRunValued, name) || len(name) == 2 && name[1] != '-' && strings.IndexByte("upEMHs", name[1]) >= 0
		if valued && !has && len(args) > 0 {
			val, args = args[0].s, args[1:]
		}
		later = later || strings.HasPrefix(name, "--on-") || inList(name, "--path-property", "--socket-property", "--timer-property")
		if inList(name, "-p", "--property") && strings.HasPrefix(strings.ToLower(val), "exec") {
			if _, cmd, ok := strings.Cut(val, "="); ok {
				c.handOff([]word{{s: cmd}}, "systemd-run "+rate.Display(val), "the service manager")
			}
		}
	}
	if later {
		c.add(effect.Of(effect.Persist), "persistence", "systemd-run with a timer, path or socket: the service manager runs the command later by itself (persistence)")
	}
	c.handOff(args, "systemd-run", "the service manager")
}

// systemdRunValued are systemd-run's long options that take a value.
const systemdRunValued = `--unit --property --description --slice --service-type --uid --gid --nice --working-directory
	--setenv --machine --host --on-active --on-boot --on-startup --on-unit-active --on-unit-inactive --on-calendar
	--path-property --socket-property --timer-property --expand-environment --json --capsule`

// emacsModel is Emacs's option model (emacs --help): -l, -f, -L, -x, -T
// and -g take a value; what runs Lisp is rated by emacsCommand.
var emacsModel = &opts{short: "qQnd", valued: "lfLxTgu", long: `--batch --no-init-file --quick --no-site-file --no-site-lisp
	--no-splash --no-desktop --no-x-resources --debug-init --no-window-system -nw -nsl -batch -q -Q --eval= -eval= --execute=
	--load= -load= --funcall= -funcall= --script= -script= --directory= --chdir= --file= --find-file= --visit= --insert=
	--title= --geometry= --fullscreen --maximized --version --help --kill --init-directory= --user= --daemon --bg-daemon
	--fg-daemon --daemon=`}

// emacsCode are Emacs's options whose value is Lisp to evaluate or a
// file of it to load; --batch, --script and -x run without a window.
var emacsCode = map[string]bool{"--eval": true, "-eval": true, "--execute": true, "-l": true, "--load": true, "-load": true,
	"--script": true, "-script": true, "-x": true, "-f": true, "--funcall": true, "-funcall": true,
	"--init-directory": true, "-u": true, "--user": true, "--daemon": true, "--bg-daemon": true, "--fg-daemon": true}

// elispShell finds the literal command of shell-command and its kin;
// elispDelete the literal target of delete-directory and delete-file.
var (
	elispShell  = regexp.MustCompile(`\((?:async-)?shell-command(?:-to-string)?\s+"((?:[^"\\]|\\.)*)"`)
	elispDelete = regexp.MustCompile(`\((delete-directory|delete-file|f-delete)\s+(?:\(expand-file-name\s+)?"((?:[^"\\]|\\.)*)"(\)?\s*(?:t|'t)\b)?`)
)

// emacsCommand rates emacs: Lisp given with --eval, or loaded from a file
// with -l, --script or -x, runs unseen (what it plainly does — a shell
// command, a deletion — is rated as that); otherwise it opens files in an
// editor.
func emacsCommand(c *call) {
	code := false
	for i := 0; i < len(c.args); i++ {
		w := c.args[i]
		name, val, has := strings.Cut(w.s, "=")
		if !emacsCode[name] {
			continue
		}
		code = true
		if !has && i+1 < len(c.args) && !strings.Contains(name, "daemon") {
			i++
			val = c.args[i].s
			if c.args[i].hole {
				val = ""
			}
		}
		if name == "--eval" || name == "-eval" || name == "--execute" {
			c.elisp(val)
		}
	}
	if !code {
		c.add(effect.Of(effect.Launch), "editor", "%s: opens files in an editor", c.name)
		return
	}
	c.add(effect.Of(effect.RunUnseen), "emacs-eval", "%s runs Lisp code that is not analysed", c.name)
}

// elisp rates what a Lisp expression plainly does: the shell commands it
// spells and the files and folders it deletes (not to the Trash, unless
// delete-by-moving-to-trash is set, which a batch Emacs does not set).
func (c *call) elisp(code string) {
	for _, m := range elispShell.FindAllStringSubmatch(code, -1) {
		c.add(effect.Of(effect.Run), "emacs-shell", "%s runs a shell command: %s", c.name, rate.Display(m[1]))
		c.nestedText(strings.ReplaceAll(m[1], `\"`, `"`), c.name+" shell-command")
	}
	for _, m := range elispDelete.FindAllStringSubmatch(code, -1) {
		c.codeRemoves(m[1], word{s: m[2], span: c.span}, m[1] == "delete-directory" && m[3] != "")
	}
}
