//go:build linux

package execute_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"golang.org/x/sys/unix"
)

// swapTries is how many actions each case runs against the racer: 2,000,
// or 200 with -short (for -race -count=50).
func swapTries() int {
	if testing.Short() {
		return 200
	}
	return 2000
}

// TestNoSwapBetweenCheckAndUse is issue 12's symlink race: while a racer
// swaps the folder ~/Documents/real with ~/Documents/link, a link to
// ~/.ssh (renameat2 RENAME_EXCHANGE, atomically, as fast as it can), file
// actions on ~/Documents/real/… run one after another. The sanitiser's
// check sees a folder; by the time of the write it may be the link. No
// action may ever touch ~/.ssh: every element of the path is opened
// without following links, so a swap after the check makes the action fail
// instead. Everything happens in a temporary home.
func TestNoSwapBetweenCheckAndUse(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, s *sandbox) // before the racer starts
		src   func(i int) string
	}{
		{"append", nil, func(i int) string {
			return fmt.Sprintf(`APPEND_FILE "~/Documents/real/authorized_keys" "ssh-ed25519 AAAA%d attacker"`, i)
		}},
		{"write", nil, func(i int) string {
			return fmt.Sprintf(`WRITE_FILE "~/Documents/real/authorized_keys" "ssh-ed25519 AAAA%d attacker"`, i)
		}},
		{"copy", func(t *testing.T, s *sandbox) { s.write(t, "Documents/keys.txt", "ssh-ed25519 AAAA attacker") },
			func(int) string { return `COPY_FILE "~/Documents/keys.txt" "~/Documents/real/authorized_keys"` }},
		{"move in", func(t *testing.T, s *sandbox) {
			for i := range swapTries() {
				s.write(t, fmt.Sprintf("Documents/k%d", i), "ssh-ed25519 AAAA attacker")
			}
		}, func(i int) string {
			return fmt.Sprintf(`MOVE_FILE "~/Documents/k%d" "~/Documents/real/authorized_keys"`, i)
		}},
		{"move out", nil, func(i int) string {
			return `WRITE_FILE "~/Documents/real/id_ed25519" "decoy"` + "\n" +
				fmt.Sprintf(`MOVE_FILE "~/Documents/real/id_ed25519" "~/Documents/stolen%d"`, i)
		}},
		{"delete", nil, func(int) string {
			return `WRITE_FILE "~/Documents/real/id_ed25519" "decoy"` + "\n" + `DELETE_FILE "~/Documents/real/id_ed25519"`
		}},
		{"create folder", nil, func(i int) string { return fmt.Sprintf(`CREATE_FOLDER "~/Documents/real/new%d/x"`, i) }},
	}
	ranAll := 0
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newSandbox(t)
			for _, f := range []string{".ssh/authorized_keys", ".ssh/id_ed25519", "Documents/real/id_ed25519"} {
				s.write(t, f, "original "+f+"\n")
			}
			if err := os.Symlink(s.p(".ssh"), s.p("Documents/link")); err != nil {
				t.Fatal(err)
			}
			if tc.setup != nil {
				tc.setup(t, s)
			}
			before := snapshot(t, s.p(".ssh"))

			stop := make(chan struct{})
			var wg sync.WaitGroup
			swaps := 0
			wg.Go(func() {
				real, link := s.p("Documents/real"), s.p("Documents/link")
				for {
					select {
					case <-stop:
						return
					default:
					}
					if err := unix.Renameat2(unix.AT_FDCWD, real, unix.AT_FDCWD, link, unix.RENAME_EXCHANGE); err != nil {
						t.Errorf("swapping: %v", err)
						return
					}
					swaps++
				}
			})
			ran := 0
			for i := range swapTries() {
				for _, line := range strings.Split(tc.src(i), "\n") {
					if _, err := s.run(t, line); err == nil {
						ran++
					}
				}
			}
			close(stop)
			wg.Wait()

			after := snapshot(t, s.p(".ssh"))
			escapes := 0
			for name, was := range before {
				if after[name] != was {
					escapes++
					t.Errorf("~/.ssh/%s changed: %q, was %q", name, after[name], was)
				}
			}
			for name, now := range after {
				if _, ok := before[name]; !ok {
					escapes++
					t.Errorf("~/.ssh/%s appeared: %q", name, now)
				}
			}
			attacker := 0 // the attacker's lines in ~/.ssh: one per escaped write
			for _, v := range after {
				attacker += strings.Count(v, "attacker")
			}
			t.Logf("%d tries, %d swaps, %d actions succeeded; ~/.ssh: %d entries changed, %d lines of the attacker", swapTries(), swaps, ran, escapes, attacker)
			ranAll += ran
		})
	}
	// Actions that succeeded went through the check and the use with the
	// racer running: without any, the test would prove nothing. (One case
	// alone can, rarely, see the link at every check.)
	if ranAll == 0 {
		t.Errorf("no action succeeded: the race was not run")
	}
}

// snapshot maps every entry under dir (not following links) to its
// content or kind.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[rel] = "link to " + target
		case d.IsDir():
			out[rel] = "folder"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
