//go:build !linux

package bridge

import "os/exec"

// startCmd starts cmd. There is no subreaper here, so there are no orphans
// to tell apart from our children, and nothing to record.
func startCmd(cmd *exec.Cmd, _, _ bool) (map[int]uint64, error) {
	return nil, cmd.Start()
}

// KillEscaped kills the applications an action launched (Desktop.Launch on
// macOS: ones that were not running before it) and returns how many.
// Without a subreaper (macOS has none) a process that left an action's
// group is reparented to launchd, out of reach. See Command.Contain.
func KillEscaped() int { return killLaunched() }
