package gate_test

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/approval"
	"github.com/airlockhq/airlock/app/internal/execute"
	"github.com/airlockhq/airlock/app/internal/gate"
)

// TestKillSchedules interleaves submissions, approvals and a kill at random
// and checks, for every schedule, that nothing begins executing once Kill has
// returned, that every submission ends, and that work is refused until
// Resume.
func TestKillSchedules(t *testing.T) {
	const schedules = 1000
	var executed atomic.Int32 // actions that began at all, over every schedule
	for seed := uint64(0); seed < schedules; seed++ {
		if err := killSchedule(t, seed, &executed); err != nil {
			t.Fatalf("schedule %d: %v", seed, err)
		}
	}
	// The schedules must exercise execution, not only refusals.
	if n := executed.Load(); n < schedules/2 {
		t.Fatalf("only %d actions executed over %d schedules", n, schedules)
	}
}

func killSchedule(t *testing.T, seed uint64, executed *atomic.Int32) error {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	var mu sync.Mutex // guards rng: the fakes below draw from it concurrently
	pick := func(n int) int { mu.Lock(); defer mu.Unlock(); return rng.IntN(n) }
	pause := func(ctx context.Context) {
		if d := time.Duration(pick(200)) * time.Microsecond; d > 0 && pick(3) > 0 {
			select {
			case <-time.After(d):
			case <-ctx.Done():
			}
		}
	}

	var tripped atomic.Bool // set once Kill has returned
	var late atomic.Int32   // actions that began after that
	// The real broker, so that Kill's KillAll races real prompts.
	broker := approval.NewBroker(approval.ScriptedFunc(func(ctx context.Context, req approval.Request) (approval.Answer, error) {
		pause(ctx)
		switch pick(4) {
		case 0:
			return denyAll(ctx, req)
		case 1: // nobody answers
			<-ctx.Done()
			return approval.Answer{Outcome: approval.Denied}, ctx.Err()
		default:
			return approveAll(ctx, req)
		}
	}), approval.Options{})
	r := newRig(t, 1, nil)
	env, _ := sandbox(t)
	r.g = gate.New(gate.Config{Env: env, Exec: r.exec, History: r.hist, Approver: broker, Autonomy: 1})
	r.exec.run = func(ctx context.Context, a action.Action) (execute.Result, error) {
		if tripped.Load() {
			late.Add(1)
		}
		executed.Add(1)
		pause(ctx)
		return execute.Result{}, ctx.Err()
	}

	plans := []string{safePlan, dangerousPlan, safePlan + "\n" + cautionPlan + "\n" + safePlan, cautionPlan + "\n" + dangerousPlan}
	submitters := 1 + pick(6)
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for s := 0; s < submitters; s++ {
		n := 1 + pick(3)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < n; i++ {
				plan := plans[pick(len(plans))]
				before := tripped.Load()
				_, err := r.g.Submit(context.Background(), gate.Submission{Client: "fuzz", Plan: plan}, nil)
				if before && !errors.Is(err, gate.ErrKilled) {
					errs <- fmt.Errorf("a submission made after the trip ended with %v, want ErrKilled", err)
				}
			}
		}()
	}
	time.Sleep(time.Duration(pick(400)) * time.Microsecond)
	rep := r.g.Kill()
	tripped.Store(true)
	if rep.Stragglers != 0 {
		return fmt.Errorf("kill left %d operations running", rep.Stragglers)
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	select {
	case <-finished:
	case <-time.After(10 * time.Second):
		return errors.New("submissions still running 10 s after the kill")
	}
	close(errs)
	for err := range errs {
		return err
	}
	if n := late.Load(); n > 0 {
		return fmt.Errorf("%d actions began executing after Kill returned", n)
	}
	if st := r.g.Status(); st.Running != 0 || st.Executing != 0 || st.Pending != 0 || !st.Killed {
		return fmt.Errorf("status after the kill: %+v", st)
	}
	if n := len(broker.Pending()); n != 0 {
		return fmt.Errorf("%d approvals still pending after the kill", n)
	}
	// Resuming (a UI action) lets work through again.
	r.g.Resume()
	tripped.Store(false)
	r.exec.run = nil
	if _, err := r.g.Submit(context.Background(), gate.Submission{Client: "fuzz", Plan: safePlan}, nil); err != nil {
		return fmt.Errorf("after Resume: %v", err)
	}
	return nil
}
