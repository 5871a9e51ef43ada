package history_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/history"
)

// actionRecords writes what the gate writes for one auto-approved action:
// the request, the decision before it runs and the outcome after, each a
// durable commit of its own. The request ids are distinct, as the gate's are.
func actionRecords(ctx context.Context, s *history.Store, id string) error {
	if err := s.AddRequest(ctx, history.Request{ID: id, Client: "bench", Kind: "plan",
		Text: `MOVE_FILE "~/Desktop/Q3 report (final).pdf" "~/Documents/Reports/2025/Q3 report.pdf"`}); err != nil {
		return err
	}
	if err := s.AddDecision(ctx, autoDecision(id, 0)); err != nil {
		return err
	}
	return s.AddOutcome(ctx, okOutcome(id, 0))
}

// BenchmarkActionRecords is the history store alone doing the durable part
// of one auto-approved action (request, decision, outcome: three fsync'd
// commits) from one caller: the reference for the gate's
// BenchmarkAutoApprovedAction. Reports the median and 99th percentile.
func BenchmarkActionRecords(b *testing.B) {
	s, _, _ := open(b)
	ctx := context.Background()
	var lat []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		if err := actionRecords(ctx, s, fmt.Sprint("r", i)); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
		i++
	}
	reportLatency(b, lat)
}

// BenchmarkActionRecords8 is the same three commits per action from 8
// writers at once (group commit): the throughput the gate's
// BenchmarkConcurrentSubmitters (8 clients) is measured against.
func BenchmarkActionRecords8(b *testing.B) {
	s, _, _ := open(b)
	ctx := context.Background()
	eightWriters(b, func(id string) error { return actionRecords(ctx, s, id) })
}

// BenchmarkQueuedRecords8 is BenchmarkActionRecords8 with the request and
// decision queued together, as the gate queues them (QueueRequest,
// QueueDecision, then the outcome waited for): the store's own ceiling for
// the gate's way of writing, beside the three waited commits of
// BenchmarkActionRecords8.
func BenchmarkQueuedRecords8(b *testing.B) {
	s, _, _ := open(b)
	ctx := context.Background()
	eightWriters(b, func(id string) error {
		req := s.QueueRequest(ctx, history.Request{ID: id, Client: "bench", Kind: "plan",
			Text: `MOVE_FILE "~/Desktop/Q3 report (final).pdf" "~/Documents/Reports/2025/Q3 report.pdf"`})
		dec := s.QueueDecision(ctx, autoDecision(id, 0))
		if err := errors.Join(req.Wait(ctx), dec.Wait(ctx)); err != nil {
			return err
		}
		return s.AddOutcome(ctx, okOutcome(id, 0))
	})
}

// eightWriters runs record for b.N actions (ids r1, r2 …) from 8
// goroutines at once and reports the actions recorded per second.
func eightWriters(b *testing.B, record func(id string) error) {
	const writers = 8
	var next atomic.Int64
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			for i := next.Add(1); i <= int64(b.N); i = next.Add(1) {
				if err := record(fmt.Sprint("r", i)); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "actions/s")
}
