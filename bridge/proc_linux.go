package bridge

import (
	"context"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/airlockhq/airlock/bridge/spawn"
)

// waitLeader waits for the group leader to exit, killing its group first
// when ctx is done (then calling stopped), and then, unless it lingers,
// kills whatever is left in the group before reaping the leader. For a
// contained process it kills, and waits for the death of, everything the
// process started, wherever it went (contain_linux.go): on ctx done its
// whole tree while it still stands, and once the leader has exited the
// orphans that escaped it.
//
// On Linux it sees the leader exit without reaping it (waitid with
// WNOWAIT): while the leader is an unreaped zombie its pid, and so the
// group id, cannot be reused, so the final SIGKILL can only reach this
// group.
func (p *Proc) waitLeader(ctx context.Context, stopped func()) error {
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		var info unix.Siginfo
		for {
			err := unix.Waitid(unix.P_PID, p.pgid, &info, unix.WEXITED|unix.WNOWAIT, nil)
			if err != unix.EINTR {
				return
			}
		}
	}()
	reap := !p.linger
	swept := false
	var ended <-chan struct{} // nil, never ready, unless a warm process may say so
	if p.warm != nil {
		ended = p.warm.ended
	}
	select {
	case <-exited:
	case <-ended:
		return p.endEarly()
	case <-ctx.Done():
		killGroup(p.pgid)
		if p.contained {
			// Its whole tree, found while it still stands, and what had
			// already escaped: once this returns, nothing of it is alive
			// that could start anything more. (Nothing escapes a PID
			// namespace: then the orphans there are now are left alone.)
			before := p.before
			if p.ownPIDNS {
				before = orphansNow()
			}
			sweep(p.pgid, before)
			swept = true
		}
		stopped()
		<-exited
		reap = true
		p.cmd.WaitDelay = stoppedWaitDelay
	}
	if reap {
		killGroup(p.pgid)
		if p.contained && !swept && !p.ownPIDNS {
			sweep(0, p.before)
		}
	}
	defer forget(p.pgid)
	err := p.cmd.Wait()
	if p.pipes != nil {
		p.pipes.drain(p.cmd.WaitDelay)
	}
	return err
}

// endEarly ends the Wait of a command whose warm process said it has
// ended (the sandbox's launcher says so once it has killed and reaped
// every process of its namespace, and holds the output no more), before
// that process's own exit and its namespaces' teardown: the group and,
// for a contained process, the orphans are killed as after an exit, the
// output is read to its end, and the process is reaped in the background
// (until then its pid, and so its group's, cannot be reused).
func (p *Proc) endEarly() error {
	killGroup(p.pgid)
	if p.contained && !p.ownPIDNS {
		sweep(0, p.before)
	}
	if p.pipes != nil {
		p.pipes.drain(waitDelay)
	}
	go func() {
		_ = p.cmd.Wait()
		forget(p.pgid)
	}()
	if code := p.warm.code; code != 0 {
		return endedWith(code)
	}
	return nil
}

// sysProcAttr starts the process where launchAttr says (a group of its
// own, or a session of its own for Contain, NewSession and Namespaces),
// enters it into new namespaces for Namespaces (the network's too unless
// HostNetwork) and, for DieWithParent, sets
// the parent-death signal. The kernel sends that signal when the thread
// that started the process ends, not only the process; Go ends a thread
// only when a goroutine locked to it returns without unlocking. The one
// locked goroutine that starts such processes is the app's main goroutine
// (systray locks it to the main thread), whose thread ends only with the
// process. A caller on a locked goroutine that returns would have its
// processes killed then.
func sysProcAttr(c Command) *syscall.SysProcAttr {
	a := launchAttr(c)
	if c.Namespaces {
		// The same as a spawner's (Spawner): a session of its own, as
		// launchAttr says too.
		a = spawn.Attr(c.HostNetwork)
	}
	if c.DieWithParent {
		a.Pdeathsig = syscall.SIGKILL
	}
	return a
}
