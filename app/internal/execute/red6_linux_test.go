//go:build linux

package execute_test

import (
	"slices"
	"strings"
	"testing"
)

// A seventh red team's attacks from inside an unasked action, at the
// default level with no approval ever given. Each payload is in
// testdata/review/red6.json and runs unasked through the real sandbox in
// a home made in a temporary folder (newRedRig); nobody keeps what is held.

// payload6 returns the argv of the payload name of red6.json.
func payload6(t *testing.T, name string) []string { return payloadIn(t, "red6.json", name) }

// sourcedRig is a home whose start-up files source files kept in
// ~/Documents, the sandbox root: a dotfiles folder the .zshrc, .bashrc,
// .tmux.conf and .vimrc read, and a project whose .envrc (already allowed
// by direnv) loads a local .envrc, a dotenv file, a flake's dev shell and
// a shared script. Another project's .envrc names the same files only in
// comments.
func sourcedRig(t *testing.T) *redRig {
	return newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		".zshrc": {"export ZSH_THEME=x\n[[ -f ~/Documents/dotfiles/aliases.zsh ]] && source ~/Documents/dotfiles/aliases.zsh\n" +
			"for f in $HOME/Documents/dotfiles/zsh.d/*.zsh; do\n  . \"$f\"\ndone\n", 0o644},
		".bashrc":                        {"FZF_FILE=\"${HOME}/Documents/dotfiles/fzf.bash\"\nif [ -f \"$FZF_FILE\" ]; then . \"$FZF_FILE\"; fi\n", 0o644},
		".tmux.conf":                     {"set -g mouse on\nsource-file ~/Documents/dotfiles/tmux.conf\n", 0o644},
		".vimrc":                         {"set nocompatible\nsource ~/Documents/dotfiles/vim/extra.vim\n", 0o644},
		"Documents/dotfiles/aliases.zsh": {"alias ll='ls -l'\n", 0o644},
		"Documents/dotfiles/tmux.conf":   {"set -g history-limit 10000\n", 0o644},
		"Documents/proj/.envrc": {"source_env_if_exists .envrc.local\ndotenv_if_exists .env.dev\nuse flake\n" +
			"source_env ./scripts/dev.envrc\nPATH_add bin\n", 0o644},
		"Documents/proj/flake.nix":  {"{ outputs = { ... }: { }; }\n", 0o644},
		"Documents/proj/main.go":    {"package main\n\nfunc main() {}\n", 0o644},
		"Documents/quiet/.envrc":    {"# source_env_if_exists .envrc.local\n# use nix\nexport GOFLAGS=-mod=vendor\n", 0o644},
		"Documents/quiet/README.md": {"quiet\n", 0o644},
	})
}

// TestRed6SourcedByStartupFiles: a start-up file the person already has
// (a .zshrc, a .bashrc, a .tmux.conf, a .vimrc, a project's .envrc that
// direnv was allowed to load) reads other files by name: source and "."
// (directly, through a variable, or for each file a loop's glob finds),
// tmux's source-file, direnv's source_env, source_env_if_exists and
// dotenv (whose PROMPT_COMMAND and LD_PRELOAD the shell then runs), and
// "use flake", whose flake.nix's shellHook runs at every cd into the
// folder. direnv does not ask again when a file its .envrc loads changes.
// So each of those files is code the person runs later, unasked, though
// no table names it: each is held like the start-up file that reads it.
func TestRed6SourcedByStartupFiles(t *testing.T) {
	r := sourcedRig(t)
	argv := payload6(t, "files start-up files source")
	r.plantsHeld(t, "files start-up files source", argv)
}

// TestRed6ShellRunsOnItsOwn: where the home is a sandbox root, the files
// shells run from it beside their start-up files: bash-completion's
// ~/.bash_completion (at every bash start) and user completions (at a
// command's first completion), zsh's completion dump (.zcompdump, and
// oh-my-zsh's .zcompdump-HOST-VERSION, sourced by compinit at every
// start) and compiled twins (.zshrc.zwc runs instead of .zshrc when
// newer), fish's completions. Each is held like a .zshrc; look-alike names
// land.
func TestRed6ShellRunsOnItsOwn(t *testing.T) {
	for _, tc := range []struct {
		name string
		held bool
	}{{"what shells run on their own", true}, {"look-alikes of what shells run", false}} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRedRig(t, []string{"~"}, nil)
			argv := payload6(t, tc.name)
			res, held, err := r.runArgv(t, tc.name, argv, "")
			if err != nil {
				t.Fatalf("run: %v (%+v)", err, res)
			}
			for i := 3; i+1 < len(argv); i += 2 {
				landed := r.read(argv[i]) == argv[i+1]
				isHeld := slices.ContainsFunc(held, func(h string) bool { return h == argv[i] || strings.HasPrefix(argv[i], h+"/") })
				switch {
				case tc.held && landed:
					t.Errorf("%s landed without the person: a shell runs it (held: %q)", argv[i], held)
				case tc.held && !isHeld:
					t.Errorf("%s was not held (held: %q)", argv[i], held)
				case !tc.held && (!landed || isHeld):
					t.Errorf("%s did not land unasked (held: %q)", argv[i], held)
				}
			}
		})
	}
}

// restrictRig is a home whose projects in ~/Documents keep settings that
// stop their tools from running code: npm's and yarn's install scripts
// off, pip taking built wheels only (no setup.py run), Cargo's build
// scripts sandboxed by a wrapper; and files whose removal widens nothing.
// (A .npmrc or .yarnrc.yml saying the same is hidden from the action, as
// one may hold a token: it cannot remove them.)
func restrictRig(t *testing.T) *redRig {
	return newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		"Documents/app/.npmrc":                          {"ignore-scripts=true\n", 0o644},
		"Documents/app/README.md":                       {"app\n", 0o644},
		"Documents/app/node_modules/left-pad/index.js":  {"module.exports = (s) => s\n", 0o644},
		"Documents/py/pip.conf":                         {"[install]\nonly-binary = :all:\n", 0o644},
		"Documents/py/__pycache__/util.cpython-312.pyc": {"\x00\x00", 0o644},
		"Documents/py/.git/MERGE_MSG":                   {"Merge branch 'x'\n", 0o644},
		"Documents/py/uv.toml":                          {"no-build = true\n", 0o644},
		"Documents/web/notes.txt":                       {"notes\n", 0o644},
		"Documents/rs/.cargo/config.toml":               {"[build]\nrustc-wrapper = \"/usr/local/bin/sandboxed-rustc\"\n", 0o644},
		"Documents/rs/Cargo.toml":                       {"[package]\nname = \"rs\"\n", 0o644},
	})
}

// TestRed6RestrictingSettingsRemoved: removing a project's pip.conf that
// takes built wheels only, a uv.toml with no-build = true or a Cargo
// config whose wrapper confines the build turns on the code the next
// install or build runs (every source package's setup.py, build scripts). The removal plants code
// as much as an edit to the file would, and the Trash does not help: the
// install runs before anyone looks. So it is held like an edit.
func TestRed6RestrictingSettingsRemoved(t *testing.T) {
	r := restrictRig(t)
	name := "settings that restrict what runs, removed"
	argv := payload6(t, name)
	res, held, err := r.runArgv(t, name, argv, "Documents")
	if err != nil {
		t.Fatalf("run: %v (%+v)", err, res)
	}
	for _, rel := range argv[3:] {
		if !r.exists("Documents/" + rel) {
			t.Errorf("Documents/%s was removed without the person: what it turned off runs at the next install (held: %q)", rel, held)
		}
	}

	// Kept by the person, the removals land, the old files in the Trash.
	r = restrictRig(t)
	if _, held, err = r.runArgvKeep(t, name, argv, "Documents", true); err != nil || len(held) != len(argv[3:]) {
		t.Fatalf("kept: held %q, err %v", held, err)
	}
	for _, rel := range argv[3:] {
		if r.exists("Documents/" + rel) {
			t.Errorf("Documents/%s was kept removed by the person, and is still there", rel)
		}
	}
	if !r.inTrash(t, "no-build = true\n") {
		t.Errorf("the removed uv.toml is not in the Trash")
	}
}

// TestRed6RemovalsThatWidenNothing: removing installed or compiled code,
// git's own state and plain files lands unasked (their old versions in
// the Trash).
func TestRed6RemovalsThatWidenNothing(t *testing.T) {
	r := restrictRig(t)
	name := "removals that widen nothing"
	argv := payload6(t, name)
	res, held, err := r.runArgv(t, name, argv, "Documents")
	if err != nil {
		t.Fatalf("run: %v (%+v)", err, res)
	}
	if len(held) > 0 {
		t.Errorf("removals were held for the person: %q", held)
	}
	for _, rel := range argv[3:] {
		if r.exists("Documents/" + rel) {
			t.Errorf("Documents/%s is still there", rel)
		}
	}
	if !r.inTrash(t, "notes\n") {
		t.Errorf("the removed notes.txt is not in the Trash")
	}
}

// TestRed6SourcedLookalikes: files beside those of
// TestRed6SourcedByStartupFiles that no start-up file reads (a note that
// mentions source_env, a build script, a .envrc.local whose .envrc names
// it only in a comment, a shell.nix no "use nix" loads, a file the loop's
// glob does not match) land unasked, without the person.
func TestRed6SourcedLookalikes(t *testing.T) {
	r := sourcedRig(t)
	argv := payload6(t, "look-alikes of sourced files")
	r.lookalikesLand(t, "look-alikes of sourced files", argv)
}
