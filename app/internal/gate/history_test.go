package gate_test

import (
	"context"
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
	submit(`NOTIFY "a" "b"`+"\n"+`FROB`, false)  // rejected: no actions recorded
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
	want := []string{"denied/denied", "dry-run/", "ok/", "ok/approved", "refused/", "skipped/", "timeout/timeout"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("recorded %v\nwant     %v", got, want)
	}
	if err := store.Verify(context.Background()); err != nil {
		t.Fatalf("the audit chain does not verify: %v", err)
	}
}
