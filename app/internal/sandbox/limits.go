package sandbox

import (
	"fmt"
	"slices"

	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
)

// unaskedLimits are the resource bounds an action that runs unasked starts
// under: the analyzer rates `sort /dev/zero` or a loop that forks safe, and
// without them one such action takes the machine's memory, processes or
// disk, so that the person's apps fail and neither the popup nor `airlock
// kill` can start. Each is generous enough for a build or a test run. They
// bound each process (and, for processes, the action's user), not the
// action as a whole: a cgroup's memory.max would, and is not used.
var unaskedLimits = []struct {
	limit launcher.Limit
	why   string
}{
	{launcher.Limit{Resource: launcher.LimitProcesses, Max: 4096},
		"a fork storm stops at 4,096 processes and threads (on Linux counted in the action's own user namespace, so only its own); a parallel build (make -j, cargo, a test runner's workers) uses a few hundred"},
	{launcher.Limit{Resource: launcher.LimitData, Max: 8 << 30},
		"8 GiB of heap per process: a large link or type check fits, and `sort /dev/zero` (one endless line held in memory) fails there; RLIMIT_DATA, not RLIMIT_AS, because Go, the JVM and V8 reserve far more address space than they use"},
	{launcher.Limit{Resource: launcher.LimitFileSize, Max: 16 << 30},
		"no file it writes grows past 16 GiB (a disk image or a build's archive fits): an endless write into one file is stopped (SIGXFSZ, EFBIG) before it fills the disk"},
	{launcher.Limit{Resource: launcher.LimitCore, Max: 0},
		"no core dump: it would write the process's memory, and the secrets it read, into the working folder, and can take gigabytes"},
	{launcher.Limit{Resource: launcher.LimitOpenFiles, Max: 65536},
		"65,536 open files per process: more than file watchers and test runners hold, and a bound on the kernel memory one process's descriptors take"},
}

// UnaskedLimits returns the resource bounds of an action that runs unasked
// (unaskedLimits), a copy the caller may change (Settings.Limits).
func UnaskedLimits() []launcher.Limit {
	out := make([]launcher.Limit, len(unaskedLimits))
	for i, u := range unaskedLimits {
		out[i] = u.limit
	}
	return out
}

// LimitsFor returns the resource bounds of an action with grant g: those
// of the settings (UnaskedLimits unless Settings.Limits says otherwise)
// for one that runs unasked, none for one the person approved, which runs
// as it would outside Airlock (a bound it did not ask for could break what
// the person chose to run).
func LimitsFor(s Settings, g Grant) []launcher.Limit {
	if g.Approved {
		return nil
	}
	if s.Limits != nil {
		return slices.Clone(s.Limits)
	}
	return UnaskedLimits()
}

// checkLimits returns an error saying which of the settings' limits is
// wrong.
func checkLimits(s Settings) error {
	if err := launcher.CheckLimits(s.Limits); err != nil {
		return fmt.Errorf("sandbox: the settings' resource limits: %w", err)
	}
	return nil
}
