//go:build linux

package execute_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/execute"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
)

// Attack 12: a secret file committed once, then untracked and ignored,
// lives on in git's object store, where git log -p, git cat-file
// --batch-all-objects or python's zlib read it. Each payload
// (testdata/review/githistory.json, and githistory_inflate.py, which reads
// the objects by hand) runs unasked through the real sandbox in
// repositories holding such a history every way git keeps one: loose,
// packed, in a tree no commit reaches, behind an alternates file, through a
// worktree's .git file. None may print the secret, and each result must
// say why git's history was not there. A repository whose history never
// named a secret file keeps working unasked, and an approved command
// still sees everything.

// The secrets of the repositories, each distinct so a failure says which
// way of keeping it leaked.
const (
	gitSecretLoose    = "S3CRET-git-loose-11"
	gitSecretPacked   = "S3CRET-git-packed-12"
	gitSecretDangling = "S3CRET-git-dangling-13"
	gitSecretDPacked  = "S3CRET-git-dangling-packed-14"
	gitSecretAlt      = "S3CRET-git-alternates-15"
	gitSecretWorktree = "S3CRET-git-worktree-16"
	gitSecretSub      = "S3CRET-git-submodule-17"
	gitPlain          = "plain-history-line-18"
)

var gitSecrets = []string{gitSecretLoose, gitSecretPacked, gitSecretDangling, gitSecretDPacked, gitSecretAlt, gitSecretWorktree, gitSecretSub}

// git runs git in dir (relative to the home) as the person would, with a
// home and configuration of its own.
func (r *redRig) git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	cmd := exec.Command("git", append([]string{"-c", "user.name=p", "-c", "user.email=p@example.invalid",
		"-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always"}, args...)...)
	cmd.Dir = r.p(dir)
	cmd.Env = []string{"HOME=" + t.TempDir(), "PATH=/usr/bin:/bin", "GIT_CONFIG_NOSYSTEM=1"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v: %s", args, dir, err, out)
	}
	return string(out)
}

// writeHome writes the file rel of the home.
func (r *redRig) writeHome(t *testing.T, rel, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(r.p(rel)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(r.p(rel), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// secretRepo makes the repository dir whose first commit holds name with
// the secret, which the second untracks and ignores.
func (r *redRig) secretRepo(t *testing.T, dir, name, secret string) {
	t.Helper()
	r.writeHome(t, dir+"/"+name, "TOKEN="+secret+"\n")
	r.writeHome(t, dir+"/main.go", "package main\n")
	r.git(t, dir, "init", "-q")
	r.git(t, dir, "add", ".")
	r.git(t, dir, "commit", "-qm", "first")
	r.git(t, dir, "rm", "-q", "--cached", name)
	r.writeHome(t, dir+"/.gitignore", name+"\n")
	r.git(t, dir, "add", ".gitignore")
	r.git(t, dir, "commit", "-qm", "ignore it")
}

// newGitHistoryRig is a home whose root ~/Documents holds a repository for
// each way git keeps a secret file's history, and one that never held one.
func newGitHistoryRig(t *testing.T) *redRig {
	t.Helper()
	r := newRedRig(t, []string{"~/Documents"}, nil)
	r.secretRepo(t, "Documents/loose", ".env", gitSecretLoose)
	r.secretRepo(t, "Documents/packed", "deploy-key.pem", gitSecretPacked)
	r.git(t, "Documents/packed", "gc", "-q", "--prune=now")

	// A key committed, then amended away, its reflog expired: its tree is
	// dangling, loose or in a pack.
	for dir, secret := range map[string]string{"Documents/dangling": gitSecretDangling, "Documents/dpacked": gitSecretDPacked} {
		r.writeHome(t, dir+"/id_ed25519", secret+"\n")
		r.writeHome(t, dir+"/a.txt", "a\n")
		r.git(t, dir, "init", "-q")
		r.git(t, dir, "add", ".")
		r.git(t, dir, "commit", "-qm", "oops")
		if dir == "Documents/dpacked" {
			r.git(t, dir, "gc", "-q")
		}
		r.git(t, dir, "rm", "-q", "--cached", "id_ed25519")
		if err := os.Remove(r.p(dir + "/id_ed25519")); err != nil {
			t.Fatal(err)
		}
		r.git(t, dir, "commit", "-q", "--amend", "-m", "no key")
		r.git(t, dir, "reflog", "expire", "--expire=now", "--all")
		if dir == "Documents/dpacked" {
			r.git(t, dir, "repack", "-q", "-a", "-d", "--keep-unreachable")
		}
	}

	// The .env's content lies only in a store of the home outside the
	// roots, whose own objects name no file; the repository in the root
	// borrows it through its alternates.
	r.writeHome(t, "vault/env", "TOKEN="+gitSecretAlt+"\n")
	r.git(t, "vault", "init", "-q", "--bare", "store.git")
	r.git(t, "vault/store.git", "hash-object", "-w", r.p("vault/env"))
	if err := os.Remove(r.p("vault/env")); err != nil {
		t.Fatal(err)
	}
	r.git(t, "Documents", "init", "-q", "alt")
	r.writeHome(t, "Documents/alt/.git/objects/info/alternates", r.p("vault/store.git/objects")+"\n")
	r.writeHome(t, "Documents/alt/.env", "TOKEN="+gitSecretAlt+"\n")
	r.git(t, "Documents/alt", "add", ".env")
	r.git(t, "Documents/alt", "commit", "-qm", "env")
	r.git(t, "Documents/alt", "rm", "-q", "--cached", ".env")
	if err := os.Remove(r.p("Documents/alt/.env")); err != nil {
		t.Fatal(err)
	}

	// A worktree in the root of a repository kept in the home.
	r.secretRepo(t, "src/main", "credentials.json", gitSecretWorktree)
	r.git(t, "src/main", "worktree", "add", "-q", r.p("Documents/wt"))

	// A submodule whose own history holds a secret file.
	r.secretRepo(t, "src/sub", ".env.production", gitSecretSub)
	r.git(t, "Documents", "init", "-q", "super")
	r.git(t, "Documents/super", "submodule", "add", "-q", r.p("src/sub"), "sub")

	r.writeHome(t, "Documents/plain/notes.txt", gitPlain+"\n")
	r.git(t, "Documents/plain", "init", "-q")
	r.git(t, "Documents/plain", "add", ".")
	r.git(t, "Documents/plain", "commit", "-qm", "notes")
	return r
}

// gitPayloads returns the payloads of githistory.json and the one that
// reads the objects by hand.
func gitPayloads(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, name := range []string{"log -p", "log -p through cut", "every object", "show the first commit", "a copy of the store"} {
		out[name] = payloadIn(t, "githistory.json", name)
	}
	py, err := os.ReadFile(filepath.Join("testdata", "review", "githistory_inflate.py"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("/usr/bin/python3"); err == nil {
		out["zlib by hand"] = []string{"/usr/bin/python3", "-c", string(py)}
	}
	return out
}

// TestRedGitHistoryHidden: in every repository whose history holds a
// secret file, no payload prints it unasked, and the result says which
// repository's objects were hidden and why.
func TestRedGitHistoryHidden(t *testing.T) {
	r := newGitHistoryRig(t)
	payloads := gitPayloads(t)
	for _, repo := range []string{"loose", "packed", "dangling", "dpacked", "alt", "wt", "super/sub"} {
		for name, argv := range payloads {
			t.Run(repo+"/"+name, func(t *testing.T) {
				res, _, err := r.runArgv(t, name, argv, "Documents/"+repo)
				out := res.Output
				if err != nil {
					out += "\n" + err.Error()
				}
				t.Logf("%s", out[max(0, len(out)-600):])
				for _, s := range gitSecrets {
					if strings.Contains(out, s) {
						t.Errorf("%s ran unasked in %s and printed %s: %q", name, repo, s, out)
					}
				}
				if !strings.Contains(out, "Airlock hid git's objects of") || !strings.Contains(out, "approve the command") {
					t.Errorf("%s in %s: the result does not say git's objects were hidden: %q", name, repo, out)
				}
			})
		}
	}
	// The store the alternates lead to, read directly.
	if py := payloads["zlib by hand"]; py != nil {
		res, _, err := r.runArgv(t, "zlib of the vault", append(py, r.p("vault/store.git/objects")), "Documents/alt")
		if strings.Contains(res.Output, gitSecretAlt) || !strings.Contains(res.Output, "~/vault/store.git") {
			t.Errorf("the store behind the alternates, read by hand: %q, %v", res.Output, err)
		}
	}
}

// TestRedGitHistoryLookAlikes: a repository whose history never named a
// secret file keeps git log -p working unasked, with no note; an approved
// git log -p still prints a secret history.
func TestRedGitHistoryLookAlikes(t *testing.T) {
	r := newGitHistoryRig(t)
	argv := payloadIn(t, "githistory.json", "log -p")
	res, _, err := r.runArgv(t, "log -p", argv, "Documents/plain")
	if err != nil || !strings.Contains(res.Output, gitPlain) || strings.Contains(res.Output, "hid git's objects") {
		t.Errorf("git log -p unasked in a plain repository: %q, %v", res.Output, err)
	}
	res, err = r.ex.RunScript(context.Background(), execute.KindCommand, "", argv, r.p("Documents/loose"), ossandbox.Grant{Approved: true})
	if err != nil || !strings.Contains(res.Output, gitSecretLoose) || strings.Contains(res.Output, "hid git's objects") {
		t.Errorf("git log -p approved: %q, %v", res.Output, err)
	}
	if res.Release != nil {
		res.Release()
	}
}
