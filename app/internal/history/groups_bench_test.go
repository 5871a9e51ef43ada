package history_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
)

// BenchmarkGroups: the dashboard's read of one page (50 requests, each
// with three actions and a model call) from a history of 2,000 requests,
// unfiltered and with each kind of filter. Reports the median and 99th
// percentile latency.
func BenchmarkGroups(b *testing.B) {
	s, _, _ := open(b)
	ctx := context.Background()
	const requests = 2000
	for i := range requests {
		id := fmt.Sprintf("r%05d", i)
		client := "airlock run"
		if i%10 == 0 {
			client = "mcp: Claude"
		}
		must(b, s.AddRequest(ctx, history.Request{ID: id, Time: t0.Add(time.Duration(i) * time.Minute), Client: client, Kind: "ask",
			Text: "MOVE_FILE …\nMOVE_FILE …\nMOVE_FILE …\n-- asked: \"file the reports\""}))
		must(b, s.AddModelCall(ctx, history.ModelCall{RequestID: id, Time: t0, Endpoint: "http://127.0.0.1:11434/api/chat",
			Status: 200, Duration: time.Second, PromptTokens: 900, CompletionTokens: 80}))
		for idx := range 3 {
			d := autoDecision(id, idx)
			if i%20 == 0 && idx == 2 {
				d.Risk, d.Decision = level.Dangerous, "ask"
			}
			must(b, s.AddDecision(ctx, d))
			must(b, s.AddOutcome(ctx, okOutcome(id, idx)))
		}
	}
	for _, bc := range []struct {
		name string
		q    history.Query
	}{
		{"newest", history.Query{}},
		{"client", history.Query{Client: "claude"}},
		{"risk", history.Query{Risks: []level.Level{level.Dangerous, level.Destructive, level.Blocked}}},
		{"outcome", history.Query{Outcome: "ok"}},
		{"time", history.Query{Since: t0.Add(500 * time.Minute), Until: t0.Add(1000 * time.Minute)}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			bc.q.Limit = 50
			var lat []time.Duration
			for b.Loop() {
				start := time.Now()
				gs, err := s.Groups(ctx, bc.q)
				if err != nil || len(gs) != 50 {
					b.Fatalf("%d groups, %v", len(gs), err)
				}
				lat = append(lat, time.Since(start))
			}
			reportLatency(b, lat)
		})
	}
}
