//go:build linux

package launcher_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
	"github.com/airlockhq/airlock/bridge"
)

// The tests that need a launcher run this test binary started again with
// launcher.Flag (TestMain hands it to launcher.Main, as airlock-launch
// does).

// breakOverlayEnv, set for a launcher, makes its copy-on-write views fail
// to mount (TestMain).
const breakOverlayEnv = "AIRLOCK_LAUNCHER_TEST_BREAK_OVERLAY"

func TestMain(m *testing.M) {
	if os.Getenv(breakOverlayEnv) == "1" {
		// A launcher started by TestProbeFailsClosedWithoutOverlay.
		launcher.BreakOverlay()
	}
	if code, ok := launcher.Main(os.Args[1:]); ok {
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// settings are one user's: a home in a temporary folder with the sandbox
// root ~/Documents and Airlock's data folder, whose staging folder holds
// the layers.
func settings(t *testing.T) sandbox.Settings {
	t.Helper()
	if abi, err := llsys.LandlockGetABIVersion(); err != nil || abi < launcher.MinABI {
		t.Skipf("the kernel has no Landlock ABI %d or newer (ABI %d, %v): the sandbox cannot run here", launcher.MinABI, abi, err)
	}
	home := t.TempDir()
	docs, data := filepath.Join(home, "Documents"), filepath.Join(home, ".local", "share", "airlock")
	for _, d := range []string{docs, data} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return sandbox.Settings{Home: home, Roots: []string{docs}, Own: []string{data},
		Env: []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home}, Staging: filepath.Join(data, "layers")}
}

// TestProbeFailsClosedWithoutOverlay: where the kernel cannot mount the
// view, the sandbox is unavailable, says why, and refuses actions the
// person did not approve (the gate asks for them); approved ones run.
func TestProbeFailsClosedWithoutOverlay(t *testing.T) {
	s := settings(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	wrapper := func(env string) string {
		p := filepath.Join(t.TempDir(), "launcher")
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"+env+"exec '"+self+"' \"$@\"\n"), 0o700); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Both written before either starts anything: a file still open for
	// writing in a process forked meanwhile (the warm launchers started
	// in the background) cannot be run ("text file busy").
	control, broken := wrapper(""), wrapper(breakOverlayEnv+"=1 ")
	// The control: the same wrapper, overlayfs left alone.
	ok, err := sandbox.New(s, control)
	if err != nil {
		t.Fatal(err)
	}
	if err := ok.Available(); err != nil {
		t.Fatalf("through the wrapper the sandbox does not start: %v", err)
	}
	box, err := sandbox.New(s, broken)
	if err != nil {
		t.Fatal(err)
	}
	aerr := box.Available()
	if aerr == nil || !strings.Contains(aerr.Error(), "copy-on-write view") || !strings.Contains(aerr.Error(), "Linux 5.11") {
		t.Fatalf("Available() = %v", aerr)
	}
	t.Logf("Available() = %v", aerr)
	if s := box.String(); !strings.HasPrefix(s, "unavailable: ") || !strings.Contains(s, "copy-on-write view") {
		t.Errorf("String() = %q", s)
	}
	if _, _, _, err := box.ConfineReviewed(bridge.Command{Argv: []string{"true"}}, sandbox.KindCommand, sandbox.Grant{}); !errors.Is(err, sandbox.ErrUnavailable) {
		t.Errorf("an unasked action: %v", err)
	}
	c, layers, done, err := box.ConfineReviewed(bridge.Command{Argv: []string{"true"}}, sandbox.KindCommand, sandbox.Grant{Approved: true})
	if err != nil || layers != nil {
		t.Fatalf("an approved action: %v, %v", err, layers)
	}
	defer done()
	if _, _, err := bridge.RunArgv(context.Background(), c); err != nil {
		t.Errorf("an approved action did not run: %v", err)
	}
	if s := ok.String(); !strings.Contains(s, "copy-on-write view of the sandbox roots") {
		t.Errorf("String() does not say unasked actions are reviewed: %q", s)
	}
}
