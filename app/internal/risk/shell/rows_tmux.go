package shell

import "strings"

// tmux's command table (tmux(1), "COMMANDS", and each command's getopt
// template in tmux's cmd-*.c): what each command does for the rating, and
// its options that take a value. A command is found by its alias, its
// name or a unique prefix of its name (tmuxResolve).

// tmuxKind is what a tmux command does for the rating.
type tmuxKind uint8

const (
	tmuxHarmless   tmuxKind = iota // attaches, lists, shows, selects, moves, resizes, renames: runs nothing (its formats are read)
	tmuxKill                       // stops the programs of a session, window or pane
	tmuxKillServer                 // stops every session
	tmuxRuns                       // its operands are a command the server starts in a window, pane or popup
	tmuxRunShell                   // run-shell: a shell command, or with -C tmux commands
	tmuxTypes                      // send-keys: types into a pane
	tmuxPastes                     // paste-buffer: types a buffer's text into a pane
	tmuxIf                         // if-shell: a shell command (a format with -F), then tmux commands
	tmuxTemplate                   // its operands are tmux commands run on a choice, a confirmation or typed input
	tmuxMenu                       // display-menu: items of a name, a key and tmux commands
	tmuxSource                     // source-file: runs the tmux commands of files
	tmuxSave                       // save-buffer: writes a file
	tmuxLoad                       // load-buffer: reads a file
	tmuxHook                       // set-hook: tmux commands kept for an event
	tmuxBind                       // bind-key: tmux commands kept for a key
	tmuxSetOption                  // set-option, set-window-option
	tmuxSetEnv                     // set-environment: the environment of what the server starts
	tmuxDetach                     // detach-client: -E runs a command in place of the client
	tmuxAccess                     // server-access: lets other users attach
)

// tmuxSpec is one row of tmuxSpecs.
type tmuxSpec struct {
	valued string // option letters that take a value
	kind   tmuxKind
}

// tmuxSpecs are tmux's commands by full name.
var tmuxSpecs = map[string]tmuxSpec{
	"attach-session": {"cft", tmuxHarmless}, "bind-key": {"NT", tmuxBind}, "break-pane": {"Fnst", tmuxHarmless},
	"capture-pane": {"bESt", tmuxHarmless}, "choose-buffer": {"FfKOt", tmuxTemplate}, "choose-client": {"FfKOt", tmuxTemplate},
	"choose-tree": {"FfKOt", tmuxTemplate}, "clear-history": {"t", tmuxHarmless}, "clear-prompt-history": {"T", tmuxHarmless},
	"clock-mode": {"t", tmuxHarmless}, "command-prompt": {"IptT", tmuxTemplate}, "confirm-before": {"cpt", tmuxTemplate},
	"copy-mode": {"st", tmuxHarmless}, "customize-mode": {"Fft", tmuxHarmless}, "delete-buffer": {"b", tmuxHarmless},
	"detach-client": {"Est", tmuxDetach}, "display-menu": {"bcCHsStTxy", tmuxMenu}, "display-message": {"cdtF", tmuxHarmless},
	"display-panes": {"dt", tmuxTemplate}, "display-popup": {"bcdehsStTwxy", tmuxRuns}, "find-window": {"t", tmuxHarmless},
	"has-session": {"t", tmuxHarmless}, "if-shell": {"t", tmuxIf}, "join-pane": {"plst", tmuxHarmless},
	"kill-pane": {"t", tmuxKill}, "kill-server": {"", tmuxKillServer}, "kill-session": {"t", tmuxKill},
	"kill-window": {"t", tmuxKill}, "last-pane": {"t", tmuxHarmless}, "last-window": {"t", tmuxHarmless},
	"link-window": {"st", tmuxHarmless}, "list-buffers": {"FfO", tmuxHarmless}, "list-clients": {"FfOt", tmuxHarmless},
	"list-commands": {"F", tmuxHarmless}, "list-keys": {"PT", tmuxHarmless}, "list-panes": {"FfOt", tmuxHarmless},
	"list-sessions": {"FfO", tmuxHarmless}, "list-windows": {"FfOt", tmuxHarmless}, "load-buffer": {"bt", tmuxLoad},
	"lock-client": {"t", tmuxHarmless}, "lock-server": {"", tmuxHarmless}, "lock-session": {"t", tmuxHarmless},
	"move-pane": {"plst", tmuxHarmless}, "move-window": {"st", tmuxHarmless}, "new-pane": {"BcelmMpRsStTxXyYFHw", tmuxRuns},
	"new-session": {"ceFfnstxy", tmuxRuns}, "new-window": {"ceFnt", tmuxRuns}, "next-layout": {"t", tmuxHarmless},
	"next-window": {"t", tmuxHarmless}, "paste-buffer": {"bst", tmuxPastes}, "pipe-pane": {"t", tmuxRuns},
	"previous-layout": {"t", tmuxHarmless}, "previous-window": {"t", tmuxHarmless}, "refresh-client": {"ABCfrFt", tmuxHarmless},
	"rename-session": {"t", tmuxHarmless}, "rename-window": {"t", tmuxHarmless}, "resize-pane": {"txy", tmuxHarmless},
	"resize-window": {"txy", tmuxHarmless}, "respawn-pane": {"cet", tmuxRuns}, "respawn-window": {"cet", tmuxRuns},
	"rotate-window": {"t", tmuxHarmless}, "run-shell": {"cdt", tmuxRunShell}, "save-buffer": {"b", tmuxSave},
	"select-layout": {"t", tmuxHarmless}, "select-pane": {"PTt", tmuxHarmless}, "select-window": {"t", tmuxHarmless},
	"send-keys": {"cNt", tmuxTypes}, "send-prefix": {"t", tmuxHarmless}, "server-access": {"", tmuxAccess},
	"server-info": {"", tmuxHarmless}, "set-buffer": {"btn", tmuxHarmless}, "set-environment": {"t", tmuxSetEnv},
	"set-hook": {"t", tmuxHook}, "set-option": {"t", tmuxSetOption}, "set-window-option": {"t", tmuxSetOption},
	"show-buffer": {"b", tmuxHarmless}, "show-environment": {"t", tmuxHarmless}, "show-hooks": {"t", tmuxHarmless},
	"show-messages": {"Tt", tmuxHarmless}, "show-options": {"t", tmuxHarmless}, "show-prompt-history": {"T", tmuxHarmless},
	"show-window-options": {"t", tmuxHarmless}, "source-file": {"t", tmuxSource}, "split-window": {"celpFt", tmuxRuns},
	"start-server": {"", tmuxHarmless}, "suspend-client": {"t", tmuxHarmless}, "swap-pane": {"st", tmuxHarmless},
	"swap-window": {"st", tmuxHarmless}, "switch-client": {"cOtT", tmuxHarmless}, "unbind-key": {"T", tmuxHarmless},
	"unlink-window": {"t", tmuxHarmless}, "wait-for": {"", tmuxHarmless},
}

// tmuxAliases are the commands' aliases; an alias must be given whole.
// info is server-info's alias in the tmux versions that have it.
var tmuxAliases = map[string]string{
	"attach": "attach-session", "bind": "bind-key", "breakp": "break-pane", "capturep": "capture-pane",
	"clearhist": "clear-history", "clearphist": "clear-prompt-history", "confirm": "confirm-before",
	"deleteb": "delete-buffer", "detach": "detach-client", "menu": "display-menu", "display": "display-message",
	"displayp": "display-panes", "popup": "display-popup", "findw": "find-window", "has": "has-session",
	"if": "if-shell", "joinp": "join-pane", "killp": "kill-pane", "killw": "kill-window", "lastp": "last-pane",
	"last": "last-window", "linkw": "link-window", "lsb": "list-buffers", "lsc": "list-clients",
	"lscm": "list-commands", "lsk": "list-keys", "lsp": "list-panes", "ls": "list-sessions", "lsw": "list-windows",
	"loadb": "load-buffer", "lockc": "lock-client", "lock": "lock-server", "locks": "lock-session",
	"movep": "move-pane", "movew": "move-window", "newp": "new-pane", "new": "new-session", "neww": "new-window",
	"nextl": "next-layout", "next": "next-window", "pasteb": "paste-buffer", "pipep": "pipe-pane",
	"prevl": "previous-layout", "prev": "previous-window", "refresh": "refresh-client", "rename": "rename-session",
	"renamew": "rename-window", "resizep": "resize-pane", "resizew": "resize-window", "respawnp": "respawn-pane",
	"respawnw": "respawn-window", "rotatew": "rotate-window", "run": "run-shell", "saveb": "save-buffer",
	"selectl": "select-layout", "selectp": "select-pane", "selectw": "select-window", "send": "send-keys",
	"setb": "set-buffer", "setenv": "set-environment", "set": "set-option", "setw": "set-window-option",
	"showb": "show-buffer", "showenv": "show-environment", "showmsgs": "show-messages", "show": "show-options",
	"showphist": "show-prompt-history", "showw": "show-window-options", "source": "source-file",
	"splitw": "split-window", "start": "start-server", "suspendc": "suspend-client", "swapp": "swap-pane",
	"swapw": "swap-window", "switchc": "switch-client", "unbind": "unbind-key", "unlinkw": "unlink-window",
	"wait": "wait-for", "info": "server-info",
}

// tmuxCodeOption is an option whose value the server runs later.
type tmuxCodeOption struct {
	kind int    // tmuxOptShell: a shell command or program; tmuxOptCommands: name=tmux commands
	when string // when the server runs it
}

const (
	tmuxOptShell = iota
	tmuxOptCommands
)

// tmuxCodeOptions are the options that name what the server runs
// (tmux(1), "OPTIONS"); options that hold formats run #(…) and are found
// by their value.
var tmuxCodeOptions = map[string]tmuxCodeOption{
	"default-command": {tmuxOptShell, "in every new window"},
	"default-shell":   {tmuxOptShell, "as the shell of every new window"},
	"lock-command":    {tmuxOptShell, "whenever a client locks"},
	"copy-command":    {tmuxOptShell, "whenever text is copied"},
	"editor":          {tmuxOptShell, "whenever it opens an editor"},
	"command-alias":   {tmuxOptCommands, "whenever the alias is used"},
}

// tmuxHooks are the hooks that are not after-COMMAND (tmux(1), "HOOKS").
var tmuxHooks = set(`alert-activity alert-bell alert-silence client-active client-attached client-detached
	client-focus-in client-focus-out client-resized client-session-changed client-light-theme client-dark-theme
	command-error pane-died pane-exited pane-focus-in pane-focus-out pane-mode-changed pane-set-clipboard
	pane-title-changed session-closed session-created session-renamed session-window-changed window-layout-changed
	window-linked window-pane-changed window-renamed window-resized window-unlinked`)

// tmuxHookName reports a hook's name, which set-option sets as well.
func tmuxHookName(name string) bool {
	return strings.HasPrefix(name, "after-") || tmuxHooks[name]
}

// tmuxSplit reads tmux command text as tmux's parser does (tmux(1),
// "PARSING SYNTAX"): a command ends at a new line or at an unquoted ";"
// (alone or ending a word); words are split at blanks; '…' is literal;
// "…" takes \-escapes; outside quotes \ escapes the next character, so
// \; is a ";" word; {…} is one word holding tmux commands; # at a word's
// start begins a comment; $NAME, ${NAME} and a leading ~ are expanded
// from the environment, so a word with $ is computed.
func tmuxSplit(text string) [][]word {
	var cmds [][]word
	var cmd []word
	var b strings.Builder
	inWord, hole := false, false
	endWord := func() {
		if inWord {
			cmd = append(cmd, word{s: b.String(), hole: hole})
		}
		b.Reset()
		inWord, hole = false, false
	}
	endCmd := func() {
		endWord()
		if len(cmd) > 0 {
			cmds = append(cmds, cmd)
		}
		cmd = nil
	}
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case ch == '\n':
			endCmd()
		case ch == ' ' || ch == '\t' || ch == '\r':
			endWord()
		case ch == ';':
			endCmd()
		case ch == '#' && !inWord:
			for i < len(text) && text[i] != '\n' {
				i++
			}
			endCmd()
		case ch == '{' && !inWord:
			j := tmuxBraceEnd(text, i)
			cmd = append(cmd, word{s: text[i+1 : j]})
			i = j
		case ch == '\'':
			inWord = true
			j := strings.IndexByte(text[i+1:], '\'')
			if j < 0 {
				j = len(text) - i - 1
			}
			b.WriteString(text[i+1 : i+1+j])
			i += j + 1
		case ch == '"':
			inWord = true
			i = tmuxDoubleQuoted(text, i+1, &b, &hole)
		case ch == '\\' && i+1 < len(text):
			inWord = true
			i++
			b.WriteByte(text[i])
		default:
			inWord = true
			hole = hole || ch == '$'
			b.WriteByte(ch)
		}
	}
	endCmd()
	return cmds
}

// tmuxDoubleQuoted reads "…" from text[i:] into b, up to the closing
// quote, and returns the index of that quote; a $ in it makes the word
// computed.
func tmuxDoubleQuoted(text string, i int, b *strings.Builder, hole *bool) int {
	for ; i < len(text); i++ {
		switch text[i] {
		case '"':
			return i
		case '\\':
			if i+1 < len(text) {
				i++
				b.WriteByte(text[i])
			}
		case '$':
			*hole = true
			b.WriteByte('$')
		default:
			b.WriteByte(text[i])
		}
	}
	return i
}

// tmuxBraceEnd is the index of the } that closes the { at text[i] (the
// end of text when none does), skipping quoted text.
func tmuxBraceEnd(text string, i int) int {
	depth := 0
	for j := i; j < len(text); j++ {
		switch text[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j
			}
		case '\'', '"':
			k := strings.IndexByte(text[j+1:], text[j])
			if k < 0 {
				return len(text)
			}
			j += k + 1
		case '\\':
			j++
		}
	}
	return len(text)
}
