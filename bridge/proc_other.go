//go:build !linux

package bridge

import (
	"context"
	"os/exec"
	"syscall"
)

// waitGroupLeader waits for the group leader cmd (pid pgid) to exit, killing
// its group first when ctx is done (then calling stopped), and then, when
// reap is set, kills whatever is left in the group.
//
// Without waitid's WNOWAIT the leader is reaped before the final SIGKILL, so
// in theory the group id could be reused in between; that needs the pid
// space to wrap within that moment. The kill on cancellation happens while
// the leader still runs.
func waitGroupLeader(ctx context.Context, cmd *exec.Cmd, pgid int, reap bool, stopped func()) error {
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-ctx.Done():
		killGroup(pgid)
		stopped()
		err = <-done
		reap = true
	}
	if reap {
		killGroup(pgid)
	}
	return err
}

// sysProcAttr puts the process in a group (for NewSession, a session) of
// its own. DieWithParent has no counterpart here.
func sysProcAttr(c Command) *syscall.SysProcAttr {
	if c.NewSession {
		// A session leader leads its group too; setpgid would fail.
		return &syscall.SysProcAttr{Setsid: true}
	}
	return &syscall.SysProcAttr{Setpgid: true}
}
