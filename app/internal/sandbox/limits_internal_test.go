package sandbox

import (
	"testing"

	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
)

// TestUnaskedLimitsTable: the table bounds every resource the launcher
// knows, each once and with a reason, no core dump at all, and leaves a
// build room: a thousand processes, a GiB of heap and of file, a thousand
// open files at the least.
func TestUnaskedLimitsTable(t *testing.T) {
	floor := map[string]uint64{launcher.LimitProcesses: 1024, launcher.LimitData: 1 << 30,
		launcher.LimitFileSize: 1 << 30, launcher.LimitOpenFiles: 1024, launcher.LimitCore: 0}
	if err := launcher.CheckLimits(UnaskedLimits()); err != nil {
		t.Fatal(err)
	}
	if len(unaskedLimits) != len(floor) {
		t.Errorf("%d limits, want one for each of %v", len(unaskedLimits), floor)
	}
	for _, u := range unaskedLimits {
		if len(u.why) < 40 {
			t.Errorf("%s: no reason given (%q)", u.limit.Resource, u.why)
		}
		if u.limit.Max < floor[u.limit.Resource] {
			t.Errorf("%s: %d leaves a build too little (at least %d)", u.limit.Resource, u.limit.Max, floor[u.limit.Resource])
		}
		if u.limit.Resource == launcher.LimitCore && u.limit.Max != 0 {
			t.Errorf("core dumps of %d bytes allowed", u.limit.Max)
		}
	}
}
