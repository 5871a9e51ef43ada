package gate_test

import (
	"context"
	"errors"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/secrets"
)

// Every way a submission can end is recorded in a real history, which
// then verifies: the gate and the store agree on what may be recorded.
func TestEveryEndingIsRecorded(t *testing.T) {
	store, err := history.Open(filepath.Join(t.TempDir(), "history.db"), secrets.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	env, _ := sandbox(t)
	answers := map[string]func(context.Context, approval.Request) (approval.Answer, error){
		"approve": approveAll,
		"deny":    denyAll,
		"timeout": func(context.Context, approval.Request) (approval.Answer, error) {
			return approval.Answer{Outcome: approval.Timeout}, approval.ErrTimeout
		},
	}
	next := "approve"
	ex := &fakeExec{}
	g := gate.New(gate.Config{Env: env, Exec: ex, History: store, Autonomy: 1,
		Approver: &answerer{answer: func(ctx context.Context, r approval.Request) (approval.Answer, error) { return answers[next](ctx, r) }}})
	submit := func(plan string, dry bool) {
		t.Helper()
		if _, err := g.Submit(context.Background(), gate.Submission{Client: "test", Plan: plan, DryRun: dry}, nil); err != nil &&
			strings.Contains(err.Error(), "recording") {
			t.Fatalf("the history refused a record: %v", err)
		}
	}
	submit(safePlan+"\n"+dangerousPlan, false) // ok, ok
	next = "deny"
	submit(dangerousPlan+"\n"+safePlan, false) // denied, skipped
	next = "timeout"
	submit(dangerousPlan, false)                 // timeout
	submit(dangerousPlan, true)                  // dry-run
	submit(`WRITE_FILE "/etc/hosts" "x"`, false) // refused
	submit(`NOTIFY "a" "b"`+"\n"+`FROB`, false)  // rejected: one row for the whole plan
	if _, err := g.Ask(context.Background(), gate.AskRequest{Client: "test", Request: "  "}, nil); err == nil {
		t.Fatal("an empty request in words was accepted")
	} // rejected before the model was asked
	g.Kill()
	submit(safePlan, false) // killed: refused whole
	if _, err := g.Ask(context.Background(), gate.AskRequest{Client: "test", Request: "say hello"}, nil); !errors.Is(err, gate.ErrKilled) {
		t.Fatalf("Ask after Kill = %v, want ErrKilled", err)
	} // killed: refused whole
	entries, err := store.Recent(context.Background(), 100)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		if e.Outcome == nil {
			t.Fatalf("action %d of %s has no outcome", e.Decision.Index, e.Request.ID)
		}
		got = append(got, e.Outcome.Status+"/"+e.Outcome.Approval)
	}
	sort.Strings(got)
	want := []string{"denied/denied", "dry-run/", "killed/", "killed/", "ok/", "ok/approved", "refused/", "rejected/", "rejected/", "skipped/", "timeout/timeout"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("recorded %v\nwant     %v", got, want)
	}
	if err := store.Verify(context.Background()); err != nil {
		t.Fatalf("the audit chain does not verify: %v", err)
	}
}

// A submission or request in words refused because the kill switch is on
// leaves its request in the history, with one row saying it was refused
// whole and why; so does a plan that does not parse.
func TestRefusedAfterKillIsRecorded(t *testing.T) {
	store, err := history.Open(filepath.Join(t.TempDir(), "history.db"), secrets.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	env, _ := sandbox(t)
	ex := &fakeExec{}
	g := gate.New(gate.Config{Env: env, Exec: ex, History: store, Autonomy: 2})
	g.Kill()
	ctx := context.Background()
	rep, err := g.Submit(ctx, gate.Submission{Client: "after kill", Plan: safePlan}, nil)
	if !errors.Is(err, gate.ErrKilled) || rep.Status != gate.StatusKilled || rep.Request == "" {
		t.Fatalf("Submit after Kill = %+v, %v", rep, err)
	}
	ask, err := g.Ask(ctx, gate.AskRequest{Client: "asker", Request: "list my files"}, nil)
	if !errors.Is(err, gate.ErrKilled) || ask.Status != gate.StatusKilled || ask.Request == "" {
		t.Fatalf("Ask after Kill = %+v, %v", ask, err)
	}
	if n := len(ex.names()); n != 0 {
		t.Fatalf("%d actions ran while killed", n)
	}
	for id, want := range map[string]struct{ client, kind, text string }{
		rep.Request: {"after kill", "dsl", safePlan},
		ask.Request: {"asker", "ask", "list my files"},
	} {
		r, es, err := store.Request(ctx, id)
		if err != nil {
			t.Fatalf("request %s was not recorded: %v", id, err)
		}
		if r.Client != want.client || r.Kind != want.kind || r.Text != want.text {
			t.Errorf("request %s recorded as %+v, want %+v", id, r, want)
		}
		if len(es) != 1 || es[0].Decision.Decision != "refused" || es[0].Outcome == nil ||
			es[0].Outcome.Status != gate.StatusKilled || !strings.Contains(es[0].Outcome.Error, "kill switch") {
			t.Fatalf("request %s: rows %+v, want one refused whole with status killed", id, es)
		}
	}
	g.Resume()
	rep, err = g.Submit(ctx, gate.Submission{Client: "bad plan", Plan: "FROB \"x\""}, nil)
	if err == nil || rep.Status != gate.StatusRejected {
		t.Fatalf("bad plan = %+v, %v", rep, err)
	}
	_, es, err := store.Request(ctx, rep.Request)
	if err != nil || len(es) != 1 || es[0].Outcome == nil || es[0].Outcome.Status != gate.StatusRejected ||
		!strings.Contains(es[0].Outcome.Error, "does not parse") || es[0].Decision.Reasons[0] != es[0].Outcome.Error {
		t.Fatalf("rejected plan recorded as %+v, %v", es, err)
	}
	if err := store.Verify(ctx); err != nil {
		t.Fatalf("the audit chain does not verify: %v", err)
	}
}
