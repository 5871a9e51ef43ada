//go:build linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// TestOtherActionsTempFolders: an action, unasked or approved, reaches its
// own temporary folder and no other action's: not a folder another action
// is using beside it (a file an approved action wrote there, a socket it
// listens on), nor one a stopped gate left. Its own lies in the same
// folder of the user's actions' folders as theirs.
func TestOtherActionsTempFolders(t *testing.T) {
	r := newRig(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	box := r.reviewed(t, r.settings.Staging)
	actions := filepath.Join(tmp, "airlock-actions-"+strconv.Itoa(os.Getuid()))
	other := filepath.Join(actions, "airlock-action-other")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(other, "token"), "otherActionsTokenS3CRET")
	for _, g := range []sandbox.Grant{{}, {Approved: true}} {
		out, _, err := runReviewed(t, box, r.home, g, "sh", "-c",
			`printf mine > "$TMPDIR/t" && cat "$TMPDIR/t" && echo "|$TMPDIR|" && cat "$1/token"; ls "$2"`, "sh", other, actions)
		if !strings.HasPrefix(out, "mine|"+actions+"/airlock-action-") {
			t.Fatalf("approved %v: its own temporary folder is not in %s: %q, %v", g.Approved, actions, out, err)
		}
		if strings.Contains(out, "otherActionsTokenS3CRET") || strings.Contains(out, "\nairlock-action-other\n") {
			t.Errorf("approved %v: an action read another action's temporary folder: %q", g.Approved, out)
		}
	}
}
