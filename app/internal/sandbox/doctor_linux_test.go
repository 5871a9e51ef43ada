//go:build linux

package sandbox_test

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// TestDoctorLinux runs the doctor for real, through the real launcher (this
// test binary, TestMain), on a home of its own with a credential store,
// Airlock's data folder, a session bus and a Wayland display: every check
// holds, or is skipped for want of something to try it on, and none is
// skipped that this machine can try.
func TestDoctorLinux(t *testing.T) {
	if abi, err := llsys.LandlockGetABIVersion(); err != nil || abi < 3 {
		t.Skipf("the kernel has no Landlock ABI 3 or newer (ABI %d, %v): the sandbox cannot run here", abi, err)
	}
	home := t.TempDir()
	docs := filepath.Join(home, "Documents")
	data := filepath.Join(home, ".local", "share", "airlock")
	run := filepath.Join(home, "run")
	for _, d := range []string{docs, data, filepath.Join(home, ".ssh"), run} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("-----BEGIN OPENSSH PRIVATE KEY-----\nnot a key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, sock := range []string{"bus", "wayland-0"} {
		ln, err := net.Listen("unix", filepath.Join(run, sock))
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
	}
	s := sandbox.Settings{Home: home, Roots: []string{docs}, Own: []string{data}, Env: []string{
		"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "XDG_RUNTIME_DIR=" + run,
		"DBUS_SESSION_BUS_ADDRESS=unix:path=" + filepath.Join(run, "bus"), "WAYLAND_DISPLAY=wayland-0"}}
	findings, err := sandbox.Doctor(context.Background(), s, "")
	if err != nil {
		t.Fatal(err)
	}
	byCheck := map[string]sandbox.Finding{}
	for _, f := range findings {
		t.Logf("%-8s %s: %s", f.Status, f.Check, f.Detail)
		byCheck[f.Check] = f
	}
	if !sandbox.Holds(findings) {
		t.Fatal("containment does not hold")
	}
	mustHold := []string{"the sandbox starts here", "writing outside the sandbox roots", "a credential store", "Airlock's own files",
		"an action may write to /dev/stderr", "the session bus", "the display"}
	if _, err := os.Stat("/bin/bash"); err == nil {
		mustHold = append(mustHold, "the network is unreachable")
	}
	for _, want := range mustHold {
		found := false
		for check, f := range byCheck {
			if strings.HasPrefix(check, want) {
				found = true
				if f.Status != sandbox.Held {
					t.Errorf("%s: %v (%s), want held", check, f.Status, f.Detail)
				}
			}
		}
		if !found {
			t.Errorf("no check of %q", want)
		}
	}
	entries, err := os.ReadDir(data)
	if err != nil || len(entries) != 0 {
		t.Errorf("the doctor left files among Airlock's own: %v %v", entries, err)
	}
}
