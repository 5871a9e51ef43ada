//go:build linux

package sandbox_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
	"github.com/airlockhq/airlock/bridge"
)

// The dedicated launcher, airlock-launch, built once per test binary into
// a folder TestMain removes.
var built struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// buildLauncher returns airlock-launch built from this source as make
// build builds it (static, no cgo), or skips the test where there is no go
// command to build it with.
func buildLauncher(t testing.TB) string {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to build %s with: %v", launcher.Program, err)
	}
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "airlock-launch-test-"); built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, launcher.Program)
		cmd := exec.Command(goCmd, "build", "-o", built.path, "github.com/airlockhq/airlock/app/cmd/airlock-launch")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			built.err = fmt.Errorf("%w\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatalf("building %s: %v", launcher.Program, built.err)
	}
	return built.path
}

// launcherLine reports whether out holds the launcher's command line: a
// launcher started cold (launcher.Flag) or ahead (launcher.WaitFlag).
func launcherLine(out string) bool {
	return strings.Contains(out, launcher.Flag) || strings.Contains(out, launcher.WaitFlag)
}

// removeBuilt removes what buildLauncher built (TestMain, after the tests).
func removeBuilt() {
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
}

// dedicated makes r's box start actions through airlock-launch, as the
// gate does where it is installed beside airlock.
func (r *rig) dedicated(t testing.TB) {
	t.Helper()
	box, err := sandbox.New(r.settings, buildLauncher(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(box.Close) // no folder made ahead is left behind
	if err := box.Available(); err != nil {
		t.Fatalf("through %s the sandbox does not start: %v", launcher.Program, err)
	}
	r.box = box
}

// TestDedicatedLauncher: through airlock-launch an action is confined as
// through airlock itself: the home's hidden files and the launcher's own
// file are out of sight, nothing is written outside the roots, what an
// unasked action writes in a root lands in its layer, and the program runs
// as a child of the launcher, PID 1.
func TestDedicatedLauncher(t *testing.T) {
	r := newRig(t)
	r.dedicated(t)
	exe := buildLauncher(t)
	if s := r.box.String(); !strings.HasPrefix(s, "Landlock ABI") {
		t.Errorf("String() = %q", s)
	}
	script := `cat "$HOME/.ssh/id_rsa" && echo READ-KEY
test -s "$1" && echo SEES-LAUNCHER
echo x > "$HOME/outside" && echo WROTE-OUTSIDE
echo new > "$HOME/Documents/made.txt" || echo NO-WRITE-IN-ROOT
echo "ppid $PPID"
tr '\0' ' ' < /proc/1/cmdline; echo`
	c, layers, done, err := r.box.ConfineReviewed(bridge.Command{Argv: []string{"sh", "-c", script, "sh", exe}, Dir: r.home}, sandbox.KindCommand, sandbox.Grant{})
	if err != nil {
		t.Fatal(err)
	}
	defer sandbox.RemoveLayers(layers)
	out, stderr, err := bridge.RunArgv(context.Background(), c)
	done()
	if err != nil {
		t.Fatalf("%v\n%s%s", err, out, stderr)
	}
	for _, bad := range []string{"READ-KEY", "SEES-LAUNCHER", "WROTE-OUTSIDE", "NO-WRITE-IN-ROOT", "BEGIN OPENSSH"} {
		if strings.Contains(out, bad) {
			t.Errorf("%s:\n%s", bad, out)
		}
	}
	if !strings.Contains(out, "ppid 1\n") || !strings.Contains(out, "/proc/self/fd/") || !launcherLine(out) {
		t.Errorf("the program is not a child of the pinned launcher, PID 1:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(r.home, "outside")); !os.IsNotExist(err) {
		t.Errorf("written outside the roots: %v", err)
	}
	if _, err := os.Stat(filepath.Join(r.docs, "made.txt")); !os.IsNotExist(err) {
		t.Errorf("an unasked action wrote in the root itself: %v", err)
	}
	got := changeLines(r.docs, readAll(t, layers))
	if !strings.Contains(got, "created made.txt") {
		t.Errorf("the layer holds:\n%s", got)
	}
}

// TestDedicatedLauncherRefusesOtherVersions: a launcher refuses a spec of
// another version or encoding (an older gate's JSON), or with a byte left
// over or missing, and runs nothing: an upgrade that replaced
// airlock-launch under a running gate fails closed. (Started here outside
// namespaces, a launcher that accepts the spec stops at the next step,
// which the control shows.)
func TestDedicatedLauncherRefusesOtherVersions(t *testing.T) {
	exe := buildLauncher(t)
	home := t.TempDir()
	marker := filepath.Join(home, "ran")
	spec := func(version int) []byte {
		return launcher.EncodeSpec(launcher.Spec{Version: version, Profile: sandbox.Profile{TempDir: home},
			Argv: []string{"/bin/touch", marker}})
	}
	good := spec(launcher.SpecVersion)
	oldJSON := fmt.Sprintf(`{"version":4,"profile":{"tempDir":%q},"argv":["/bin/touch",%q]}`, home, marker)
	tests := []struct {
		name string
		in   []byte
		want string
	}{
		{"control", good, "must start in namespaces of its own"},
		{"older version", spec(launcher.SpecVersion - 1), "different versions of Airlock"},
		{"no version", spec(0), "different versions of Airlock"},
		{"an older gate's JSON", []byte(oldJSON), "different versions of Airlock"},
		{"a byte more", append(slices.Clip(good), 0), "1 bytes after its end"},
		{"a byte less", good[:len(good)-1], "the profile ends"},
		{"two specs", append(slices.Clip(good), good...), "bytes after its end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := tt.in
			specPath := filepath.Join(t.TempDir(), "spec")
			if err := os.WriteFile(specPath, b, 0o600); err != nil {
				t.Fatal(err)
			}
			f, err := os.Open(specPath)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			cmd := exec.Command(exe, launcher.Flag)
			cmd.ExtraFiles = []*os.File{f}
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != launcher.ExitSetup {
				t.Fatalf("exit: %v\n%s", err, out)
			}
			if !strings.HasPrefix(string(out), launcher.Prefix) || !strings.Contains(string(out), tt.want) {
				t.Errorf("said %q, want %q", out, tt.want)
			}
			if _, err := os.Stat(marker); !os.IsNotExist(err) {
				t.Errorf("the program ran: %v", err)
			}
		})
	}
}
