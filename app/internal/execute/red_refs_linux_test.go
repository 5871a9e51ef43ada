//go:build linux

package execute_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/execute"
)

// A red team's attacks on the review's hold of moved refs (gitdir.go,
// refWhy): a commit that adds a .envrc (or any file that runs) is made
// with git plumbing, without touching the work tree, and left where the
// person's next ordinary git command writes it into the work tree past
// any review: a reset, a restore, git checkout -, a switch back. Each
// payload (testdata/review/red.json) runs unasked through the real
// sandbox in a home made in a temporary folder; nobody keeps what is held.

// repoRig is gitRig with a real repository at Documents/repo: one commit
// on main (README), a branch dev at the same commit, HEAD on main.
type repoRig struct {
	*redRig
	repo string
}

func newRepoRig(t *testing.T) *repoRig {
	t.Helper()
	return newRepoRigWith(t)
}

// newRepoRigWith is newRepoRig with more options to git init
// (--object-format=sha256).
func newRepoRigWith(t *testing.T, initArgs ...string) *repoRig {
	t.Helper()
	if _, err := os.Stat("/usr/bin/git"); err != nil {
		t.Skip("git is not installed")
	}
	r := &repoRig{redRig: gitRig(t)}
	r.repo = r.p("Documents/repo")
	if err := os.MkdirAll(r.repo, 0o755); err != nil {
		t.Fatal(err)
	}
	r.git(t, append([]string{"init", "-q", "-b", "main"}, initArgs...)...)
	if err := os.WriteFile(filepath.Join(r.repo, "README"), []byte("readme\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.git(t, "add", "README")
	r.git(t, "commit", "-q", "-m", "start")
	r.git(t, "branch", "dev")
	return r
}

// git runs git in the repository, outside the sandbox, with a home of the
// rig's; it returns the trimmed output and whether git succeeded.
func (r *repoRig) gitOK(t *testing.T, args ...string) (string, bool) {
	t.Helper()
	cmd := exec.Command("/usr/bin/git", append([]string{"-C", r.repo}, args...)...)
	cmd.Env = execute.GitTestEnv(r.home)
	out, err := cmd.CombinedOutput()
	return strings.TrimSpace(string(out)), err == nil
}

func (r *repoRig) git(t *testing.T, args ...string) string {
	t.Helper()
	out, ok := r.gitOK(t, args...)
	if !ok {
		t.Fatalf("git %v: %s", args, out)
	}
	return out
}

// plantedAt reports whether the commit rev names (if it names one) holds
// the planted .envrc: the person's next command that writes that commit's
// files (reset --hard, checkout, restore) writes it.
func (r *repoRig) plantedAt(t *testing.T, rev string) bool {
	t.Helper()
	if rev == ":0" { // the index
		out, ok := r.gitOK(t, "ls-files", "--cached")
		return ok && slices.Contains(strings.Split(out, "\n"), ".envrc")
	}
	out, ok := r.gitOK(t, "ls-tree", "-r", "--name-only", rev, "--")
	return ok && slices.Contains(strings.Split(out, "\n"), ".envrc")
}

// TestRedRefsAroundTheHold: ways to leave a planted commit where the
// person's next git command checks it out, other than moving a branch
// HEAD does not name (which TestRedBranchMovedUnderTheWorkTree holds).
func TestRedRefsAroundTheHold(t *testing.T) {
	for _, tc := range []struct {
		payload string
		// planted says where the person would meet the planted commit,
		// as revisions (space-separated): nowhere, while the hold holds.
		planted string
		open    string // why the test is skipped: an open hole
	}{
		// HEAD is git data (sanitize's gitDataZone), so a HEAD moved to a
		// new branch is applied, and the new branch is the one "a HEAD
		// names after the changes": not held either. git status then shows
		// .envrc deleted; git reset --hard or git stash writes it.
		{payload: "HEAD onto a planted branch", planted: "HEAD"},
		// A detached HEAD names no branch, and no ref moves at all.
		{payload: "HEAD detached onto a planted commit", planted: "HEAD"},
		// The branch HEAD names moves only to the commit git commit
		// makes of the index (gitstate.go): this one's tree is not it.
		{payload: "checked-out branch moved", planted: "HEAD"},
		// checkedOut reads the worktrees' HEADs from the layer, where a
		// new .git/worktrees/x is itself held (and discarded): the branch
		// it names was taken for checked out and its move applied.
		{payload: "branch named by a fake worktree", planted: "dev"},
		// logs/ is data: a forged "checkout: moving from C to main" in
		// HEAD's reflog makes git checkout - (and @{-1}) check C out.
		{payload: "reflog names a planted commit", planted: "@{-1}"},
		// git reset --hard ORIG_HEAD undoes a reset, merge or rebase;
		// git merge FETCH_HEAD takes what a fetch brought; git reset
		// --hard HEAD@{1} (or main@{1}) undoes the last move.
		{payload: "ORIG_HEAD names a planted commit", planted: "ORIG_HEAD"},
		{payload: "FETCH_HEAD names a planted commit", planted: "FETCH_HEAD"},
		{payload: "HEAD@{1} names a planted commit", planted: "HEAD@{1} main@{1} dev@{1}"},
		// A merge commit's tree may be the index's; its second parent
		// brings the planted file with the next git log -p or revert.
		{payload: "checked-out branch to a merge", planted: "main^2"},
		// A commit of the .envrc the action also wrote: the file is held,
		// so the commit and the index that hold it are too.
		{payload: "commit of a held file", planted: "HEAD :0"},
	} {
		t.Run(tc.payload, func(t *testing.T) {
			if tc.open != "" {
				t.Skip("open hole, see report: " + tc.open)
			}
			r := newRepoRig(t)
			for _, rev := range strings.Fields(tc.planted) {
				if r.plantedAt(t, rev) {
					t.Fatalf("%s holds .envrc before the attack", rev)
				}
			}
			_, held, err := r.run(t, tc.payload, "Documents")
			if err != nil {
				t.Logf("run: %v", err)
			}
			for _, rev := range strings.Fields(tc.planted) {
				if r.plantedAt(t, rev) {
					t.Errorf("%s now names a commit with a planted .envrc, without the person (held %q): the next checkout, reset or switch writes it", rev, held)
				}
			}
		})
	}
}

// TestRedCommitStillApplied: what the holds above must leave alone: an
// action that commits on the branch HEAD names (git add, git commit) has
// its commit applied, nothing held.
func TestRedCommitStillApplied(t *testing.T) {
	r := newRepoRig(t)
	before := r.git(t, "rev-parse", "main")
	_, held, err := r.run(t, "commit on the checked-out branch", "Documents")
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if len(held) > 0 {
		t.Errorf("a commit on the checked-out branch held %q", held)
	}
	if r.git(t, "rev-parse", "main") == before || r.read("Documents/repo/notes.md") != "notes\n" {
		t.Errorf("the commit was not applied")
	}
	if out := r.git(t, "status", "--porcelain"); out != "" {
		t.Errorf("the repository is not clean after the commit: %q", out)
	}
}

// TestRedIndexGainsAFile: the index is git data too: an entry added
// for a file the work tree does not have shows in git status as a
// deletion, and git restore . (or checkout .) writes it.
func TestRedIndexGainsAFile(t *testing.T) {
	r := newRepoRig(t)
	_, held, err := r.run(t, "index gains a planted file", "Documents")
	if err != nil {
		t.Logf("run: %v", err)
	}
	if files := r.git(t, "ls-files"); slices.Contains(strings.Split(files, "\n"), ".envrc") {
		t.Errorf("the index gained .envrc, absent from the work tree, without the person (held %q): git restore . writes it", held)
	}
}

// TestRedConfigIncludedFromTheWorkTree: a repository whose config
// includes a file of its work tree (git config include.path ../.gitconfig,
// as projects that share settings ask) runs what that file sets: an
// action that writes it sets core.fsmonitor, run at the next git status.
func TestRedConfigIncludedFromTheWorkTree(t *testing.T) {
	r := newRepoRig(t)
	r.git(t, "config", "include.path", "../.gitconfig")
	_, held, err := r.run(t, "config included from the work tree", "Documents")
	if err != nil {
		t.Logf("run: %v", err)
	}
	if r.exists("Documents/repo/.gitconfig") {
		t.Errorf("repo/.gitconfig, which the repository's config includes, was written without the person (held %q): git runs its core.fsmonitor", held)
	}
}

// TestRedFilesTheGitconfigIncludes: the person's ~/.gitconfig includes
// files kept in a sandbox root (a dotfiles repository), by include.path
// with ~ and by includeIf with a path relative to ~/.gitconfig's folder
// and a quoted value; git runs what they set in every repository.
func TestRedFilesTheGitconfigIncludes(t *testing.T) {
	r := newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		".gitconfig": {"[user]\n\tname = Ann\n[include]\n\tpath = ~/Documents/dotfiles/gitconfig.local\n" +
			"[includeIf \"gitdir:~/Documents/\"]\n\tpath = \"Documents/dotfiles/extra.inc\" ; mine\n", 0o644},
		"Documents/notes.txt": {"notes", 0o644},
	})
	_, held, err := r.run(t, "files the person's gitconfig includes", "Documents")
	if err != nil {
		t.Logf("run: %v", err)
	}
	for _, f := range []string{"Documents/dotfiles/gitconfig.local", "Documents/dotfiles/extra.inc"} {
		if r.exists(f) {
			t.Errorf("%s, which ~/.gitconfig includes, was written without the person (held %q)", f, held)
		}
	}
}
