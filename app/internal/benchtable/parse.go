package main

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// key names one metric of one benchmark: the package from the "pkg:" line
// above it (its last path element, or the peer's first word), the
// benchmark's name without its GOMAXPROCS suffix, and the unit.
type key struct{ pkg, bench, unit string }

// Results holds every sample of every metric read, in the order read, and
// the machine the go test header names.
type Results struct {
	Samples map[key][]float64
	CPU     string // from go test's "cpu:" line
}

// procSuffix is the "-2" go test appends to a benchmark's name when
// GOMAXPROCS is above 1.
var procSuffix = regexp.MustCompile(`-\d+$`)

// Parse reads go test -bench text output (and the peer's, which prints the
// same lines) and gathers the samples. Lines that are not benchmark result
// lines are skipped; a result line whose figures are not number–unit pairs
// is an error naming its line.
func Parse(r io.Reader, name string) (Results, error) {
	res := Results{Samples: map[key][]float64{}}
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = packageName(rest)
			continue
		}
		if rest, ok := strings.CutPrefix(line, "cpu: "); ok {
			res.CPU = strings.TrimSpace(rest)
			continue
		}
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) < 2 {
			continue // a benchmark's name printed alone (-v, or before a sub-benchmark)
		}
		if _, err := strconv.Atoi(fields[1]); err != nil {
			continue // a log line that happens to start with Benchmark
		}
		if (len(fields)-2)%2 != 0 {
			return Results{}, fmt.Errorf("%s:%d: %q: the figures after the iteration count are not value–unit pairs", name, n, line)
		}
		bench := procSuffix.ReplaceAllString(fields[0], "")
		for i := 2; i < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err != nil {
				return Results{}, fmt.Errorf("%s:%d: %q is not a number (unit %s)", name, n, fields[i], fields[i+1])
			}
			k := key{pkg, bench, fields[i+1]}
			res.Samples[k] = append(res.Samples[k], v)
		}
	}
	if err := sc.Err(); err != nil {
		return Results{}, fmt.Errorf("%s: %w", name, err)
	}
	return res, nil
}

// packageName is the last element of a "pkg:" line's import path, or the
// first word of the peer's ("seed000-peer (node v20, …)").
func packageName(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), " ")
	return s[strings.LastIndex(s, "/")+1:]
}

// Median is the median of the samples of k, and whether there were any.
func (r Results) Median(k key) (float64, bool) { return medianOf(r.Samples[k]) }

// medianOf is the median of vs (left as it is), and whether it has any.
func medianOf(vs []float64) (float64, bool) {
	vs = slices.Clone(vs)
	if len(vs) == 0 {
		return 0, false
	}
	slices.Sort(vs)
	if len(vs)%2 == 1 {
		return vs[len(vs)/2], true
	}
	return (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2, true
}

// merge adds other's samples to r, and its machine if r has none.
func (r *Results) merge(other Results) {
	if r.Samples == nil {
		r.Samples = map[key][]float64{}
	}
	for k, vs := range other.Samples {
		r.Samples[k] = append(r.Samples[k], vs...)
	}
	if r.CPU == "" {
		r.CPU = other.CPU
	}
}
