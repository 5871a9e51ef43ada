package applescript

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// benchSrc is n bytes of the facade's benchmark script, repeated.
func benchSrc(n int) string {
	b, err := os.ReadFile("../testdata/bench/tidy.applescript")
	if err != nil {
		panic(err)
	}
	script := string(b)
	return strings.Repeat(script, n/len(script)+1)[:n]
}

func BenchmarkPhaseLex(b *testing.B) {
	src := benchSrc(1 << 20)
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		lexAppleScript(src).release()
	}
}

func BenchmarkPhase2KBLex(b *testing.B) {
	src := benchSrc(2048)
	for i := 0; i < b.N; i++ {
		lexAppleScript(src).release()
	}
}

// noLanguages stands in for the other analyzers: nested shell commands and
// scripts add nothing, so the phase benchmarks below time this package's
// own work alone (the facade's BenchmarkAppleScript2KB times it all).
type noLanguages struct{}

func (noLanguages) Shell(*Verdict, string, *Env, *Span, int) {}
func (noLanguages) AppleScript(string, *Env, int) Verdict    { return Verdict{} }
func (noLanguages) JXA(string, *Env, int) Verdict            { return Verdict{} }

// benchRate times Rate on n bytes of the benchmark script, the shell
// commands it runs not analysed.
func benchRate(b *testing.B, n int) {
	cfg, err := sanitize.NewConfig(b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	src := benchSrc(n)
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		env, end := (&Env{Paths: cfg}).Begin(context.Background(), noLanguages{})
		v := Rate(src, env, 0)
		if err := end(&v); err != nil || len(v.Reasons) == 0 {
			b.Fatalf("the benchmark script: %v, %v", v, err)
		}
	}
}

func BenchmarkPhase2KBRate(b *testing.B) { benchRate(b, 2048) }
func BenchmarkPhaseRate(b *testing.B)    { benchRate(b, 1<<20) }

// BenchmarkPhase2KBAfterLarge times the 2 KB script's lexing and naming
// with the pooled name table grown by a script of 8,000 distinct names
// before: what a small script pays after a large one went through.
func BenchmarkPhase2KBAfterLarge(b *testing.B) {
	var sb strings.Builder
	for i := range 8000 {
		fmt.Fprintf(&sb, "set v%d to %d\n", i, i)
	}
	lexAppleScript(sb.String()).release()
	src := benchSrc(2048)
	b.ReportAllocs()
	for b.Loop() {
		lexAppleScript(src).release()
	}
}
