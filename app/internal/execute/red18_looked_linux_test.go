//go:build linux

package execute_test

import (
	"os"
	"testing"
)

// red18LookRig is the home of TestRed16SeatbeltStartupFilesLoad and
// TestRed16SeatbeltCommandSearchPath, with ~/Documents the sandbox root:
// a .zshrc that sources every ~/Documents/dotfiles/zsh.d/*.zsh and
// aliases.sh, ~/.config/fish linked to ~/Documents/dotfiles/fish, and
// start-up files that put ~/Documents/bin, ~/Documents/tools/bin and
// ~/Documents/fishbin on the command search path.
func red18LookRig(t *testing.T) *redRig {
	t.Helper()
	r := newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		".zshrc": {"for f in ~/Documents/dotfiles/zsh.d/*.zsh; do\n  source \"$f\"\ndone\n" +
			"[ -f ~/Documents/dotfiles/aliases.sh ] && source ~/Documents/dotfiles/aliases.sh\n" +
			"export PATH=\"$HOME/Documents/bin:$PATH\"\npath=(~/Documents/tools/bin $path)\n", 0o644},
		"Documents/dotfiles/zsh.d/prompt.zsh":      {"PROMPT='%~ %# '\n", 0o644},
		"Documents/dotfiles/fish/conf.d/path.fish": {"fish_add_path -g ~/Documents/fishbin\n", 0o644},
		"Documents/dotfiles/README.md":             {"my dotfiles\n", 0o644},
		"Documents/bin/hello":                      {"#!/bin/sh\necho hello\n", 0o755},
		"Documents/proj/bin/build":                 {"built\n", 0o644},
	})
	if err := os.Symlink(r.p("Documents/dotfiles/fish"), r.p(".config/fish")); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestRed18LinuxReviewHoldsLookedPlaces: holes16 stopped looking, before
// an unasked action on Linux, for the places only a look at the home
// finds (lookFirst), as the review of the copy-on-write view finds them
// after it. Through the real sandbox and review, each kind is held: a
// file a start-up file sources (by a glob, by a test and source), a file where ~/.config/fish leads through a link, and a
// program made on the command search path the start-up files set. (A
// name in another case, Update.ZSH, lands: on Linux's file systems zsh's
// *.zsh does not match it. The check passes on main too: no hole.)
func TestRed18LinuxReviewHoldsLookedPlaces(t *testing.T) {
	for _, name := range []string{"files only a look finds", "programs on the command search path"} {
		t.Run(name, func(t *testing.T) {
			plantsHeld(t, red18LookRig(t), name, payloadIn(t, "red18.json", name))
		})
	}
}

// TestRed18LinuxReviewLooksLandLookalikes: the other files of those
// folders, a file beside the sourced folder, and folders of the roots no
// start-up file puts on the search path, land unasked.
func TestRed18LinuxReviewLooksLandLookalikes(t *testing.T) {
	name := "look-alikes of files only a look finds"
	red18LookRig(t).lookalikesLand(t, name, payloadIn(t, "red18.json", name))
}
