// Command benchtable prints issue 25's figures, each beside its reference
// and with the ratio, from the output of one `make bench` run. `make bench`
// keeps each go test run's output (and the Node peer's) in BENCHOUT and runs
// it last:
//
//	go run ./app/internal/benchtable bin/bench/*.txt
//
// Each figure is the median of its samples (-count 5); the ratio is the
// ratio of the two medians, both taken in the same `make bench` run. A
// figure whose benchmark did not run (no node for the peer, no namespaces
// for the sandbox) is printed as skipped, never as a failure.
package main

import (
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

func run(paths []string, w io.Writer) error {
	if len(paths) == 0 {
		return fmt.Errorf("usage: benchtable FILE... (go test -bench output, and the peer's)")
	}
	var all Results
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		res, err := Parse(f, p)
		f.Close()
		if err != nil {
			return err
		}
		all.merge(res)
	}
	Print(w, all, machine(all.CPU))
	return nil
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
