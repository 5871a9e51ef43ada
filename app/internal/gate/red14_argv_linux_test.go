//go:build linux

package gate_test

import (
	"context"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
)

// red14Argv is one case of testdata/red14/script-argv.json: a script and
// the argv the agent gives it.
type red14Argv struct {
	Name, Kind, Plan string
	Argv             []string
}

// submitArgv submits tc unasked at Level 1 and returns its report.
func submitArgv(t *testing.T, r *secretRig, tc red14Argv) gate.Report {
	t.Helper()
	rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: tc.Kind, Plan: tc.Plan, Argv: tc.Argv}, nil)
	t.Logf("%s: %s, risk %s, %v", tc.Name, rep.Status, rep.Risk, err)
	return rep
}

// TestRed14ScriptArgvNamesASecret: an AppleScript's or JXA script's argv
// is the agent's text, which the script's apps take as paths (the
// Finder's duplicate, Mail's attachment, System Events' move) outside
// every sandbox; the analyzer rated the script alone, so a script that
// copies or attaches "the file argv names" was Caution whatever argv
// named: a credential store's file, a key, an environment file, a place
// whose files run later. The values are rated as the same paths in the
// script's text are; the test FAILS when one is rated below Dangerous.
func TestRed14ScriptArgvNamesASecret(t *testing.T) {
	var cases struct{ Secret, Lookalikes []red14Argv }
	readJSON(t, &cases, "red14", "script-argv.json")
	r := newSecretRig(t)
	for _, tc := range cases.Secret {
		t.Run(tc.Name, func(t *testing.T) {
			rep := submitArgv(t, r, tc)
			switch rep.Risk {
			case "dangerous", "destructive", "blocked":
			default:
				t.Errorf("HOLE: rated %s with argv %q: it would run unasked", rep.Risk, tc.Argv)
			}
		})
	}
}

// TestRed14ScriptArgvLookalikes: argv that names an everyday document, or
// text that is no path, changes nothing.
func TestRed14ScriptArgvLookalikes(t *testing.T) {
	var cases struct{ Secret, Lookalikes []red14Argv }
	readJSON(t, &cases, "red14", "script-argv.json")
	r := newSecretRig(t)
	for _, tc := range cases.Lookalikes {
		t.Run(tc.Name, func(t *testing.T) {
			if rep := submitArgv(t, r, tc); rep.Risk != "safe" && rep.Risk != "caution" {
				t.Errorf("rated %s with argv %q", rep.Risk, tc.Argv)
			}
		})
	}
}
