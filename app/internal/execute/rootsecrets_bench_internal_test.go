package execute

import (
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkRootSecretsFirst is the first listing of a 20,000-entry root's
// secret files (benchTree): every folder read.
func BenchmarkRootSecretsFirst(b *testing.B) {
	root := benchTree(b)
	for b.Loop() {
		x := rootLinks{now: settled}
		if _, _, err := x.secretFiles([]string{root}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRootSecretsAgain is the listing before a later unasked action,
// nothing changed: one lstat per folder, and the links resolved.
func BenchmarkRootSecretsAgain(b *testing.B) { benchSecretsAgain(b, benchTree(b)) }

// BenchmarkRootSecretsManyLinks is the same in a pnpm-shaped root
// (pnpmTree): 2,000 links to folders, 2,000 to files, each resolved again
// to see whether it leads to a secret file.
func BenchmarkRootSecretsManyLinks(b *testing.B) { benchSecretsAgain(b, pnpmTree(b)) }

// BenchmarkRootSecretsAgainKeyKinds is the same in benchTree with a
// package.json and a config.yaml in each of its 1,000 folders: files
// holdsPrivateKey read, each lstat'ed again (recheckKeys).
func BenchmarkRootSecretsAgainKeyKinds(b *testing.B) {
	root := benchTree(b)
	dirs, err := filepath.Glob(filepath.Join(root, "p*", "d*"))
	if err != nil || len(dirs) != 1000 {
		b.Fatalf("benchTree: %d folders, %v", len(dirs), err)
	}
	for _, d := range dirs {
		for _, n := range []string{"package.json", "config.yaml"} {
			if err := os.WriteFile(filepath.Join(d, n), []byte("{}\n"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	benchSecretsAgain(b, root)
}

// benchSecretsAgain lists root's secret files once, then measures the
// listings after it.
func benchSecretsAgain(b *testing.B, root string) {
	x := rootLinks{now: settled}
	if _, _, err := x.secretFiles([]string{root}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, err := x.secretFiles([]string{root}); err != nil {
			b.Fatal(err)
		}
	}
}
