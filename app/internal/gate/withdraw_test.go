package gate_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/secrets"
)

// TestWithdrawnIsNotDenied: a client that gives up while its plan waits for
// the person (its context ends) withdraws the request. The report, the
// events and the history say withdrawn, never denied; the popup is taken
// down. The kill switch ending a pending request is still killed.
func TestWithdrawnIsNotDenied(t *testing.T) {
	store, err := history.Open(filepath.Join(t.TempDir(), "history.db"), secrets.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	taken := make(chan struct{}, 2) // a popup taken down: its context ended
	broker := approval.NewBroker(approval.ScriptedFunc(func(ctx context.Context, _ approval.Request) (approval.Answer, error) {
		<-ctx.Done() // the person has not answered yet
		taken <- struct{}{}
		return approval.Answer{}, ctx.Err()
	}), approval.Options{})
	brokerEvents, stop := broker.Subscribe(16)
	defer stop()
	env, _ := sandbox(t)
	ex := &fakeExec{}
	g := gate.New(gate.Config{Env: env, Exec: ex, History: store, Approver: broker, Autonomy: 1})

	var mu sync.Mutex
	var events []gate.Event
	ctx, cancel := context.WithCancel(context.Background())
	type result struct {
		rep gate.Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		rep, err := g.Submit(ctx, gate.Submission{Client: "mcp: gave-up", Plan: dangerousPlan}, func(e gate.Event) {
			mu.Lock()
			events = append(events, e)
			mu.Unlock()
		})
		done <- result{rep, err}
	}()
	awaiting(t, brokerEvents)
	cancel() // the client gives up
	res := <-done
	<-taken
	if !errors.Is(res.err, gate.ErrWithdrawn) || errors.Is(res.err, gate.ErrDenied) {
		t.Fatalf("Submit = %v; want ErrWithdrawn, not ErrDenied", res.err)
	}
	if res.rep.Status != gate.StatusWithdrawn || res.rep.Actions[0].Approval != "withdrawn" || res.rep.Actions[0].Status != gate.StatusWithdrawn {
		t.Fatalf("report %+v; want withdrawn", res.rep)
	}
	if e := <-brokerEvents; e.Type != approval.EventWithdrawn {
		t.Errorf("broker event %q, want withdrawn", e.Type)
	}
	mu.Lock()
	var approvals []string
	for _, e := range events {
		if e.Type == gate.EventApproval {
			approvals = append(approvals, e.Approval)
		}
	}
	mu.Unlock()
	if len(approvals) != 1 || approvals[0] != "withdrawn" {
		t.Errorf("approval events %q, want one withdrawn", approvals)
	}
	_, entries, err := store.Request(context.Background(), res.rep.Request)
	if err != nil || len(entries) != 1 || entries[0].Outcome == nil {
		t.Fatalf("history: %+v, %v", entries, err)
	}
	if o := entries[0].Outcome; o.Approval != "withdrawn" || o.Status != "withdrawn" {
		t.Fatalf("history says approval %q, status %q; want withdrawn, withdrawn", o.Approval, o.Status)
	}
	if len(ex.names()) != 0 {
		t.Fatal("a withdrawn plan ran")
	}

	// The kill switch is not a withdrawal, though it cancels the client's
	// context too.
	go func() {
		rep, err := g.Submit(context.Background(), gate.Submission{Client: "mcp: killed", Plan: dangerousPlan}, nil)
		done <- result{rep, err}
	}()
	awaiting(t, brokerEvents)
	g.Kill()
	res = <-done
	<-taken
	if !errors.Is(res.err, gate.ErrKilled) || res.rep.Actions[0].Approval != "killed" {
		t.Fatalf("killed while pending: %+v, %v", res.rep, res.err)
	}
	if err := store.Verify(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// awaiting reads broker events until an awaiting_approval one.
func awaiting(t *testing.T, events <-chan approval.Event) {
	t.Helper()
	for e := range events {
		if e.Type == approval.EventAwaiting {
			return
		}
	}
	t.Fatal("event channel closed")
}
