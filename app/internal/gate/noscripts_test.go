package gate_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// TestScriptsThatCannotRunAreNotAskedAbout checks that where AppleScript
// and JXA cannot run (Config.NoScripts), a script is rated as anywhere but
// refused before the person is asked, saying why; a dry run shows the
// rating and the refusal; commands still run.
func TestScriptsThatCannotRunAreNotAskedAbout(t *testing.T) {
	const why = "AppleScript and JavaScript for Automation need macOS"
	r := newRig(t, policy.AskAll, approveAll, func(c *gate.Config) { c.NoScripts = why })
	for _, kind := range []string{gate.KindAppleScript, gate.KindJXA} {
		rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "t", Kind: kind, Plan: "1"}, nil)
		if !errors.Is(err, gate.ErrUnsupported) || !strings.Contains(err.Error(), why) {
			t.Errorf("%s: err %v, want it refused as unsupported", kind, err)
		}
		if rep.Status != gate.StatusRefused || rep.Risk == "" || len(rep.Actions) != 1 ||
			rep.Actions[0].Decision != policy.Refuse.String() || rep.Actions[0].Error != why {
			t.Errorf("%s: report %+v", kind, rep)
		}
		dry, err := r.g.Submit(context.Background(), gate.Submission{Client: "t", Kind: kind, Plan: "1", DryRun: true}, nil)
		if err != nil || dry.Status != gate.StatusDryRun || dry.Risk != rep.Risk || dry.Actions[0].Decision != policy.Refuse.String() {
			t.Errorf("%s: dry run %v %+v", kind, err, dry)
		}
	}
	if r.ask.count() != 0 || len(r.exec.ran) != 0 {
		t.Fatalf("asked %d times, ran %q", r.ask.count(), r.exec.ran)
	}
	if rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "t", Kind: gate.KindCommand, Argv: []string{"true"}}, nil); err != nil || rep.Status != gate.StatusOK {
		t.Errorf("a command: %v %+v", err, rep)
	}
}
