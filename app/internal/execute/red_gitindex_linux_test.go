//go:build linux

package execute_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The review checks git's index and the checked-out branch as git add
// and git commit leave them (gitstate.go). These tests run real git
// unasked through the sandbox: ordinary work must be applied with nothing
// held, in SHA-1 and SHA-256 repositories and with each index version, and
// each forgery of the index, the branch or an object must be held.

// TestGitWorkUnheld: what an action does with git day to day is applied,
// nothing held, and leaves the repository clean.
func TestGitWorkUnheld(t *testing.T) {
	for _, repo := range []struct {
		name     string
		initArgs []string
		index    string // the index version the repository keeps ("" for git's own)
	}{
		{name: "sha1"},
		{name: "sha256", initArgs: []string{"--object-format=sha256"}},
		{name: "index v2", index: "2"},
		{name: "index v3", index: "3"},
		{name: "index v4", index: "4"},
		{name: "sha256 index v4", initArgs: []string{"--object-format=sha256"}, index: "4"},
	} {
		for _, tc := range []struct {
			payload string
			moved   bool              // the commit of main changes
			files   map[string]string // files as the action leaves them ("" gone)
		}{
			{payload: "commit on the checked-out branch", moved: true, files: map[string]string{"Documents/repo/notes.md": "notes\n"}},
			{payload: "git rm and commit", moved: true, files: map[string]string{"Documents/repo/old.txt": ""}},
			{payload: "git mv and commit", moved: true, files: map[string]string{"Documents/repo/old.txt": "", "Documents/repo/new.txt": "old\n"}},
			{payload: "edits, add and two files in a folder", moved: true, files: map[string]string{"Documents/repo/README": "readme, edited\n", "Documents/repo/src/a/x.go": "x\n"}},
			{payload: "reset --hard of an edit", files: map[string]string{"Documents/repo/README": "readme\n"}},
		} {
			t.Run(repo.name+"/"+tc.payload, func(t *testing.T) {
				r := newRepoRigWith(t, repo.initArgs...)
				r.addFiles(t, map[string]string{"old.txt": "old\n", "docs/keep.txt": "keep\n"})
				if repo.index != "" {
					r.git(t, "config", "index.version", repo.index)
					r.git(t, "update-index", "--index-version", repo.index)
				}
				if repo.index == "3" {
					// git writes version 2 unless an entry has extended
					// flags: a skip-worktree one has.
					r.git(t, "update-index", "--skip-worktree", "docs/keep.txt")
				}
				before := r.git(t, "rev-parse", "main")
				_, held, err := r.run(t, tc.payload, "Documents")
				if err != nil {
					t.Fatalf("run: %v", err)
				}
				if len(held) > 0 {
					t.Errorf("held %q, want none", held)
				}
				if moved := r.git(t, "rev-parse", "main") != before; moved != tc.moved {
					t.Errorf("main moved: %v, want %v", moved, tc.moved)
				}
				for rel, want := range tc.files {
					if want == "" && r.exists(rel) || want != "" && r.read(rel) != want {
						t.Errorf("%s is %q, want %q", rel, r.read(rel), want)
					}
				}
				if out := r.git(t, "status", "--porcelain"); out != "" {
					t.Errorf("the repository is not clean: %q", out)
				}
				if repo.index != "" {
					if v := indexVersion(t, r); v != repo.index {
						t.Errorf("the index is version %s, want %s", v, repo.index)
					}
				}
				r.git(t, "fsck", "--strict", "--no-dangling")
			})
		}
	}
}

// addFiles commits files (relative to the repository) outside the
// sandbox, as the person's own work.
func (r *repoRig) addFiles(t *testing.T, files map[string]string) {
	t.Helper()
	for rel, content := range files {
		p := filepath.Join(r.repo, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r.git(t, "add", "-A")
	r.git(t, "commit", "-q", "-m", "files")
}

// indexVersion reads the version of the repository's index from its
// header.
func indexVersion(t *testing.T, r *repoRig) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(r.repo, ".git", "index"))
	if err != nil || len(b) < 8 {
		t.Fatalf("reading the index: %v", err)
	}
	return string(rune('0' + b[7]))
}

// TestRedIndexForgeries: entries put in the index that the work tree does
// not hold as the review applies it; git restore . or git stash writes
// them. Each is held, and the index stays the person's.
func TestRedIndexForgeries(t *testing.T) {
	for _, tc := range []struct {
		payload string
		held    string // a path the held list names
	}{
		{payload: "index gains a planted file", held: "Documents/repo/.git/index"},
		{payload: "index entry rewritten", held: "Documents/repo/.git/index"},
		// The .envrc is held; an index that names it must go with it.
		{payload: "index entry of a held file", held: "Documents/repo/.git/index"},
	} {
		t.Run(tc.payload, func(t *testing.T) {
			r := newRepoRig(t)
			_, held, err := r.run(t, tc.payload, "Documents")
			if err != nil {
				t.Logf("run: %v", err)
			}
			if !slices.Contains(held, tc.held) {
				t.Errorf("held %q, want %s among them", held, tc.held)
			}
			if got := r.git(t, "show", ":README"); got != "readme" {
				t.Errorf("the index's README is %q, want the person's", got)
			}
			if r.plantedAt(t, ":0") {
				t.Errorf("the index gained .envrc without the person (held %q)", held)
			}
		})
	}
}

// TestRedBranchNotACommit: the checked-out branch moved to a commit git
// commit would not make from the index: one without the branch's commit
// as its parent, or kept only in a pack the review does not read. Each is
// held and the branch stays where it was.
func TestRedBranchNotACommit(t *testing.T) {
	for _, payload := range []string{
		"checked-out branch moved",
		"checked-out branch to a root commit",
		"checked-out branch to a merge",
		"checked-out branch to a packed commit",
	} {
		t.Run(payload, func(t *testing.T) {
			r := newRepoRig(t)
			before := r.git(t, "rev-parse", "main")
			_, held, err := r.run(t, payload, "Documents")
			if err != nil {
				t.Logf("run: %v", err)
			}
			if !slices.Contains(held, "Documents/repo/.git/refs/heads/main") {
				t.Errorf("held %q, want refs/heads/main among them", held)
			}
			if now := r.git(t, "rev-parse", "main"); now != before {
				t.Errorf("main moved from %s to %s without the person", before, now)
			}
		})
	}
}

// TestRedObjectRewritten: a loose object the person's commit names,
// rewritten with another's content under its name: git reads it unchecked,
// so git reset --hard would write the planted bytes as README.
func TestRedObjectRewritten(t *testing.T) {
	r := newRepoRig(t)
	_, held, err := r.run(t, "object rewritten under its name", "Documents")
	if err != nil {
		t.Logf("run: %v", err)
	}
	if got, _ := r.gitOK(t, "cat-file", "-p", "HEAD:README"); got != "readme" {
		t.Errorf("HEAD's README now reads %q without the person (held %q)", got, held)
	}
	if !slices.ContainsFunc(held, func(p string) bool { return strings.Contains(p, "/.git/objects/") }) {
		t.Errorf("held %q, want the rewritten object among them", held)
	}
}
