package execute_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/execute"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
)

var errChanged = errors.New("the script changed")

// TestCheckRunsInTheTurn: the check WithCheck attaches runs once the
// action's turn has come — after the action before it finished, so that
// action cannot change what the check approved — and an error from it
// refuses the action before anything starts.
func TestCheckRunsInTheTurn(t *testing.T) {
	d := &blockingDesktop{Desktop: execute.Unavailable(), started: make(chan struct{}), release: make(chan struct{})}
	e := &execute.Executor{Desktop: d}
	first := make(chan error, 1)
	go func() {
		_, err := e.RunScript(context.Background(), execute.KindAppleScript, "first", nil, "", ossandbox.Grant{})
		first <- err
	}()
	<-d.started
	var firstDone, checkedEarly atomic.Bool
	ctx := execute.WithCheck(context.Background(), func() error {
		if !firstDone.Load() {
			checkedEarly.Store(true)
		}
		return errChanged
	})
	second := make(chan error, 1)
	go func() {
		_, err := e.RunScript(ctx, execute.KindAppleScript, "second", nil, "", ossandbox.Grant{})
		second <- err
	}()
	firstDone.Store(true)
	close(d.release)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	if err := <-second; !errors.Is(err, errChanged) {
		t.Fatalf("second: err = %v, want the check's", err)
	}
	if checkedEarly.Load() {
		t.Fatal("the check ran before the action's turn")
	}
	if n := d.runs.Load(); n != 1 {
		t.Fatalf("%d scripts ran, want 1: the refused one started", n)
	}

	// A plan's action is checked the same way; a check that passes lets it run.
	p, err := action.Parse(`NOTIFY "a" "b"`)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.Run(ctx, p.Actions[0]); !errors.Is(err, errChanged) {
		t.Fatalf("Run: err = %v, want the check's", err)
	}
	ok := execute.WithCheck(context.Background(), func() error { return nil })
	if _, err := e.RunScript(ok, execute.KindAppleScript, "third", nil, "", ossandbox.Grant{}); err != nil {
		t.Fatalf("a passing check: %v", err)
	}
	if err := execute.Check(context.Background()); err != nil {
		t.Fatalf("Check without a check: %v", err)
	}
}

// TestChecksAddUp: a check attached over another runs after it, and only
// when it passed; neither a later check nor a nil one replaces an earlier
// one (a grant's pins stay checked under an allow rule's).
func TestChecksAddUp(t *testing.T) {
	var order []string
	errFirst := errors.New("the grant no longer holds")
	first := func() error { order = append(order, "first"); return errFirst }
	second := func() error { order = append(order, "second"); return nil }

	ctx := execute.WithCheck(execute.WithCheck(context.Background(), first), second)
	if err := execute.Check(ctx); !errors.Is(err, errFirst) {
		t.Fatalf("Check = %v, want the first check's error", err)
	}
	if len(order) != 1 || order[0] != "first" {
		t.Fatalf("ran %v, want only the first (it failed)", order)
	}

	order = nil
	pass := func() error { order = append(order, "first"); return nil }
	errSecond := errors.New("rated higher")
	ctx = execute.WithCheck(execute.WithCheck(context.Background(), pass), func() error {
		order = append(order, "second")
		return errSecond
	})
	if err := execute.Check(ctx); !errors.Is(err, errSecond) {
		t.Fatalf("Check = %v, want the second check's error", err)
	}
	if len(order) != 2 || order[0] != "first" || order[1] != "second" {
		t.Fatalf("ran %v, want first then second", order)
	}

	if err := execute.Check(execute.WithCheck(execute.WithCheck(context.Background(), first), nil)); !errors.Is(err, errFirst) {
		t.Fatalf("a nil check over another: Check = %v, want the earlier check kept", err)
	}
}
