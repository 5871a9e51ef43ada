//go:build linux

package sandbox_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/bridge"
)

// TestPinnedRunsWhatWasChecked: an approved action's pinned files are what
// it reads and runs at their paths, whatever the disk holds by then: a
// script read, a program run (its mode kept), its time kept; a write to
// one is refused and reaches nothing; its temporary folder holds no copy.
// The disk is left as it was. So too for an action an allow rule lets run
// unasked, which sees the roots through a view.
func TestPinnedRunsWhatWasChecked(t *testing.T) {
	r := newRig(t)
	prog := filepath.Join(r.docs, "build.sh")
	lib := filepath.Join(r.docs, "lib.sh")
	write(t, prog, "#!/bin/sh\necho ON DISK\n")
	write(t, lib, "echo lib ON DISK\n")
	when := time.Date(2023, 1, 2, 3, 4, 5, 0, time.UTC)
	pins := []sandbox.Pinned{
		{Path: prog, Mode: 0o755, ModTime: when.UnixNano(), Bytes: []byte("#!/bin/sh\necho checked program\n")},
		{Path: lib, Mode: 0o644, ModTime: when.UnixNano(), Bytes: []byte("echo checked lib\n")},
	}
	// Approved, it sees the roots themselves; allowed by a rule, it runs
	// unasked and sees them through a copy-on-write view.
	for _, approved := range []bool{true, false} {
		script := `"$1"; . "$2"; stat -c %Y "$2"; ls -A "$TMPDIR"; echo tampered > "$2" 2>/dev/null || echo write-refused`
		out, stderr, err := r.run(t, sandbox.Grant{Approved: approved, Pinned: pins}, "sh", "-c", script, "sh", prog, lib)
		if err != nil {
			t.Fatalf("approved %v: %v: %s", approved, err, stderr)
		}
		want := "checked program\nchecked lib\n" + "1672628645\n" + "write-refused\n"
		if out != want {
			t.Fatalf("approved %v: the action saw:\n%s\nwant:\n%s", approved, out, want)
		}
	}
	for p, disk := range map[string]string{prog: "#!/bin/sh\necho ON DISK\n", lib: "echo lib ON DISK\n"} {
		if b, err := os.ReadFile(p); err != nil || string(b) != disk {
			t.Errorf("%s on disk is now %q (%v)", p, b, err)
		}
	}
}

// TestPinnedPathGoneFailsClosed: a pinned file that is no longer a file
// at its path when the launcher binds it (removed, a folder in its place)
// runs nothing: the launcher fails, saying which.
func TestPinnedPathGoneFailsClosed(t *testing.T) {
	r := newRig(t)
	for _, tc := range []struct {
		name  string
		place func(p string)
	}{
		{"removed", func(string) {}},
		{"a folder", func(p string) {
			if err := os.Mkdir(p, 0o700); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "build.sh")
			tc.place(p)
			marker := filepath.Join(r.docs, "ran-"+tc.name)
			g := sandbox.Grant{Approved: true, Pinned: []sandbox.Pinned{{Path: p, Mode: 0o755, Bytes: []byte("#!/bin/sh\n")}}}
			_, _, err := r.run(t, g, "sh", "-c", `touch "$1"`, "sh", marker)
			var ee *bridge.ExitError
			if !errors.As(err, &ee) || ee.Code != 125 || !strings.Contains(ee.LastLine, "as it was checked") {
				t.Fatalf("err = %v", err)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("the action ran")
			}
		})
	}
}

// TestPinnedBounds: what cannot be pinned is refused before anything
// starts, saying why.
func TestPinnedBounds(t *testing.T) {
	r := newRig(t)
	p := filepath.Join(r.docs, "x")
	for _, tc := range []struct {
		name string
		pins []sandbox.Pinned
		says string
	}{
		{"relative", []sandbox.Pinned{{Path: "x"}}, "not an absolute, clean path"},
		{"set-user-ID", []sandbox.Pinned{{Path: p, Mode: 0o4755}}, "bits other than the permissions"},
		{"twice", []sandbox.Pinned{{Path: p}, {Path: p}}, "pinned twice"},
		{"too large", []sandbox.Pinned{{Path: p, Bytes: make([]byte, 16<<20+1)}}, "more than 16 MiB"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := r.box.Confine(bridge.Command{Argv: []string{"true"}, Dir: r.home}, sandbox.KindCommand,
				sandbox.Grant{Approved: true, Pinned: tc.pins})
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("err = %v, want %q", err, tc.says)
			}
		})
	}
}

// BenchmarkPinnedStart: what binding the pinned files costs an approved
// action's start: none, a script, and a folder of 64 modules of 4 KiB.
func BenchmarkPinnedStart(b *testing.B) {
	r := newRig(b)
	for _, n := range []int{0, 1, 64} {
		var pins []sandbox.Pinned
		for i := range n {
			p := filepath.Join(r.docs, "m"+strconv.Itoa(i)+".py")
			write(b, p, "on disk\n")
			pins = append(pins, sandbox.Pinned{Path: p, Mode: 0o644, Bytes: make([]byte, 4096)})
		}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				c, done, err := r.box.Confine(bridge.Command{Argv: []string{"true"}, Dir: r.home}, sandbox.KindCommand,
					sandbox.Grant{Approved: true, Pinned: pins})
				if err != nil {
					b.Fatal(err)
				}
				if _, _, err := bridge.RunArgv(context.Background(), c); err != nil {
					b.Fatal(err)
				}
				done()
			}
		})
	}
}
