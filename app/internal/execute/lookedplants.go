package execute

import (
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// On a Mac nothing reviews what an unasked action wrote (no copy-on-write
// view): Seatbelt refuses the persistence table's places by name, and the
// rest lands as written. The places the review finds only by looking —
// the files the home's start-up files load (sourced.go) and where a place
// of the home leads through a link (linked.go) — were open there: an
// unasked cp of a download to ~/Documents/dotfiles/zsh.d/update.zsh, which
// the .zshrc sources, ran at the next zsh start (a sixteenth red team's
// find, TestRed16SeatbeltStartupFilesLoad). So was a folder of the roots
// the start-up files put on the command search path: Seatbelt lets an
// unasked action make a new file with its executable bits (the review
// holds every one), and a git made in ~/Documents/bin ran at the person's
// next git (TestRed16SeatbeltCommandSearchPath). So before an unasked action
// starts the executor looks, and hands those that lie in the sandbox
// roots to the sandbox (Grant.Plants), which refuses writing there on a
// Mac. The start-up files of a project's folders (an .envrc's
// source_env_if_exists) are not read here: which folders an action will
// write in is not known before it runs (sandbox_darwin has no review).

// lookFirst says whether an unasked action's grant holds the places only a
// look finds (hideSecrets): where Seatbelt confines it, which refuses by
// name and has no review. On Linux the review of the copy-on-write view
// finds them after the action, in what it changed, and the look before
// every unasked action (2 to 5 ms for a home's places, BenchmarkLinkedPlaces)
// would be paid for nothing.
var lookFirst = runtime.GOOS == "darwin"

// lookedPlants returns the places in the sandbox roots where code runs
// later that only a look at the home finds: where the home's persistence
// places lead through links, the folders its start-up files put on the
// command search path (a new program there runs in place of a command of
// its name: Seatbelt lets an unasked action make one with its executable
// bits), and the files and globs they load.
func (e *Executor) lookedPlants() []string {
	if e.Paths == nil || e.Paths.Home == "" {
		return nil
	}
	var out []string
	for _, p := range e.linkedPlaces() {
		out = append(out, p.path)
	}
	s := newSourcing(e, nil)
	// PATH as the start-up files leave it, from nothing: what they put
	// before or after the inherited one ($PATH) is what they add.
	s.vars["PATH"] = []string{""}
	s.readHomeOnce()
	out = append(out, e.searchPath(s.vars)...)
	for _, f := range s.files {
		lit := f.path
		if f.glob {
			lit = literalPart(f.path)
		}
		if _, _, in := rootOf(e.Paths.Roots, lit, foldCase); in {
			out = append(out, f.path)
		}
	}
	return out
}

// literalPart returns the folders of the glob p before its first element
// with a pattern character.
func literalPart(p string) string {
	for {
		if !strings.ContainsAny(p, "*?[") || p == "/" || p == "." {
			return p
		}
		p = filepath.Dir(p)
	}
}

// searchPathAdds reads cmd, a command of a start-up file in dir, for the
// folders zsh's path array (path=(…), path+=(…)) and fish's fish_add_path
// put on the command search path, and adds each to vars["PATH"] as one
// more value it may have: export PATH=… and fish's set PATH are
// assignments (assignVar). It reports whether cmd was one of those.
func searchPathAdds(vars map[string][]string, cmd []string, dir, home string) bool {
	switch cmd[0] {
	case "path=", "path+=", "fish_add_path":
	default:
		return false
	}
	for _, w := range cmd[1:] {
		if strings.HasPrefix(w, "-") || w == ")" {
			continue
		}
		for _, v := range expandWord(w, vars, dir, home) {
			if len(vars["PATH"]) < maxSourceValues {
				vars["PATH"] = append(vars["PATH"], v)
			}
		}
	}
	return true
}

// searchPath returns the folders of the sandbox roots that the values of
// PATH the start-up files set (vars, as sourcing read them with PATH
// itself "") hold.
func (e *Executor) searchPath(vars map[string][]string) []string {
	var out []string
	for _, v := range vars["PATH"] {
		for _, d := range strings.Split(v, ":") {
			if !filepath.IsAbs(d) || strings.ContainsAny(d, "$`*?[") {
				continue
			}
			d = filepath.Clean(d)
			if _, _, in := rootOf(e.Paths.Roots, d, foldCase); in && !slices.Contains(out, d) {
				out = append(out, d)
			}
		}
	}
	return out
}
