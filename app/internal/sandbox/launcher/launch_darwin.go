//go:build darwin

package launcher

import (
	"errors"
	"fmt"
	"os"
	"slices"
)

// launch runs in the launcher: it replaces itself (posix_spawn with
// POSIX_SPAWN_SETEXEC, so the pid, the process group and the pipes stay the
// gate's to watch and kill) with sandbox-exec running the program under
// the Seatbelt text the gate made of the profile (s.Argv, sandbox.Seatbelt
// and sandbox.SandboxExecArgv), with no file descriptor but 0, 1 and 2,
// under the profile's resource limits (an action that runs unasked has
// some), and its TCC responsibility disclaimed: the program is responsible for
// itself, so TCC judges it by its own code identity, not Airlock's. A
// command (sh, python, …) therefore has none of Airlock's Accessibility or
// Automation grants. The AppleScript helper is the exception: it is
// Airlock's own executable, signed as Airlock, and TCC attributes grants by
// code identity, so once it runs it is judged as Airlock and has Airlock's
// grants (README: which grants AppleScript actions run with). A spec whose
// program is not sandbox-exec with a profile is refused: the launcher
// never runs anything unconfined.
func launch(s Spec) int {
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(os.Stderr, Prefix+format+"\n", a...)
		return code
	}
	if len(s.Pinned) > 0 {
		// The gate runs copies of them instead (sandbox.PinnedArgv).
		return fail(ExitSetup, "the profile pins files, which the launcher cannot run as they were checked here")
	}
	sep := slices.Index(s.Argv, "--")
	if len(s.Argv) < 4 || s.Argv[0] != SandboxExec || s.Argv[1] != "-p" || sep < 0 || sep == len(s.Argv)-1 {
		return fail(ExitSetup, "the profile's program is not %s -p PROFILE … -- PROGRAM", SandboxExec)
	}
	program := s.Argv[sep+1]
	if s.Dir != "" {
		if err := os.Chdir(s.Dir); err != nil {
			return fail(ExitCannotRun, "%v", err)
		}
	}
	// The program inherits them across the exec. RLIMIT_NPROC counts
	// every process of the person here, so it bounds the action less
	// than on Linux; macOS's own per-user cap is usually lower anyway.
	if err := setLimits(s.Profile.Limits); err != nil {
		return fail(ExitSetup, "bounding the action's resources: %v", err)
	}
	err := spawnDisclaimed(SandboxExec, s.Argv, s.Profile.Env)
	// spawnDisclaimed returns only when it failed.
	code := ExitCannotRun
	if errors.Is(err, os.ErrNotExist) {
		code = ExitNotFound
	}
	return fail(code, "running %s under %s: %v", program, SandboxExec, err)
}
