package main

import (
	"os"
	"regexp"
	"testing"
)

// TestNoPathsOutsideTheRepository keeps the README and the Makefile to what
// a fresh clone has: nothing reaches into a folder beside the repository.
func TestNoPathsOutsideTheRepository(t *testing.T) {
	outside := regexp.MustCompile(`\.\./[A-Za-z]`)
	for _, f := range []string{"../README.md", "../Makefile"} {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, loc := range outside.FindAllIndex(b, -1) {
			line := 1
			for _, c := range b[:loc[0]] {
				if c == '\n' {
					line++
				}
			}
			t.Errorf("%s line %d points outside the repository: %q", f[3:], line, b[loc[0]:min(loc[1]+30, len(b))])
		}
	}
}
