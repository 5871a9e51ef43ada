package main

import (
	"context"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/ui"
	"github.com/airlockhq/airlock/bridge"
)

// TestOpener: the menu's "Pending approvals" items are wired to the popup
// prompter's Open, so clicking one puts that request's popup up beside the
// one on screen; a prompter that cannot show out of turn leaves the items
// unclickable.
func TestOpener(t *testing.T) {
	if opener(approval.Scripted()) != nil {
		t.Fatal("a prompter without Open got a click handler")
	}
	shown := make(chan string, 2)
	p := ui.NewPopupPrompter(ui.PopupOptions{Show: func(ctx context.Context, pp bridge.ApprovalPopup) (bridge.PopupAnswer, error) {
		shown <- pp.Client
		<-ctx.Done()
		return bridge.PopupAnswer{Items: make([]bool, len(pp.Items))}, nil
	}})
	click := opener(p)
	if click == nil {
		t.Fatal("the popup prompter got no click handler")
	}
	b := approval.NewBroker(p, approval.Options{Timeout: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for _, id := range []string{"first", "second"} {
		go b.Ask(ctx, approval.Request{ID: id, Client: id, Items: []approval.Item{{Index: 1, Text: "x", Risk: 2}}})
	}
	first := <-shown
	second := "first"
	if first == "first" {
		second = "second"
	}
	click(ctx, approval.Request{ID: second})
	if got := <-shown; got != second {
		t.Fatalf("clicked %s, and %s came up", second, got)
	}
}
