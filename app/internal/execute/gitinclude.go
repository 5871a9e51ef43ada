package execute

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// Git reads more configuration than its config files: each may include
// another (include.path, includeIf.<condition>.path), often kept in a
// sandbox root: the person's ~/.gitconfig including ~/Documents/dotfiles/
// gitconfig, a project's .git/config including ../.gitconfig of its work
// tree (projects that share settings ask for it). The persistence table
// knows neither by its name, and git runs what they set (core.fsmonitor at
// every status, aliases, filters …). So the files the git configuration
// includes are found, as git finds them, and a change to one is held as a
// change to the config that includes it: those of the person's own
// configuration (~/.gitconfig, ~/.config/git/config) and those of the
// repository a change lies in. An include in another repository's config
// is not looked for (the report says so).

// maxIncludeDepth is how deep git follows includes (config.c).
const maxIncludeDepth = 10

// gitIncludes are the files git's configuration includes, found on first
// need: path (resolved) → the config that includes it.
type gitIncludes struct {
	home   string
	global map[string]string
	repos  map[string]map[string]string // by git folder
}

// includedWhy says why c plants: it is a file the git configuration
// includes ("" when it is not).
func (l *plantLook) includedWhy(e *Executor, c sandbox.Change) string {
	if c.Kind == sandbox.Removed {
		return ""
	}
	if l.includes == nil {
		l.includes = &gitIncludes{home: e.Paths.Home, repos: map[string]map[string]string{}}
		l.includes.global = map[string]string{}
		if home := e.Paths.Home; home != "" {
			for _, p := range []string{filepath.Join(home, ".gitconfig"), filepath.Join(home, ".config", "git", "config")} {
				l.includes.add(l.includes.global, p, "~"+strings.TrimPrefix(p, home), 0)
			}
		}
	}
	if by, ok := l.includes.global[c.Path]; ok {
		return "a git configuration file that " + by + " includes, whose aliases, hooks and fsmonitor run code"
	}
	root := outerRoot(e.Paths.Roots, c.Path)
	for d := filepath.Dir(c.Path); root != "" && (d == root || inside(d, root)); d = filepath.Dir(d) {
		gitDir := gitDirOf(d)
		if gitDir == "" {
			continue
		}
		inc, ok := l.includes.repos[gitDir]
		if !ok {
			inc = map[string]string{}
			for _, name := range []string{"config", "config.worktree"} {
				l.includes.add(inc, filepath.Join(gitDir, name), e.short(filepath.Join(gitDir, name)), 0)
			}
			if common := commonDir(gitDir); common != "" {
				l.includes.add(inc, filepath.Join(common, "config"), e.short(filepath.Join(common, "config")), 0)
			}
			l.includes.repos[gitDir] = inc
		}
		if by, ok := inc[c.Path]; ok {
			return "a git configuration file that " + by + " includes, whose aliases, hooks and fsmonitor run code"
		}
		break // the nearest repository's configuration is the one git reads
	}
	return ""
}

// add reads the config file at p (as the root holds it, links followed as
// git follows them) and puts the files it includes into inc, with by as
// the config that includes them, and theirs in turn.
func (g *gitIncludes) add(inc map[string]string, p, by string, depth int) {
	if depth > maxIncludeDepth {
		return
	}
	f, err := os.Open(p)
	if err != nil {
		return
	}
	entries, _ := gitConfigEntries(f)
	f.Close()
	for _, en := range entries {
		if !isIncludeKey(en.key) {
			continue
		}
		v, err := gitValue(en.raw)
		if err != nil || v == "" {
			continue
		}
		switch {
		case v == "~" || strings.HasPrefix(v, "~/"):
			v = filepath.Join(g.home, v[1:])
		case !filepath.IsAbs(v):
			v = filepath.Join(filepath.Dir(p), v)
		}
		r, ok := resolveExisting(filepath.Clean(v), 0)
		if !ok {
			continue
		}
		if _, seen := inc[r]; seen {
			continue
		}
		inc[r] = by
		g.add(inc, r, by, depth+1)
	}
}

// isIncludeKey reports whether key (as gitConfigEntries names it) is an
// include: include.path, or includeIf.<condition>.path whatever the
// condition (taken as met: a file included only on some branch or in some
// folder still runs there).
func isIncludeKey(key string) bool {
	return key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path")
}

// gitDirOf returns the git folder of the work tree d: d/.git when it is a
// folder, or the folder a .git file names ("gitdir: …"); "" for none.
func gitDirOf(d string) string {
	p := filepath.Join(d, ".git")
	fi, err := os.Lstat(p)
	switch {
	case err != nil:
		return ""
	case fi.IsDir():
		return p
	case !fi.Mode().IsRegular() || fi.Size() > maxHead:
		return ""
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return ""
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return ""
	}
	dir = strings.TrimSpace(dir)
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(d, dir)
	}
	return filepath.Clean(dir)
}

// commonDir returns the folder a linked worktree's git folder shares
// (its commondir file), or "".
func commonDir(gitDir string) string {
	b, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil || len(b) > maxHead {
		return ""
	}
	dir := strings.TrimSpace(string(b))
	if dir == "" {
		return ""
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(gitDir, dir)
	}
	return filepath.Clean(dir)
}
