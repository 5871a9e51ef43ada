package history_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/history"
)

const (
	crashDB      = "AIRLOCK_HISTORY_CRASH_DB"
	crashKeys    = "AIRLOCK_HISTORY_CRASH_KEYS"
	crashRun     = "AIRLOCK_HISTORY_CRASH_RUN"
	crashRecords = 10000
	crashWriters = 4
)

// TestCrashChild is the child of TestCrash: it writes crashRecords records
// from crashWriters goroutines and prints "r|d|o <request id>" for each
// one whose Add has returned, then waits to be killed.
func TestCrashChild(t *testing.T) {
	db := os.Getenv(crashDB)
	if db == "" {
		t.Skip("the child of TestCrash")
	}
	s, err := history.Open(db, fileKeys{os.Getenv(crashKeys)})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	ctx := context.Background()
	var left atomic.Int64
	left.Store(crashRecords)
	ack := func(kind, id string, err error) bool {
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(4)
		}
		os.Stdout.WriteString(kind + " " + id + "\n") // one write: a whole line or nothing
		return left.Add(-1) > 0
	}
	var wg sync.WaitGroup
	for g := range crashWriters {
		wg.Go(func() {
			for k := 0; left.Load() > 0; k++ {
				id := fmt.Sprintf("%s-%d-%d", os.Getenv(crashRun), g, k)
				if !ack("r", id, s.AddRequest(ctx, history.Request{ID: id, Client: "crash", Kind: "plan", Text: "plan " + id})) ||
					!ack("d", id, s.AddDecision(ctx, decision(id, 0, "auto"))) ||
					!ack("o", id, s.AddOutcome(ctx, history.Outcome{RequestID: id, Status: "ok", Output: "out " + id})) {
					return
				}
			}
		})
	}
	wg.Wait()
	os.Stdout.WriteString("done\n")
	select {} // the parent kills us
}

// TestCrash runs a child that writes 10,000 records and SIGKILLs it at a
// random point, 20 times over the same file. After each kill the file
// verifies as it is, reopens (Open checks the chain's end), and holds
// every record whose Add had returned in the child.
func TestCrash(t *testing.T) {
	runs := 20
	if testing.Short() {
		runs = 4
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "history.db")
	keys := filepath.Join(dir, "keys")
	must(t, os.Mkdir(keys, 0o700))
	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 0))
	ctx := context.Background()
	everAcked := false

	for run := range runs {
		// Kill after a random number of acknowledged records, or (one run
		// in six) at a random moment in the first 40ms, Open included.
		target := 1 + rng.IntN(crashRecords-1)
		if rng.IntN(6) == 0 {
			target = 0
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1", "-test.v=false")
		cmd.Env = append(os.Environ(), crashDB+"="+db, crashKeys+"="+keys, fmt.Sprintf("%s=run%d", crashRun, run))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		must(t, err)
		must(t, cmd.Start())
		started := time.Now()
		if target == 0 {
			time.AfterFunc(time.Duration(rng.IntN(40))*time.Millisecond, func() { cmd.Process.Kill() })
		}
		acked := map[string]string{} // request id → the kinds acknowledged
		n := 0
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			kind, id, ok := strings.Cut(sc.Text(), " ")
			if !ok || len(kind) != 1 {
				continue
			}
			acked[id] += kind
			if n++; n == target {
				cmd.Process.Kill()
			}
		}
		err = cmd.Wait()
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("run %d: the child ended with %v, not SIGKILL\n%s", run, err, stderr.String())
		}
		everAcked = everAcked || n > 0
		t.Logf("run %d: killed after %d acknowledged records (target %d) in %v", run, n, target, time.Since(started))

		if everAcked {
			if err := history.VerifyFile(db, fileKeys{keys}); err != nil {
				t.Fatalf("run %d: the killed child's file does not verify: %v", run, err)
			}
		}
		s, err := history.Open(db, fileKeys{keys})
		if err != nil {
			t.Fatalf("run %d: reopening: %v", run, err)
		}
		// This run's actions are the newest; one Recent reads them all.
		decided := 0
		for _, kinds := range acked {
			decided += strings.Count(kinds, "d")
		}
		es, err := s.Recent(ctx, decided+crashWriters)
		if err != nil {
			t.Fatalf("run %d: reading back: %v", run, err)
		}
		found := make(map[string]history.Entry, len(es))
		for _, e := range es {
			found[e.Request.ID] = e
		}
		for id, kinds := range acked {
			e, ok := found[id]
			switch {
			case strings.Contains(kinds, "d") && !ok:
				t.Fatalf("run %d: acknowledged decision for %s is missing", run, id)
			case strings.Contains(kinds, "o") && e.Outcome == nil:
				t.Fatalf("run %d: acknowledged outcome for %s is missing", run, id)
			case !ok:
				if _, _, err := s.Request(ctx, id); err != nil {
					t.Fatalf("run %d: acknowledged request %s: %v", run, id, err)
				}
			}
		}
		must(t, s.Close())
	}
}
