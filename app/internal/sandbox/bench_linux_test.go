//go:build linux

package sandbox_test

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/bridge"
)

// BenchmarkActionStart is what the sandbox adds to starting an action: each
// iteration runs /bin/true the way the executor does, confined (the
// launcher, airlock-launch as make build builds it, its namespaces, the
// hidden paths, Landlock and the socket filter; run unasked, so with the
// copy-on-write view of the sandbox roots too), confined with the internet
// granted (no network namespace, but Landlock's TCP rules and the network
// filter), confined but approved (no view: the launcher alone) and, as the
// baseline, unconfined; all alternate in each round, so that all see the
// same load. Each round first waits, with the timer stopped, until the
// Box's launchers started ahead (warm.go) wait, as at a gate that had a
// moment between two actions, and runs the baseline; waits again and runs
// an approved action ("idle-approved-"), and again and runs an unasked
// one ("idle-"). Then the unasked, internet and approved starts run back
// to back, each finding a launcher started ahead only if the one behind
// the last action has finished starting (or waiting for it). It reports
// the back-to-back confined start's p50 and p99, the internet one's
// ("web-"), the approved one's ("approved-"), the idle gate's two, and the
// baseline's ("bare-").
func BenchmarkActionStart(b *testing.B) { actionStart(b, 0) }

// BenchmarkActionStartGate100MB is BenchmarkActionStart with 100 MB more
// of heap in use in this process, as in a gate whose analyzers, history
// and UI hold that much: the launchers' start (warm.go) no longer forks
// this process.
func BenchmarkActionStartGate100MB(b *testing.B) { actionStart(b, 100) }

// actionStart is BenchmarkActionStart with mb MB more of heap in use.
func actionStart(b *testing.B, mb int) {
	ballast := make([][]byte, mb)
	for i := range ballast {
		ballast[i] = bytes.Repeat([]byte{1}, 1<<20)
	}
	defer runtime.KeepAlive(ballast)
	r := newRig(b)
	r.dedicated(b)
	ctx := context.Background()
	var confined, web, approved, bare, idle, idleApproved []time.Duration
	run := func(g sandbox.Grant) time.Duration {
		start := time.Now()
		c, done, err := r.box.Confine(bridge.Command{Argv: []string{"/bin/true"}, Dir: r.home}, sandbox.KindCommand, g)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := bridge.RunArgv(ctx, c); err != nil {
			b.Fatal(err)
		}
		done()
		return time.Since(start)
	}
	quiet := func() { // as at a gate that had a moment: its launchers wait
		b.StopTimer()
		r.waitWarm(b)
		b.StartTimer()
	}
	for b.Loop() {
		quiet()
		start := time.Now()
		if _, _, err := bridge.RunArgv(ctx, bridge.Command{Argv: []string{"/bin/true"}, Dir: r.home}); err != nil {
			b.Fatal(err)
		}
		bare = append(bare, time.Since(start))
		quiet()
		idleApproved = append(idleApproved, run(sandbox.Grant{Approved: true}))
		quiet()
		idle = append(idle, run(sandbox.Grant{}))
		confined = append(confined, run(sandbox.Grant{}))
		web = append(web, run(sandbox.Grant{Network: sandbox.NetInternet}))
		approved = append(approved, run(sandbox.Grant{Approved: true}))
	}
	at := func(ds []time.Duration, p float64) float64 {
		slices.Sort(ds)
		return float64(ds[int(p*float64(len(ds)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(at(confined, 0.50), "p50-ms")
	b.ReportMetric(at(confined, 0.99), "p99-ms")
	b.ReportMetric(at(web, 0.50), "web-p50-ms")
	b.ReportMetric(at(web, 0.99), "web-p99-ms")
	b.ReportMetric(at(approved, 0.50), "approved-p50-ms")
	b.ReportMetric(at(approved, 0.99), "approved-p99-ms")
	b.ReportMetric(at(idleApproved, 0.50), "idle-approved-p50-ms")
	b.ReportMetric(at(idleApproved, 0.99), "idle-approved-p99-ms")
	b.ReportMetric(at(idle, 0.50), "idle-p50-ms")
	b.ReportMetric(at(idle, 0.99), "idle-p99-ms")
	b.ReportMetric(at(bare, 0.50), "bare-p50-ms")
	b.ReportMetric(at(bare, 0.99), "bare-p99-ms")
}

// BenchmarkReviewedAction is what the copy-on-write view adds to starting
// and finishing an action that runs unasked: each iteration runs it as
// the executor and the gate will (ConfineReviewed, the program, ReadLayer
// of each layer, RemoveLayers) and, beside it, the same action approved
// (no view; it writes for real), through airlock-launch. "nothing" runs /bin/true; "100files"
// appends to 100 files of the root (appending, not truncating: ext4
// flushes a file truncated and written again when it is closed, which
// would weigh on the approved run alone). It reports the unasked run's p50 and
// p99, the approved one's ("approved-"), and the p50 the view adds
// ("added-p50-ms"; the target for "nothing" is at most 5 ms).
func BenchmarkReviewedAction(b *testing.B) {
	r := newRig(b)
	r.dedicated(b)
	box := r.box
	for i := range 100 {
		write(b, filepath.Join(r.docs, fmt.Sprintf("f%03d", i)), "old")
	}
	cases := []struct {
		name string
		argv []string
	}{
		{"nothing", []string{"/bin/true"}},
		{"100files", []string{"sh", "-c", `cd "$1" && i=0; while [ $i -lt 100 ]; do printf new >> "$(printf f%03d $i)"; i=$((i+1)); done`, "sh", r.docs}},
	}
	ctx := context.Background()
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			run := func(g sandbox.Grant) time.Duration {
				start := time.Now()
				cmd, layers, done, err := box.ConfineReviewed(bridge.Command{Argv: c.argv, Dir: r.home}, sandbox.KindCommand, g)
				if err != nil {
					b.Fatal(err)
				}
				if _, _, err := bridge.RunArgv(ctx, cmd); err != nil {
					b.Fatal(err)
				}
				n := 0
				for _, l := range layers {
					cs, err := sandbox.ReadLayer(l)
					if err != nil {
						b.Fatal(err)
					}
					n += len(cs)
				}
				if err := sandbox.RemoveLayers(layers); err != nil {
					b.Fatal(err)
				}
				done()
				if !g.Approved && (c.name == "nothing") != (n == 0) {
					b.Fatalf("%d changes", n)
				}
				return time.Since(start)
			}
			var unasked, approved []time.Duration
			for b.Loop() {
				approved = append(approved, run(sandbox.Grant{Approved: true}))
				unasked = append(unasked, run(sandbox.Grant{}))
			}
			b.ReportMetric(percentile(unasked, 0.50), "p50-ms")
			b.ReportMetric(percentile(unasked, 0.99), "p99-ms")
			b.ReportMetric(percentile(approved, 0.50), "approved-p50-ms")
			b.ReportMetric(percentile(approved, 0.99), "approved-p99-ms")
			b.ReportMetric(percentile(unasked, 0.50)-percentile(approved, 0.50), "added-p50-ms")
		})
	}
}

// waitWarm waits until the box's warm launchers wait (Box.WarmReady).
func (r *rig) waitWarm(t testing.TB) []int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pids, err := r.box.WarmReady(ctx)
	if err != nil {
		t.Fatalf("the warm launchers did not come: %v", err)
	}
	return pids
}

// percentile returns the p-th of ds (sorted in place) in milliseconds.
func percentile(ds []time.Duration, p float64) float64 {
	slices.Sort(ds)
	return float64(ds[int(p*float64(len(ds)-1))].Microseconds()) / 1000
}
