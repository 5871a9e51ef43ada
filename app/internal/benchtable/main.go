// Command benchtable prints issue 25's figures, each beside its reference
// and with the ratio, from the output of one `make bench` run. `make bench`
// keeps each go test run's output (and the Node peer's) in BENCHOUT, runs
// the gate's figures and their history-store references in alternating
// rounds into pairs.out, and runs it last:
//
//	go run ./app/internal/benchtable [-pairs bin/bench/pairs.out] bin/bench/*.txt
//
// Each figure is the median of its samples (-count 5); the ratio is the
// ratio of the two medians, both taken in the same `make bench` run. A
// figure whose benchmark did not run (no node for the peer, no namespaces
// for the sandbox) is printed as skipped, never as a failure.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	pairs := flag.String("pairs", "", "go test -bench output of the interleaved rounds (optional)")
	flag.Parse()
	if err := run(flag.Args(), *pairs, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

func run(paths []string, pairs string, w io.Writer) error {
	if len(paths) == 0 {
		return fmt.Errorf("usage: benchtable [-pairs FILE] FILE... (go test -bench output, and the peer's)")
	}
	all, err := parseFiles(paths)
	if err != nil {
		return err
	}
	var paired Results
	if pairs != "" {
		if paired, err = parseFiles([]string{pairs}); err != nil {
			return err
		}
	}
	Print(w, all, paired, machine(all.CPU))
	return nil
}

// parseFiles reads and merges the results in paths.
func parseFiles(paths []string) (Results, error) {
	var all Results
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return Results{}, err
		}
		res, err := Parse(f, p)
		f.Close()
		if err != nil {
			return Results{}, err
		}
		all.merge(res)
	}
	return all, nil
}

// machine describes where the figures were taken: the CPU go test named,
// the number of CPUs, and the load average now (Linux; left out where
// /proc/loadavg does not exist).
func machine(cpu string) string {
	s := cpu
	if s == "" {
		s = "unknown CPU"
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 3 {
			s += ", load " + strings.Join(f[:3], " ") + " at the end"
		}
	}
	return s
}
