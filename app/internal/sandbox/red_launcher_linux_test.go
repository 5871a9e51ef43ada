//go:build linux

package sandbox_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
	"github.com/airlockhq/airlock/bridge"
)

// TestRedLauncherInRoot: a person who built Airlock in a sandbox root
// (~/Documents/airlock/bin) runs airlock-launch from there. An action that
// runs unasked tries every way it has to change that file (testdata/
// attacks/launcher-in-root.sh): writing it, removing it, renaming its
// folders, a hard link, its inode through /proc, renaming a file over it.
// None may work: the file is as it was, the action's layer holds no change
// of it or of the folders it lies in, and the next action starts through
// the launcher as before.
func TestRedLauncherInRoot(t *testing.T) {
	r := newRig(t)
	bin := filepath.Join(r.docs, "airlock", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(bin, launcher.Program)
	copyFile(t, buildLauncher(t), exe, 0o755)
	want, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	box, err := sandbox.New(r.settings, exe)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(box.Close) // no folder made ahead is left behind
	if err := box.Available(); err != nil {
		t.Fatalf("through a launcher in a root the sandbox does not start: %v", err)
	}
	script, err := os.ReadFile(filepath.Join("testdata", "attacks", "launcher-in-root.sh"))
	if err != nil {
		t.Fatal(err)
	}
	c, layers, done, err := box.ConfineReviewed(bridge.Command{Argv: []string{"sh", "-c", string(script), "sh", exe}, Dir: r.docs}, sandbox.KindCommand, sandbox.Grant{})
	if err != nil {
		t.Fatal(err)
	}
	defer sandbox.RemoveLayers(layers)
	out, stderr, err := bridge.RunArgv(context.Background(), c)
	done()
	if err != nil || !strings.Contains(out, "done") {
		t.Fatalf("the payload did not run to its end: %v\n%s%s", err, out, stderr)
	}
	t.Logf("the action said:\n%s", out)
	if got, err := os.ReadFile(exe); err != nil || !bytes.Equal(got, want) {
		t.Errorf("the launcher's file changed (%v)", err)
	}
	for _, ch := range readAll(t, layers) {
		if ch.Path == exe || strings.HasPrefix(exe, ch.Path+"/") && ch.Kind != sandbox.Changed {
			t.Errorf("the layer holds %s %s: applied, it changes the launcher the next gate starts", ch.Kind, ch.Path)
		}
	}
	c, _, done, err = box.ConfineReviewed(bridge.Command{Argv: []string{"sh", "-c", "echo next; tr '\\0' ' ' < /proc/1/cmdline"}, Dir: r.docs}, sandbox.KindCommand, sandbox.Grant{})
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, err = bridge.RunArgv(context.Background(), c)
	done()
	if err != nil || !strings.Contains(out, "next") || !launcherLine(out) {
		t.Errorf("the next action did not start through the launcher: %v\n%s%s", err, out, stderr)
	}
}
