package shell

import (
	"path"
	"slices"
	"strings"

	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
)

// git's subcommands that can throw data away: uncommitted changes, untracked
// files, stashes, branches, remote history. Each has its option model, from
// git's manual, read by opts.parse (git takes a unique prefix of a long
// option for it, so --har is --hard, and --no-x for the negation of --x);
// an option the model does not list is Dangerous, by the auto-run contract.
// What git removes this way is not in the Trash: Destructive, as rm
// (DESIGN.md, "Risk levels").
type gitSubRow struct {
	model *opts
	rate  func(c *call, p parsed, cfg gitConfigs)
}

// gitModel is an option model of a git subcommand.
func gitModel(short, valued, long string) *opts {
	return &opts{short: short, valued: valued, long: long, abbrev: true}
}

var gitDataSubs = map[string]gitSubRow{
	"checkout-index": {gitModel("uqfanz", "", `--index --quiet --force --all --no-create --prefix= --stage= --temp
		--ignore-skip-worktree-bits --stdin`), gitCheckoutIndex},
	"rm": {gitModel("fnrq", "", `--force --dry-run --cached --ignore-unmatch --sparse --quiet --pathspec-from-file=
		--pathspec-file-nul`), gitRm},
	"restore": {gitModel("pWSqm", "sU", `--source= --patch --worktree --staged --quiet --progress --ours --theirs
		--merge --conflict= --ignore-unmerged --ignore-skip-worktree-bits --recurse-submodules --overlay
		--pathspec-from-file= --pathspec-file-nul --unified= --inter-hunk-context=`), gitRestore},
	"checkout": {gitModel("qfmpldt", "bBU", `--quiet --progress --force --ours --theirs --track --track= --guess
		--detach --orphan= --ignore-skip-worktree-bits --merge --conflict= --patch --ignore-other-worktrees
		--overwrite-ignore --recurse-submodules --overlay --pathspec-from-file= --pathspec-file-nul --unified=
		--inter-hunk-context=`), gitCheckout},
	"switch": {gitModel("dfmqt", "cC", `--create= --force-create= --detach --guess --force --discard-changes
		--merge --conflict= --quiet --progress --track --track= --orphan= --ignore-other-worktrees
		--recurse-submodules`), gitSwitch},
	"clean": {gitModel("dfinqxX", "e", "--force --interactive --dry-run --quiet --exclude="), gitClean},
	"reset": {gitModel("qNpU", "", `--soft --mixed --hard --merge --keep --recurse-submodules --quiet --refresh
		--patch --pathspec-from-file= --pathspec-file-nul --intent-to-add --unified= --inter-hunk-context=`), gitReset},
	"branch": {gitModel("dDfmMcCrlavqi", "u", `--delete --force --move --copy --remotes --all --list --verbose
		--quiet --abbrev= --column --column= --sort= --merged --no-merged --contains --no-contains --points-at=
		--format= --show-current --set-upstream-to= --unset-upstream --edit-description --track --track=
		--create-reflog --recurse-submodules --ignore-case --omit-empty --color --color=`), gitBranch},
}

// gitData rates the subcommand s by its row in gitDataSubs; it reports
// false for a subcommand that has none.
func (c *call) gitData(s string, rest []word, cfg gitConfigs) bool {
	r, ok := gitDataSubs[s]
	if !ok {
		return false
	}
	p := r.model.parse(rest)
	if p.unmodelled != "" {
		c.add(effect.Of(effect.Unknown).On(p.unmodelled), "unmodelled-option", "git %s %s: an option Airlock does not model; cannot tell what it does", s, rate.Display(p.unmodelled))
	}
	r.rate(c, p, cfg)
	return true
}

func gitCheckoutIndex(c *call, p parsed, _ gitConfigs) {
	if prefix, ok := p.value("--prefix"); ok {
		// --prefix=.git/hooks/ writes the index's files there.
		c.a.write(prefix, c.span, "git checkout-index --prefix writes into")
	}
	if p.has("-f", "--force") {
		c.add(effect.Of(effect.Remove), "git-discard", "git checkout-index --force: overwrites files in the working tree with the index's version, discarding their uncommitted changes (not to the Trash)")
		return
	}
	c.add(effect.Of(effect.Create), "git", "git checkout-index: writes files from the index where none exist")
}

func gitRm(c *call, p parsed, _ gitConfigs) {
	switch {
	case p.has("-n", "--dry-run"):
	case p.has("--cached"):
		c.add(effect.Of(effect.Change), "git", "git rm --cached: removes files from the index only")
	case p.has("-f", "--force"):
		c.add(effect.Of(effect.Remove), "git-discard", "git rm --force: deletes files from the working tree, their uncommitted changes included (not to the Trash)")
	case p.has("-r") || gitWholeTree(p.operands()) || p.has("--pathspec-from-file"):
		c.add(effect.Of(effect.Remove, effect.Bulk), "git-rm", "git rm -r: deletes every tracked file under the paths from the working tree (not to the Trash)")
	default:
		c.add(effect.Of(effect.Trash), "git-rm", "git rm: deletes tracked files from the working tree (their last committed version stays in the history)")
	}
}

func gitRestore(c *call, p parsed, _ gitConfigs) {
	if p.has("-S", "--staged") && !p.has("-W", "--worktree") {
		c.add(effect.Of(effect.Change), "git", "git restore --staged: unstages changes")
		return
	}
	c.add(effect.Of(effect.Remove), "git-discard", "git restore: overwrites files in the working tree, discarding their uncommitted changes (not to the Trash)")
}

// gitCheckout rates git checkout: switching branches changes the working
// tree (Caution); checking out paths — after --, after a commit, or a name
// that is a file here — overwrites them, discarding their changes.
func gitCheckout(c *call, p parsed, cfg gitConfigs) {
	ops := p.ops
	here := rate.PresenceUnknown
	if len(ops) == 1 {
		here = c.gitPathHere(ops[0], cfg)
	}
	switch {
	case p.has("-f", "--force"):
		c.add(effect.Of(effect.Remove), "git-discard", "git checkout --force: discards uncommitted changes irreversibly")
	case len(p.after) > 0 || p.has("--pathspec-from-file") || p.has("-p", "--patch"):
		c.add(effect.Of(effect.Remove), "git-discard", "git checkout -- …: overwrites files with the committed version, discarding their uncommitted changes irreversibly")
	case p.has("-b", "-B", "--orphan"):
		c.add(effect.Of(effect.Create), "git", "git checkout -b: makes a branch and switches to it")
	case len(ops) >= 2:
		c.add(effect.Of(effect.Remove), "git-discard", "git checkout %s %s: overwrites files with that commit's version, discarding their uncommitted changes irreversibly", rate.Display(ops[0].s), rate.Display(ops[1].s))
	case len(ops) == 1 && gitWholeTree(ops):
		c.add(effect.Of(effect.Remove), "git-discard", "git checkout %s: overwrites every file with the committed version, discarding uncommitted changes irreversibly", rate.Display(ops[0].s))
	case here == rate.PresentFile || here == rate.PresentFolder:
		c.add(effect.Of(effect.Remove), "git-discard", "git checkout %s: %s is a file here; checking it out discards its uncommitted changes irreversibly", rate.Display(ops[0].s), rate.Display(ops[0].s))
	case len(ops) == 1 && fileLike(ops[0].s):
		c.add(effect.Of(effect.Overwrite, effect.Computed), "git-discard", "git checkout %s: if %s names a file, checking it out discards its uncommitted changes", rate.Display(ops[0].s), rate.Display(ops[0].s))
	default:
		c.add(effect.Of(effect.Change), "git", "git checkout: changes the working tree")
	}
}

// gitPathHere is what a path given to git names, in the folder git -C
// chose or the working directory.
func (c *call) gitPathHere(w word, cfg gitConfigs) rate.Presence {
	if dir, ok := cfg["-C"]; ok {
		if dir.hole || w.hole {
			return rate.PresenceUnknown
		}
		if !strings.HasPrefix(w.s, "/") && !strings.HasPrefix(w.s, "~") {
			j := joinPath(dir.s, w.s)
			if j == "" {
				return rate.PresenceUnknown
			}
			w = word{s: j}
		}
	}
	return c.a.presence(w)
}

// fileLike reports a name that looks like a file's rather than a branch's:
// its last element has an extension that starts with a letter
// (README.md, src/app.go; not v1.2 or release-2.0).
func fileLike(s string) bool {
	ext := path.Ext(path.Base(s))
	return len(ext) > 1 && (ext[1] >= 'a' && ext[1] <= 'z' || ext[1] >= 'A' && ext[1] <= 'Z')
}

// gitWholeTree reports pathspecs that name the whole tree or a pattern:
// ".", "*", ":/", a glob.
func gitWholeTree(ops []word) bool {
	for _, w := range ops {
		if w.hole || w.glob || inList(w.s, ".", "./", "*", ":/", ":/*", ":(top)", ":(glob)**") || strings.ContainsAny(w.s, "*?[") {
			return true
		}
	}
	return false
}

func gitSwitch(c *call, p parsed, _ gitConfigs) {
	if p.has("-f", "--force", "--discard-changes") {
		c.add(effect.Of(effect.Remove), "git-discard", "git switch --discard-changes: discards uncommitted changes irreversibly")
		return
	}
	c.add(effect.Of(effect.Change), "git", "git switch: changes the working tree")
}

func gitClean(c *call, p parsed, cfg gitConfigs) {
	force := p.has("-f", "--force")
	if v, ok := cfg["clean.requireforce"]; ok && inList(strings.ToLower(v.s), "false", "no", "off", "0") {
		force = true
	}
	switch {
	case p.has("-n", "--dry-run"):
	case force:
		c.add(effect.Of(effect.Remove, effect.Bulk), "git-clean", "git clean -f: permanently deletes untracked files")
	case p.has("-i", "--interactive"):
		c.add(effect.Of(effect.Change, effect.Bulk), "git-clean", "git clean -i: deletes untracked files as its prompts are answered")
	default:
		c.add(effect.Of(effect.Change), "git", "git clean")
	}
}

func gitReset(c *call, p parsed, _ gitConfigs) {
	if p.has("--hard", "--merge", "--keep") {
		c.add(effect.Of(effect.Remove), "git-reset", "git reset --hard: discards uncommitted work irreversibly")
		return
	}
	c.add(effect.Of(effect.Change), "git", "git reset: moves the branch")
}

// gitBranch rates git branch: deleting a branch whose work is not merged
// (-D, -d --force) loses it but for the reflog; forcing a branch to
// another commit or over another branch (-f, -M, -C) moves work out of
// reach.
func gitBranch(c *call, p parsed, _ gitConfigs) {
	del := p.has("-d", "--delete")
	force := p.has("-f", "--force")
	switch {
	case p.has("-D") || del && force:
		c.add(effect.Of(effect.Remove), "git-branch-delete", "git branch -D: deletes a branch with unmerged work (only the reflog keeps it)")
	case del:
		c.add(effect.Of(effect.Change), "git", "git branch -d: deletes a merged branch")
	case p.has("-M", "-C") || force && len(p.operands()) > 0:
		c.add(effect.Of(effect.Overwrite), "git-branch-force", "git branch --force: moves a branch, or replaces one, leaving its commits unreachable")
	case p.has("-m", "-c", "--move", "--copy", "--set-upstream-to", "-u", "--unset-upstream", "--edit-description") || len(p.operands()) > 0 && !p.has("--list", "-l", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"):
		c.add(effect.Of(effect.Create), "git", "git branch: makes, renames or sets up a branch")
	}
}

// gitPush rates git push: rewriting or deleting the remote's history
// (--force, +ref, --delete, :ref, --mirror, --prune) loses commits others
// may not have, where no undo of the person's reaches: Destructive; a force
// with a lease refuses when the remote moved past what was fetched:
// Dangerous.
func (c *call) gitPush(rest []word) {
	p := gitPushModel.parse(rest)
	refspecForce := false
	for i, w := range p.operands() {
		if i > 0 && (strings.HasPrefix(w.s, "+") || strings.HasPrefix(w.s, ":")) {
			refspecForce = true
		}
	}
	for _, opt := range []string{"--receive-pack", "--exec"} {
		if v, ok := p.value(opt); ok {
			c.gitShell([]word{v}, "git push "+opt)
		}
	}
	switch {
	case p.has("-n", "--dry-run"):
		c.add(effect.Of(effect.Fetch), "git", "git push --dry-run: shows what would be pushed")
	case refspecForce || p.has("-f", "--force", "--mirror", "--delete", "-d", "--prune"):
		c.add(effect.Of(effect.Remove), "git-push-force", "git push --force/--delete (+ref, :ref): rewrites or deletes the remote's history, which no undo here brings back")
	case p.has("--force-with-lease", "--force-if-includes"):
		c.add(effect.Of(effect.Upload), "git-push-force", "git push --force-with-lease: rewrites the remote's history where it has not moved since the last fetch")
	case gitPushNamesPlace(p) || c.a.pointsRemote(p):
		c.add(effect.Of(effect.Upload), "git-push-url", "git push to an address or path the action names, not a remote the person set up: the repository leaves for wherever that is")
	default:
		c.add(effect.Of(effect.Fetch), "git", "git push: publishes commits")
	}
}

// pointsRemote reports a push to a remote this same input adds or
// re-points (git remote add x URL && git push x): the remote is the
// action's choice as much as a URL would be.
func (a *shellAn) pointsRemote(p parsed) bool {
	ops := p.operands()
	if len(ops) == 0 || ops[0].hole {
		return false
	}
	for _, verb := range []string{"remote add ", "remote set-url ", "remote rename "} {
		for rest := a.src; ; {
			i := strings.Index(rest, verb)
			if i < 0 {
				break
			}
			rest = rest[i+len(verb):]
			if f := strings.Fields(rest[:min(len(rest), 256)]); len(f) > 0 && slices.Contains(f[:min(len(f), 4)], ops[0].s) {
				return true
			}
		}
	}
	return false
}

// gitPushNamesPlace reports a push whose repository is an address or a
// path (https://…, user@host:repo, /Volumes/…) rather than a configured
// remote's name: where the commits go is the action's choice alone.
func gitPushNamesPlace(p parsed) bool {
	repo, ok := p.value("--repo")
	if ops := p.operands(); !ok && len(ops) > 0 {
		repo, ok = ops[0], true
	}
	if !ok {
		return false
	}
	s := repo.s
	host, _, scp := strings.Cut(s, ":")
	return repo.hole || strings.Contains(s, "://") || strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") ||
		strings.HasPrefix(s, ".") || scp && !strings.Contains(host, "/") && host != ""
}

var gitPushModel = gitModel("fdnquv46", "o", `--all --branches --prune --mirror --dry-run --porcelain --delete --tags
	--follow-tags --signed --signed= --atomic --receive-pack= --exec= --repo= --set-upstream --thin --quiet --verbose
	--progress --recurse-submodules= --verify --force --force-with-lease --force-if-includes --push-option= --ipv4
	--ipv6`)

// gitRedirect rates the settings that change where git fetches from and
// how: url.<base>.insteadOf and pushInsteadOf send every later fetch of an
// address to another one (whose code builds and tests run), protocol.allow
// lets git use the ext:: transport, which runs a command, and an ext::
// address anywhere runs its command whenever git talks to it. Set for
// good (git config, lasting) that is persistence: Destructive; for one
// command (git -c), Dangerous, and the command an ext:: address runs is
// analysed. It reports false for any other setting.
func (c *call) gitRedirect(k string, v word, lasting bool) bool {
	first, rest, _ := strings.Cut(k, ".")
	last := rest
	if i := strings.LastIndexByte(rest, '.'); i >= 0 {
		last = rest[i+1:]
	}
	var why string
	switch {
	case strings.Contains(k, "ext::") || strings.Contains(strings.ToLower(v.s), "ext::"):
		why = "uses the ext:: transport, which runs a command whenever git fetches or pushes"
	case first == "url" && (last == "insteadof" || last == "pushinsteadof"):
		why = "sends git's fetches or pushes of one address to another, whose code later builds and runs"
	case first == "protocol" && last == "allow" && !inList(strings.ToLower(v.s), "never") && !inList(strings.TrimSuffix(rest, ".allow"), "https", "http", "ssh", "git"):
		why = "lets git use a transport it refuses by default (ext:: runs a command)"
	case k == "safe.directory" && strings.TrimSpace(v.s) == "*":
		c.add(effect.Of(effect.LoadCode), "git-safe-directory", "git safe.directory '*': turns off git's check of who owns a repository, so another account's repository configuration runs here")
		return true
	default:
		return false
	}
	if lasting {
		c.add(effect.Of(effect.Persist).On(k), "git-config-persistence", "git config %s %s: %s (persistence)", rate.Display(k), rate.Display(v.s), why)
	} else {
		c.add(effect.Of(effect.LoadCode).On(v.s), "git-config-command", "git -c %s=%s: %s", rate.Display(k), rate.Display(v.s), why)
	}
	for _, t := range []string{k, v.s} {
		if i := strings.Index(strings.ToLower(t), "ext::"); i >= 0 && !v.hole {
			cmd := t[i+len("ext::"):]
			c.nestedText(strings.ReplaceAll(cmd, "% ", " "), "git ext::")
		}
	}
	return true
}
