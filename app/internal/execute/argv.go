package execute

import (
	"context"

	"github.com/airlockhq/airlock/bridge"
)

// DefaultMaxOutput is the cap on each of stdout and stderr when
// Command.MaxOutput is 0.
const DefaultMaxOutput = bridge.DefaultMaxOutput

// Command is a process to run: an argument vector, never a shell line. The
// process code lives in the bridge, which runs every helper and tool the
// same way; see bridge.Command.
type Command = bridge.Command

// ExitError is the error of a process that ran and failed.
type ExitError = bridge.ExitError

// Confine makes the Command of an action run confined by the OS sandbox;
// see bridge.Confine.
type Confine = bridge.Confine

// RunArgv runs c.Argv without a shell, in a process group of its own that is
// killed as a whole when ctx is done; see bridge.RunArgv.
func RunArgv(ctx context.Context, c Command) (stdout, stderr string, err error) {
	return bridge.RunArgv(ctx, c)
}
