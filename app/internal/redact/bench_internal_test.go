package redact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkString1MiB measures String on a MiB of text (the cap on a
// command's output): ordinary text (the ordinary corpus over and over), a
// MiB of the secrets and provider corpora (a secret every line), and every
// rule's keywords on every line, so that every rule has work on every line
// (the worst case for the keyword prefilter), and a keyword repeated on
// one endless line. ns/byte = 1000 / (MB/s).
func BenchmarkString1MiB(b *testing.B) {
	theEngine()
	const size = 1 << 20
	fill := func(unit string) string {
		return strings.Repeat(unit, size/len(unit)+1)[:size]
	}
	read := func(name string) string {
		d, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			b.Fatal(err)
		}
		return string(d)
	}
	inputs := []struct{ name, text string }{
		{"ordinary", fill(read("ordinary.txt") + read("benign.jsonl"))},
		{"secrets", fill(read("secrets.jsonl") + read("providers.jsonl"))},
		{"all-keywords", fill(strings.Join(theEngine().kw.list, " ") + "\n")},
		// One keyword over and over on one line, which an action can
		// print: each try of a rule at each place used to read on to the
		// line's end (maxAnchored, maxWordReach).
		{"dashes", fill("-")},
		{"one-word", fill("sm_pata")},
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.text)))
			for b.Loop() {
				String(in.text)
			}
		})
	}
}

// BenchmarkKeywordScan times the keyword index alone over a MiB of the
// ordinary corpus: the pass every Find and String makes over the whole
// text before any rule runs.
func BenchmarkKeywordScan(b *testing.B) {
	e := theEngine()
	d, err := os.ReadFile(filepath.Join("testdata", "ordinary.txt"))
	if err != nil {
		b.Fatal(err)
	}
	text := strings.Repeat(string(d), (1<<20)/len(d)+1)[:1<<20]
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		e.kw.scan(text)
	}
}
