package gate_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// Red team 7, attack 5. A popup answered after the action changed. The
// person is asked about `python3 ~/Documents/build.py`, reads build.py,
// and approves; while the popup is up the agent — which writes files with
// tools of its own, outside Airlock — rewrites build.py. A grant and an
// allow rule pin the files a command runs and refuse it when one changed;
// a plain approval pinned nothing, so what ran was not what the person
// approved. The files the command runs are pinned as they were when the
// popup was put up, and read again right before it starts.
func TestRedApprovedThenChanged(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(t *testing.T, script string)
		runs   bool
	}{
		{"unchanged", func(*testing.T, string) {}, true},
		{"rewritten", func(t *testing.T, script string) { writeFile(t, script, "print('replaced by the agent')\n") }, false},
		{"a module put beside it", func(t *testing.T, script string) {
			writeFile(t, filepath.Join(filepath.Dir(script), "os.py"), "print('shadowing os')\n")
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var script string
			answer := func(ctx context.Context, r approval.Request) (approval.Answer, error) {
				tc.change(t, script) // the agent, while the popup is up
				return approveAll(ctx, r)
			}
			r := newRig(t, policy.SmartDefault, answer)
			script = filepath.Join(r.home, "Documents", "build.py")
			writeFile(t, script, "print('build')\n")
			rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "t", Identity: agent, Kind: gate.KindCommand,
				Argv: []string{"python3", "~/Documents/build.py"}}, nil)
			if r.ask.count() != 1 {
				t.Fatalf("asked %d times, want once: %+v", r.ask.count(), rep.Actions)
			}
			ran := len(r.exec.names()) != 0
			switch {
			case tc.runs && (!ran || err != nil):
				t.Fatalf("approved and unchanged, yet not run: %v %+v", err, rep.Actions)
			case !tc.runs && ran:
				t.Fatalf("HOLE: what the person approved changed while the popup was up, and it ran anyway: %+v", rep.Actions)
			case !tc.runs && (!errors.Is(err, policy.ErrLapsed) || rep.Actions[0].Status != gate.StatusRefused):
				t.Fatalf("changed after it was shown: %v %+v; want refused, saying what changed", err, rep.Actions[0])
			}
		})
	}
}
