package gate_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/secrets"
)

// The gate hands the history a submission's request and assesses the plan
// while it is written, but tells nothing, records nothing as decided and
// runs nothing until the request is durable. Here another connection holds
// the history's write lock, so the request's commit waits for it.
func TestNothingDecidedBeforeTheRequestIsRecorded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "history.db")
	store, err := history.Open(path, secrets.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	other, err := sql.Open("sqlite3", "file:"+path+"?_busy_timeout=5000")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	ctx := context.Background()
	holder, err := other.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if _, err := holder.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}

	env, _ := sandbox(t)
	ex := &fakeExec{}
	g := gate.New(gate.Config{Env: env, Exec: ex, History: store, Autonomy: 2})
	var mu sync.Mutex
	var events []gate.Event
	notify := func(e gate.Event) {
		mu.Lock()
		defer mu.Unlock()
		events = append(events, e)
	}
	type result struct {
		rep gate.Report
		err error
	}
	done := make(chan result, 1)
	go func() {
		rep, err := g.Submit(ctx, gate.Submission{Client: "test", Plan: safePlan + "\n" + cautionPlan}, notify)
		done <- result{rep, err}
	}()
	// Assessing these two actions takes well under a millisecond: by now
	// the submission waits for its request's record.
	time.Sleep(300 * time.Millisecond)
	mu.Lock()
	told := len(events)
	mu.Unlock()
	if told != 0 || ex.names() != nil {
		t.Fatalf("before the request was recorded: told %d events, ran %v", told, ex.names())
	}
	select {
	case res := <-done:
		t.Fatalf("ended before its request was recorded: %s, %v", res.rep.Status, res.err)
	default:
	}
	if _, err := holder.ExecContext(ctx, "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.err != nil || res.rep.Status != gate.StatusOK || len(ex.names()) != 2 {
		t.Fatalf("ended %s (%v), ran %v", res.rep.Status, res.err, ex.names())
	}
	mu.Lock()
	if len(events) == 0 || events[0].Type != gate.EventAssessed {
		t.Fatalf("told %+v", events)
	}
	mu.Unlock()
	_, entries, err := store.Request(ctx, res.rep.Request)
	if err != nil || len(entries) != 2 {
		t.Fatalf("recorded %d actions: %v", len(entries), err)
	}
	if err := store.Verify(ctx); err != nil {
		t.Fatal(err)
	}
}

// A history that cannot record refuses the submission with nothing run
// and nothing told but the end, whatever the assessment found.
func TestUnrecordedRequestRunsNothing(t *testing.T) {
	store, err := history.Open(filepath.Join(t.TempDir(), "history.db"), secrets.NewMemory())
	if err != nil {
		t.Fatal(err)
	}
	store.Close()
	env, _ := sandbox(t)
	ex := &fakeExec{}
	g := gate.New(gate.Config{Env: env, Exec: ex, History: store, Autonomy: 2})
	var events []gate.Event
	rep, err := g.Submit(context.Background(), gate.Submission{Client: "test", Plan: safePlan + "\n" + cautionPlan},
		func(e gate.Event) { events = append(events, e) })
	if !errors.Is(err, history.ErrClosed) || rep.Status != gate.StatusRefused {
		t.Fatalf("ended %s: %v", rep.Status, err)
	}
	if ex.names() != nil || len(rep.Actions) != 0 || len(events) != 1 || events[0].Type != gate.EventDone {
		t.Fatalf("ran %v, reported %+v, told %+v", ex.names(), rep.Actions, events)
	}
}
