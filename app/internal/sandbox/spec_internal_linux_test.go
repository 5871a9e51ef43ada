//go:build linux

package sandbox

import (
	"errors"
	"io"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
)

// TestSpecFileSealed: the spec the launcher reads is the one the gate
// wrote, from its start, of this version, and no one holding it can change
// it afterwards: writing, growing and shrinking it are refused.
func TestSpecFileSealed(t *testing.T) {
	f, err := specFile(spec{Argv: []string{"/bin/true"}, Profile: Profile{Hide: []string{"/h"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := launcher.ReadSpec(f)
	if err != nil || s.Version != launcher.SpecVersion || len(s.Argv) != 1 || s.Profile.Hide[0] != "/h" {
		t.Fatalf("ReadSpec = %+v, %v", s, err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("{}")); !errors.Is(err, unix.EPERM) {
		t.Errorf("writing the sealed spec: %v, want EPERM", err)
	}
	if err := f.Truncate(1); !errors.Is(err, unix.EPERM) {
		t.Errorf("shrinking the sealed spec: %v, want EPERM", err)
	}
	if err := f.Truncate(1 << 20); !errors.Is(err, unix.EPERM) {
		t.Errorf("growing the sealed spec: %v, want EPERM", err)
	}
}
