package bridge_test

import (
	"context"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/bridge"
)

// BenchmarkAppleScriptString escapes 1 KB of text with quotes, backslashes,
// line ends and typographic quotes in it.
func BenchmarkAppleScriptString(b *testing.B) {
	s := strings.Repeat(`He said “hi” and "bye"\ then`+"\n", 32)[:1024]
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		bridge.AppleScriptString(s)
	}
}

// BenchmarkHelperRoundTrip is one script through a helper child: start the
// process, send the request, decode the answer. The child is the test
// binary with a stand-in interpreter, so this is the protocol's cost
// without NSAppleScript's.
func BenchmarkHelperRoundTrip(b *testing.B) {
	d, err := bridge.NewDesktop(bridge.Options{Helper: osArgs0(), Env: standInEnv("serve")})
	if err != nil {
		b.Fatal(err)
	}
	argv := []string{"a", "b"}
	for b.Loop() {
		if _, err := bridge.RunHelper(context.Background(), d, "echo", argv, false); err != nil {
			b.Fatal(err)
		}
	}
}
