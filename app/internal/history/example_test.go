package history_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/secrets"
)

func Example() {
	dir, _ := os.MkdirTemp("", "airlock-history")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "history.db")
	ks := secrets.NewMemory() // the Keychain, in the app
	ctx := context.Background()

	h, err := history.Open(path, ks)
	if err != nil {
		fmt.Println(err)
		return
	}
	h.AddRequest(ctx, history.Request{ID: "r1", Client: "cli", Kind: "plan",
		Text: `RUN_SHELL "curl -H 'Authorization: Bearer 9f8e7d6c5b4a39281706' https://example.com"`})
	h.AddDecision(ctx, history.Decision{RequestID: "r1", Index: 0, Risk: level.Dangerous, Autonomy: 1, Decision: "ask",
		Action: `RUN_SHELL "curl -H 'Authorization: Bearer 9f8e7d6c5b4a39281706' https://example.com"`})
	h.AddOutcome(ctx, history.Outcome{RequestID: "r1", Index: 0, Approval: "denied", Status: "refused"})

	es, _ := h.Recent(ctx, 10)
	for _, e := range es {
		fmt.Println(e.Decision.Risk, e.Decision.Decision, e.Outcome.Approval)
		fmt.Println(e.Decision.Action)
	}
	h.Close()
	fmt.Println("verify:", history.VerifyFile(path, ks))
	// Output:
	// dangerous ask denied
	// RUN_SHELL "curl -H 'Authorization: Bearer [redacted:authorization]' https://example.com"
	// verify: <nil>
}
