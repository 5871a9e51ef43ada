package execute

import (
	"slices"
	"testing"
)

// TestLoadsOf: the files a start-up file's text loads, as its language
// names them, and the words that load nothing.
func TestLoadsOf(t *testing.T) {
	const home, dir = "/h", "/h/Documents/proj"
	tests := []struct {
		name, text string
		want       []string
	}{
		{"source after a test", "[[ -f ~/d/a.zsh ]] && source ~/d/a.zsh\n", []string{"/h/d/a.zsh"}},
		{"dot in an if", "F=\"${HOME}/d/f.bash\"\nif [ -f \"$F\" ]; then . \"$F\"; fi\n", []string{"/h/d/f.bash"}},
		{"a loop's glob", "for f in $HOME/d/zsh.d/*.zsh; do\n  . \"$f\"\ndone\n", []string{"/h/d/zsh.d/*.zsh"}},
		{"fish's set", "set -gx X ~/d/x.fish\nsource $X\n", []string{"/h/d/x.fish"}},
		{"a default", "source ${XDG_CONFIG_HOME:-$HOME/.config}/sh/a.sh\nsource ${NOPE:-~/b.sh}\n", []string{"/h/.config/sh/a.sh", "/h/b.sh"}},
		{"direnv", "source_env_if_exists .envrc.local\nsource_env ./s/dev.envrc\ndotenv\ndotenv_if_exists .env.dev\n",
			[]string{dir + "/.envrc.local", dir + "/s/dev.envrc", dir + "/.env", dir + "/.env.dev"}},
		{"use flake", "use flake\nuse flake ./sub#dev\nuse flake github:a/b\n",
			[]string{dir + "/flake.nix", dir + "/flake.lock", dir + "/sub/flake.nix", dir + "/sub/flake.lock"}},
		{"use nix", "use nix\nuse nix -p go\nuse nix dev.nix\nuse strict\n",
			[]string{dir + "/shell.nix", dir + "/default.nix", dir + "/shell.nix", dir + "/default.nix", dir + "/dev.nix"}},
		{"tmux and vim", "source-file -q ~/t.conf\nso ~/v.vim\n", []string{"/h/t.conf", "/h/v.vim"}},
		{"R, Lua, Ruby", "source(\"renv/activate.R\")\ndofile('x.lua')\nrequire_relative 'lib/y'\n",
			[]string{dir + "/renv/activate.R", dir + "/x.lua", dir + "/lib/y.rb"}},
		{"bazel and nix imports", "try-import %workspace%/user.bazelrc\n(import ./nix/dev.nix)\n", []string{dir + "/user.bazelrc", dir + "/nix/dev.nix"}},
		{"hyprland's =", "source = ~/hypr/extra.conf\n", []string{"/h/hypr/extra.conf"}},
		{"continued line", "source \\\n  ~/c.sh\n", []string{"/h/c.sh"}},
		{"comments load nothing", "# source_env .envrc.local\necho source x # . y\n", nil},
		{"unknown variables load nothing", "source $ZSH/oh-my-zsh.sh\n. \"$(brew --prefix)/x.sh\"\n", nil},
		{"commands' output loads nothing", "source <(kubectl completion zsh)\nsource `brew --prefix`/x.sh\n", nil},
		{"zsh's short loops", "for f (~/d/zsh.d/*.zsh) source $f\nforeach g (~/e/*.zsh); source $g; end\n", []string{"/h/d/zsh.d/*.zsh", "/h/e/*.zsh"}},
		{"a file's text run", "eval \"$(cat ~/d/env.sh)\"\neval \"$(<$HOME/d/p.sh)\"\nsource <(cat -- ~/d/c.bash)\neval `cat ~/d/q.sh`\n",
			[]string{"/h/d/env.sh", "/h/d/p.sh", "/h/d/c.bash", "/h/d/q.sh"}},
		{"a file's own folder", ". \"$(dirname \"${BASH_SOURCE[0]}\")/lib/a.sh\"\nsource ${0:A:h}/b.zsh\n. $(dirname \"$0\")/c.sh\nsource ${BASH_SOURCE%/*}/d.sh\n",
			[]string{dir + "/lib/a.sh", dir + "/b.zsh", dir + "/c.sh", dir + "/d.sh"}},
		{"other commands' output runs nothing this reading names", "eval \"$(direnv hook zsh)\"\neval \"$(dirname $0)\"\nsource <(fzf --zsh)\ncat ~/d/motd.txt\necho \"$(cat ~/d/n.txt)\"\n", nil},
		{"a variable of a file's own folder", "D=\"$(dirname \"${BASH_SOURCE[0]}\")\"\n. \"$D/e.sh\"\nset -l Z ${0:A:h}\nsource $Z/f.fish\n",
			[]string{dir + "/e.sh", dir + "/f.fish"}},
		{"zsh's function folders", "fpath+=(~/d/zfuncs)\nfpath=(~/d/comp $fpath)\nautoload -Uz compinit\n",
			[]string{"/h/d/zfuncs/*", "/h/d/comp/*"}},
		{"brace expansions", "for file in ~/.{path,aliases}; do [ -r \"$file\" ] && source \"$file\"; done\nsource ~/d/{x,y}.zsh\n",
			[]string{"/h/.path", "/h/.aliases", "/h/d/x.zsh", "/h/d/y.zsh"}},
		{"braces that expand nothing", "{ source ~/n.sh; }\nsource ${X:-~/m.sh}\n", []string{"/h/n.sh", "/h/m.sh"}},
		{"words that are no command", "export GOFLAGS=-mod=vendor\necho source\nalias s=source\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, l := range loadsOf(tt.text, dir, home) {
				got = append(got, l.path)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("loadsOf(%q) = %q, want %q", tt.text, got, tt.want)
			}
		})
	}
}

// TestLoadsInShared: a variable one start-up file assigns names what
// another loads; missing holds what a file named before it was known.
func TestLoadsInShared(t *testing.T) {
	shared, missing := map[string][]string{}, map[string]bool{}
	if got := loadsIn("source $DOTFILES/a.zsh\n", "/h", "/h", shared, missing); len(got) != 0 || !missing["DOTFILES"] {
		t.Fatalf("before DOTFILES is known: %v, missing %v", got, missing)
	}
	loadsIn("export DOTFILES=\"$HOME/d\"\n", "/h/x", "/h", shared, missing)
	got := loadsIn("source $DOTFILES/a.zsh\nsource $PWD/b.zsh\n", "/h/y", "/h", shared, missing)
	if len(got) != 2 || got[0].path != "/h/d/a.zsh" || got[1].path != "/h/y/b.zsh" {
		t.Errorf("with DOTFILES known: %v, want /h/d/a.zsh and /h/y/b.zsh", got)
	}
}

// FuzzLoadsOf: any text is read without a panic, and every file it names
// is absolute and clean.
func FuzzLoadsOf(f *testing.F) {
	for _, s := range []string{"source ~/a\n", "for f in $X/*; do . \"$f\"; done", "use flake .#x", "${A:-${B}}", "'unterminated", "\"$", "${", "eval \"$(cat", "source <(<", ". `dirname $0`/x", "for f (a", "source ~/{a,", "for f in {,}; do . {$f,}; done"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, l := range loadsOf(text, "/h/p", "/h") {
			if l.path == "" || l.path[0] != '/' {
				t.Fatalf("loadsOf(%q) named %q", text, l.path)
			}
		}
	})
}

// TestSourcedNames: a loaded file or glob names a change's path as the
// file system compares them: without case on macOS.
func TestSourcedNames(t *testing.T) {
	defer func(old bool) { foldCase = old }(foldCase)
	tests := []struct {
		f    sourcedFile
		p    string
		fold bool
		want bool
	}{
		{sourcedFile{path: "/h/D/dotfiles/a.zsh"}, "/h/D/dotfiles/a.zsh", false, true},
		{sourcedFile{path: "/h/D/Dotfiles/a.zsh"}, "/h/D/dotfiles/a.zsh", false, false},
		{sourcedFile{path: "/h/D/Dotfiles/a.zsh"}, "/h/D/dotfiles/a.zsh", true, true},
		{sourcedFile{path: "/h/D/zsh.d/*.zsh", glob: true}, "/h/D/zsh.d/x.zsh", false, true},
		{sourcedFile{path: "/h/D/zsh.d/*.zsh", glob: true}, "/h/D/ZSH.d/x.ZSH", true, true},
		{sourcedFile{path: "/h/D/zsh.d/*.zsh", glob: true}, "/h/D/zsh.d/x.txt", true, false},
		{sourcedFile{path: "/h/D/zsh.d/*.zsh", glob: true}, "/h/D/zsh.d/sub/x.zsh", true, false},
	}
	for _, tt := range tests {
		foldCase = tt.fold
		if got := tt.f.names(tt.p); got != tt.want {
			t.Errorf("%+v.names(%q) with fold %v = %v, want %v", tt.f, tt.p, tt.fold, got, tt.want)
		}
	}
}
