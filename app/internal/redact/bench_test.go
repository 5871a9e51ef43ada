package redact_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/redact"
)

// BenchmarkString measures String on what the gate stores most: short
// clean text (an action and its preview), and text holding secrets.
func BenchmarkString(b *testing.B) {
	var dirty []string
	for _, c := range load[secretCase](b, "secrets.jsonl") {
		dirty = append(dirty, c.Text)
	}
	var clean []string
	for _, c := range load[benignCase](b, "benign.jsonl") {
		clean = append(clean, c.Text)
	}
	inputs := []struct {
		name string
		text []string
	}{
		{"clean-action", []string{`MOVE_FILE "~/Desktop/report.pdf" "~/Documents/report.pdf"`}},
		{"benign-corpus", clean},
		{"secrets-corpus", dirty},
		{"4KiB-script", []string{strings.Repeat("tell application \"Finder\" to get name of every window\n", 75)}},
	}
	redact.String("warm up") // builds the rules once, outside the timings
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			n := 0
			for _, s := range in.text {
				n += len(s)
			}
			b.SetBytes(int64(n))
			for b.Loop() {
				for _, s := range in.text {
					redact.String(s)
				}
			}
		})
	}
}

// BenchmarkFindScript measures Find on what the risk analyzer gives it:
// the risk benchmark's 2 KB AppleScript (risk.literalSecrets), as it is
// and repeated to a MiB.
func BenchmarkFindScript(b *testing.B) {
	src, err := os.ReadFile(filepath.Join("..", "risk", "testdata", "bench", "tidy.applescript"))
	if err != nil {
		b.Fatal(err)
	}
	redact.Find("warm up")
	for _, n := range []int{2 << 10, 1 << 20} {
		text := strings.Repeat(string(src), n/len(src)+1)[:n]
		b.Run(fmt.Sprintf("%dKB", n>>10), func(b *testing.B) {
			b.SetBytes(int64(n))
			b.ReportAllocs()
			for b.Loop() {
				redact.Find(text)
			}
		})
	}
}
