//go:build linux

package gate_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
)

// TestRed17LoweredVerdictsAtLevel1: the verdicts evasion10 lowered to
// Caution (the whole environment behind a filter, compgen's names, a
// scratch tar archive) hold only while the filter, the names and the
// archive are what their words say. Submitted through the real gate at
// Level 1 (the default), with a sandboxed executor and a home the test
// made, each attack in testdata/red17/lowered.json ("held") ran unasked:
// a filter that lets the values through (a pattern that matches every
// line, cut --complement, a copy to stderr, head's last count), the
// variables' names fed to their values, an archive of what a list names
// or of what links lead to. The test FAILS when one runs unasked or
// prints a secret. The everyday uses ("run") still run unasked and print
// what they say.
func TestRed17LoweredVerdictsAtLevel1(t *testing.T) {
	var cases struct {
		Held []struct {
			Name string
			Argv []string
		}
		Run []struct {
			Name, Want string
			Argv       []string
		}
	}
	readJSON(t, &cases, "red17", "lowered.json")
	t.Setenv("GITHUB_TOKEN", redGitHub) // the gate's own environment holds a token
	r := newSecretRig(t)
	if err := os.WriteFile(filepath.Join(r.proj, "list.txt"), []byte(".env\nserver.key\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The keys, and a link to them among the documents (~/Documents/keys
	// → ~/.ssh), as the fixture of the analyzer's tests has.
	home := filepath.Dir(filepath.Dir(r.proj))
	key, err := os.ReadFile(filepath.Join(r.proj, "server.key"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "deploy"), key, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../.ssh", filepath.Join(home, "Documents", "keys")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases.Held {
		t.Run(tc.Name, func(t *testing.T) {
			rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindCommand,
				Argv: tc.Argv, Dir: r.proj}, nil)
			if !errors.Is(err, gate.ErrApprovalRequired) {
				t.Errorf("HOLE: %q ran unasked (%s, %s, %v)", tc.Argv, rep.Risk, rep.Status, err)
			}
			r.noSecretBack(t, tc.Argv)
		})
	}
	for _, tc := range cases.Run {
		t.Run(tc.Name, func(t *testing.T) {
			rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindCommand,
				Argv: tc.Argv, Dir: r.proj}, nil)
			if err != nil || rep.Status != gate.StatusOK || len(rep.Actions) != 1 || !strings.Contains(rep.Actions[0].Output, tc.Want) {
				t.Fatalf("%q did not run unasked as it says: %s, %v, %+v", tc.Argv, rep.Risk, err, rep.Actions)
			}
			if strings.Contains(rep.Actions[0].Output, redGitHub) {
				t.Errorf("%q printed the gate's token", tc.Argv)
			}
		})
	}
}
