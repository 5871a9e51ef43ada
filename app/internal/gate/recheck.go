package gate

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/airlockhq/airlock/app/internal/execute"
)

// A command's or script's verdict reads the disk: whether a path it writes
// names a file (an overwrite or a new file), whether its working folder
// holds Python modules that python -m would import before the standard
// ones. The step is decided on that verdict, then waits for the
// executor's turn, and meanwhile another action can end and land its
// changes: a json.py in the folder of a python -m json.tool rated caution
// with the folder empty (a sixth red team's find,
// TestRed4VerdictOfAFolderThatChangesBeforeTheRun). So once its turn
// comes, right before it starts, the step is rated again, and when the
// verdict rose above the one it was decided (or approved) on, it does not
// start: submitted again, it is decided anew.

// errRatedHigher is wrapped by the error of a step whose verdict rose
// between its decision and its start.
var errRatedHigher = errors.New("rated higher when its turn came than when it was decided")

// withStillRated returns ctx carrying, after the checks ctx already
// carries (a grant's or an allow rule's pins), one that rates st again and
// refuses it when its level rose.
func withStillRated(ctx context.Context, st step) context.Context {
	reassess, decided := st.reassess, st.verdict.Level
	return execute.WithCheck(ctx, func() error {
		v, err := reassess(ctx)
		if ctx.Err() != nil {
			return context.Cause(ctx) // the kill switch, or the client gone: not a verdict
		}
		if err != nil {
			return fmt.Errorf("%w: rating it again before it started failed: %v", errRatedHigher, err)
		}
		if v.Level <= decided {
			return nil
		}
		return fmt.Errorf("%w: it was %s when decided and is %s now (%s), so it did not start", errRatedHigher,
			decided, v.Level, strings.Join(v.Texts(), "; "))
	})
}
