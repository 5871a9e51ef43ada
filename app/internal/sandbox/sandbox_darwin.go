//go:build darwin

package sandbox

import (
	"errors"
	"fmt"
	"os"

	"github.com/airlockhq/airlock/bridge"
)

func selfExe() string {
	exe, _ := os.Executable()
	return exe
}

// platformCommand starts the launcher in a session of its own: no
// controlling terminal reaches what it execs.
func (b *Box) platformCommand(c bridge.Command, s spec) (bridge.Command, spec) {
	c.NewSession = true
	return c, s
}

// probe checks that Seatbelt's front end is there.
func (b *Box) probe() (string, error) {
	fi, err := os.Stat(SandboxExec)
	if err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
		return "", fmt.Errorf("%s is missing (%v)", SandboxExec, err)
	}
	return "Seatbelt (" + SandboxExec + "), TCC responsibility disclaimed", nil
}

// launch runs in the launcher: it turns the profile into Seatbelt text and
// replaces itself (posix_spawn with POSIX_SPAWN_SETEXEC, so the pid, the
// process group and the pipes stay the gate's to watch and kill) with
// sandbox-exec running the program, its TCC responsibility disclaimed so
// that it never acts with Airlock's Accessibility or Automation grants, and
// with no file descriptor but 0, 1 and 2.
func launch(s spec) int {
	fail := func(code int, format string, a ...any) int {
		fmt.Fprintf(os.Stderr, launchPrefix+format+"\n", a...)
		return code
	}
	if s.Probe {
		fmt.Println("Seatbelt")
		return 0
	}
	text, params, err := Seatbelt(Resolve(s.Profile))
	if err != nil {
		return fail(exitSetup, "%v", err)
	}
	if s.Dir != "" {
		if err := os.Chdir(s.Dir); err != nil {
			return fail(exitCannotRun, "%v", err)
		}
	}
	argv := SandboxExecArgv(text, params, s.Argv)
	err = spawnDisclaimed(SandboxExec, argv, s.Profile.Env)
	// spawnDisclaimed returns only when it failed.
	code := exitCannotRun
	if errors.Is(err, os.ErrNotExist) {
		code = exitNotFound
	}
	return fail(code, "running %s under %s: %v", s.Argv[0], SandboxExec, err)
}
