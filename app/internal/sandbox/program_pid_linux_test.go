//go:build linux

package sandbox_test

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sandbox"
)

// TestLauncherStartsOnlyItsProgram: the launcher, PID 1 of the action's
// PID namespace, starts no process there before the action's program: the
// PID before the program's is one of the launcher's own threads (which
// take PIDs of the namespace too), not a process started and gone. Warm
// and cold, approved and unasked (with the copy-on-write view). (The os
// package's first start of a process starts one of its own ahead of it,
// to check the kernel's pidfds; the launcher starts its program without
// it: startProgram.)
func TestLauncherStartsOnlyItsProgram(t *testing.T) {
	r := newRig(t)
	for _, tc := range []struct {
		name string
		warm bool
		g    sandbox.Grant
	}{
		{"warm unasked", true, sandbox.Grant{}},
		{"warm approved", true, sandbox.Grant{Approved: true}},
		{"warm web", true, sandbox.Grant{Network: sandbox.NetInternet}},
		{"cold unasked", false, sandbox.Grant{}},
		{"cold approved", false, sandbox.Grant{Approved: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.warm {
				r.waitWarm(t)
			} else {
				r.box.Discard() // the next action starts cold
			}
			out, stderr, err := r.run(t, tc.g, "sh", "-c", `echo $$; echo $(ls /proc/1/task); tr '\0' ' ' < /proc/1/cmdline`)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			lines := strings.SplitN(out, "\n", 3)
			if len(lines) != 3 {
				t.Fatalf("the action printed %q", out)
			}
			if warm(lines[2]) != tc.warm {
				t.Fatalf("the action started through %q, want warm %v", lines[2], tc.warm)
			}
			pid, err := strconv.Atoi(lines[0])
			if err != nil {
				t.Fatalf("the program's PID %q: %v", lines[0], err)
			}
			threads := strings.Fields(lines[1])
			if !slices.Contains(threads, strconv.Itoa(pid-1)) {
				t.Errorf("the program is PID %d of its namespace and the launcher's threads are %v: the launcher started another process before it", pid, threads)
			}
		})
	}
}
