package sandbox

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"

	"github.com/airlockhq/airlock/bridge"
)

// Status is what one of Doctor's checks found.
type Status int

// The statuses of a check.
const (
	// Held: what the check tried was refused, or, for a check of what an
	// action must still be able to do, it worked.
	Held Status = iota + 1
	// NotHeld: containment does not hold on this machine as it claims.
	NotHeld
	// Skipped: there was nothing to try it on here (no credential store,
	// no session bus, names do not resolve even outside the sandbox).
	Skipped
)

var statusNames = [...]string{Held: "held", NotHeld: "NOT HELD", Skipped: "skipped"}

func (s Status) String() string {
	if s > 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// MarshalText writes the status's name.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a name MarshalText wrote.
func (s *Status) UnmarshalText(b []byte) error {
	for i, name := range statusNames {
		if name != "" && string(b) == name {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("sandbox: unknown check status %q: want held, NOT HELD or skipped", b)
}

// A Finding is the outcome of one check.
type Finding struct {
	// Check says what holds when it passes ("writing outside the sandbox
	// roots is refused").
	Check  string `json:"check"`
	Status Status `json:"status"`
	// Detail says what was tried and what happened, or why it was skipped.
	Detail string `json:"detail"`
}

// Holds reports whether no finding says containment does not hold.
func Holds(fs []Finding) bool {
	return !slices.ContainsFunc(fs, func(f Finding) bool { return f.Status != Held && f.Status != Skipped })
}

// Doctor runs, on this machine, the checks that prove what the sandbox
// claims, and returns what each found. It uses the settings the gate
// confines its actions with (the person's home, sandbox roots, Airlock's
// own files, the environment) and the real launcher (launcher, "" for this
// program, which must call Main first thing): every check is an action
// started as the gate starts one, unasked unless it says otherwise. The
// checks are harmless: they try to write only into a folder of their own
// outside the roots, to read a credential store and a file they put among
// Airlock's own (removed afterwards), to reach a listener of their own, to
// resolve a name, and what each platform adds (doctor_probes.go). The
// error is for a doctor that could not run at all.
func Doctor(ctx context.Context, s Settings, launcher string) ([]Finding, error) {
	box, err := New(s, launcher)
	if err != nil {
		return nil, err
	}
	loads := Finding{Check: "the sandbox starts here (" + platformName() + ")", Status: Held}
	if err := box.Available(); err != nil {
		loads.Status, loads.Detail = NotHeld, err.Error()
		return []Finding{loads}, nil
	}
	loads.Detail = box.String()
	work, err := os.MkdirTemp("", "airlock-doctor-")
	if err != nil {
		return nil, fmt.Errorf("making the doctor's folder: %w", err)
	}
	defer os.RemoveAll(work)
	env, err := newDoctorEnv(ctx, s, work)
	if err != nil {
		return nil, err
	}
	defer env.close()
	probes, err := probesFor(runtime.GOOS, env)
	if err != nil {
		return nil, err
	}
	out := []Finding{loads}
	boxes := map[string]*Box{"": box}
	for _, p := range probes {
		out = append(out, runProbe(ctx, p, s, launcher, boxes))
	}
	return out, nil
}

// platformName names the sandbox of this platform in a message.
func platformName() string {
	switch runtime.GOOS {
	case "linux":
		return "Landlock, namespaces, seccomp"
	case "darwin":
		return "Seatbelt"
	}
	return "no OS sandbox on " + runtime.GOOS
}

// outcome is what a probe's action did.
type outcome struct {
	stdout, stderr string
	code           int   // exit status; -1 when it did not start or a signal ended it
	err            error // why it did not exit 0
}

// probe is one check: an action and how to read what it did.
type probe struct {
	check string
	kind  string
	grant Grant
	// roots, when not nil, replace the settings' sandbox roots: the checks
	// of what an unasked action may do in a root use a root of their own.
	roots []string
	argv  []string
	// skip, when not "", says why the check cannot be tried here.
	skip string
	// judge reads the outcome.
	judge func(outcome) (Status, string)
	// after cleans up what the check made outside its folder.
	after func()
}

// runProbe runs one probe confined as the gate confines an action.
func runProbe(ctx context.Context, p probe, s Settings, launcher string, boxes map[string]*Box) Finding {
	f := Finding{Check: p.check}
	if p.after != nil {
		defer p.after()
	}
	if p.skip != "" {
		f.Status, f.Detail = Skipped, p.skip
		return f
	}
	key := strings.Join(p.roots, "\x00")
	box := boxes[key]
	if box == nil {
		ps := s
		ps.Roots = p.roots
		b, err := New(ps, launcher)
		if err != nil {
			f.Status, f.Detail = NotHeld, err.Error()
			return f
		}
		box, boxes[key] = b, b
	}
	c, done, err := box.Confine(bridge.Command{Argv: p.argv, Name: p.argv[0]}, p.kind, p.grant)
	if err != nil {
		f.Status, f.Detail = NotHeld, "the action could not be confined: "+err.Error()
		return f
	}
	defer done()
	var o outcome
	o.stdout, o.stderr, o.err = bridge.RunArgv(ctx, c)
	var ee *bridge.ExitError
	switch {
	case o.err == nil:
	case errors.As(o.err, &ee):
		o.code = ee.Code
	default:
		o.code = -1
	}
	f.Status, f.Detail = p.judge(o)
	return f
}

// refusedIf is a judge: the check held unless leaked says what got
// through ("" for nothing).
func refusedIf(leaked func(outcome) string) func(outcome) (Status, string) {
	return func(o outcome) (Status, string) {
		if what := leaked(o); what != "" {
			return NotHeld, what
		}
		return Held, "refused" + exitWords(o)
	}
}

// exitWords says how an action ended, for a finding's detail.
func exitWords(o outcome) string {
	if o.err == nil {
		return " (it exited 0)"
	}
	if s := strings.TrimSpace(o.stderr); s != "" {
		if i := strings.LastIndexByte(s, '\n'); i >= 0 {
			s = s[i+1:]
		}
		return ": " + s
	}
	return ": " + o.err.Error()
}
