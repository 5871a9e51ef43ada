package gate_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// signalHistory is memHistory that says when a request is recorded: the
// submission then goes on to be assessed.
type signalHistory struct {
	*memHistory
	recorded chan struct{}
}

func (h signalHistory) AddRequest(ctx context.Context, r history.Request) error {
	err := h.memHistory.AddRequest(ctx, r)
	h.recorded <- struct{}{}
	return err
}

// TestKillStopsAssessments: sixteen dry runs of issue 12's nested-shell
// bomb at once (sh -c 12 deep, 800 KB; it is only assessed, never run) are
// all stopped by Kill while they are being assessed: none is left running
// when Kill returns, and each one Kill reached reports killed. Before the
// analysis took its context, each took seconds, and Kill gave up waiting
// on them.
func TestKillStopsAssessments(t *testing.T) {
	const n = 16
	hist := signalHistory{&memHistory{}, make(chan struct{}, n)}
	r := newRig(t, policy.SmartDefault, nil, func(c *gate.Config) { c.History = hist })
	inner := "rm -rf ~/Documents"
	for range 11 {
		inner = "sh -c '" + strings.ReplaceAll(inner, "'", `'\''`) + "'"
	}
	argv := []string{"sh", "-c", inner}

	type result struct {
		rep gate.Report
		err error
	}
	results := make(chan result, n)
	for range n {
		go func() {
			rep, err := r.g.Submit(context.Background(), gate.Submission{Client: "test", Kind: gate.KindCommand, Argv: argv, DryRun: true}, nil)
			results <- result{rep, err}
		}()
	}
	for range n {
		<-hist.recorded
	}

	kill := r.g.Kill()
	t.Logf("kill: %+v", kill)
	if kill.Stragglers != 0 {
		t.Errorf("Kill left %d submissions running: %+v", kill.Stragglers, kill)
	}
	killed := 0
	for range n {
		res := <-results
		switch res.rep.Status {
		case gate.StatusKilled:
			killed++
			if !errors.Is(res.err, gate.ErrKilled) {
				t.Errorf("killed with the error %v, want ErrKilled", res.err)
			}
		case gate.StatusDryRun: // assessed before the kill
			if res.rep.Risk != "destructive" {
				t.Errorf("the bomb was rated %s", res.rep.Risk)
			}
		default:
			t.Errorf("a submission ended %s: %v", res.rep.Status, res.err)
		}
	}
	// At most as many as assess at once can have finished in the moment
	// between the last request recorded and the kill.
	t.Logf("%d of %d killed", killed, n)
	if killed == 0 {
		t.Errorf("none of %d assessments was stopped by Kill", n)
	}
	if r.exec.names() != nil {
		t.Errorf("a dry run executed %v", r.exec.names())
	}
}
