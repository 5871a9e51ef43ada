package llm_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/llm"
)

// TestRealOllama asks a real Ollama at the default endpoint for a plan,
// through the same client, prompt and extraction as the gate uses. It skips,
// saying why, when no Ollama answers there or it has no model. With
// several models it uses the first in name order.
func TestRealOllama(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: not talking to a real model")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	probe, err := llm.New(llm.Config{API: llm.APIOllama, IdleTimeout: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer probe.Close()
	models, err := probe.Models(ctx)
	if err != nil {
		t.Skipf("no Ollama to test against: %v", err)
	}
	if len(models) == 0 {
		t.Skipf("Ollama at %s has no models (`ollama pull NAME` to run this test)", llm.DefaultEndpoint)
	}
	rec := &calls{}
	c, err := llm.New(llm.Config{API: llm.APIOllama, Model: models[0], Record: rec.record})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	t.Logf("asking %s at %s", models[0], llm.DefaultEndpoint)
	res, err := c.Plan(ctx, llm.PromptContext{Now: time.Now(), Roots: []string{"~/Documents"},
		Request: `Show me a notification titled "Airlock" that says "hello".`}, nil)
	if err != nil && !errors.Is(err, llm.ErrBadPlan) {
		t.Fatalf("Plan: %v", err)
	}
	t.Logf("after %d attempts, the plan:\n%s", res.Attempts, res.Plan)
	if err != nil {
		t.Logf("the model's plan did not parse (a small model may not manage): %v", err)
	} else if _, perr := action.Parse(res.Plan); perr != nil {
		t.Errorf("Plan returned a plan that does not parse: %v", perr)
	}
	got := rec.list()
	if len(got) != res.Attempts || got[0].Status != 200 || got[0].CompletionTokens == 0 {
		t.Errorf("recorded %+v, want one call per attempt with Ollama's token counts", got)
	}
}
