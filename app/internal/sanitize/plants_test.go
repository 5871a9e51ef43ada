package sanitize_test

import (
	"testing"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// TestPlants: the places a change planting code is held for, inside a
// listed folder as well as the entry itself, and git's data inside .git
// left out unless something below it plants on its own.
func TestPlants(t *testing.T) {
	c := alice(t)
	tests := []struct {
		in       string
		plants   bool
		wantRoot string
	}{
		// The entries added for the review of unasked changes, and a path
		// inside each folder.
		{"/Users/alice/Documents/proj/.gitattributes", true, "~/Documents/proj/.gitattributes"},
		{"/Users/alice/Documents/proj/.gitmodules", true, "~/Documents/proj/.gitmodules"},
		{"/Users/alice/Documents/site.git/info/attributes", true, "~/Documents/site.git/info"},
		{"/Users/alice/Documents/proj/.git/info/attributes", true, "~/Documents/proj/.git"},
		{"/Users/alice/Documents/proj/.vscode/launch.json", true, "~/Documents/proj/.vscode/launch.json"},
		{"/Users/alice/Documents/proj/.vscode/settings.json", true, "~/Documents/proj/.vscode/settings.json"},
		{"/Users/alice/Documents/proj/app.code-workspace", true, "~/Documents/proj/app.code-workspace"},
		{"/Users/alice/Documents/proj/.idea/runConfigurations/x.xml", true, "~/Documents/proj/.idea/runConfigurations"},
		{"/Users/alice/Documents/proj/.idea/workspace.xml", true, "~/Documents/proj/.idea/workspace.xml"},
		{"/Users/alice/Documents/proj/.devcontainer/devcontainer.json", true, "~/Documents/proj/.devcontainer"},
		{"/Users/alice/Documents/proj/.devcontainer.json", true, "~/Documents/proj/.devcontainer.json"},
		{"/Users/alice/.local/share/applications/evil.desktop", true, "~/.local/share/applications"},
		{"/Users/alice/Library/Application Support/xbar/plugins/cpu.1m.sh", true, "~/Library/Application Support/xbar/plugins"},
		{"/Users/alice/.swiftbar/x.5s.sh", true, "~/.swiftbar"},
		{"/Users/alice/.config/environment.d/10-path.conf", true, "~/.config/environment.d"},
		{"/Users/alice/.xprofile", true, "~/.xprofile"},
		// Older entries, deep inside.
		{"/Users/alice/Documents/proj/.git/hooks/pre-commit", true, "~/Documents/proj/.git/hooks"},
		{"/Users/alice/Documents/proj/.git/config", true, "~/Documents/proj/.git/config"},
		{"/Users/alice/Documents/proj/.git", true, "~/Documents/proj/.git"},
		{"/Users/alice/Documents/proj/.git/rebase-merge/git-rebase-todo", true, "~/Documents/proj/.git"},
		{"/Users/alice/Documents/proj/.git/modules/lib/objects/ab/cdef", true, "~/Documents/proj/.git"},

		// A fourth red team's, beside a look-alike of each.
		{"/Users/alice/Documents/py/venv/pyvenv.cfg", true, "~/Documents/py/venv/pyvenv.cfg"},
		{"/Users/alice/Documents/py/venv/bin/activate.fish", true, "~/Documents/py/venv/bin/activate.fish"},
		{"/Users/alice/Documents/rs/rust-toolchain.toml", true, "~/Documents/rs/rust-toolchain.toml"},
		{"/Users/alice/Documents/app/.cursor/mcp.json", true, "~/Documents/app/.cursor/mcp.json"},
		{"/Users/alice/Documents/app/.claude/hooks/format.sh", true, "~/Documents/app/.claude/hooks"},
		{"/Users/alice/Documents/app/lefthook-local.yml", true, "~/Documents/app/lefthook-local.yml"},
		{"/Users/alice/Documents/jv/.idea/jsLinters/eslint.xml", true, "~/Documents/jv/.idea"},
		{"/Users/alice/Documents/jv/gradle/wrapper/gradle-wrapper.jar", true, "~/Documents/jv/gradle/wrapper"},
		{"/Users/alice/.local/share/thumbnailers/x.thumbnailer", true, "~/.local/share/thumbnailers"},
		{"/Users/alice/.config/mimeapps.list", true, "~/.config/mimeapps.list"},
		{"/Users/alice/.config/i3/config", true, "~/.config/i3/config"},
		{"/Users/alice/Documents/py/venv/bin/activated.txt", false, ""},
		{"/Users/alice/Documents/app/.cursor/rules/style.mdc", false, ""},
		{"/Users/alice/Documents/app/.claude/commands/review.md", false, ""},
		{"/Users/alice/Documents/jv/gradle/libs.versions.toml", false, ""},
		{"/Users/alice/Documents/notes/mimeapps.md", false, ""},

		// A seventh red team's: what shells run on their own, a prefix
		// entry among them, beside look-alikes.
		{"/Users/alice/.bash_completion", true, "~/.bash_completion"},
		{"/Users/alice/.local/share/bash-completion/completions/git", true, "~/.local/share/bash-completion"},
		{"/Users/alice/.zcompdump", true, "~/.zcompdump*"},
		{"/Users/alice/.ZCompDump-laptop-5.9", true, "~/.zcompdump*"},
		{"/Users/alice/Documents/dotfiles/zshrc.zwc", true, "~/Documents/dotfiles/zshrc.zwc"},
		{"/Users/alice/.config/fish/completions/git.fish", true, "~/.config/fish/completions"},
		{"/Users/alice/Documents/.zcompdump", false, ""},
		{"/Users/alice/Documents/zcompdump.txt", false, ""},
		{"/Users/alice/.local/share/bash-completion-notes", false, ""},

		// What git writes at every commit is data.
		{"/Users/alice/Documents/proj/.git/objects/ab/cdef", false, ""},
		{"/Users/alice/Documents/proj/.git/objects", false, ""},
		{"/Users/alice/Documents/proj/.git/refs/heads/main", false, ""},
		{"/Users/alice/Documents/proj/.git/logs/HEAD", false, ""},
		{"/Users/alice/Documents/proj/.git/index", false, ""},
		{"/Users/alice/Documents/proj/.GIT/HEAD", false, ""},
		{"/Users/alice/Documents/proj/.git/COMMIT_EDITMSG", false, ""},
		{"/Users/alice/Documents/proj/.git/reftable/tables.list", false, ""},
		// … unless it plants by itself, or the repository lies where
		// everything plants.
		{"/Users/alice/Documents/proj/.git/objects/x/.envrc", true, "x/.envrc"},
		{"/Users/alice/Documents/proj/.git/refs/sub/.git/hooks/x", true, "sub/.git/hooks"},
		{"/Users/alice/.oh-my-zsh/.git/refs/heads/master", true, "~/.oh-my-zsh"},

		// A red team's: package managers' settings and what they run.
		{"/Users/alice/Documents/proj/.yarnrc", true, "~/Documents/proj/.yarnrc"},
		{"/Users/alice/Documents/proj/.yarn/releases/yarn-4.1.0.cjs", true, "~/Documents/proj/.yarn/releases"},
		{"/Users/alice/Documents/proj/.pnpmfile.cjs", true, "~/Documents/proj/.pnpmfile.cjs"},
		{"/Users/alice/Documents/proj/venv/pip.conf", true, "~/Documents/proj/venv/pip.conf"},
		{"/Users/alice/Documents/proj/.cargo/config.toml", true, "~/Documents/proj/.cargo/config.toml"},
		{"/Users/alice/Documents/proj/.yarn/cache/x.zip", false, ""},

		// A third red team's: other tools' settings that run commands, and
		// code run without being read.
		{"/Users/alice/Documents/proj/.hg/hgrc", true, "~/Documents/proj/.hg/hgrc"},
		{"/Users/alice/Documents/proj/.jj/repo/config.toml", true, "~/Documents/proj/.jj/repo/config.toml"},
		{"/Users/alice/Documents/proj/bunfig.toml", true, "~/Documents/proj/bunfig.toml"},
		{"/Users/alice/Documents/proj/.claude/settings.json", true, "~/Documents/proj/.claude/settings.json"},
		{"/Users/alice/Documents/proj/.mcp.json", true, "~/Documents/proj/.mcp.json"},
		{"/Users/alice/Documents/proj/__pycache__/util.cpython-312.pyc", true, "~/Documents/proj/__pycache__"},
		{"/Users/alice/Documents/proj/util.pyc", true, "~/Documents/proj/util.pyc"},
		{"/Users/alice/Documents/proj/.venv/lib/python3.12/site-packages/requests/api.py", true, "~/Documents/proj/.venv/lib/python3.12/site-packages"},
		{"/Users/alice/Documents/proj/node_modules/left-pad/index.js", true, "~/Documents/proj/node_modules"},
		{"/Users/alice/Documents/proj/.hg/store/data/readme.i", false, ""},
		{"/Users/alice/Documents/proj/.jj/repo/store/extra/x", false, ""},
		{"/Users/alice/Documents/proj/.claude/commands/review.md", false, ""},
		{"/Users/alice/Documents/proj/util.py", false, ""},
		{"/Users/alice/Documents/proj/package.json", false, ""},
		{"/Users/alice/Documents/proj/main.go", false, ""},
		{"/Users/alice/Documents/proj/.vscode/extensions.json", false, ""},
	}
	for _, tt := range tests {
		z, ok := c.Plants(tt.in)
		if ok != tt.plants || z.Root != tt.wantRoot {
			t.Errorf("Plants(%q) = %+v, %v; want %v %q", tt.in, z, ok, tt.plants, tt.wantRoot)
		}
		if p, _ := c.Persistence(tt.in); tt.plants && p.Root == "" {
			t.Errorf("Plants(%q) holds it, but Persistence does not", tt.in)
		}
	}
}

// TestGitData: the first element of a path in a git folder of any name,
// compared as Plants compares it.
func TestGitData(t *testing.T) {
	for elem, want := range map[string]bool{"objects": true, "Objects": true, "refs": true, "index": true, "HEAD": true,
		"reftable": true, "packed-refs": true, "config": false, "hooks": false, "info": false, "commondir": false,
		"config.worktree": false, "worktrees": false, "modules": false, "": false} {
		if got := sanitize.GitData(elem); got != want {
			t.Errorf("GitData(%q) = %v, want %v", elem, got, want)
		}
	}
}
