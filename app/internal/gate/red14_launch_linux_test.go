//go:build linux

package gate_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/gate"
)

// red14Open is one case of testdata/red14/open-hidden.json: a file the
// test puts in the home and the plan that opens it in the viewer.
type red14Open struct{ Name, File, Body, Plan string }

// openIn writes tc's file in r's home and submits its plan unasked; it
// reports whether the viewer was started within wait.
func (r *launchRig) openIn(t *testing.T, tc red14Open, wait time.Duration) (gate.Report, bool) {
	t.Helper()
	p := filepath.Join(r.home, tc.File)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(tc.Body), 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err := r.submit(tc.Plan)
	t.Logf("%s: %s, %v", tc.Plan, rep.Status, err)
	return rep, r.waitFor("evince", wait)
}

// TestRed14OpenHiddenSecretInViewer: the sandbox hides from an unasked
// action the files of the roots that hold a secret though their name
// says nothing (a private key known by its first bytes, a service
// account's key named for its project, a home's credential store copied
// into the roots), so a command cannot print them. But OPEN_FILE of one
// in a viewer was Caution and ran unasked: the viewer, outside every
// sandbox, reads it, and a later script asks it for the text (text of
// document 1), as opening a secret-named file is rated. A launch the
// person did not approve is refused for a file the sandbox hides.
func TestRed14OpenHiddenSecretInViewer(t *testing.T) {
	var cases struct{ Hidden, Lookalikes []red14Open }
	readJSON(t, &cases, "red14", "open-hidden.json")
	for _, tc := range cases.Hidden {
		t.Run(tc.Name, func(t *testing.T) {
			r := newLaunchRig(t, 1)
			rep, started := r.openIn(t, tc, 300*time.Millisecond)
			if started || rep.Status == gate.StatusOK {
				t.Fatalf("HOLE: %s opened unasked in the viewer (%s, risk %s): it reads the secret outside the sandbox", tc.File, rep.Status, rep.Risk)
			}
		})
	}
}

// TestRed14OpenHiddenSecretLookalikes: files beside them that hold no
// secret (a certificate, a project's settings) open unasked in the viewer.
func TestRed14OpenHiddenSecretLookalikes(t *testing.T) {
	openLookalikes(t, "red14")
}

// openLookalikes opens each look-alike of testdata/<dir>/open-hidden.json
// unasked with OPEN_FILE: each must start in the viewer.
func openLookalikes(t *testing.T, dir string) {
	var cases struct{ Hidden, Lookalikes []red14Open }
	readJSON(t, &cases, dir, "open-hidden.json")
	for _, tc := range cases.Lookalikes {
		t.Run(tc.Name, func(t *testing.T) {
			r := newLaunchRig(t, 1)
			rep, started := r.openIn(t, tc, 10*time.Second)
			if !started || rep.Status != gate.StatusOK {
				t.Fatalf("%s did not open unasked (%s, risk %s)", tc.File, rep.Status, rep.Risk)
			}
		})
	}
}
