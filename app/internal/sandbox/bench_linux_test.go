//go:build linux

package sandbox_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/bridge"
)

// BenchmarkActionStart is what the sandbox adds to starting an action: each
// iteration runs /bin/true the way the executor does, confined (the
// launcher, its namespaces, the hidden paths, Landlock and the socket
// filter), confined with the internet granted (no network namespace, but
// Landlock's TCP rules and the network filter) and, as the baseline,
// unconfined; the three alternate, so that all see the same load. It
// reports the confined start's p50 and p99, the internet one's ("web-")
// and the baseline's ("bare-").
func BenchmarkActionStart(b *testing.B) {
	r := newRig(b)
	ctx := context.Background()
	var confined, web, bare []time.Duration
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
	for b.Loop() {
		start := time.Now()
		if _, _, err := bridge.RunArgv(ctx, bridge.Command{Argv: []string{"/bin/true"}, Dir: r.home}); err != nil {
			b.Fatal(err)
		}
		bare = append(bare, time.Since(start))
		confined = append(confined, run(sandbox.Grant{}))
		web = append(web, run(sandbox.Grant{Network: sandbox.NetInternet}))
	}
	at := func(ds []time.Duration, p float64) float64 {
		slices.Sort(ds)
		return float64(ds[int(p*float64(len(ds)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(at(confined, 0.50), "p50-ms")
	b.ReportMetric(at(confined, 0.99), "p99-ms")
	b.ReportMetric(at(web, 0.50), "web-p50-ms")
	b.ReportMetric(at(web, 0.99), "web-p99-ms")
	b.ReportMetric(at(bare, 0.50), "bare-p50-ms")
	b.ReportMetric(at(bare, 0.99), "bare-p99-ms")
}
