//go:build linux

package execute_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// The ninth red team's attacks on the person's machine as a whole, from
// inside an unasked action at the default level. Each payload is in
// testdata/review/red9.json and runs unasked through the real sandbox in
// a home made in a temporary folder.

// payload9 returns the argv of the payload name of red9.json.
func payload9(t *testing.T, name string) []string { return payloadIn(t, "red9.json", name) }

// TestRed9SharedMemory: an unasked action's private /dev/shm was a tmpfs
// of tmpfs's own bound, half the memory (12 GiB here) and as many files
// as half its pages: memory no process owns, so killing the action's
// processes frees none of it and the OOM killer takes the person's apps
// and Airlock instead. On main the payload wrote all it tried (an eighth
// of the memory and 64 MiB more) and made 70,000 files. Now it stops at an
// eighth of the memory, at most 2 GiB, and at 65,536 files.
func TestRed9SharedMemory(t *testing.T) {
	r := newRedRig(t, []string{"~/Documents"}, nil)
	var si unix.Sysinfo_t
	if err := unix.Sysinfo(&si); err != nil {
		t.Fatal(err)
	}
	most := min(uint64(2<<30), uint64(si.Totalram)*uint64(max(si.Unit, 1))/8) >> 20
	name := "hold memory no process owns in /dev/shm"
	argv := append(payload9(t, name), strconv.FormatUint(most+64, 10), "70000")
	res, _, err := r.runArgv(t, name, argv, "Documents")
	if err != nil {
		t.Fatalf("it failed: %v (output %q)", err, res.Output)
	}
	var wrote, made uint64
	if _, err := fmt.Sscanf(res.Output[strings.Index(res.Output, "wrote "):], "wrote %d MiB made %d files", &wrote, &made); err != nil {
		t.Fatalf("reading its output %q: %v", res.Output, err)
	}
	if wrote > most {
		t.Errorf("it held %d MiB in /dev/shm, more than the %d MiB bound", wrote, most)
	}
	if made > 65536 {
		t.Errorf("it made %d files in /dev/shm, more than 65,536", made)
	}
}
