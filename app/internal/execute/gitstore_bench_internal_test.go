package execute

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// benchRepo makes, in a temporary folder, a repository of about 20,000
// objects: 5,000 files in 50 folders, then 1,300 commits changing 5 files
// each (a blob, its folder's tree and the root tree, a commit), packed
// with deltas as git gc leaves it, or loose. No tree names a secret file,
// so every object is looked at.
func benchRepo(b *testing.B, loose bool) string {
	b.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		b.Skip("git is not installed")
	}
	dir := filepath.Join(resolvedTemp(b), "r")
	os.MkdirAll(dir, 0o755)
	gitIn(b, dir, "init", "-q")
	var s strings.Builder
	mark := 0
	blob := func(content string) int {
		mark++
		fmt.Fprintf(&s, "blob\nmark :%d\ndata %d\n%s\n", mark, len(content), content)
		return mark
	}
	commit := func(n int, files map[string]int) {
		fmt.Fprintf(&s, "commit refs/heads/main\ncommitter p <p@example.invalid> %d +0000\ndata 2\nc\n", 1700000000+n)
		for path, m := range files {
			fmt.Fprintf(&s, "M 100644 :%d %s\n", m, path)
		}
		s.WriteString("\n")
	}
	first := map[string]int{}
	for i := range 5000 {
		first[fmt.Sprintf("d%02d/f%03d.txt", i%50, i/50)] = blob(fmt.Sprintf("file %d\n", i))
	}
	commit(0, first)
	for c := 1; c <= 1300; c++ {
		change := map[string]int{}
		for k := range 5 {
			i := (c*7 + k*1009) % 5000
			change[fmt.Sprintf("d%02d/f%03d.txt", i%50, i/50)] = blob(fmt.Sprintf("file %d at %d\n", i, c))
		}
		commit(c, change)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(s.String())
	cmd.Env = []string{"HOME=" + b.TempDir(), "PATH=/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1"}
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("fast-import: %v: %s", err, out)
	}
	gitIn(b, dir, "gc", "-q")
	if loose {
		packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack"))
		for _, p := range packs {
			moved := filepath.Join(b.TempDir(), "p.pack")
			if err := os.Rename(p, moved); err != nil {
				b.Fatal(err)
			}
			os.Remove(strings.TrimSuffix(p, ".pack") + ".idx")
			os.Remove(strings.TrimSuffix(p, ".pack") + ".rev")
			f, err := os.Open(moved)
			if err != nil {
				b.Fatal(err)
			}
			cmd := exec.Command("git", "unpack-objects", "-q")
			cmd.Dir, cmd.Stdin = dir, f
			cmd.Env = []string{"HOME=" + b.TempDir(), "PATH=/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1"}
			out, err := cmd.CombinedOutput()
			f.Close()
			if err != nil {
				b.Fatalf("unpack-objects: %v: %s", err, out)
			}
		}
	}
	count := gitIn(b, dir, "count-objects", "-v")
	b.Logf("%s", strings.Join(strings.Fields(count), " "))
	return dir
}

// BenchmarkGitStores: the first look through a store of about 20,000
// objects (every tree read), packed and loose, and an unasked start after
// it, when nothing changed (a stat of each part, a listing of objects/
// and objects/pack).
func BenchmarkGitStores(b *testing.B) {
	for _, loose := range []bool{false, true} {
		kind := map[bool]string{false: "packed", true: "loose"}[loose]
		dir := benchRepo(b, loose)
		found := []string{filepath.Join(dir, ".git")}
		later := func() time.Time { return time.Now().Add(time.Hour) }
		b.Run("first/"+kind, func(b *testing.B) {
			for b.Loop() {
				s := gitStores{now: later, time: time.Minute}
				if h := s.hide(gitFinds{repos: found}); len(h) != 0 {
					b.Fatalf("hidden: %+v", h)
				}
			}
		})
		b.Run("cached/"+kind, func(b *testing.B) {
			s := gitStores{now: later, time: time.Minute}
			s.hide(gitFinds{repos: found})
			for b.Loop() {
				if h := s.hide(gitFinds{repos: found}); len(h) != 0 {
					b.Fatalf("hidden: %+v", h)
				}
			}
		})
	}
}

// BenchmarkGitBundle: the first read of a bundle of benchRepo's whole
// history (about 20,000 objects, every one inflated to find where the
// next starts; every tree read), the same pack alone without its index,
// and an unasked start after it, nothing changed (a stat of the file).
func BenchmarkGitBundle(b *testing.B) {
	dir := benchRepo(b, false)
	out := resolvedTemp(b)
	bundle := filepath.Join(out, "backup.bundle")
	gitIn(b, dir, "bundle", "create", "-q", bundle, "--all")
	packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack"))
	if len(packs) != 1 {
		b.Fatalf("packs %q", packs)
	}
	pack, err := os.ReadFile(packs[0])
	if err != nil {
		b.Fatal(err)
	}
	lone := filepath.Join(out, "lone")
	if err := os.WriteFile(lone, pack, 0o644); err != nil {
		b.Fatal(err)
	}
	later := func() time.Time { return time.Now().Add(time.Hour) }
	for name, p := range map[string]string{"bundle": bundle, "pack": lone} {
		found := gitFinds{data: []string{p}}
		b.Run("first/"+name, func(b *testing.B) {
			for b.Loop() {
				s := gitStores{now: later, time: time.Minute}
				if h := s.hide(found); len(h) != 0 {
					b.Fatalf("hidden: %+v", h)
				}
			}
		})
		b.Run("cached/"+name, func(b *testing.B) {
			s := gitStores{now: later, time: time.Minute}
			s.hide(found)
			for b.Loop() {
				if h := s.hide(found); len(h) != 0 {
					b.Fatalf("hidden: %+v", h)
				}
			}
		})
	}
}
