package history_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
)

// autoDecision is what the gate writes before running an auto-approved
// action: a realistic action, preview and reasons.
func autoDecision(id string, idx int) history.Decision {
	return history.Decision{RequestID: id, Index: idx,
		Action:  `MOVE_FILE "~/Desktop/Q3 report (final).pdf" "~/Documents/Reports/2025/Q3 report.pdf"`,
		Preview: "Move “Q3 report (final).pdf” from Desktop to Documents/Reports/2025",
		Risk:    level.Caution, Reasons: []string{"moves a file inside your home folder", "the destination folder exists"},
		Autonomy: 1, Decision: "auto"}
}

func okOutcome(id string, idx int) history.Outcome {
	return history.Outcome{RequestID: id, Index: idx, Status: "ok", Duration: 12 * time.Millisecond,
		Output: "moved 1 file (2.4 MB) to ~/Documents/Reports/2025/Q3 report.pdf"}
}

// BenchmarkDecisionWrite: the durable audit write the gate waits for
// before running one auto-approved action, from a single caller. Reports
// the median and 99th percentile latency.
func BenchmarkDecisionWrite(b *testing.B) {
	s, _, _ := open(b)
	ctx := context.Background()
	must(b, s.AddRequest(ctx, history.Request{ID: "bench", Client: "cli", Kind: "plan", Text: "MOVE_FILE …"}))
	var lat []time.Duration
	i := 0
	for b.Loop() {
		start := time.Now()
		if err := s.AddDecision(ctx, autoDecision("bench", i)); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
		i++
	}
	reportLatency(b, lat)
}

func reportLatency(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
}

// BenchmarkConcurrentActions: 8 writers, each action two durable writes
// (decision before, outcome after), group commit. Reports actions/s and
// records/s.
func BenchmarkConcurrentActions(b *testing.B) {
	s, _, _ := open(b)
	ctx := context.Background()
	const writers = 8
	for g := range writers {
		must(b, s.AddRequest(ctx, history.Request{ID: fmt.Sprint("w", g), Client: "cli", Kind: "plan", Text: "…"}))
	}
	var next atomic.Int64
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			id := fmt.Sprint("w", g)
			for i := next.Add(1); i <= int64(b.N); i = next.Add(1) {
				if err := s.AddDecision(ctx, autoDecision(id, int(i))); err != nil {
					b.Error(err)
					return
				}
				if err := s.AddOutcome(ctx, okOutcome(id, int(i))); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	secs := time.Since(start).Seconds()
	b.ReportMetric(float64(b.N)/secs, "actions/s")
	b.ReportMetric(float64(2*b.N)/secs, "records/s")
}

// BenchmarkRecent1000: reading and decrypting the last 1,000 actions.
func BenchmarkRecent1000(b *testing.B) {
	s := fill(b, 1000)
	ctx := context.Background()
	for b.Loop() {
		es, err := s.Recent(ctx, 1000)
		if err != nil || len(es) != 1000 {
			b.Fatal(len(es), err)
		}
	}
}

// BenchmarkVerify: walking the chain; reports the cost per row.
func BenchmarkVerify(b *testing.B) {
	const actions = 2000
	s := fill(b, actions)
	ctx := context.Background()
	rows := actions*2 + actions/10
	for b.Loop() {
		if err := s.Verify(ctx); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(rows), "ns/row")
}

// fill writes n auto-approved actions, ten to a request, from 8 writers.
func fill(b *testing.B, n int) *history.Store {
	b.Helper()
	s, _, _ := open(b)
	ctx := context.Background()
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for r := g; r*10 < n; r += 8 {
				id := fmt.Sprint("req-", r)
				if err := s.AddRequest(ctx, history.Request{ID: id, Client: "cli", Kind: "plan", Text: "MOVE_FILE …\nNOTIFY …\n"}); err != nil {
					b.Error(err)
					return
				}
				for i := 0; i < 10 && r*10+i < n; i++ {
					if err := s.AddDecision(ctx, autoDecision(id, i)); err != nil {
						b.Error(err)
						return
					}
					if err := s.AddOutcome(ctx, okOutcome(id, i)); err != nil {
						b.Error(err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	return s
}
