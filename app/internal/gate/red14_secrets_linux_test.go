//go:build linux

package gate_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
)

// TestRed14SecretsUnderEditorNames: the twins of a secret file the
// thirteenth team found (.env~, server.key.bak, ".env copy") are hidden as
// the file they copy, but not those by the other names tools give them:
// the numbered backups GNU cp, mv and install make with
// --backup=numbered, and Emacs with version-control set (.env.~1~,
// id_ed25519.~12~), and the swap files Vim keeps beside a file being
// edited, left behind when it ends unsaved (.env.swp, .id_rsa.swp,
// .server.key.swo), each of which holds the file's text. Each was read
// unasked and printed in a shape the redactor does not know (od -c); the
// test FAILS when a secret comes back from an unasked command.
func TestRed14SecretsUnderEditorNames(t *testing.T) {
	var cases []red13Backup
	readJSON(t, &cases, "red14", "backups.json")
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
		if err := os.WriteFile(filepath.Join(r.proj, tc.File), body, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			r.noSecretBack(t, tc.Argv)
		})
	}
}

// TestRed14EditorNamesLookalikes: numbered backups and swap files of
// files that hold no secret (code, a public key, notes) are read unasked,
// as the files they copy.
func TestRed14EditorNamesLookalikes(t *testing.T) {
	var cases []red13Backup
	readJSON(t, &cases, "red14", "backups-lookalikes.json")
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
