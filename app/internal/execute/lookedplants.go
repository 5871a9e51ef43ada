package execute

import (
	"path/filepath"
	"strings"
)

// On a Mac nothing reviews what an unasked action wrote (no copy-on-write
// view): Seatbelt refuses the persistence table's places by name, and the
// rest lands as written. The places the review finds only by looking —
// the files the home's start-up files load (sourced.go) and where a place
// of the home leads through a link (linked.go) — were open there: an
// unasked cp of a download to ~/Documents/dotfiles/zsh.d/update.zsh, which
// the .zshrc sources, ran at the next zsh start (a sixteenth red team's
// find, TestRed16SeatbeltStartupFilesLoad). So before an unasked action
// starts the executor looks, and hands those that lie in the sandbox
// roots to the sandbox (Grant.Plants), which refuses writing there on a
// Mac. The start-up files of a project's folders (an .envrc's
// source_env_if_exists) are not read here: which folders an action will
// write in is not known before it runs (sandbox_darwin has no review).

// lookedPlants returns the places in the sandbox roots where code runs
// later that only a look at the home finds: where the home's persistence
// places lead through links, and the files and globs its start-up files
// load.
func (e *Executor) lookedPlants() []string {
	if e.Paths == nil || e.Paths.Home == "" {
		return nil
	}
	var out []string
	for _, p := range e.linkedPlaces() {
		out = append(out, p.path)
	}
	s := newSourcing(e, nil)
	s.readHomeOnce()
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
