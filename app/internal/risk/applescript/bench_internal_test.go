package applescript

import (
	"os"
	"strings"
	"testing"
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
