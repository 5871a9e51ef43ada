//go:build linux

package sandbox_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/bridge"
)

// TestHideAfterMissingFolders: the launcher looks no further into a
// folder it found missing (hide), and that saves no look it needs: a
// secret listed after a missing one in a folder that exists is hidden, so
// is one reached through a link to a folder, and one in a folder that is
// missing, a dangling link or a file is skipped without failing the
// launch. Approved and unasked (with the copy-on-write view).
func TestHideAfterMissingFolders(t *testing.T) {
	r := newRig(t)
	d := r.docs
	for _, dir := range []string{"mixed", "real"} {
		if err := os.Mkdir(filepath.Join(d, dir), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	write(t, filepath.Join(d, "mixed", "key"), "MIXED-SECRET")
	write(t, filepath.Join(d, "real", "key"), "LINKED-SECRET")
	write(t, filepath.Join(d, "plain"), "a file")
	if err := os.Symlink(filepath.Join(d, "real"), filepath.Join(d, "via")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(d, "nothing"), filepath.Join(d, "dangling")); err != nil {
		t.Fatal(err)
	}
	secrets := []string{
		filepath.Join(d, "gone", "a"), // its folder is missing
		filepath.Join(d, "gone", "b"), // skipped: "gone" was found missing
		filepath.Join(d, "gone", "deeper", "c"),
		filepath.Join(d, "dangling", "x"),
		filepath.Join(d, "plain", "x"),   // under a file
		filepath.Join(d, "mixed", "0"),   // missing, in a folder that exists
		filepath.Join(d, "mixed", "key"), // listed after it: hidden
		filepath.Join(d, "via", "key"),   // through a link: hidden
	}
	script := `for f in mixed/key via/key real/key; do printf '%s=' "$f"; cat "$f"; echo; done`
	for _, g := range []sandbox.Grant{{Approved: true, Secrets: secrets}, {Secrets: secrets}} {
		c, done, err := r.box.Confine(bridge.Command{Argv: []string{"sh", "-c", script}, Dir: d}, sandbox.KindCommand, g)
		if err != nil {
			t.Fatal(err)
		}
		out, stderr, err := bridge.RunArgv(context.Background(), c)
		done()
		if err != nil {
			t.Fatalf("approved %v: %v\n%s%s", g.Approved, err, out, stderr)
		}
		if strings.Contains(out, "SECRET") {
			t.Errorf("approved %v: a secret listed after a missing one was read:\n%s", g.Approved, out)
		}
		if want := "mixed/key=\nvia/key=\nreal/key=\n"; out != want {
			t.Errorf("approved %v: the action read\n%s\nwant\n%s", g.Approved, out, want)
		}
	}
}
