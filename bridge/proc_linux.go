package bridge

import (
	"context"
	"os"
	"os/exec"
	"syscall"

	"golang.org/x/sys/unix"
)

// waitGroupLeader waits for the group leader cmd (pid pgid) to exit, killing
// its group first when ctx is done (then calling stopped), and then, when
// reap is set, kills whatever is left in the group before reaping the
// leader.
//
// On Linux it sees the leader exit without reaping it (waitid with
// WNOWAIT): while the leader is an unreaped zombie its pid, and so the
// group id, cannot be reused, so the final SIGKILL can only reach this
// group.
func waitGroupLeader(ctx context.Context, cmd *exec.Cmd, pgid int, reap bool, stopped func()) error {
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		var info unix.Siginfo
		for {
			err := unix.Waitid(unix.P_PID, pgid, &info, unix.WEXITED|unix.WNOWAIT, nil)
			if err != unix.EINTR {
				return
			}
		}
	}()
	select {
	case <-exited:
	case <-ctx.Done():
		killGroup(pgid)
		stopped()
		<-exited
		reap = true
	}
	if reap {
		killGroup(pgid)
	}
	return cmd.Wait()
}

// sysProcAttr puts the process in a group (or, for NewSession and
// Namespaces, a session) of its own, enters it into new namespaces for
// Namespaces and, for DieWithParent, sets the parent-death signal. The kernel sends that signal
// when the thread that started the process ends, not only the process; Go
// ends a thread only when a goroutine locked to it returns without
// unlocking. The one locked goroutine that starts such processes is the
// app's main goroutine (systray locks it to the main thread), whose thread
// ends only with the process. A caller on a locked goroutine that returns
// would have its processes killed then.
func sysProcAttr(c Command) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	if c.NewSession || c.Namespaces {
		// A session leader leads its group too; setpgid would fail.
		a.Setpgid, a.Setsid = false, true
	}
	if c.Namespaces {
		a.Cloneflags = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWIPC
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
		a.GidMappingsEnableSetgroups = false
		// What the launcher needs to set its namespaces up, in them only;
		// it drops them before it starts anything.
		a.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SETPCAP}
	}
	if c.DieWithParent {
		a.Pdeathsig = syscall.SIGKILL
	}
	return a
}
