package shell

import "strings"

// A git alias an input sets in the repository's own configuration and then
// uses: git config alias.last "log -1 HEAD" && git last. The use runs what
// the definition says, so it is rated as that (git log), not as a command
// git may take from anywhere.
//
// Only where the analysis knows both name the same configuration: the same
// working folder (no cd it could not follow) and the same git -C folder,
// set at the top of the input (not in sh -c), by a plain git config (no
// --file, --global, --system, --worktree, --blob), in an input that names
// none of git's variables (GIT_DIR, GIT_CONFIG …, which move the
// configuration). Anything else forgets what was set, and the use stays a
// command the analysis cannot see.

// gitAliasDef is one alias the input set: its value, and the configuration
// it went to (gitPlaceKey).
type gitAliasDef struct {
	value word
	place string
}

// gitPlaceKey names the configuration a git call reads and writes, as far
// as the analysis can tell; false when it cannot.
func (c *call) gitPlaceKey(cfg gitConfigs) (string, bool) {
	if c.a.depth != 0 || c.a.cwdLost || strings.Contains(c.a.src, "GIT_") {
		return "", false
	}
	d, ok := cfg["-C"]
	if ok && (d.hole || d.s == "") {
		return "", false
	}
	if _, moved := cfg[gitMovedConfig]; moved {
		return "", false
	}
	return c.a.cwd + "\x00" + d.s, true
}

// gitMovedConfig marks, in a call's gitConfigs, a --git-dir option: the
// repository, and so its configuration, is elsewhere. No setting's key
// starts with a space.
const gitMovedConfig = " git-dir"

// noteGitAlias records what git config with arguments rest does to the
// aliases of the configuration cfg names.
func (c *call) noteGitAlias(rest []word, cfg gitConfigs) {
	var pos []word
	unset := false
	for _, w := range rest {
		switch {
		case w.hole:
			c.a.gitAliases = nil
			return
		case inList(w.s, "--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "-l", "--list"):
			return
		case inList(w.s, "--unset", "--unset-all"):
			unset = true
		case inList(w.s, "--local", "--add", "--replace-all"):
		case strings.HasPrefix(w.s, "-"):
			c.a.gitAliases = nil // another file, or an option not modelled here
			return
		default:
			pos = append(pos, w)
		}
	}
	if len(pos) > 0 {
		switch strings.ToLower(pos[0].s) {
		case "get", "list":
			return
		case "set":
			pos = pos[1:]
		case "unset":
			unset = true
			pos = pos[1:]
		}
	}
	if len(pos) == 0 {
		return
	}
	k := strings.ToLower(pos[0].s)
	if strings.HasPrefix(k, "include") {
		c.a.gitAliases = nil // another file's aliases may now win
		return
	}
	if !strings.HasPrefix(k, "alias.") {
		return
	}
	place, ok := c.gitPlaceKey(cfg)
	switch {
	case !ok || !unset && len(pos) < 2:
		c.a.gitAliases = nil
	case unset:
		delete(c.a.gitAliases, k)
	default:
		if c.a.gitAliases == nil {
			c.a.gitAliases = map[string]gitAliasDef{}
		}
		c.a.gitAliases[k] = gitAliasDef{value: pos[1], place: place}
	}
}

// setGitAlias returns the value the input gave alias name in the
// configuration cfg names, if the analysis knows it.
func (c *call) setGitAlias(name string, cfg gitConfigs) (word, bool) {
	d, ok := c.a.gitAliases["alias."+strings.ToLower(name)]
	if !ok {
		return word{}, false
	}
	place, ok := c.gitPlaceKey(cfg)
	if !ok || place != d.place {
		return word{}, false
	}
	return d.value, true
}
