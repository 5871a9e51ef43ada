package bridge

import "syscall"

// launchAttr says where a new process starts: for Contain, NewSession and
// Namespaces, in a session of its own, which also makes it the leader of a new process group and
// leaves it no controlling terminal (so it can neither read the gate's
// terminal nor inject input into it with TIOCSTI); otherwise in a process
// group of its own in Airlock's session. Setsid and Setpgid must not both
// be set: a session leader cannot change its group.
//
// This is the one place the launch attributes of actions are chosen; the
// sandbox's launcher adds its own confinement inside the process.
func launchAttr(c Command) *syscall.SysProcAttr {
	if c.Contain || c.NewSession || c.Namespaces {
		return &syscall.SysProcAttr{Setsid: true}
	}
	return &syscall.SysProcAttr{Setpgid: true}
}
