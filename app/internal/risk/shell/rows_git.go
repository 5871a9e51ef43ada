package shell

import (
	"path"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// gitConfigs are one command's -c settings.
type gitConfigs map[string]word

func splitGitConfig(w word) (string, word) {
	k, v, ok := strings.Cut(w.s, "=")
	if !ok {
		return strings.ToLower(k), word{s: "true"}
	}
	return strings.ToLower(k), word{s: v, hole: w.hole, span: w.span}
}

// gitCommandKey reports a configuration key whose value is a command (or
// names code) git runs: core.fsmonitor, core.pager, alias.x (with !) …
func gitCommandKey(k string) bool {
	switch k {
	case "core.fsmonitor", "core.pager", "core.editor", "core.sshcommand", "core.askpass", "core.hookspath", "core.gitproxy",
		"sequence.editor", "diff.external", "gpg.program", "credential.helper", "uploadpack.packobjectshook", "init.templatedir",
		"include.path", "web.browser", "interactive.difffilter", "core.worktree", "core.alternaterefscommand":
		return true
	}
	first, rest, _ := strings.Cut(k, ".")
	last := rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		last = rest[i+1:]
	}
	switch first {
	case "alias", "pager":
		return true
	case "diff":
		return last == "textconv" || last == "command"
	case "merge":
		return last == "driver"
	case "filter":
		return last == "clean" || last == "smudge" || last == "process"
	case "gpg", "credential":
		return last == "program" || last == "helper" || last == "defaultkeycommand"
	case "submodule":
		return last == "update"
	case "trailer":
		return last == "command" || last == "cmd"
	case "sendemail":
		return last == "tocmd" || last == "cccmd" || last == "smtpserver"
	case "includeif":
		return last == "path"
	case "difftool", "mergetool", "browser", "man":
		return last == "cmd" || last == "path"
	case "remote":
		return last == "uploadpack" || last == "receivepack" || last == "proxy" || last == "vcs"
	}
	return false
}

// gitHarmlessValue reports a command-valued setting set to a plain, known
// program: core.editor "code --wait", credential.helper osxkeychain.
func gitHarmlessValue(k string, v word) bool {
	if v.hole || strings.ContainsAny(v.s, ";&|<>$`()\n\\!") {
		return false
	}
	f := strings.Fields(v.s)
	if len(f) == 0 {
		return true
	}
	name := commandName(f[0])
	switch {
	case k == "core.editor" || k == "sequence.editor":
		return inList(name, "vim", "vi", "nvim", "nano", "emacs", "emacsclient", "code", "code-insiders", "cursor", "subl",
			"mate", "bbedit", "micro", "hx", "kak", "zed", "ed", "pico", "atom", "windsurf", "idea", "open")
	case k == "core.pager" || strings.HasPrefix(k, "pager."):
		return inList(name, "less", "more", "cat", "delta", "diff-so-fancy", "bat", "most", "true", "false", "diff-highlight")
	case strings.HasPrefix(k, "credential.") || strings.HasPrefix(k, "credential"):
		// store --file names where every password git is given is kept,
		// in plain text: a secret file of the agent's choosing.
		return inList(name, "osxkeychain", "store", "cache", "manager", "manager-core", "libsecret", "wincred", "gcloud.sh") && !strings.HasPrefix(f[0], "/") &&
			!(name == "store" && strings.Contains(v.s, "--file"))
	case k == "core.hookspath":
		// git looks for /dev/null/pre-commit …: no hook is found, none runs.
		return v.s == "/dev/null"
	case k == "core.fsmonitor":
		return inList(strings.ToLower(v.s), "true", "false", "0", "1", "yes", "no")
	case k == "gpg.program" || strings.HasPrefix(k, "gpg."):
		return inList(name, "gpg", "gpg2", "ssh-keygen", "smimesign", "gpgsm")
	case strings.HasPrefix(k, "alias."):
		return !strings.HasPrefix(strings.TrimSpace(v.s), "!")
	case k == "core.sshcommand":
		return name == "ssh" && !strings.Contains(strings.ToLower(v.s), "command")
	case strings.HasPrefix(k, "submodule."):
		return inList(strings.ToLower(v.s), "checkout", "rebase", "merge", "none")
	case k == "sendemail.smtpserver":
		return !strings.HasPrefix(v.s, "/") && !strings.HasPrefix(v.s, "~")
	}
	return false
}

// gitSetting rates a command-valued setting: once (git -c) or lasting
// (git config): the command is analysed; lasting, it is persistence.
func (c *call) gitSetting(k string, v word, lasting bool) {
	if c.gitRedirect(k, v, lasting) {
		return
	}
	if !gitCommandKey(k) {
		return
	}
	harmless := gitHarmlessValue(k, v)
	switch {
	case lasting && harmless:
		c.add(effect.Of(effect.Setting), "git-config", "git config %s: changes which program git runs", k)
	case lasting:
		c.add(effect.Of(effect.Persist).On(k), "git-config-persistence", "git config %s %s: makes git run a command later (persistence)", k, rate.Display(v.s))
	case !harmless:
		c.add(effect.Of(effect.LoadCode).On(v.s), "git-config-command", "git -c %s: makes git run %s", k, rate.Display(v.s))
	}
	if harmless {
		return
	}
	cmd := v
	cmd.s = strings.TrimPrefix(strings.TrimSpace(cmd.s), "!")
	if cmd.hole {
		c.add(effect.Of(effect.RunComputed), "git-config-computed", "git %s: runs a command computed at run time", k)
		return
	}
	switch k {
	case "core.hookspath", "init.templatedir", "include.path", "core.worktree":
		return // a folder or file, not a command
	}
	if strings.HasPrefix(k, "includeif.") {
		return
	}
	c.nestedText(cmd.s, "git "+k)
}

func gitCommand(c *call) {
	c.gitRun(gitConfigs{}, 0)
}

func (c *call) gitRun(cfg gitConfigs, depth int) {
	c.gitGlobals(cfg)
	ops := c.operands()
	s := sub(c.args)
	rest := c.args
	for i, w := range c.args {
		if strings.EqualFold(w.s, s) {
			rest = c.args[i+1:]
			break
		}
	}
	if _, ok := cfg["alias."+s]; !ok {
		if v, ok := c.setGitAlias(s, cfg); ok {
			cfg["alias."+s] = v // set earlier in the input: rows_gitalias.go
		}
	}
	if v, ok := cfg["alias."+s]; ok && depth < 4 {
		// git -c alias.x='!cmd' x, or an alias for another subcommand.
		if !v.hole && !strings.HasPrefix(strings.TrimSpace(v.s), "!") {
			var args []word
			for _, f := range strings.Fields(v.s) {
				args = append(args, word{s: f, span: v.span})
			}
			inner := &call{a: c.a, name: "git", args: append(args, rest...), span: c.span, pc: c.pc}
			inner.gitRun(cfg, depth+1)
			return
		}
		c.add(effect.Of(effect.Shell), "git-alias", "git %s: runs the shell command of an alias", rate.Display(s))
		return
	}
	c.gitSub(s, rest, ops, cfg)
}

// gitPlace rates git --git-dir and --exec-path: a repository whose
// configuration (core.fsmonitor, aliases, hooks) runs commands, or the
// folder git's own subcommands are run from, at a place an unasked action
// may have written (a sandbox root, a temporary folder, the working
// folder) or computed at run time.
func (c *call) gitPlace(opt string, w word) {
	if opt != "--git-dir" && opt != "--exec-path" {
		return
	}
	d := strings.TrimSuffix(w.s, "/")
	if d == ".git" || d == "./.git" {
		return // the working folder's own repository, as without the option
	}
	if w.hole || !strings.HasPrefix(d, "/") && !strings.HasPrefix(d, "~") || tempLike(d) || c.a.agentWritable(d) {
		c.add(effect.Of(effect.LoadCode).On(w.s), "git-place", "git %s %s: git takes its configuration or its own programs from there, which an action may have written", opt, rate.Display(w.s))
	}
}

// gitGlobals reads git's options before the subcommand, some with a value
// (git -C dir clean), and rates the -c settings among them.
func (c *call) gitGlobals(cfg gitConfigs) {
	for len(c.args) > 0 && strings.HasPrefix(c.args[0].s, "-") {
		opt := c.args[0].s
		c.args = c.args[1:]
		switch {
		case opt == "-c" && len(c.args) > 0:
			k, v := splitGitConfig(c.args[0])
			cfg[k] = v
			c.gitSetting(k, v, false)
			c.args = c.args[1:]
		case strings.HasPrefix(opt, "-c") && len(opt) > 2:
			k, v := splitGitConfig(word{s: opt[2:]})
			cfg[k] = v
			c.gitSetting(k, v, false)
		case opt == "--config-env" && len(c.args) > 0 || strings.HasPrefix(opt, "--config-env="):
			// --config-env=key=ENVVAR: the value comes from the environment.
			kv := strings.TrimPrefix(opt, "--config-env=")
			if opt == "--config-env" {
				kv = c.args[0].s
				c.args = c.args[1:]
			}
			k, _ := splitGitConfig(word{s: kv})
			cfg[k] = word{s: rate.HoleMark, hole: true}
			c.gitSetting(k, cfg[k], false)
		case opt == "-C" && len(c.args) > 0:
			cfg["-C"] = c.args[0] // the folder git works in (not a setting: no key starts with -)
			c.args = c.args[1:]
		case opt == "--git-dir" || opt == "--work-tree" || opt == "--namespace" || opt == "--exec-path" || opt == "--super-prefix":
			if opt == "--git-dir" {
				cfg[gitMovedConfig] = word{}
			}
			if len(c.args) > 0 {
				c.gitPlace(opt, c.args[0])
				c.args = c.args[1:]
			}
		case strings.HasPrefix(opt, "--git-dir=") || strings.HasPrefix(opt, "--exec-path="):
			k, v, _ := strings.Cut(opt, "=")
			if k == "--git-dir" {
				cfg[gitMovedConfig] = word{}
			}
			c.gitPlace(k, word{s: v, span: c.span})
		}
		c.ops = nil // the operands change with the arguments
	}
}

// gitSub rates git's subcommand s, whose arguments are rest.
func (c *call) gitSub(s string, rest, ops []word, cfg gitConfigs) {
	for _, w := range rest {
		switch low := strings.ToLower(w.s); {
		case strings.HasPrefix(low, "ext::") && inList(s, "remote", "submodule"):
			c.add(effect.Of(effect.Persist).On(w.s), "git-config-persistence", "git %s %s: stores an ext:: address, whose command git runs whenever it fetches or pushes (persistence)", s, rate.Display(w.s))
			c.nestedText(strings.ReplaceAll(w.s[len("ext::"):], "% ", " "), "git ext::")
		case strings.HasPrefix(low, "ext::"):
			c.add(effect.Of(effect.RunUnseen), "hidden-code", "git %s %s: the ext:: transport runs a command", s, rate.Display(w.s))
			c.nestedText(strings.ReplaceAll(w.s[len("ext::"):], "% ", " "), "git ext::")
		case strings.HasPrefix(low, "--template"):
			c.add(effect.Of(effect.RunUnseen), "hidden-code", "git %s --template: copies hooks from a template folder, which later git commands run", s)
		}
	}
	c.gitOutputs(s, rest)
	c.gitPackCommands(s, rest)
	if hasLong(rest, "--ext-diff") && inList(s, "log", "diff", "show", "whatchanged", "format-patch", "stash") {
		c.add(effect.Of(effect.RunUnseen), "hidden-code", "git %s --ext-diff: runs the external diff program the configuration or GIT_EXTERNAL_DIFF names, which is not analysed", s)
	}
	if c.gitData(s, rest, cfg) {
		return
	}
	switch s {
	case "status", "log", "diff", "show", "rev-parse", "describe", "blame", "ls-files", "shortlog",
		"version", "help", "ls-remote", "cat-file", "rev-list", "whatchanged", "":
	case "grep":
		// -O runs its program with the matching files as its arguments
		// (through the shell, as "$@"): an interpreter given them runs
		// them (git grep -Opython3 -l . -- x.py is python3 x.py).
		for i, w := range rest {
			switch {
			case (w.s == "-O" || w.s == "--open-files-in-pager") && i+1 < len(rest):
				c.nestedText(rest[i+1].s+` "$@"`, "git grep -O")
			case strings.HasPrefix(w.s, "-O") && len(w.s) > 2:
				c.nestedText(w.s[2:]+` "$@"`, "git grep -O")
			case strings.HasPrefix(w.s, "--open-files-in-pager="):
				c.nestedText(w.s[len("--open-files-in-pager="):]+` "$@"`, "git grep -O")
			}
		}
	case "remote":
		if len(ops) > 1 && !inList(strings.ToLower(ops[1].s), "-v", "show", "get-url") {
			c.add(effect.Of(effect.Setting), "git", "git remote: changes repository settings")
		}
	case "config":
		c.gitConfig(rest)
		c.noteGitAlias(rest, cfg)
	case "push":
		c.gitPush(rest)
	case "read-tree":
		switch {
		case hasShort(rest, 'u') && hasLong(rest, "--reset"):
			c.add(effect.Of(effect.Remove), "git-discard", "git read-tree -u --reset: overwrites the working tree, discarding uncommitted changes")
		case hasShort(rest, 'u'):
			c.add(effect.Of(effect.Overwrite), "git-discard", "git read-tree -u: overwrites files in the working tree")
		default:
			c.add(effect.Of(effect.Change), "git", "git read-tree: changes the index")
		}
	default:
		c.gitSubMore(s, rest)
	}
}

// gitSubMore is gitSub for the subcommands that rewrite history or run
// other programs.
func (c *call) gitSubMore(s string, rest []word) {
	switch s {
	case "stash":
		switch sub(rest) {
		case "list", "show":
		case "drop", "clear":
			c.add(effect.Of(effect.Remove), "git-stash-drop", "git stash drop/clear: permanently discards stashed work")
		default:
			c.add(effect.Of(effect.Change), "git", "git stash")
		}
	case "worktree":
		if sub(rest) == "remove" && (hasShort(rest, 'f') || hasLong(rest, "--force")) {
			c.add(effect.Of(effect.Remove), "git-discard", "git worktree remove --force: deletes a working tree with its uncommitted changes")
			return
		}
		c.add(effect.Of(effect.Change), "git", "git worktree: changes the repository's working trees")
	case "submodule":
		c.gitSubmodule(rest)
	case "rebase":
		c.add(effect.Of(effect.Change), "git", "git rebase: rewrites commits")
		for i, w := range rest {
			switch {
			case (w.s == "-x" || w.s == "--exec") && i+1 < len(rest):
				c.gitShell(rest[i+1:i+2], "git rebase --exec")
			case strings.HasPrefix(w.s, "--exec="):
				c.gitShell([]word{{s: w.s[len("--exec="):], hole: w.hole}}, "git rebase --exec")
			}
		}
	case "bisect":
		c.add(effect.Of(effect.Change), "git", "git bisect")
		if len(rest) > 1 && rest[0].s == "run" {
			c.a.call(rest[1:], c.span, pipeCtx{})
		}
	case "filter-branch", "filter-repo", "update-ref", "gc", "prune", "reflog":
		c.gitHistory(s, rest)
	case "difftool", "mergetool":
		c.gitTool(s, rest)
	case "clone", "fetch", "pull":
		c.gitFetch(s, rest)
	default:
		if why, own := gitOwnSubs[s]; !own {
			c.add(effect.Of(effect.RunUnseen), "hidden-code", "git %s: not one of git's own commands, so an alias (which may run a shell command) or a git-%s program, neither of which is analysed", rate.Display(s), rate.Display(s))
		} else if why != "" {
			c.add(effect.Of(effect.RunUnseen), "hidden-code", "git %s: %s", s, why)
		} else {
			c.add(effect.Of(effect.Change), "git", "git %s: changes the repository", rate.Display(s))
		}
	}
}

// gitOwnSubs are git's own subcommands that reach gitSubMore's default
// (git help -a). git never lets an alias shadow one of them, so any other
// name is an alias (alias.x = "!cmd" runs a shell command) or a git-x
// program on the PATH: code Airlock cannot see. A non-empty reason is a
// built-in that runs a configured program or hook all the same.
var gitOwnSubs = map[string]string{
	// Porcelain that changes the repository.
	"add": "", "am": "", "apply": "", "archive": "", "bundle": "", "cherry-pick": "", "commit": "", "init": "",
	"merge": "", "mv": "", "notes": "", "range-diff": "", "revert": "", "sparse-checkout": "", "tag": "",
	"maintenance": "", "replace": "", "repack": "", "pack-refs": "", "rerere": "", "format-patch": "",
	"fast-export": "", "fast-import": "", "count-objects": "", "fsck": "", "show-branch": "", "verify-commit": "",
	"verify-tag": "", "merge-tree": "", "bugreport": "", "diagnose": "", "annotate": "", "request-pull": "",
	"cherry": "", "replay": "", "backfill": "", "last-modified": "", "refs": "",
	// Plumbing.
	"commit-graph": "", "commit-tree": "", "hash-object": "", "index-pack": "", "merge-file": "", "merge-index": "",
	"mktag": "", "mktree": "", "multi-pack-index": "", "pack-objects": "", "prune-packed": "", "symbolic-ref": "",
	"unpack-objects": "", "update-index": "", "write-tree": "", "diff-files": "", "diff-index": "", "diff-tree": "",
	"for-each-ref": "", "get-tar-commit-id": "", "ls-tree": "", "merge-base": "", "name-rev": "", "pack-redundant": "",
	"show-index": "", "show-ref": "", "unpack-file": "", "var": "", "verify-pack": "", "check-attr": "",
	"check-ignore": "", "check-mailmap": "", "check-ref-format": "", "column": "", "fmt-merge-msg": "",
	"interpret-trailers": "", "mailinfo": "", "mailsplit": "", "patch-id": "", "stripspace": "", "fetch-pack": "",
	"send-pack": "", "update-server-info": "", "merge-ours": "", "merge-recursive": "", "merge-octopus": "",
	"merge-resolve": "", "merge-subtree": "", "upload-archive": "", "receive-pack": "", "shell": "",
	// Built-ins that hand control to a program or hook the configuration
	// or the tree names.
	"hook":           "runs the repository's hook scripts, which are not analysed",
	"for-each-repo":  "runs a git command in every repository a setting lists, under their own configurations",
	"credential":     "runs the configured credential helper, which is not analysed",
	"send-email":     "sends mail through the configured program or server",
	"imap-send":      "uploads patches to the configured IMAP server, or runs its tunnel command",
	"instaweb":       "starts a web server on the repository through the configured program",
	"daemon":         "serves repositories to the network",
	"http-backend":   "serves the repository over HTTP",
	"upload-pack":    "serves the repository, running its configured hooks",
	"merge-one-file": "a shell script of git's that runs the configured merge programs",
	"citool":         "runs git gui", "gui": "runs git gui, a Tcl program", "gitk": "runs gitk, a Tcl program",
	"p4": "runs Perforce through a Python helper", "svn": "runs a Perl bridge that fetches from Subversion",
	"archimport": "runs a Perl bridge", "cvsimport": "runs a Perl bridge", "cvsexportcommit": "runs a Perl bridge",
	"cvsserver": "serves the repository over CVS", "quiltimport": "runs a shell script of git's on patches",
	"difftool--helper": "runs the configured diff tool", "mergetool--lib": "runs the configured merge tool",
	"web--browse": "runs the configured browser",
}

// gitTool rates git difftool and mergetool: they run the configured tool,
// and --extcmd a shell command.
func (c *call) gitTool(s string, rest []word) {
	c.add(effect.Of(effect.Run), "git", "git %s: runs a diff or merge tool", s)
	for i, w := range rest {
		switch {
		case (w.s == "-x" || w.s == "--extcmd") && i+1 < len(rest):
			c.gitShell(rest[i+1:i+2], "git "+s+" --extcmd")
		case strings.HasPrefix(w.s, "--extcmd="):
			c.gitShell([]word{{s: w.s[len("--extcmd="):], hole: w.hole}}, "git "+s+" --extcmd")
		}
	}
}

// gitSubmodule rates git submodule: deinit --force deletes working trees,
// update and add fetch, foreach runs a shell command in each.
func (c *call) gitSubmodule(rest []word) {
	if sub(rest) == "deinit" && (hasShort(rest, 'f') || hasLong(rest, "--force")) {
		c.add(effect.Of(effect.Remove), "git-discard", "git submodule deinit --force: deletes submodules' working trees with their uncommitted changes")
	}
	if inList(sub(rest), "update", "add") {
		c.add(effect.Of(effect.Fetch), "git", "git submodule: fetches submodules")
	} else {
		c.add(effect.Of(effect.Change), "git", "git submodule: changes submodules")
	}
	for i, w := range rest {
		if w.s == "foreach" {
			cmd := rest[i+1:]
			for len(cmd) > 0 && (cmd[0].s == "--recursive" || cmd[0].s == "-q" || cmd[0].s == "--quiet") {
				cmd = cmd[1:]
			}
			c.gitShell(cmd, "git submodule foreach")
			break
		}
	}
}

// gitHistory rates the subcommands that rewrite or prune history: an
// expiry of now loses work at once, a filter rewrites every commit, and
// filters run shell commands.
func (c *call) gitHistory(s string, rest []word) {
	if s == "reflog" && !hasArg(rest, "expire", "delete") {
		return
	}
	now := false
	for i, w := range rest {
		name, v, has := strings.Cut(w.s, "=")
		if !has && i+1 < len(rest) && inList(name, "--expire", "--expire-unreachable") {
			v = rest[i+1].s
		}
		if inList(name, "--expire", "--expire-unreachable", "--prune") && inList(strings.ToLower(v), "now", "all", "0") {
			now = true
		}
	}
	switch {
	case now:
		c.add(effect.Of(effect.Remove), "git-history", "git %s …=now: drops unreachable commits at once; lost work can no longer be recovered", s)
	case s == "gc":
		c.add(effect.Of(effect.Change), "git", "git gc: cleans up the repository")
	case s == "filter-branch" || s == "filter-repo":
		c.add(effect.Of(effect.Remove, effect.Bulk), "git-history", "git %s: rewrites every commit of the history it is given", s)
	case s == "update-ref" && (hasShort(rest, 'd') || hasLong(rest, "--stdin")):
		c.add(effect.Of(effect.Remove), "git-history", "git update-ref -d: deletes a ref, leaving its commits unreachable")
	default:
		c.add(effect.Of(effect.Change, effect.Bulk), "git-history", "git %s: rewrites or prunes history", s)
	}
	for i, w := range rest {
		if strings.HasSuffix(w.s, "-filter") && strings.HasPrefix(w.s, "--") && i+1 < len(rest) {
			c.gitShell(rest[i+1:i+2], "git filter-branch "+w.s)
		}
	}
}

// gitFetch rates git clone, fetch and pull: they fetch; a clone writes its
// folder, whose files come from the network; --upload-pack runs a command
// and clone's --config sets settings.
func (c *call) gitFetch(s string, rest []word) {
	c.add(effect.Of(effect.Fetch), "git", "git %s: changes the repository", s)
	if rops := operands(rest); s == "clone" && len(rops) > 1 {
		c.a.write(rops[len(rops)-1], c.span, "git clone into")
		c.a.downloadedInto(rops[len(rops)-1], true) // its files come from the network
	} else if s == "clone" && len(rops) == 1 && !rops[0].hole {
		dir := strings.TrimSuffix(path.Base(strings.TrimRight(rops[0].s, "/")), ".git")
		if dir != "" && dir != "." && dir != "/" {
			c.a.downloadedInto(word{s: dir}, true)
		}
	}
	for i, w := range rest {
		switch {
		case (w.s == "-u" || w.s == "--upload-pack") && i+1 < len(rest):
			c.gitShell(rest[i+1:i+2], "git "+s+" --upload-pack")
		case strings.HasPrefix(w.s, "--upload-pack="):
			c.gitShell([]word{{s: w.s[len("--upload-pack="):], hole: w.hole}}, "git "+s+" --upload-pack")
		case (w.s == "-c" || w.s == "--config") && i+1 < len(rest) && s == "clone":
			k, v := splitGitConfig(rest[i+1])
			c.gitSetting(k, v, true)
		case strings.HasPrefix(w.s, "--config=") && s == "clone":
			k, v := splitGitConfig(word{s: w.s[len("--config="):], hole: w.hole})
			c.gitSetting(k, v, true)
		}
	}
}

// gitPackCommands analyses the command the other end's pack program is
// started with, which git runs through the shell when the remote is a
// folder (or over ssh): --upload-pack and --exec of ls-remote, fetch-pack
// and archive --remote, --receive-pack and --exec of send-pack. (clone,
// fetch, pull and push analyse theirs in gitFetch and gitPush.) A sixth
// red team's find: git ls-remote --upload-pack='python3 x.py #' . was
// safe, and ran the script.
func (c *call) gitPackCommands(s string, rest []word) {
	var opts []string
	switch s {
	case "ls-remote", "fetch-pack", "archive":
		opts = []string{"--upload-pack", "--exec"}
	case "send-pack":
		opts = []string{"--receive-pack", "--exec"}
	default:
		return
	}
	if s == "ls-remote" && !hasLong(rest, "--get-url") {
		c.add(effect.Of(effect.Fetch), "git", "git ls-remote: asks a remote for its branches and tags")
	}
	for i, w := range rest {
		if w.s == "--" {
			break
		}
		for _, opt := range opts {
			switch {
			case w.s == opt && i+1 < len(rest):
				c.gitShell(rest[i+1:i+2], "git "+s+" "+opt)
			case strings.HasPrefix(w.s, opt+"="):
				c.gitShell([]word{{s: w.s[len(opt)+1:], hole: w.hole}}, "git "+s+" "+opt)
			}
		}
	}
}

// gitShell analyses a command git hands to the shell (submodule foreach,
// rebase --exec): the words are joined and run by sh -c.
func (c *call) gitShell(ws []word, what string) {
	if len(ws) == 0 {
		return
	}
	parts := make([]string, len(ws))
	for i, w := range ws {
		if w.hole {
			c.add(effect.Of(effect.RunComputed), "computed-script", "%s of text computed at run time: cannot tell what runs", what)
			return
		}
		parts[i] = w.s
	}
	c.nestedText(strings.Join(parts, " "), what)
}

// gitConfig rates git config: reading is safe; setting a key whose value
// git runs as a command is persistence.
func (c *call) gitConfig(rest []word) {
	var names []word
	read, write, unset := false, false, false
	for i := 0; i < len(rest); i++ {
		s := rest[i].s
		switch {
		case rest[i].hole:
			names = append(names, rest[i])
		case inList(s, "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "-l", "--list"):
			read = true
		case inList(s, "--unset", "--unset-all", "--remove-section", "--rename-section"):
			write, unset = true, true
		case inList(s, "--add", "--replace-all"):
			write = true
		case s == "-e" || s == "--edit":
			c.add(effect.Of(effect.Launch), "git", "git config --edit: opens the configuration in an editor")
			return
		case inList(s, "-f", "--file", "--blob", "--type", "--default", "--comment", "--value", "--url"):
			i++
		case strings.HasPrefix(s, "-"):
		default:
			names = append(names, rest[i])
		}
	}
	if len(names) > 0 && !names[0].hole {
		switch strings.ToLower(names[0].s) {
		case "get", "list":
			read = true
			names = names[1:]
		case "set":
			write = true
			names = names[1:]
		case "unset", "remove-section", "rename-section":
			write, unset = true, true
			names = names[1:]
		case "edit":
			c.add(effect.Of(effect.Launch), "git", "git config edit: opens the configuration in an editor")
			return
		}
	}
	if read || !write && len(names) < 2 {
		if len(names) > 0 && !names[0].hole && secretConfigKey(names[0].s) {
			c.add(effect.Of(effect.ReadSecret).On(names[0].s), "secret.config", "git config %s: prints a credential kept in the git configuration", rate.Display(names[0].s))
		}
		return
	}
	if unset || len(names) < 2 {
		c.add(effect.Of(effect.Setting), "git", "git config: removes a setting")
		return
	}
	k := strings.ToLower(names[0].s)
	if names[0].hole {
		c.add(effect.Of(effect.Unknown), "git-config-computed", "git config sets a setting named at run time")
		return
	}
	if c.gitRedirect(k, names[1], true) {
		return
	}
	if gitCommandKey(k) {
		c.gitSetting(k, names[1], true)
		return
	}
	c.add(effect.Of(effect.Setting), "git", "git config: changes repository settings")
}

// gitOutputs rates the files git subcommand s writes instead of printing:
// every diff-family command's --output (git-diff(1): "output to a specific
// file instead of stdout"), archive's -o, format-patch's -o/--output-directory
// and bundle create's file. Each is created or truncated, so it is rated as
// > onto that path (a new archive as tar -c's): a start-up file is
// persistence, an existing document is lost.
func (c *call) gitOutputs(s string, rest []word) {
	out := func(w word) {
		c.a.replaces(w, c.span, "git "+s+" --output writes to")
		if s == "archive" || s == "bundle" {
			c.a.write(w, c.span, "git "+s+" makes") // a new archive, as tar -c
			return
		}
		c.a.write(w, c.span, "git "+s+" writes to") // a diff's text, as > would
	}
	for i, w := range rest {
		if w.s == "--" {
			break
		}
		next := i+1 < len(rest)
		switch {
		case strings.HasPrefix(w.s, "--output="):
			out(word{s: w.s[len("--output="):], hole: w.hole, glob: w.glob, span: w.span})
		case w.s == "--output" && next:
			out(rest[i+1])
		case s == "archive" && w.s == "-o" && next:
			out(rest[i+1])
		case s == "archive" && strings.HasPrefix(w.s, "-o") && len(w.s) > 2:
			out(word{s: w.s[2:], hole: w.hole, glob: w.glob, span: w.span})
		case s == "format-patch" && (w.s == "-o" || w.s == "--output-directory") && next:
			c.a.write(rest[i+1], c.span, "git format-patch writes patches into")
		case s == "format-patch" && strings.HasPrefix(w.s, "--output-directory="):
			c.a.write(word{s: w.s[len("--output-directory="):], hole: w.hole, span: w.span}, c.span, "git format-patch writes patches into")
		}
	}
	if s == "bundle" {
		if ops := operands(rest); len(ops) > 1 && strings.EqualFold(ops[0].s, "create") {
			out(ops[1])
		}
	}
}

// secretConfigKey reports a setting's name (or a pattern of names) that
// says its value is a credential: http.extraHeader (an Authorization
// header), npm's //registry/:_authToken and _password, a tool's token or
// api_key. Only the last part of the name counts, so credential.helper (a
// program's name) and user.email are not.
func secretConfigKey(k string) bool {
	low := strings.ToLower(k)
	if strings.Contains(low, "extraheader") {
		return true
	}
	last := low[strings.LastIndexAny(low, ".:/")+1:]
	return rate.SecretVariable(strings.NewReplacer("-", "_", ".", "_").Replace(last))
}
