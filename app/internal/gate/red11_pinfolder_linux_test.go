//go:build linux

package gate_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
)

// TestRed11PackagePutBesidePinnedModule: the launcher binds the checked
// copy of each file a pinned folder holds over its path, but a name that
// was not there when the gate last read the folder is bound to nothing.
// Python looks for a package (helpers/__init__.py) and an extension
// module before helpers.py: an agent that makes the folder helpers/ beside
// the script once the gate has read helpers.py for the last time gets its
// own code imported as approved. No rename is needed, so nothing the
// launcher checks (stillBound) sees it.
//
// Open (skipped unless AIRLOCK_RED_OPEN=1): on main the agent's package
// ran. The fix by class: a pinned folder is bound over as a whole, as a
// read-only copy of what the gate checked (its code files; its other
// files bound in from the real folder), so that no name can appear in it.
func TestRed11PackagePutBesidePinnedModule(t *testing.T) {
	if os.Getenv("AIRLOCK_RED_OPEN") == "" {
		t.Skip("open: a package made beside a pinned module after the gate's last read is imported (AIRLOCK_RED_OPEN=1 runs it)")
	}
	const good, evil = "ran what was approved", "PLANTED by the agent"
	r := newPinRaceRig(t, false)
	ran := 0
	for n := 1; n <= 6; n++ {
		proj := filepath.Join(r.home, "Documents", "proj"+strconv.Itoa(n))
		if err := os.MkdirAll(proj, 0o755); err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(proj, "build.py"), "import helpers\nhelpers.more()\n")
		writeFile(t, filepath.Join(proj, "helpers.py"), "def more():\n    print('"+good+"')\n")
		sub := gate.Submission{Client: "mcp: agent", Identity: agent, Kind: gate.KindCommand,
			Argv: []string{"python3", "build.py"}, Dir: proj}
		var stop func() bool
		r.ask.answer = func(ctx context.Context, req approval.Request) (approval.Answer, error) {
			stop = plantAtRead(t, filepath.Join(proj, "helpers.py"), n,
				filepath.Join(proj, "helpers", "__init__.py"), "def more():\n    print('"+evil+"')\n")
			return approveAll(ctx, req)
		}
		rep, err := r.g.Submit(context.Background(), sub, nil)
		if stop == nil {
			t.Fatalf("plant at read %d: never asked: %v %+v", n, err, rep)
		}
		planted := stop()
		out := strings.Join(outputs(rep), "\n")
		if strings.Contains(out, "PLANTED") {
			t.Fatalf("HOLE: plant at read %d: the agent's package ran as approved: %q", n, out)
		}
		if strings.Contains(out, good) {
			ran++
		}
		t.Logf("plant at read %d (planted %v): %q %v", n, planted, out, err)
	}
	if ran == 0 {
		t.Fatal("it never ran")
	}
}

// plantAtRead watches target and, at the nth close after a read, writes
// evil to plant (making its folder); the function it returns stops the
// watch and says whether it planted.
func plantAtRead(t *testing.T, target string, n int, plant, evil string) func() bool {
	t.Helper()
	f := watchReads(t, target)
	done := make(chan bool, 1)
	go func() {
		buf := make([]byte, 64*unix.SizeofInotifyEvent)
		seen := 0
		for {
			k, err := f.Read(buf)
			if err != nil {
				done <- false
				return
			}
			for off := 0; off+unix.SizeofInotifyEvent <= k; {
				ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
				off += unix.SizeofInotifyEvent + int(ev.Len)
				if ev.Mask&unix.IN_CLOSE_NOWRITE == 0 {
					continue
				}
				if seen++; seen < n {
					continue
				}
				ok := os.MkdirAll(filepath.Dir(plant), 0o755) == nil && os.WriteFile(plant, []byte(evil), 0o644) == nil
				done <- ok
				return
			}
		}
	}()
	return func() bool {
		f.Close()
		return <-done
	}
}
