//go:build linux

package execute_test

import (
	"strings"
	"testing"
)

// TestRed9TakeTheCPU: an unasked action ran at the priority of the
// person's apps, and each of its processes that called setsid got a
// scheduling group (Linux's autogroup) of its own, which weighs as much
// as the person's whole desktop session (measured here: a SCHED_IDLE loop
// in its own session took as much CPU as a normal one), so 4,000 spinning
// processes left the gate, its popup and the kill switch one part in
// 4,000 of the CPU. On main the payload printed nice 0, renice ok and
// setsid ok. It now runs at nice 19, cannot lower it, and setsid is
// refused, so all of it stays in the one session the sandbox started.
func TestRed9TakeTheCPU(t *testing.T) {
	r := newRedRig(t, []string{"~/Documents"}, nil)
	name := "take the CPU from the person's apps"
	res, _, err := r.runArgv(t, name, payload9(t, name), "Documents")
	if err != nil {
		t.Fatalf("it failed: %v (output %q)", err, res.Output)
	}
	want := "nice 19 renice Permission denied setsid refused"
	if !strings.Contains(res.Output, want) {
		t.Errorf("it printed %q, want %q", res.Output, want)
	}
}
