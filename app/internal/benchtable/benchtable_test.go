package main

import (
	"strings"
	"testing"
)

// out is go test -bench output of two packages and the peer's, as make
// bench keeps it: headers, -count 3 samples, a log line, a PASS.
const out = `goos: linux
goarch: amd64
pkg: github.com/airlockhq/airlock/app/internal/risk
cpu: AMD EPYC
BenchmarkAppleScript2KB-2   	   30000	     40000 ns/op	  51.20 MB/s	   12000 B/op	      76 allocs/op
BenchmarkAppleScript2KB-2   	   30000	     30000 ns/op	  68.27 MB/s	   12000 B/op	      76 allocs/op
BenchmarkAppleScript2KB-2   	   30000	     35000 ns/op	  58.51 MB/s	   12000 B/op	      76 allocs/op
BenchmarkAppleScriptSize/1024KB-2         	     100	   9000000 ns/op	 116.51 MB/s	         9.000 ns/byte	 5000000 B/op	   10000 allocs/op
BenchmarkShell1MB-2   	      10	 100000000 ns/op	  10.00 MB/s	59768832 B/op	  900000 allocs/op
BenchmarkPlan200-2   	     400	   2900000 ns/op	   3.00 MB/s
    bench_test.go:10: BenchmarkNote a log line
PASS
ok  	github.com/airlockhq/airlock/app/internal/risk	12.3s
pkg: seed000-peer (node v20.20.2, 15 patterns; the 2 KB script: critical, 3 warnings)
BenchmarkPeerAppleScript2KB	   42445	      7000 ns/op	  269.91 MB/s	     3.705 ns/byte
BenchmarkPeerAppleScriptSize/1024KB	     100	   3145728 ns/op	  333.33 MB/s	     3.000 ns/byte
pkg: github.com/airlockhq/airlock/app/internal/history
BenchmarkActionRecords-2    	    1213	    944597 ns/op	         0.8000 p50-ms	         2.083 p99-ms
BenchmarkActionRecords8-2   	    5145	    320924 ns/op	      4000 actions/s
pkg: github.com/airlockhq/airlock/app/internal/gate
BenchmarkAutoApprovedAction-2  	    1000	   1100000 ns/op	         1.200 p50-ms	         3.0 p99-ms
BenchmarkConcurrentSubmitters-2 	    3000	    330000 ns/op	      3000 actions/s
pkg: github.com/airlockhq/airlock/app/internal/sandbox
BenchmarkActionStart-2   	     100	  70000000 ns/op	        30.00 p50-ms	        33.00 p99-ms	        20.00 web-p50-ms	        25.00 web-p99-ms	         3.000 bare-p50-ms	         4.000 bare-p99-ms	         5.000 idle-approved-p50-ms	         10.00 idle-approved-p99-ms	         9.000 idle-p50-ms	         12.00 idle-p99-ms
BenchmarkReviewedAction/nothing-2   	50	 80000000 ns/op	 36.00 p50-ms	 40.00 p99-ms	 32.00 approved-p50-ms	 35.0 approved-p99-ms	 4.000 added-p50-ms
`

func parsed(t *testing.T, s string) Results {
	t.Helper()
	r, err := Parse(strings.NewReader(s), "out.txt")
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestParseMedians(t *testing.T) {
	r := parsed(t, out)
	for _, c := range []struct {
		k    key
		want float64
	}{
		{key{"risk", "BenchmarkAppleScript2KB", "ns/op"}, 35000},
		{key{"risk", "BenchmarkAppleScriptSize/1024KB", "ns/byte"}, 9},
		{key{"seed000-peer", "BenchmarkPeerAppleScript2KB", "ns/op"}, 7000},
		{key{"sandbox", "BenchmarkActionStart", "bare-p50-ms"}, 3},
		{key{"gate", "BenchmarkConcurrentSubmitters", "actions/s"}, 3000},
	} {
		if got, ok := r.Median(c.k); !ok || got != c.want {
			t.Errorf("%v: %v %v, want %v", c.k, got, ok, c.want)
		}
	}
	if _, ok := r.Median(key{"risk", "BenchmarkNote", "a"}); ok {
		t.Error("a log line was read as a result")
	}
	if r.CPU != "AMD EPYC" {
		t.Errorf("cpu %q", r.CPU)
	}
}

func TestMedianOfEven(t *testing.T) {
	r := Results{Samples: map[key][]float64{{"p", "b", "u"}: {4, 1, 3, 2}}}
	if got, _ := r.Median(key{"p", "b", "u"}); got != 2.5 {
		t.Errorf("median %v, want 2.5", got)
	}
}

func TestParseRejectsBrokenFigures(t *testing.T) {
	for _, line := range []string{
		"BenchmarkX-2 100 12 ns/op 7",
		"BenchmarkX-2 100 twelve ns/op",
	} {
		_, err := Parse(strings.NewReader("pkg: a/b\n"+line+"\n"), "x.txt")
		if err == nil || !strings.Contains(err.Error(), "x.txt:2") {
			t.Errorf("%q: error %v, want one naming x.txt:2", line, err)
		}
	}
}

func TestPrintRatios(t *testing.T) {
	var sb strings.Builder
	Print(&sb, parsed(t, out), Results{}, "test machine")
	got := sb.String()
	for _, want := range []string{
		"| 35.0 µs | seed 000's 15 regexes in Node: 7.0 µs | 5.00× | ≤ 1× |",
		"| 9.00 ns/byte | the same table: 3.00 ns/byte | 3.00× |",
		"| 30.00 ms | unconfined, same rounds: 3.00 ms | 10.00× (one round) | ≤ 2× |",
		"| the same at an idle gate (a launcher started ahead waits), approved, p50 | 5.00 ms | unconfined, same rounds: 3.00 ms | 1.67× (one round) | ≤ 2× |",
		"| the same at an idle gate, approved, p99 | 10.00 ms | unconfined, same rounds: 4.00 ms | 2.50× (one round) | — |",
		"| the same at an idle gate, unasked (with the copy-on-write view), p50 | 9.00 ms | unconfined, same rounds: 3.00 ms | 3.00× (one round) | — |",
		"| the same at an idle gate, unasked, p99 | 12.00 ms | unconfined, same rounds: 4.00 ms | 3.00× (one round) | — |",
		"| 3000 actions/s | history store alone, 8 writers (BenchmarkActionRecords8): 4000 actions/s | 0.75× |",
		"| 1.20 ms | its three durable commits alone (BenchmarkActionRecords): 0.80 ms | 1.50× |",
		"| 4.00 ms | the same action approved, p50: 32.00 ms | 1.12× | added ≤ 5 ms |",
		"| 2.90 ms | — | — | — |",
		"| 100.00 ns/byte | AppleScript 1 MB, same run: 9.00 ns/byte | 11.11× |",
		"| 57.0 B/byte |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the table lacks %q:\n%s", want, got)
		}
	}
}

func TestPrintSkipsWhatDidNotRun(t *testing.T) {
	// no peer, no sandbox: make bench on a machine without node or namespaces
	var kept []string
	for _, l := range strings.Split(out, "\n") {
		if !strings.Contains(l, "Peer") && !strings.Contains(l, "ActionStart") && !strings.Contains(l, "Reviewed") {
			kept = append(kept, l)
		}
	}
	var sb strings.Builder
	Print(&sb, parsed(t, strings.Join(kept, "\n")), Results{}, "test machine")
	got := sb.String()
	if strings.Count(got, peerSkipped) != 2 {
		t.Errorf("want the two peer rows skipped:\n%s", got)
	}
	if !strings.Contains(got, "| start a confined action (/bin/true), p50 | not measured |") {
		t.Errorf("want the confined start not measured:\n%s", got)
	}
}

// TestPrintPrefersPairedRounds: the gate's figures and their history
// references come from the interleaved rounds when those hold both, and
// from the main run when they do not.
func TestPrintPrefersPairedRounds(t *testing.T) {
	pairs := `pkg: github.com/airlockhq/airlock/app/internal/gate
BenchmarkAutoApprovedAction-2  	    1000	   1100000 ns/op	         0.900 p50-ms	         3.0 p99-ms
pkg: github.com/airlockhq/airlock/app/internal/history
BenchmarkActionRecords-2    	    1213	    944597 ns/op	         0.6000 p50-ms	         2.083 p99-ms
`
	var sb strings.Builder
	Print(&sb, parsed(t, out), parsed(t, pairs), "test machine")
	got := sb.String()
	for _, want := range []string{
		"(BenchmarkAutoApprovedAction), interleaved rounds | 0.90 ms | its three durable commits alone (BenchmarkActionRecords): 0.60 ms | 1.50× (one round) |",
		"| 8 concurrent submitters (BenchmarkConcurrentSubmitters) | 3000 actions/s |", // no pairs: the main run
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the table lacks %q:\n%s", want, got)
		}
	}
}

// TestPairedRatioRoundByRound: in interleaved rounds the ratio is the
// median of each round's own ratio, not the ratio of the two medians: a
// round the whole machine was slow in counts once, for both figures.
func TestPairedRatioRoundByRound(t *testing.T) {
	// Round by round the gate keeps 0.94, 0.95 and 0.70 of the store's
	// throughput: median 0.94. The ratio of the medians, 3500/4200 = 0.83,
	// sets the gate's third round against the store's second.
	pairs := `pkg: github.com/airlockhq/airlock/app/internal/gate
BenchmarkConcurrentSubmitters-2 	    3000	    330000 ns/op	      3000 actions/s
pkg: github.com/airlockhq/airlock/app/internal/history
BenchmarkActionRecords8-2   	    5145	    320924 ns/op	      3200 actions/s
pkg: github.com/airlockhq/airlock/app/internal/gate
BenchmarkConcurrentSubmitters-2 	    3000	    330000 ns/op	      4000 actions/s
pkg: github.com/airlockhq/airlock/app/internal/history
BenchmarkActionRecords8-2   	    5145	    320924 ns/op	      4200 actions/s
pkg: github.com/airlockhq/airlock/app/internal/gate
BenchmarkConcurrentSubmitters-2 	    3000	    330000 ns/op	      3500 actions/s
pkg: github.com/airlockhq/airlock/app/internal/history
BenchmarkActionRecords8-2   	    5145	    320924 ns/op	      5000 actions/s
`
	var sb strings.Builder
	Print(&sb, parsed(t, out), parsed(t, pairs), "test machine")
	want := "| 8 concurrent submitters (BenchmarkConcurrentSubmitters), interleaved rounds | 3500 actions/s | " +
		"history store alone, 8 writers (BenchmarkActionRecords8): 4200 actions/s | 0.94× (median of 3 rounds' own) | ≥ 0.90× |"
	if got := sb.String(); !strings.Contains(got, want) {
		t.Errorf("the table lacks %q:\n%s", want, got)
	}

	// Rounds that do not pair (a sample missing) fall back to the ratio
	// of the medians.
	cut := pairs[:strings.LastIndex(pairs, "BenchmarkActionRecords8")]
	sb.Reset()
	Print(&sb, parsed(t, out), parsed(t, cut), "test machine")
	if got := sb.String(); !strings.Contains(got, "| 3500 actions/s | history store alone, 8 writers (BenchmarkActionRecords8): 3700 actions/s | 0.95× | ≥ 0.90× |") {
		t.Errorf("unpaired rounds: want the ratio of medians:\n%s", got)
	}
}

// TestSameBenchmarkRounds: the confined start and the unconfined one are
// two figures of each BenchmarkActionStart line, so each line is a round
// and the ratio is the median of the lines' own.
func TestSameBenchmarkRounds(t *testing.T) {
	// The lines' own ratios are 3.0, 2.5 and 4.0: median 3.0. The ratio
	// of the medians, 4.0/1.0, would set the third line's confined start
	// beside another line's unconfined one.
	lines := `pkg: github.com/airlockhq/airlock/app/internal/sandbox
BenchmarkActionStart-2   	100	1 ns/op	3.0 idle-approved-p50-ms	1.0 bare-p50-ms
BenchmarkActionStart-2   	100	1 ns/op	5.0 idle-approved-p50-ms	2.0 bare-p50-ms
BenchmarkActionStart-2   	100	1 ns/op	4.0 idle-approved-p50-ms	1.0 bare-p50-ms
`
	var sb strings.Builder
	Print(&sb, parsed(t, lines), Results{}, "test machine")
	want := "| 4.00 ms | unconfined, same rounds: 1.00 ms | 3.00× (median of 3 rounds' own) | ≤ 2× |"
	if got := sb.String(); !strings.Contains(got, want) {
		t.Errorf("the table lacks %q:\n%s", want, got)
	}
}
