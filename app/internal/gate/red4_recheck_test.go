package gate_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/policy"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
)

// landingExec is fakeExec whose scripts, when their turn comes, first see
// land run: another action's changes landing while they waited.
type landingExec struct {
	*fakeExec
	land func()
}

func (l *landingExec) RunScript(ctx context.Context, kind, src string, argv []string, dir string, g ossandbox.Grant) (execute.Result, error) {
	if l.land != nil {
		l.land()
	}
	return l.fakeExec.RunScript(ctx, kind, src, argv, dir, g)
}

// TestStillRatedWhenItsTurnComes: a command decided unasked on what the
// disk held (cp onto a name nothing had: caution) does not start when,
// by its turn, the disk makes it more (a file landed there: the copy
// would replace it), and its report says why; one whose verdict holds
// starts (recheck.go).
func TestStillRatedWhenItsTurnComes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		lands bool
	}{{"a file landed on its destination", true}, {"nothing changed", false}} {
		t.Run(tc.name, func(t *testing.T) {
			le := &landingExec{fakeExec: &fakeExec{}}
			r := newRig(t, policy.SmartDefault, nil, func(c *gate.Config) { c.Exec = le })
			docs := filepath.Join(r.home, "Documents")
			writeFile(t, filepath.Join(docs, "a.txt"), "a\n")
			if tc.lands {
				le.land = func() { writeFile(t, filepath.Join(docs, "b.txt"), "the person's b\n") }
			}
			rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "agent", Kind: gate.KindCommand,
				Argv: []string{"cp", "a.txt", "b.txt"}, Dir: docs}, nil)
			ran := len(le.names()) > 0
			switch {
			case tc.lands && (ran || err == nil || rep.Actions[0].Status != gate.StatusRefused):
				t.Fatalf("HOLE: the copy started after b.txt landed (rated %s when decided): ran %v, %v, %+v", rep.Risk, ran, err, rep.Actions)
			case !tc.lands && (!ran || err != nil):
				t.Fatalf("a copy whose verdict held did not run: %v, %+v", err, rep)
			}
			t.Logf("%s: %v", rep.Actions[0].Status, err)
		})
	}
}
