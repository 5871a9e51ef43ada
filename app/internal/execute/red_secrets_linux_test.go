//go:build linux

package execute_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/execute"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
)

// Attacks from inside an unasked action on the secret files of a sandbox
// root (rootsecrets.go): each payload (testdata/review/secrets.json) runs
// unasked through the real sandbox, whatever the analyzer would say of it,
// in a home made in a temporary folder, and the test fails when what comes
// back holds a secret, or when a hidden file is changed or reported as
// changed.

// The secrets of the rig's files, each distinct so a failure says which
// file leaked.
const (
	secretDotenv  = "S3CRET-dotenv-value-1"
	secretKey     = "S3CRET-server-key-2"
	secretNested  = "S3CRET-nested-env-3"
	secretRSA     = "S3CRET-id-rsa-4"
	secretOutside = "S3CRET-p12-outside-5"
	secretLate    = "S3CRET-made-later-6"
	secretMoved   = "S3CRET-renamed-in-7"
	plainNotes    = "plain notes, no secret"
	exampleEnv    = "EXAMPLE_KEY=fill-me"
)

// newSecretsRig is a home whose one root (~/Documents) holds proj with a
// .env, a key, a .env.example and notes; a folder named .env holding a .env
// and one named id_rsa holding an id_rsa; a link to the .env by an
// innocent name; and a link to a key store outside the roots (~/vault).
func newSecretsRig(t *testing.T) *redRig {
	t.Helper()
	r := newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		"Documents/proj/.env":               {"DB_PASSWORD=" + secretDotenv + "\n", 0o600},
		"Documents/proj/server.key":         {secretKey + "\n", 0o600},
		"Documents/proj/.env.example":       {exampleEnv + "\n", 0o644},
		"Documents/proj/notes.txt":          {plainNotes + "\n", 0o644},
		"Documents/proj/deploy/.env/.env":   {"TOKEN=" + secretNested + "\n", 0o600},
		"Documents/proj/keys/id_rsa/id_rsa": {secretRSA + "\n", 0o600},
		"vault/ci.p12":                      {secretOutside + "\n", 0o600},
	})
	for link, target := range map[string]string{
		"Documents/proj/readme.md":  ".env",
		"Documents/proj/bundle.bin": r.p("vault/ci.p12"),
	} {
		if err := os.Symlink(target, r.p(link)); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

// secretPayload returns the argv of the payload name of secrets.json.
func secretPayload(t *testing.T, name string) []string { return payloadIn(t, "secrets.json", name) }

// leaked returns the secrets of the rig that what came back holds, as
// printed or with every blank taken out.
func leaked(res execute.Result, err error) []string {
	out := res.Output
	if err != nil {
		out += "\n" + err.Error()
	}
	squeezed := strings.Join(strings.Fields(out), "")
	var got []string
	for _, s := range []string{secretDotenv, secretKey, secretNested, secretRSA, secretOutside, secretLate, secretMoved} {
		if strings.Contains(out, s) || strings.Contains(squeezed, s) {
			got = append(got, s)
		}
	}
	return got
}

// runSecret runs the payload name unasked in ~/Documents/proj and fails
// the test when what comes back holds a secret.
func (r *redRig) runSecret(t *testing.T, name string) (execute.Result, []string, error) {
	t.Helper()
	res, held, err := r.runArgv(t, name, secretPayload(t, name), "Documents/proj")
	if errors.Is(err, execute.ErrSecretsUnhidden) {
		t.Fatalf("%s was not started: %v", name, err)
	}
	if l := leaked(res, err); len(l) > 0 {
		t.Errorf("%s ran unasked and printed %q (err %v)", name, l, err)
	}
	return res, held, err
}

// TestRedSecretsHidden: read whole, through globs, links (followed or
// made), /proc, a folder named like a secret file, or with the hiding
// mounts taken off in a namespace of its own, no secret file of the root
// comes back to an unasked action; what is not secret (.env.example, the
// notes) does.
func TestRedSecretsHidden(t *testing.T) {
	r := newSecretsRig(t)
	// The links the first action makes land in the root (the review
	// applies them): the reads after it follow them.
	for _, name := range []string{"links made by the action", "folder read whole", "folder read whole, links followed",
		"glob in a shell", "through proc", "folder named like the file", "mounts taken off"} {
		t.Run(name, func(t *testing.T) {
			res, held, err := r.runSecret(t, name)
			t.Logf("output %q, held %q, err %v", res.Output, held, err)
			if strings.HasPrefix(name, "folder read whole") {
				for _, want := range []string{plainNotes, exampleEnv} {
					if !strings.Contains(res.Output, want) {
						t.Errorf("%s does not show %q, which holds no secret: %q", name, want, res.Output)
					}
				}
			}
		})
	}
	// No file the actions made holds a secret: a hard link or copy of a
	// hidden file cannot be made through the view. (A link made by name,
	// soft.txt → .env, lands; the reads after it do not see through it.)
	for _, made := range []string{"linked.txt", "hard.txt", "soft.txt", "copied.txt"} {
		p := r.p("Documents/proj/" + made)
		if fi, err := os.Lstat(p); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		if b, err := os.ReadFile(p); err == nil && strings.Contains(string(b), "S3CRET") {
			t.Errorf("proj/%s, made unasked, holds a secret: %q", made, b)
		}
	}
	if fi, err := os.Lstat(r.p("Documents/proj/soft.txt")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("proj/soft.txt, a link the first action made, did not land (%v): the reads after it did not try it", err)
	}
}

// TestRedSecretsAfterIndex: the index was built by an earlier action; the
// person then makes a .env in a folder the index has seen and in a new
// one, and puts a folder holding secrets.yml in place of proj/keys by a
// rename, its modification time set to the old folder's. None of them
// comes back.
func TestRedSecretsAfterIndex(t *testing.T) {
	r := newSecretsRig(t)
	if _, _, err := r.runSecret(t, "folder read whole"); err != nil {
		t.Logf("first run: %v", err)
	}
	old, err := os.Stat(r.p("Documents/proj/keys"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"Documents/proj/.env.local":             "API=" + secretLate,
		"Documents/proj/late/.env.production":   "API=" + secretLate,
		"Documents/incoming/keys/secrets.yml":   "token: " + secretMoved,
		"Documents/incoming/keys/id_rsa/id_rsa": secretRSA,
	}
	for rel, body := range files {
		if err := os.MkdirAll(filepath.Dir(r.p(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(r.p(rel), []byte(body+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chtimes(r.p("Documents/incoming/keys"), old.ModTime(), old.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(r.p("Documents/proj/keys")); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(r.p("Documents/incoming/keys"), r.p("Documents/proj/keys")); err != nil {
		t.Fatal(err)
	}
	res, _, err := r.runSecret(t, "folder read whole")
	if !strings.Contains(res.Output, plainNotes) {
		t.Errorf("the second read shows no notes: %q, %v", res.Output, err)
	}
}

// TestRedSecretsHiddenStayPut: an unasked action that removes, renames,
// rewrites and changes the mode of the hidden files, and removes or
// renames the folders that hold them, changes none of them, and the
// review reports no change to any: nothing of them is in the Trash, held
// or applied.
func TestRedSecretsHiddenStayPut(t *testing.T) {
	r := newSecretsRig(t)
	res, held, err := r.runSecret(t, "hidden files removed, renamed, rewritten")
	t.Logf("output %q, held %q, err %v", res.Output, held, err)
	for _, c := range res.Changes {
		t.Logf("%s %s", c.Kind, c.Path)
	}
	hidden := map[string]string{
		"Documents/proj/.env":               "DB_PASSWORD=" + secretDotenv + "\n",
		"Documents/proj/server.key":         secretKey + "\n",
		"Documents/proj/deploy/.env/.env":   "TOKEN=" + secretNested + "\n",
		"Documents/proj/keys/id_rsa/id_rsa": secretRSA + "\n",
	}
	for rel, want := range hidden {
		if got := r.read(rel); got != want {
			t.Errorf("%s is %q after the action, want %q", rel, got, want)
		}
		p := r.p(rel)
		for _, c := range res.Changes {
			if c.Path == p || strings.HasPrefix(p, c.Path+"/") && (c.Kind == ossandbox.Removed || c.Kind == ossandbox.Replaced) {
				t.Errorf("the review reports %s %s, which holds a hidden file", c.Kind, c.Path)
			}
		}
		for _, h := range held {
			if h == rel {
				t.Errorf("the review holds %s", rel)
			}
		}
	}
	for _, s := range []string{secretDotenv, secretKey, secretNested, secretRSA} {
		if r.inTrash(t, s+"\n") {
			t.Errorf("the Trash holds a hidden file (%s)", s)
		}
	}
}

// TestSecretsApprovedNamed: an action the person approved that names the
// .env and the key reads them, as before.
func TestSecretsApprovedNamed(t *testing.T) {
	r := newSecretsRig(t)
	res, err := r.ex.RunScript(context.Background(), execute.KindCommand, "", secretPayload(t, "named, approved"),
		r.p("Documents/proj"), ossandbox.Grant{Approved: true})
	if err != nil {
		t.Fatalf("RunScript: %v", err)
	}
	for _, s := range []string{secretDotenv, secretKey} {
		if !strings.Contains(res.Output, s) {
			t.Errorf("the approved action does not see %s: %q", s, res.Output)
		}
	}
}
