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

// TestHiddenFoldersEmptyReadOnly: each folder the launcher hides is, to
// the action, an empty folder it cannot write in (EROFS, though Landlock
// lets it write there: it lies in a sandbox root and the action is
// approved), mounted read-only, nosuid, nodev and noexec, whether the
// launcher was started ahead (it made the empty folder it copies over
// each while it waited) or cold. What changed after the warm launcher was
// ready is hidden as it is when the action comes: a folder made since, a
// link made since (what it leads to is hidden), and a folder replaced by a
// file since (the file is hidden).
func TestHiddenFoldersEmptyReadOnly(t *testing.T) {
	r := newRig(t)
	r.dedicated(t)
	d := r.docs
	mkdir := func(p string) {
		t.Helper()
		if err := os.MkdirAll(p, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	early, late, link, target, swapped := filepath.Join(d, "early"), filepath.Join(d, "late"),
		filepath.Join(d, "linked"), filepath.Join(d, "target"), filepath.Join(d, "swapped")
	secrets := []string{early, late, link, swapped}
	script := `for d; do
	printf 'D %s\n' "$d"
	ls -A "$d" | sed 's/^/E /'
	mkdir "$d/new" 2>&1 | sed 's/^/M /'
done
printf 'T '; cat "$0/key"; echo
printf 'S '; cat "$0/../swapped"; echo
echo MOUNTS
cat /proc/self/mountinfo`
	for _, warm := range []bool{true, false} {
		for _, p := range []string{early, late, target, swapped} {
			os.RemoveAll(p)
		}
		os.Remove(link)
		mkdir(early)
		write(t, filepath.Join(early, "key"), "EARLY-SECRET")
		mkdir(swapped)
		if warm {
			r.waitWarm(t)
		} else {
			r.box.Discard() // the next action starts cold
		}
		// After the warm launcher was ready.
		mkdir(late)
		write(t, filepath.Join(late, "key"), "LATE-SECRET")
		mkdir(target)
		write(t, filepath.Join(target, "key"), "LINKED-SECRET")
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(swapped); err != nil {
			t.Fatal(err)
		}
		write(t, swapped, "SWAPPED-SECRET")

		claimed := sandbox.WarmClaimed(r.box)
		argv := []string{"sh", "-c", script, target, early, late, link}
		c, done, err := r.box.Confine(bridge.Command{Argv: argv, Dir: d}, sandbox.KindCommand, sandbox.Grant{Approved: true, Secrets: secrets})
		if err != nil {
			t.Fatal(err)
		}
		out, stderr, err := bridge.RunArgv(context.Background(), c)
		done()
		if err != nil {
			t.Fatalf("warm %v: %v\n%s%s", warm, err, out, stderr)
		}
		if got := sandbox.WarmClaimed(r.box) - claimed; got != map[bool]int{true: 1, false: 0}[warm] {
			t.Fatalf("warm %v: %d actions ran through a warm launcher", warm, got)
		}
		said, mounts, _ := strings.Cut(out, "MOUNTS\n")
		if strings.Contains(said, "SECRET") {
			t.Errorf("warm %v: a hidden secret was read:\n%s", warm, said)
		}
		folders := 0
		for _, line := range strings.Split(strings.TrimSpace(said), "\n") {
			switch {
			case strings.HasPrefix(line, "D "):
				folders++
			case strings.HasPrefix(line, "E "):
				t.Errorf("warm %v: a hidden folder holds %q", warm, line)
			case strings.HasPrefix(line, "M ") && !strings.HasSuffix(line, "Read-only file system"):
				t.Errorf("warm %v: making a folder in a hidden one: %q, want it refused as read-only", warm, line)
			}
		}
		if folders != 3 || strings.Count(said, "Read-only file system") != 3 {
			t.Errorf("warm %v: want 3 hidden folders each refusing a new folder as read-only:\n%s", warm, said)
		}
		for _, p := range []string{early, late, target} {
			opts, super := mountAt(mounts, p)
			if !hasAll(opts, "ro", "nosuid", "nodev", "noexec") || !hasAll(super, "ro", "mode=555") {
				t.Errorf("warm %v: %s is mounted %q (%q), want an empty read-only tmpfs, nosuid, nodev, noexec", warm, p, opts, super)
			}
		}
	}
}

// mountAt returns the mount options and the file system's options of the
// last mount at path in a mount table (/proc/PID/mountinfo), "" when none
// is there or it is not a tmpfs.
func mountAt(mountinfo, path string) (opts, super string) {
	for _, line := range strings.Split(mountinfo, "\n") {
		f := strings.Fields(line)
		before, after, ok := strings.Cut(line, " - ")
		if !ok || len(f) < 6 || f[4] != path {
			continue
		}
		b, a := strings.Fields(before), strings.Fields(after)
		if len(a) < 3 || a[0] != "tmpfs" {
			opts, super = "", ""
			continue
		}
		opts, super = b[5], a[2]
	}
	return opts, super
}

// hasAll reports whether the comma-separated list holds every one of want.
func hasAll(list string, want ...string) bool {
	have := strings.Split(list, ",")
	for _, w := range want {
		found := false
		for _, h := range have {
			found = found || h == w
		}
		if !found {
			return false
		}
	}
	return true
}
