//go:build darwin

package sandbox

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/airlockhq/airlock/app/internal/sandbox/launcher"
	"github.com/airlockhq/airlock/bridge"
)

// seatbeltProbeTimeout bounds each of the probe's trial runs.
const seatbeltProbeTimeout = 10 * time.Second

// probeProgram is what the probe runs under each profile: nothing.
const probeProgram = "/usr/bin/true"

// probeKinds are the kinds whose profiles the probe loads: a command's and
// a script's (AppleScript's and JXA's texts differ in a comment only).
var probeKinds = []string{KindCommand, KindAppleScript}

// platformCommand starts the launcher in a session of its own: no
// controlling terminal reaches what it execs. The spec's program becomes
// sandbox-exec's command line: the Seatbelt text of the profile (with its
// paths resolved, as Seatbelt sees them) and the program, or for a probe
// probeProgram, which the launcher runs with its TCC responsibility
// disclaimed.
func (b *Box) platformCommand(c bridge.Command, s spec, decks []string) (bridge.Command, spec, error) {
	c.NewSession = true
	// No private view of a path here (no mount namespace): the files the
	// action runs were read and compared with what the person approved
	// right before the start (policy.Hold), and it runs them from their
	// paths. Copies named on its command line were weighed and left out:
	// a copy lies in another folder, so a script's imports and the files
	// it reads beside itself ($0's folder, __file__'s) would fail, and a
	// file no word names (a module, a makefile) could not be redirected
	// at all, so approved everyday actions would be refused. What is left
	// open here is the window between that read and the program's open.
	s.Pinned = nil
	argv := s.Argv
	if s.Probe {
		argv = []string{probeProgram}
	}
	text, params, err := SeatbeltDecks(Resolve(s.Profile), ResolveDecks(decks))
	if err != nil {
		return c, s, err
	}
	s.Argv = SandboxExecArgv(text, params, argv)
	return c, s, nil
}

// probe checks that Seatbelt confines here, by running it: sandbox-exec
// must apply a profile at all (it cannot inside another sandbox, or where
// the system refuses it: sandbox_apply fails, and so would every action),
// and then the launcher, started as every action is, must load the profile
// an unasked command and an unasked script get on this machine (the real
// settings, resolved) and run a program under it, disclaimed. Checking
// that /usr/bin/sandbox-exec exists would say "Seatbelt" while every
// action failed.
func (b *Box) probe() (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), seatbeltProbeTimeout)
	defer cancel()
	_, stderr, err := bridge.RunArgv(ctx, bridge.Command{Name: SandboxExec, NewSession: true, Env: []string{"PATH=/usr/bin:/bin"},
		Argv: []string{SandboxExec, "-p", "(version 1)(allow default)", "--", probeProgram}})
	if err != nil {
		return "", fmt.Errorf("%s cannot apply a profile here (%v%s)", SandboxExec, err, says(stderr))
	}
	for _, kind := range probeKinds {
		if err := b.probeKind(ctx, kind); err != nil {
			return "", err
		}
	}
	return "Seatbelt (" + SandboxExec + "): the profiles of commands and scripts load; TCC responsibility disclaimed", nil
}

// probeKind runs the launcher in probe mode with the profile an unasked
// action of kind gets.
func (b *Box) probeKind(ctx context.Context, kind string) error {
	tmp, err := os.MkdirTemp("", tempDirPattern)
	if err != nil {
		return fmt.Errorf("making a temporary folder: %w", err)
	}
	defer os.RemoveAll(tmp)
	p, err := Derive(b.s, kind, Grant{}, tmp)
	if err != nil {
		return err
	}
	c, s, err := b.platformCommand(bridge.Command{Argv: []string{b.launcher, LaunchFlag}, Name: "the sandbox's launcher",
		Env: launcher.Environ(), Dir: "/"}, spec{Profile: p, Probe: true}, nil)
	if err != nil {
		return fmt.Errorf("the Seatbelt profile of %s: %w", kindWords(kind)+"s", err)
	}
	f, err := specFile(s)
	if err != nil {
		return err
	}
	defer f.Close()
	c.ExtraFiles = []*os.File{f}
	if _, stderr, err := bridge.RunArgv(ctx, c); err != nil {
		return fmt.Errorf("the Seatbelt profile of %s does not load (%v%s)", kindWords(kind)+"s", err, says(stderr))
	}
	return nil
}

// says is what a program printed on standard error, for a message.
func says(stderr string) string {
	if s := strings.TrimSpace(stderr); s != "" {
		return ": " + s
	}
	return ""
}
