//go:build linux

package execute_test

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/execute"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
)

// warmPids waits for box's launchers started ahead and returns their pids.
func warmPids(t *testing.T, box *ossandbox.Box) []int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pids, err := box.WarmReady(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return pids
}

// allGone fails the test for each pid that is still a process.
func allGone(t *testing.T, what string, pids []int) {
	t.Helper()
	for _, pid := range pids {
		if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
			t.Errorf("%s: warm launcher %d is still there (%v)", what, pid, err)
		}
	}
}

// TestKillSwitchKillsWarmLaunchers: the kill switch's KillEscaped kills the
// sandbox's launchers started ahead before it returns; the next command
// still runs, and they come back after it.
func TestKillSwitchKillsWarmLaunchers(t *testing.T) {
	r := newReviewRig(t)
	pids := warmPids(t, r.ex.Sandbox)
	r.ex.KillEscaped()
	allGone(t, "after the kill switch", pids)
	res, err := r.ex.RunScript(context.Background(), execute.KindCommand, "", []string{"cat", "notes.txt"}, r.docs, ossandbox.Grant{Approved: true})
	if err != nil || res.Output != "notes" {
		t.Fatalf("after the kill switch: %q %v", res.Output, err)
	}
	warmPids(t, r.ex.Sandbox)
}

// TestReconfigureRetiresWarmLaunchers: settings put in force with another
// box close the old one (its launchers killed, none started again); with
// the same box, its launchers are discarded.
func TestReconfigureRetiresWarmLaunchers(t *testing.T) {
	r := newReviewRig(t)
	old := r.ex.Sandbox
	pids := warmPids(t, old)
	if err := r.ex.Reconfigure(context.Background(), r.ex.Paths, old); err != nil {
		t.Fatal(err)
	}
	allGone(t, "reloaded with the same box", pids)
	run := func(when string) {
		t.Helper()
		res, err := r.ex.RunScript(context.Background(), execute.KindCommand, "", []string{"cat", "notes.txt"}, r.docs, ossandbox.Grant{Approved: true})
		if err != nil || res.Output != "notes" {
			t.Fatalf("%s: %q %v", when, res.Output, err)
		}
	}
	run("after the reload with the same box")
	pids = warmPids(t, old) // back once an action came
	fresh := reviewingExecutor(t, r.home, t.TempDir(), []string{"~/Documents"}).Sandbox
	if err := r.ex.Reconfigure(context.Background(), r.ex.Paths, fresh); err != nil {
		t.Fatal(err)
	}
	allGone(t, "reloaded with another box", pids)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := old.WarmReady(ctx); err == nil {
		t.Error("the old box started launchers again")
	}
	run("after the reload with another box")
}
