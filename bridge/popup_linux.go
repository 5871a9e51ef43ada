//go:build linux

package bridge

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"time"
)

// The Linux popups are zenity dialogs; zenity_linux.go says how they are
// built. Each runs in its own process group, which is SIGKILLed when the
// caller's context ends (answered elsewhere, timeout, kill switch), so the
// window closes at once.

func popupsAvailable() error {
	if _, err := exec.LookPath("zenity"); err != nil {
		return fmt.Errorf("%w: zenity is not installed (apt install zenity)", ErrNoPopups)
	}
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		return fmt.Errorf("%w: no display (DISPLAY and WAYLAND_DISPLAY are unset)", ErrNoPopups)
	}
	return nil
}

func showApproval(ctx context.Context, p ApprovalPopup) (choice, error) {
	var early time.Duration
	for {
		args, stdin := zenityApproval(p, early, time.Now())
		r, err := runZenity(ctx, args, stdin)
		if err != nil {
			return choiceDeny, err
		}
		c, err := approvalResult(r.stdout, r.stderr, r.code)
		if err != nil || c == choiceDeny {
			return choiceDeny, err
		}
		if r.shown < p.ArmDelay {
			early = max(r.shown, time.Millisecond)
			continue
		}
		return c, nil
	}
}

func ask(ctx context.Context, q question) (bool, error) {
	var early time.Duration
	for {
		var left time.Duration
		if dl, ok := ctx.Deadline(); ok {
			left = time.Until(dl)
		}
		r, err := runZenity(ctx, zenityQuestion(q, early, left), "")
		if err != nil {
			return false, err
		}
		yes, err := questionResult(r.stderr, r.code)
		if err != nil || !yes {
			return false, err
		}
		if r.shown < q.arm {
			early = max(r.shown, time.Millisecond)
			continue
		}
		return true, nil
	}
}

func askText(ctx context.Context, title, prompt string) (string, bool, error) {
	r, err := runZenity(ctx, zenityEntry(title, prompt), "")
	if err != nil {
		return "", false, err
	}
	return entryResult(r.stdout, r.stderr, r.code)
}

// zenityRun is how one zenity dialog ended.
type zenityRun struct {
	stdout, stderr string
	code           int
	shown          time.Duration // from the start of zenity to its exit
}

// maxOutput bounds what is kept of zenity's output.
const maxOutput = 64 << 10

// runZenity runs zenity with args and stdin until it exits or ctx ends. When
// ctx ends it SIGKILLs zenity's process group and returns ctx's error.
func runZenity(ctx context.Context, args []string, stdin string) (zenityRun, error) {
	path, err := exec.LookPath("zenity")
	if err != nil {
		return zenityRun{}, fmt.Errorf("%w: zenity is not installed", ErrNoPopups)
	}
	if err := ctx.Err(); err != nil {
		return zenityRun{}, err
	}
	// Its own process group, SIGKILLed when ctx ends (the kill switch, the
	// deadline), so no popup outlives the request it asks about.
	start := time.Now()
	stdout, stderr, err := RunArgv(ctx, Command{Argv: append([]string{path}, args...),
		// NO_AT_BRIDGE: GTK need not look for the accessibility bus at
		// start-up, which cost each popup tens of milliseconds here.
		Env: append(zenityEnv(os.Environ()), "NO_AT_BRIDGE=1"), Stdin: stdin, MaxOutput: maxOutput})
	shown := time.Since(start)
	if ctx.Err() != nil {
		return zenityRun{}, ctx.Err()
	}
	var ee *ExitError
	switch {
	case errors.As(err, &ee) && ee.Signal == "":
		return zenityRun{stdout, stderr, ee.Code, shown}, nil
	case err != nil:
		return zenityRun{}, fmt.Errorf("running zenity: %w", err)
	}
	return zenityRun{stdout, stderr, 0, shown}, nil
}
