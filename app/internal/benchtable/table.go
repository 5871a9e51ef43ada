package main

import (
	"fmt"
	"io"
	"runtime"
)

// metric is one figure read from the results: a median, or one derived
// from medians (a per-byte cost from MB/s).
type metric struct {
	label string
	get   func(Results) (float64, bool)
	show  func(float64) string
	// of is the metric a plain median is read from (zero for a derived
	// figure): interleaved rounds compare such metrics round by round.
	of key
}

// median reads the median of pkg's bench in unit.
func median(pkg, bench, unit string) func(Results) (float64, bool) {
	return func(r Results) (float64, bool) { return r.Median(key{pkg, bench, unit}) }
}

// plain is the metric of k's median, comparable round by round.
func plain(label string, k key, show func(float64) string) metric {
	return metric{label: label, get: median(k.pkg, k.bench, k.unit), show: show, of: k}
}

func ptr(m metric) *metric { return &m }

// Figure is one row: Airlock's figure, its reference (nil: none), the
// target of their ratio and what to say when the reference did not run.
type Figure struct {
	What    string
	Ours    metric
	Ref     *metric
	Target  string
	Skipped string // printed in place of a reference whose benchmark did not run
	// Ratio is how the two compare; nil: ours / ref.
	Ratio func(ours, ref float64) float64
	// Paired figures are taken from the interleaved rounds (make bench's
	// pairs.out) when those hold both: the durable commits' speed drifts
	// with the disk's other work, so a reference measured minutes apart
	// is no reference.
	Paired bool
}

const peerSkipped = "peer skipped (node is not installed, or the peer did not run)"

func us(v float64) string  { return fmt.Sprintf("%.1f µs", v/1e3) }
func ms(v float64) string  { return fmt.Sprintf("%.2f ms", v) }
func nsB(v float64) string { return fmt.Sprintf("%.2f ns/byte", v) }
func per(v float64) string { return fmt.Sprintf("%.0f actions/s", v) }

// shellNsPerByte is BenchmarkShell1MB's cost per input byte, from its MB/s.
func shellNsPerByte(r Results) (float64, bool) {
	v, ok := r.Median(key{"risk", "BenchmarkShell1MB", "MB/s"})
	if !ok || v == 0 {
		return 0, false
	}
	return 1e3 / v, true
}

// shellAllocPerByte is what BenchmarkShell1MB allocates per input byte (its
// input is just under 1 MiB: whole lines up to 1 MiB).
func shellAllocPerByte(r Results) (float64, bool) {
	v, ok := r.Median(key{"risk", "BenchmarkShell1MB", "B/op"})
	return v / (1 << 20), ok
}

// actionStart is a row of BenchmarkActionStart: one of its confined start
// metrics beside the unconfined start's metric (p50 or p99) of the same
// rounds.
func actionStart(what, label, of, bare, target string) Figure {
	return Figure{What: what,
		Ours:   plain(label, key{"sandbox", "BenchmarkActionStart", of}, ms),
		Ref:    ptr(plain("unconfined, same rounds", key{"sandbox", "BenchmarkActionStart", bare}, ms)),
		Target: target, Skipped: "not measured (the sandbox benchmarks did not run)"}
}

// Figures are issue 25's rows, in its order, each with the benchmark that
// measures it and the one it is measured beside.
var Figures = []Figure{
	{What: "assess 2 KB AppleScript (BenchmarkAppleScript2KB)",
		Ours:   plain("Airlock", key{"risk", "BenchmarkAppleScript2KB", "ns/op"}, us),
		Ref:    ptr(plain("seed 000's 15 regexes in Node", key{"seed000-peer", "BenchmarkPeerAppleScript2KB", "ns/op"}, us)),
		Target: "≤ 1×", Skipped: peerSkipped},
	{What: "assess 1 MB AppleScript",
		Ours:   plain("Airlock", key{"risk", "BenchmarkAppleScriptSize/1024KB", "ns/byte"}, nsB),
		Ref:    ptr(plain("the same table", key{"seed000-peer", "BenchmarkPeerAppleScriptSize/1024KB", "ns/byte"}, nsB)),
		Target: "≤ 1×", Skipped: peerSkipped},
	actionStart("start a confined action (/bin/true), p50", "confined", "p50-ms", "bare-p50-ms", "≤ 2×"),
	actionStart("the same, approved (no copy-on-write view: the launcher alone), p50", "confined, approved", "approved-p50-ms", "bare-p50-ms", "—"),
	actionStart("the same at an idle gate (a launcher started ahead waits), approved, p50", "confined, approved", "idle-approved-p50-ms", "bare-p50-ms", "≤ 2×"),
	actionStart("the same at an idle gate, approved, p99", "confined, approved", "idle-approved-p99-ms", "bare-p99-ms", "—"),
	actionStart("the same at an idle gate, unasked (with the copy-on-write view), p50", "confined, unasked", "idle-p50-ms", "bare-p50-ms", "—"),
	actionStart("the same at an idle gate, unasked, p99", "confined, unasked", "idle-p99-ms", "bare-p99-ms", "—"),
	{What: "8 concurrent submitters (BenchmarkConcurrentSubmitters)",
		Ours:   plain("gate", key{"gate", "BenchmarkConcurrentSubmitters", "actions/s"}, per),
		Ref:    ptr(plain("history store alone, 8 writers (BenchmarkActionRecords8)", key{"history", "BenchmarkActionRecords8", "actions/s"}, per)),
		Target: "≥ 0.90×", Skipped: "not measured", Paired: true},
	{What: "auto-approved action, p50 (BenchmarkAutoApprovedAction)",
		Ours:   plain("gate", key{"gate", "BenchmarkAutoApprovedAction", "p50-ms"}, ms),
		Ref:    ptr(plain("its three durable commits alone (BenchmarkActionRecords)", key{"history", "BenchmarkActionRecords", "p50-ms"}, ms)),
		Target: "≤ 1.3×", Skipped: "not measured", Paired: true},
	{What: "unasked /bin/true with the copy-on-write view, added p50 (BenchmarkReviewedAction/nothing)",
		Ours:   plain("added", key{"sandbox", "BenchmarkReviewedAction/nothing", "added-p50-ms"}, ms),
		Ref:    ptr(plain("the same action approved, p50", key{"sandbox", "BenchmarkReviewedAction/nothing", "approved-p50-ms"}, ms)),
		Target: "added ≤ 5 ms", Skipped: "not measured (the sandbox benchmarks did not run)",
		// unasked p50 / approved p50: what the view multiplies the start by
		Ratio: func(added, approved float64) float64 { return (approved + added) / approved }},
	{What: "DSL Plan200 (BenchmarkPlan200)",
		Ours:   plain("Airlock", key{"risk", "BenchmarkPlan200", "ns/op"}, ms1e6),
		Target: "—"},
	{What: "shell 1 MB (BenchmarkShell1MB)",
		Ours:   metric{label: "Airlock", get: shellNsPerByte, show: nsB},
		Ref:    ptr(plain("AppleScript 1 MB, same run", key{"risk", "BenchmarkAppleScriptSize/1024KB", "ns/byte"}, nsB)),
		Target: "—", Skipped: "not measured"},
	{What: "shell 1 MB, bytes allocated per input byte",
		Ours:   metric{label: "Airlock", get: shellAllocPerByte, show: func(v float64) string { return fmt.Sprintf("%.1f B/byte", v) }},
		Target: "half of 57 B/byte"},
}

func ms1e6(v float64) string { return fmt.Sprintf("%.2f ms", v/1e6) }

// Print writes the figures as a Markdown table, ready for the README;
// paired holds the interleaved rounds of the Paired figures (empty: none).
func Print(w io.Writer, r, paired Results, machine string) {
	fmt.Fprintf(w, "\nIssue 25's figures, medians of this run (%s, %d CPUs):\n\n", machine, runtime.NumCPU())
	fmt.Fprintln(w, "| what | Airlock | beside it | ratio | target |")
	fmt.Fprintln(w, "|---|---|---|---|---|")
	for _, f := range Figures {
		src, rounds := r, false
		if f.Paired && f.Ref != nil {
			_, ok1 := f.Ours.get(paired)
			_, ok2 := f.Ref.get(paired)
			if ok1 && ok2 {
				src, rounds = paired, true
				f.What += ", interleaved rounds"
			}
		}
		fmt.Fprintln(w, row(f, src, rounds || f.sameLines()))
	}
}

// sameLines reports a figure whose two metrics are read from the same
// benchmark's result lines (the confined start beside the unconfined one
// of BenchmarkActionStart): each line is a round holding both.
func (f Figure) sameLines() bool {
	return f.Ref != nil && f.Ours.of != (key{}) && f.Ours.of.pkg == f.Ref.of.pkg && f.Ours.of.bench == f.Ref.of.bench
}

// row renders one figure: its value, its reference's, and their ratio; a
// figure or reference that was not measured says so. Where the samples
// pair up in rounds (interleaved rounds, or one benchmark's lines holding
// both figures), the ratio is the median of each round's own ratio: the
// disk's and the other tenants' load drift between rounds, and a ratio of
// two medians taken from different rounds mixes that drift in.
func row(f Figure, r Results, rounds bool) string {
	ours, ok := f.Ours.get(r)
	if !ok {
		return fmt.Sprintf("| %s | not measured | — | — | %s |", f.What, f.Target)
	}
	if f.Ref == nil {
		return fmt.Sprintf("| %s | %s | — | — | %s |", f.What, f.Ours.show(ours), f.Target)
	}
	ref, ok := f.Ref.get(r)
	if !ok {
		return fmt.Sprintf("| %s | %s | %s | — | %s |", f.What, f.Ours.show(ours), f.Skipped, f.Target)
	}
	ratio := "—"
	if q, n, ok := roundRatio(f, r); rounds && ok {
		ratio = fmt.Sprintf("%.2f× (median of %d rounds' own)", q, n)
		if n == 1 {
			ratio = fmt.Sprintf("%.2f× (one round)", q)
		}
	} else if ref != 0 {
		q := ours / ref
		if f.Ratio != nil {
			q = f.Ratio(ours, ref)
		}
		ratio = fmt.Sprintf("%.2f×", q)
	}
	return fmt.Sprintf("| %s | %s | %s: %s | %s | %s |", f.What, f.Ours.show(ours), f.Ref.label, f.Ref.show(ref), ratio, f.Target)
}

// roundRatio is the median of ours/ref taken round by round: the i-th
// sample of each, when both are plain metrics with as many samples, none
// of the reference's zero.
func roundRatio(f Figure, r Results) (q float64, n int, ok bool) {
	if f.Ratio != nil || f.Ref == nil || f.Ours.of == (key{}) || f.Ref.of == (key{}) {
		return 0, 0, false
	}
	ours, refs := r.Samples[f.Ours.of], r.Samples[f.Ref.of]
	if len(ours) == 0 || len(ours) != len(refs) {
		return 0, 0, false
	}
	qs := make([]float64, len(ours))
	for i, v := range ours {
		if refs[i] == 0 {
			return 0, 0, false
		}
		qs[i] = v / refs[i]
	}
	q, _ = medianOf(qs)
	return q, len(ours), true
}
