package risk

import (
	"os"

	"mvdan.cc/sh/v3/syntax"
	"strings"
	"testing"
)

func benchSrc(n int) string {
	b, err := os.ReadFile("testdata/bench/tidy.applescript")
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

func BenchmarkPhaseNoShell(b *testing.B) {
	src := strings.ReplaceAll(benchSrc(1<<20), "do shell script", "do shel1 script")
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		appleScriptAt(src, nil, 0)
	}
}

func BenchmarkPhaseAll(b *testing.B) {
	src := benchSrc(1 << 20)
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		appleScriptAt(src, nil, 0)
	}
}

func BenchmarkPhaseSmallShell(b *testing.B) {
	for i := 0; i < b.N; i++ {
		var v Verdict
		shellInto(&v, "df -h '__AIRLOCK_Q__' | tail -1", nil, nil, 1)
	}
}

func BenchmarkPhase2KBLex(b *testing.B) {
	src := benchSrc(2048)
	for i := 0; i < b.N; i++ {
		lexAppleScript(src).release()
	}
}

func BenchmarkPhase2KBNoShell(b *testing.B) {
	src := strings.ReplaceAll(benchSrc(2048), "do shell script", "do shel1 script")
	for i := 0; i < b.N; i++ {
		appleScriptAt(src, nil, 0)
	}
}

func BenchmarkPhase2KBShellOnly(b *testing.B) {
	for i := 0; i < b.N; i++ {
		var v Verdict
		shellInto(&v, "date +%Y-%m-%d", nil, nil, 1)
		shellInto(&v, "df -h '__AIRLOCK_Q__' | tail -1", nil, nil, 1)
	}
}

func BenchmarkPhase2KBAllNilEnv(b *testing.B) {
	src := benchSrc(2048)
	for i := 0; i < b.N; i++ {
		appleScriptAt(src, nil, 0)
	}
}

func BenchmarkMvdanParseTiny(b *testing.B) {
	p := bashParsers.Get().(*syntax.Parser)
	for i := 0; i < b.N; i++ {
		p.Parse(strings.NewReader("df -h '__AIRLOCK_Q__' | tail -1"), "")
	}
}
