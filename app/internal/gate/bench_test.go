package gate_test

import (
	"context"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/gate"
	"github.com/airlockhq/airlock/app/internal/history"
	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/llm"
	"github.com/airlockhq/airlock/app/internal/llm/llmtest"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/secrets"
)

// benchGate is a gate over a real history file with an executor that does
// nothing, so what is measured is the gate: parse, assess, decide, and the
// durable writes of the request, the decision and the outcome.
func benchGate(b *testing.B) *gate.Gate {
	b.Helper()
	store, err := history.Open(filepath.Join(b.TempDir(), "history.db"), secrets.NewMemory())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { store.Close() })
	env, _ := sandbox(b)
	return gate.New(gate.Config{Env: env, Exec: nopExec{}, History: store, Autonomy: 1})
}

type nopExec struct{}

func (nopExec) RunScript(context.Context, string, string, []string, string, ossandbox.Grant) (execute.Result, error) {
	return execute.Result{}, nil
}

func (nopExec) RunAssessed(context.Context, action.Action, level.Level) (execute.Result, error) {
	return execute.Result{}, nil
}

// BenchmarkAutoApprovedAction is the gate's overhead for one action that
// the policy lets through, with its audit records on disk (fsync) before
// Submit returns. Target: p50 < 2 ms.
func BenchmarkAutoApprovedAction(b *testing.B) {
	g := benchGate(b)
	sub := gate.Submission{Client: "bench", Plan: cautionPlan}
	took := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if _, err := g.Submit(context.Background(), sub, nil); err != nil {
			b.Fatal(err)
		}
		took = append(took, time.Since(start))
	}
	b.StopTimer()
	reportPercentiles(b, took)
}

// BenchmarkConcurrentSubmitters is sustained throughput with 8 clients
// submitting one-action plans at once. Target: ≥ 2,000 actions/s.
func BenchmarkConcurrentSubmitters(b *testing.B) {
	g := benchGate(b)
	sub := gate.Submission{Client: "bench", Plan: cautionPlan}
	b.SetParallelism((8 + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	start := time.Now()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := g.Submit(context.Background(), sub, nil); err != nil {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "actions/s")
}

// BenchmarkKill trips the switch with 50 actions running child processes
// and 32 approvals pending, and measures until every one has stopped: the
// processes are dead and reaped, the approvals resolved, the submissions
// returned. Target: p99 < 20 ms.
func BenchmarkKill(b *testing.B) {
	const running, pending = 50, 32
	env, _ := sandbox(b)
	hold := approval.ScriptedFunc(func(ctx context.Context, _ approval.Request) (approval.Answer, error) {
		<-ctx.Done()
		return approval.Answer{}, ctx.Err()
	})
	broker := approval.NewBroker(hold, approval.Options{Max: pending})
	started := make(chan struct{}, running)
	sleeper := execFunc(func(ctx context.Context, a action.Action) (execute.Result, error) {
		started <- struct{}{}
		_, _, err := execute.RunArgv(ctx, execute.Command{Argv: []string{"sleep", "60"}})
		return execute.Result{}, err
	})
	var took []time.Duration
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		g := gate.New(gate.Config{Env: env, Exec: sleeper, History: &memHistory{}, Approver: broker, Autonomy: 1})
		var wg sync.WaitGroup
		for j := 0; j < running+pending; j++ {
			plan := cautionPlan
			if j >= running {
				plan = dangerousPlan
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				g.Submit(context.Background(), gate.Submission{Client: "bench", Plan: plan}, nil)
			}()
		}
		for j := 0; j < running; j++ {
			<-started
		}
		for len(broker.Pending()) < pending {
			time.Sleep(100 * time.Microsecond)
		}
		time.Sleep(20 * time.Millisecond) // let the sleeps exec
		b.StartTimer()
		start := time.Now()
		rep := g.Kill()
		wg.Wait()
		took = append(took, time.Since(start))
		b.StopTimer()
		if rep.Cancelled != running+pending || rep.Approvals != pending || rep.Stragglers != 0 {
			b.Fatalf("kill report %+v", rep)
		}
	}
	reportPercentiles(b, took)
}

type execFunc func(ctx context.Context, a action.Action) (execute.Result, error)

func (f execFunc) RunAssessed(ctx context.Context, a action.Action, _ level.Level) (execute.Result, error) {
	return f(ctx, a)
}
func (f execFunc) RunScript(ctx context.Context, _, _ string, _ []string, _ string, _ ossandbox.Grant) (execute.Result, error) {
	return f(ctx, action.Action{})
}

func reportPercentiles(b *testing.B, took []time.Duration) {
	if len(took) == 0 {
		return
	}
	slices.Sort(took)
	at := func(p float64) float64 {
		return float64(took[int(p*float64(len(took)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
}

// BenchmarkAsk is one request in words end to end against a local fake
// Ollama: prompt, streamed reply, extraction, parse, the gate's decisions,
// a fake execution and the in-memory history. The model's own time is not
// in it; what is left is Airlock's overhead per ask.
func BenchmarkAsk(b *testing.B) {
	srv := llmtest.New(b, llmtest.Options{API: llm.APIOllama, Models: []string{"planner:3b"}})
	srv.Reply(llmtest.Plain("Here you go:\n```\n" + strings.Repeat(cautionPlan+"\n", 10) + "```\n"))
	r := newRig(b, 1, approveAll, func(c *gate.Config) {
		c.LLM = func(context.Context) (llm.Config, error) {
			return llm.Config{Endpoint: srv.URL, API: llm.APIOllama, Model: "planner:3b"}, nil
		}
	})
	for b.Loop() {
		if _, err := r.g.Ask(context.Background(), gate.AskRequest{Client: "bench", Request: "make folders"}, nil); err != nil {
			b.Fatal(err)
		}
	}
}
