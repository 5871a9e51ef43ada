package execute

import (
	"context"
	"fmt"
	"time"
)

// UnaskedTime is the longest an action that runs unasked may run. Actions
// run one at a time (Executor.one), so without a bound one the agent chose
// to wait forever (`sleep infinity`, a read from a pipe nobody writes)
// would hold every later action, of every client, until the kill switch;
// and it would run on for as long as it likes with nobody having said yes.
// Half an hour fits a build or a test suite; an action the person approved
// has no time limit (a bound they did not ask for could break what they
// chose to run).
const UnaskedTime = 30 * time.Minute

// unaskedTime is UnaskedTime; tests shorten it.
var unaskedTime = UnaskedTime

// bounded returns ctx for an action that runs unasked: cancelled when it
// has run for unaskedTime (the cause a floorError saying so, so that the
// action is stopped, and what it wrote dropped, as at a floor) or when the
// file systems of disks or the machine's memory fall below their floors
// (watchRoom); and the function that ends both.
func bounded(ctx context.Context, disks []disk) (context.Context, func()) {
	limit := unaskedTime
	tctx, cancel := context.WithTimeoutCause(ctx, limit, &floorError{why: fmt.Sprintf(
		"it ran for %s, the longest an action that runs unasked may run (one the person approves has no time limit)", limit)})
	wctx, stop := watchRoom(tctx, disks)
	return wctx, func() {
		stop()
		cancel()
	}
}
