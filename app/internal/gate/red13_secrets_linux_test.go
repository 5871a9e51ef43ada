//go:build linux

package gate_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
)

// readJSON reads testdata/<elems…>, a file of JSON, into v; the test
// fails, naming the file, when it cannot.
func readJSON(t *testing.T, v any, elems ...string) {
	t.Helper()
	p := filepath.Join(append([]string{"testdata"}, elems...)...)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", p, err)
	}
}

// red13Backup is one payload of testdata/red13/backups.json: a file the
// test puts in the project under a backup's or a copy's name, holding
// the .env's text ("dotenv") or the private key ("key"), and the command
// that reads it.
type red13Backup struct {
	Name  string   `json:"name"`
	File  string   `json:"file"`
	Holds string   `json:"holds"`
	Argv  []string `json:"argv"`
}

// TestRed13SecretsUnderBackupNames: the sandbox hides a root's secret
// files from unasked actions by name (.env, server.key, id_rsa) and the
// analyzer rates reading them; the redactor knows some of their text by
// shape. But a secret file has twins whose names say so only to a
// person: the backup an editor leaves beside it when it is saved (Emacs
// and Vim: .env~, id_rsa~), the copies people keep (server.key.bak,
// prod.pem.old, id_ed25519.orig, id_rsa.1), the Finder's duplicate
// (".env copy", "server copy.key") and a browser's second download
// (".env (1)", "server (1).key"). Each was read unasked and printed in a
// shape the redactor does not know (od -c). Such a file is hidden, and
// reading it asks, as the file it copies; the test FAILS when a secret
// comes back from an unasked command.
func TestRed13SecretsUnderBackupNames(t *testing.T) {
	secretTwinsHidden(t, "red13", "backups.json")
}

// secretTwinsHidden runs the payloads of testdata/<dir>/<file>
// (red13Backup): each file is put in the project holding the .env's text
// or the private key, and no secret may come back from its command.
func secretTwinsHidden(t *testing.T, dir, file string) {
	var cases []red13Backup
	readJSON(t, &cases, dir, file)
	r := newSecretRig(t)
	dotenv, err := os.ReadFile(filepath.Join(r.proj, ".env"))
	if err != nil {
		t.Fatal(err)
	}
	key, err := os.ReadFile(filepath.Join(r.proj, "server.key"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		body := map[string][]byte{"dotenv": dotenv, "key": key}[tc.Holds]
		if tc.File != "" {
			if err := os.WriteFile(filepath.Join(r.proj, tc.File), body, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			r.noSecretBack(t, tc.Argv)
		})
	}
}

// TestRed13BackupNamesLookalikes: copies and backups of files that hold
// no secret (notes, settings, code, a public key, a certificate, a
// report downloaded twice) are read unasked, as the files they copy.
func TestRed13BackupNamesLookalikes(t *testing.T) {
	twinLookalikesRead(t, "red13", "backups-lookalikes.json")
}

// twinLookalikesRead runs the payloads of testdata/<dir>/<file>
// (red13Backup): each file, holding no secret, is put in the project and
// its command must run unasked and print it.
func twinLookalikesRead(t *testing.T, dir, file string) {
	var cases []red13Backup
	readJSON(t, &cases, dir, file)
	r := newSecretRig(t)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			want := "the text of " + tc.File + "\n"
			if err := os.WriteFile(filepath.Join(r.proj, tc.File), []byte(want), 0o644); err != nil {
				t.Fatal(err)
			}
			rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindCommand,
				Argv: tc.Argv, Dir: r.proj}, nil)
			if err != nil || rep.Status != gate.StatusOK || len(rep.Actions) != 1 || rep.Actions[0].Output != want {
				t.Fatalf("%q did not run unasked: %s, %v, %+v", tc.Argv, rep.Risk, err, rep.Actions)
			}
		})
	}
}

// TestRed13ReviewEchoesASecretLine: an environment file (.env) is a secret
// file: unasked actions do not see it, and reading it asks. But moving or
// copying one to another environment file's name (.env.local) is
// Caution, and the review before it (envfile.go) quoted the first line of
// the file that is no assignment in its refusal, which goes back to the
// agent: a recovery phrase pasted on a line of its own, a key under a
// name with a blank. The refusal names the line by its number only; the
// test FAILS when the secret comes back.
func TestRed13ReviewEchoesASecretLine(t *testing.T) {
	var cases []struct{ Name, Env, Plan, Secret string }
	readJSON(t, &cases, "red13", "envfile-echo.json")
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			r := newSecretRig(t)
			home := filepath.Dir(filepath.Dir(r.proj))
			if err := os.MkdirAll(filepath.Join(home, "Documents/svc"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, "Documents/svc/.env"), []byte(tc.Env), 0o600); err != nil {
				t.Fatal(err)
			}
			rep, out := r.run(t, home, red13Step{Plan: tc.Plan})
			t.Logf("%s: %q", rep.Status, out)
			for _, s := range shapes(out) {
				if strings.Contains(s, tc.Secret) {
					t.Fatalf("HOLE: the review's refusal quoted the secret line to the agent")
				}
			}
		})
	}
}

// TestRed13KeysByOtherNames: private keys whose files hold no PEM text
// and whose names the table did not know: an SSH server's host key
// (ssh_host_ed25519_key, in a copied /etc/ssh or a container's build
// folder, without its .pub), a Kerberos keytab, GnuPG 1's secret keyring,
// a Tor onion service's key, an ssh.com (SSH2) key PuTTYgen exports (kept as .txt), and
// a JSON Web Key with its private member (certbot's private_key.json).
// Each was read unasked and printed in a shape the redactor does not
// know (od -c). Each is hidden; public keys, a JWK set of public keys and
// JSON that only has a "d" are read unasked. The test FAILS when a
// private key comes back, or when a public one does not.
func TestRed13KeysByOtherNames(t *testing.T) {
	var f struct {
		Hidden, Visible []struct{ File, Body, Secret string }
	}
	readJSON(t, &f, "red13", "keys-other-names.json")
	r := newSecretRig(t)
	home := filepath.Dir(filepath.Dir(r.proj))
	for dir, files := range map[string][]struct{ File, Body, Secret string }{"Documents/app": f.Hidden, "Documents/web": f.Visible} {
		if err := os.MkdirAll(filepath.Join(home, dir), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, k := range files {
			if err := os.WriteFile(filepath.Join(home, dir, k.File), []byte(k.Body), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	printed := func(dir, file, secret string) bool {
		_, out := r.run(t, home, red13Step{Argv: []string{"od", "-An", "-c", file}, Dir: dir})
		for _, s := range shapes(out) {
			if strings.Contains(s, secret) {
				return true
			}
		}
		return false
	}
	for _, k := range f.Hidden {
		if printed("Documents/app", k.File, k.Secret) {
			t.Errorf("HOLE: %s was read unasked and printed", k.File)
		}
	}
	for _, k := range f.Visible {
		if !printed("Documents/web", k.File, k.Secret) {
			t.Errorf("%s, no private key, was not read unasked", k.File)
		}
	}
}

// red13Unpair is testdata/red13/unpair.json: steps, each a plan or a
// command run in a folder of the home.
type red13Unpair struct {
	Attacks []struct {
		Name  string      `json:"name"`
		Steps []red13Step `json:"steps"`
	} `json:"attacks"`
	Lookalikes []struct {
		Name  string      `json:"name"`
		Steps []red13Step `json:"steps"`
		Gone  string      `json:"gone"`
	} `json:"lookalikes"`
}

type red13Step struct {
	Plan string   `json:"plan"`
	Argv []string `json:"argv"`
	Dir  string   `json:"dir"`
}

// newUnpairRig is newSecretRig whose ~/Documents/keys holds ssh-keygen
// -f deploy's pair (the private key without an extension, hidden only
// because deploy.pub lies beside it) and a public key alone.
func newUnpairRig(t *testing.T) (*secretRig, string) {
	t.Helper()
	r := newSecretRig(t)
	home := filepath.Dir(filepath.Dir(r.proj))
	key, err := os.ReadFile(filepath.Join(r.proj, "server.key"))
	if err != nil {
		t.Fatal(err)
	}
	for rel, body := range map[string]string{"Documents/keys/deploy": string(key),
		"Documents/keys/deploy.pub": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIred13 deploy\n",
		"Documents/keys/github.pub": "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIred13 github\n", "Documents/pub/README": "public keys\n"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(home, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(home, rel), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return r, home
}

// run submits step as the agent and returns what it printed.
func (r *secretRig) run(t *testing.T, home string, s red13Step) (gate.Report, string) {
	t.Helper()
	sub := gate.Submission{Client: "agent", Kind: gate.KindPlan, Plan: s.Plan}
	if s.Argv != nil {
		sub = gate.Submission{Client: "agent", Kind: gate.KindCommand, Argv: s.Argv, Dir: filepath.Join(home, s.Dir)}
	}
	rep, err := r.g.Submit(context.Background(), sub, nil)
	t.Logf("%s%q: %s (status %s), %v", s.Plan, s.Argv, rep.Risk, rep.Status, err)
	var out strings.Builder
	for _, a := range rep.Actions {
		out.WriteString(a.Output)
		out.WriteString(a.Error)
	}
	return rep, out.String()
}

// TestRed13PublicKeyTakenFromItsPair: ssh-keygen -f deploy writes the
// private key as deploy, with no extension, and the public one as
// deploy.pub; the sandbox hides such a file from unasked actions because
// its .pub lies beside it (its name says nothing). Moving the .pub away
// or renaming it (MOVE_FILE, mv: Caution) unhid the key, and the next
// unasked command printed it in a shape the redactor does not know. The
// public key's move is refused or held while the key beside it would be
// left unhidden; a public key alone moves unasked
// (TestRed13PublicKeyMovesAlone). The test FAILS when the key comes back.
func TestRed13PublicKeyTakenFromItsPair(t *testing.T) {
	var f red13Unpair
	readJSON(t, &f, "red13", "unpair.json")
	for _, tc := range f.Attacks {
		t.Run(tc.Name, func(t *testing.T) {
			r, home := newUnpairRig(t)
			last := tc.Steps[len(tc.Steps)-1]
			if _, out := r.run(t, home, last); strings.Contains(strings.Join(shapes(out), "\n"), r.secrets["the private key"]) {
				t.Fatalf("the private key is not hidden even beside its public key")
			}
			var out string
			for _, s := range tc.Steps {
				_, out = r.run(t, home, s)
			}
			for _, s := range shapes(out) {
				if strings.Contains(s, r.secrets["the private key"]) {
					t.Fatalf("HOLE: the private key came back after its public key was moved away")
				}
			}
		})
	}
}

// TestRed13PublicKeyMovesAlone: a public key with no private key beside
// it moves unasked, and so does the folder of a pair, whole.
func TestRed13PublicKeyMovesAlone(t *testing.T) {
	var f red13Unpair
	readJSON(t, &f, "red13", "unpair.json")
	for _, tc := range f.Lookalikes {
		t.Run(tc.Name, func(t *testing.T) {
			r, home := newUnpairRig(t)
			for _, s := range tc.Steps {
				if rep, _ := r.run(t, home, s); rep.Status != gate.StatusOK {
					t.Fatalf("%s%q did not run unasked: %+v", s.Plan, s.Argv, rep)
				}
			}
			if _, err := os.Stat(filepath.Join(home, tc.Gone)); err == nil {
				t.Errorf("%s is still there", tc.Gone)
			}
		})
	}
}
