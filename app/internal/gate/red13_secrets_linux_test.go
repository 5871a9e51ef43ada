//go:build linux

package gate_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
)

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
	b, err := os.ReadFile(filepath.Join("testdata", "red13", "backups.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []red13Backup
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
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
			rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindCommand,
				Argv: tc.Argv, Dir: r.proj}, nil)
			t.Logf("%q: %s, %v", tc.Argv, rep.Risk, err)
			if errors.Is(err, gate.ErrApprovalRequired) {
				return // held for the person: it did not run
			}
			var out strings.Builder
			for _, a := range rep.Actions {
				out.WriteString(a.Output)
				out.WriteString(a.Error)
			}
			for what, secret := range r.secrets {
				for _, s := range shapes(out.String()) {
					if strings.Contains(s, secret) {
						t.Errorf("HOLE: %q ran unasked (%s, err %v) and printed %s", tc.Argv, rep.Risk, err, what)
						break
					}
				}
			}
		})
	}
}

// TestRed13BackupNamesLookalikes: copies and backups of files that hold
// no secret (notes, settings, code, a public key, a certificate, a
// report downloaded twice) are read unasked, as the files they copy.
func TestRed13BackupNamesLookalikes(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "red13", "backups-lookalikes.json"))
	if err != nil {
		t.Fatal(err)
	}
	var cases []red13Backup
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
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
