//go:build !linux

package bridge

import (
	"context"
	"syscall"
)

// waitLeader waits for the group leader to exit, killing its group first
// when ctx is done (then calling stopped), and then, unless it lingers,
// kills whatever is left in the group.
//
// Without waitid's WNOWAIT the leader is reaped before the final SIGKILL, so
// in theory the group id could be reused in between; that needs the pid
// space to wrap within that moment. The kill on cancellation happens while
// the leader still runs.
//
// There is no subreaper here (macOS has none): what a contained process
// starts in another group or session (setsid, a double fork that then
// calls setsid) is reparented to launchd and is not killed.
func (p *Proc) waitLeader(ctx context.Context, stopped func()) error {
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	reap := !p.linger
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		killGroup(p.pgid)
		stopped()
		err = <-done
		reap = true
	}
	if reap {
		killGroup(p.pgid)
	}
	return err
}

// sysProcAttr starts the process where launchAttr says: a group of its own,
// or a session of its own for Contain and NewSession. DieWithParent has no
// counterpart here.
func sysProcAttr(c Command) *syscall.SysProcAttr {
	return launchAttr(c)
}
