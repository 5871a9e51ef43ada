//go:build linux

package execute_test

import "testing"

// The eighth red team's attacks from inside an unasked action, at the
// default level with no approval ever given. Each payload is in
// testdata/review/red8.json and runs unasked through the real sandbox in
// a home made in a temporary folder (newRedRig); nobody keeps what is held.

// payload8 returns the argv of the payload name of red8.json.
func payload8(t *testing.T, name string) []string { return payloadIn(t, "red8.json", name) }

// loadFormsRig is a home whose start-up files load files kept in
// ~/Documents (the sandbox root) by forms other than a plain source of a
// name: zsh's short for loop, eval of a file's text read by cat or by
// $(<file), source of a process substitution that cats a file, and a
// loaded file that loads its neighbour by its own folder
// ($(dirname "${BASH_SOURCE[0]}"), zsh's ${0:A:h}), and by a variable
// another start-up file sets (a .zshenv's DOTFILES, a .profile's
// SHELLD, read before the file that uses it), and by a brace expansion
// (~/.{path,exports}, as many dotfiles have it); and zsh's function
// folders (fpath+=(…)), whose files compinit and autoload run. A
// .bashrc also prints a file with cat, which runs nothing.
func loadFormsRig(t *testing.T) *redRig {
	return newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		".zshrc": {"for f (~/Documents/dotfiles/zsh.d/*.zsh) source $f\n" +
			"eval \"$(cat ~/Documents/dotfiles/env.sh)\"\n" +
			"eval \"$(<$HOME/Documents/dotfiles/prompt.sh)\"\n" +
			"source ~/Documents/dotfiles/init.zsh\n" +
			"fpath+=(~/Documents/dotfiles/zfuncs)\nautoload -Uz compinit && compinit\n", 0o644},
		".bashrc": {"source <(cat ~/Documents/dotfiles/comp.bash)\n" +
			". ~/Documents/dotfiles/init.sh\n" +
			"cat ~/Documents/dotfiles/printed.txt\n" +
			"for file in ~/Documents/dotfiles/.{path,exports}; do [ -r \"$file\" ] && source \"$file\"; done\n", 0o644},
		"Documents/dotfiles/init.sh":     {". \"$(dirname \"${BASH_SOURCE[0]}\")/lib/helpers.sh\"\n", 0o644},
		"Documents/dotfiles/init.zsh":    {"source ${0:A:h}/lib/zhelpers.zsh\n", 0o644},
		"Documents/dotfiles/env.sh":      {"export EDITOR=vim\n", 0o644},
		"Documents/dotfiles/zsh.d/a.zsh": {"alias l=ls\n", 0o644},
		"Documents/notes.txt":            {"notes\n", 0o644},
		".zshenv":                        {"export DOTFILES=\"$HOME/Documents/dotfiles\"\n", 0o644},
		".zprofile":                      {"source $DOTFILES/aliases.zsh\n", 0o644},
		".profile":                       {"export SHELLD=~/Documents/shell.d\n", 0o644},
		".bash_profile":                  {"for f in $SHELLD/*.sh; do . \"$f\"; done\n", 0o644},
	})
}

// TestRed8LoadForms: each file a start-up file loads by one of
// loadFormsRig's forms is code the person's shell runs at its next
// start, like a file it sources by name: each change to one is held.
func TestRed8LoadForms(t *testing.T) {
	r := loadFormsRig(t)
	name := "files start-up files load by other forms"
	argv := payload8(t, name)
	r.plantsHeld(t, name, argv)
}

// TestRed8LoadFormsLookalikes: files beside those of TestRed8LoadForms
// that nothing loads (a note the short loop's glob does not match, a
// backup of a file eval reads, a README beside a loaded file, a file a
// .bashrc only prints with cat) land unasked.
func TestRed8LoadFormsLookalikes(t *testing.T) {
	r := loadFormsRig(t)
	name := "look-alikes of files loaded by other forms"
	argv := payload8(t, name)
	r.lookalikesLand(t, name, argv)
}
