//go:build linux

package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/secrets"
)

// TestDoctorRuns runs `airlock doctor` for real, as a person would: the
// built binary, its own settings and data folder, with a home of the
// test's own holding an SSH key and a settings file. Every check holds or
// is skipped, it exits 0, and it leaves nothing behind among Airlock's
// files.
func TestDoctorRuns(t *testing.T) {
	if abi, err := llsys.LandlockGetABIVersion(); err != nil || abi < 3 {
		t.Skipf("the kernel has no Landlock ABI 3 or newer (ABI %d, %v): the sandbox cannot run here", abi, err)
	}
	bin, err := buildAirlock()
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	data := filepath.Join(home, "data")
	for _, d := range []string{filepath.Join(home, ".ssh"), data, filepath.Join(home, "Documents")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("-----BEGIN OPENSSH PRIVATE KEY-----\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(data, "settings.json"), []byte(`{"roots": ["~/Documents"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + home, "AIRLOCK_DATA_DIR=" + data, "PATH=/usr/local/bin:/usr/bin:/bin", "AIRLOCK_LOG=stderr"}
	for _, args := range [][]string{{"doctor"}, {"doctor", "--json"}} {
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		out, err := cmd.Output()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("%v: exit %d\n%s\n%s", args, ee.ExitCode(), out, ee.Stderr)
		} else if err != nil {
			t.Fatal(err)
		}
		if len(args) == 1 {
			t.Logf("%s", out)
			for _, want := range []string{"held     the sandbox starts here", "held     a credential store is unreadable",
				"held     Airlock's own files", "held     writing outside the sandbox roots", "Containment holds"} {
				if !strings.Contains(string(out), want) {
					t.Errorf("the output lacks %q", want)
				}
			}
			continue
		}
		var findings []sandbox.Finding
		if err := json.Unmarshal(out, &findings); err != nil || len(findings) < 5 || !sandbox.Holds(findings) {
			t.Errorf("--json: %v\n%s", err, out)
		}
	}
	entries, _ := os.ReadDir(data)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".airlock-doctor") {
			t.Errorf("the doctor left %s in the data folder", e.Name())
		}
	}
}

// TestDoctorKeyStoreLine checks what the doctor says of the key store, both
// ways.
func TestDoctorKeyStoreLine(t *testing.T) {
	if got := keyStoreLine(func() (secrets.KeyStore, error) { return secrets.NewMemory(), nil }); got != "key store: reachable" {
		t.Errorf("reachable: %q", got)
	}
	got := keyStoreLine(func() (secrets.KeyStore, error) {
		return nil, errors.New("no Secret Service: DBUS_SESSION_BUS_ADDRESS is not set")
	})
	for _, want := range []string{"MISSING", "DBUS_SESSION_BUS_ADDRESS is not set", "audit verify", "outside a desktop session"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing: %q lacks %q", got, want)
		}
	}
}
