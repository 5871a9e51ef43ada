package execute_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/execute"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// TestRed16SeatbeltStartupFilesLoad: on a Mac nothing reviews what an
// unasked command wrote; Seatbelt refuses the persistence table's places
// by name, and the rest lands as written. The Linux review also holds, by
// looking, a file the home's start-up files load (a .zshrc that sources
// every ~/Documents/dotfiles/zsh.d/*.zsh, and aliases.sh when it is there)
// and a file where a place of the home leads through a link (~/.config/fish
// linked to ~/Documents/dotfiles/fish): names that say nothing. An unasked
// cp of a download to ~/Documents/dotfiles/zsh.d/update.zsh (Caution) ran at
// the next zsh start, on a Mac only. The profile of an unasked command,
// made for a Mac from the grant the executor gives it, refuses writing
// there; the other files of the same folders, and the rest of the roots,
// it does not.
func TestRed16SeatbeltStartupFilesLoad(t *testing.T) {
	docs, refused := macUnaskedRefusals(t, map[string]string{
		".zshrc": "for f in ~/Documents/dotfiles/zsh.d/*.zsh; do\n  source \"$f\"\ndone\n" +
			"[ -f ~/Documents/dotfiles/aliases.sh ] && source ~/Documents/dotfiles/aliases.sh\n",
		"Documents/dotfiles/zsh.d/prompt.zsh":      "PROMPT='%~ %# '\n",
		"Documents/dotfiles/fish/conf.d/path.fish": "fish_add_path ~/bin\n",
		"Documents/dotfiles/README.md":             "my dotfiles\n",
	}, map[string]string{".config/fish": "Documents/dotfiles/fish"})
	for _, rel := range []string{"dotfiles/zsh.d/update.zsh", "dotfiles/zsh.d/Update.ZSH", "dotfiles/aliases.sh", "dotfiles/fish/conf.d/evil.fish", "dotfiles/fish/functions/ls.fish"} {
		if !refused(filepath.Join(docs, rel)) {
			t.Errorf("HOLE: an unasked action may write ~/Documents/%s on a Mac, which the home's start-up files run", rel)
		}
	}
	for _, rel := range []string{"dotfiles/README.md", "dotfiles/zsh.d/notes.txt", "dotfiles/zsh.d.zsh", "report.txt", "dotfiles/fishes.txt"} {
		if refused(filepath.Join(docs, rel)) {
			t.Errorf("~/Documents/%s is refused: nothing loads it", rel)
		}
	}
}

// TestRed16SeatbeltCommandSearchPath: Seatbelt lets an unasked action
// create a new file with its executable bits set (the Linux review holds
// every one). The home's start-up files put folders of the roots on the
// command search path (export PATH=~/Documents/bin:$PATH, zsh's path
// array, fish's fish_add_path): a program named git made there runs
// instead of git at the person's next git. On a Mac the profile of an
// unasked command refuses writing in those folders; folders of the roots
// no start-up file puts there (a build's bin) it does not.
func TestRed16SeatbeltCommandSearchPath(t *testing.T) {
	docs, refused := macUnaskedRefusals(t, map[string]string{
		".zshrc":                   "export PATH=\"$HOME/Documents/bin:$PATH\"\npath=(~/Documents/tools/bin $path)\n",
		".config/fish/config.fish": "fish_add_path -g ~/Documents/fishbin\n",
		"Documents/bin/hello":      "#!/bin/sh\necho hello\n",
		"Documents/proj/bin/build": "built\n",
	}, nil)
	for _, rel := range []string{"bin/git", "tools/bin/ls", "fishbin/python3"} {
		if !refused(filepath.Join(docs, rel)) {
			t.Errorf("HOLE: an unasked action may make ~/Documents/%s on a Mac, on the person's command search path", rel)
		}
	}
	for _, rel := range []string{"proj/bin/x", "binaries/git", "notes/bin.txt", "tools/readme.md"} {
		if refused(filepath.Join(docs, rel)) {
			t.Errorf("~/Documents/%s is refused: it is on no command search path", rel)
		}
	}
}

// macUnaskedRefusals makes a home in a temporary folder holding files
// (relative to it) and links (relative name → relative target), with
// ~/Documents the sandbox root, and returns the root and whether the
// Seatbelt profile of an unasked command, made for a Mac from the grant
// the executor gives it, refuses writing a path.
func macUnaskedRefusals(t *testing.T, files, links map[string]string) (string, func(string) bool) {
	t.Helper()
	base := tempDir(t)
	home := filepath.Join(base, "home")
	docs := filepath.Join(home, "Documents")
	for rel, body := range files {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for rel, to := range links {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(home, to), p); err != nil {
			t.Fatal(err)
		}
	}
	cfg, err := sanitize.NewConfig(home, []string{docs})
	if err != nil {
		t.Fatal(err)
	}
	e := &execute.Executor{Paths: cfg, Trash: execute.FreedesktopTrash(filepath.Join(home, ".local", "share"))}
	g, err := e.MacUnaskedGrant(ossandbox.Grant{})
	if err != nil {
		t.Fatal(err)
	}
	temp := filepath.Join(base, "tmp", "action")
	if err := os.MkdirAll(temp, 0o700); err != nil {
		t.Fatal(err)
	}
	p, err := ossandbox.Derive(ossandbox.Settings{OS: "darwin", Home: home, Roots: []string{docs},
		Env: []string{"HOME=" + home, "PATH=/usr/bin:/bin"}}, ossandbox.KindCommand, g, temp)
	if err != nil {
		t.Fatal(err)
	}
	text, _, err := ossandbox.Seatbelt(ossandbox.Resolve(p))
	if err != nil {
		t.Fatal(err)
	}
	return docs, writeDenials(t, text)
}

// writeDenials returns whether a Seatbelt text's (deny file-write* …) rules
// with regular expressions refuse writing a path.
func writeDenials(t *testing.T, text string) func(string) bool {
	t.Helper()
	var res []*regexp.Regexp
	in := false
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "(deny file-write*"):
			in = true
		case !strings.HasPrefix(line, "  "):
			in = false
		}
		if !in {
			continue
		}
		i := strings.Index(line, `(regex #"`)
		if i < 0 {
			continue
		}
		src := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(line[i+len(`(regex #"`):], ")"), ")"), `"`)
		re, err := regexp.Compile(src)
		if err != nil {
			t.Fatalf("the rule %q: %v", line, err)
		}
		res = append(res, re)
	}
	if len(res) == 0 {
		t.Fatalf("no write denial:\n%s", text)
	}
	return func(p string) bool {
		for _, re := range res {
			if re.MatchString(p) {
				return true
			}
		}
		return false
	}
}
