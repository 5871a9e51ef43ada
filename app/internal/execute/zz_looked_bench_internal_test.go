package execute

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

func BenchmarkZZLookedPlants(b *testing.B) {
	home := b.TempDir()
	docs := filepath.Join(home, "Documents")
	os.MkdirAll(filepath.Join(home, ".config", "fish"), 0o755)
	os.MkdirAll(docs, 0o755)
	os.WriteFile(filepath.Join(home, ".zshrc"), []byte("export PATH=$HOME/Documents/bin:$PATH\nsource ~/.aliases\nfor f in ~/Documents/dotfiles/zsh.d/*.zsh; do source $f; done\n"), 0o644)
	os.WriteFile(filepath.Join(home, ".aliases"), []byte("alias ll='ls -l'\n"), 0o644)
	os.WriteFile(filepath.Join(home, ".bashrc"), []byte("[ -f ~/.bash_aliases ] && . ~/.bash_aliases\n"), 0o644)
	cfg, err := sanitize.NewConfig(home, []string{docs})
	if err != nil {
		b.Fatal(err)
	}
	e := &Executor{Paths: cfg}
	b.ReportAllocs()
	for b.Loop() {
		e.lookedPlants()
	}
}
