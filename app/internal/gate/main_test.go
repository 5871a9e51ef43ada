package gate_test

import (
	"os"
	"testing"

	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
)

// TestMain lets this test binary be the sandbox's launcher, as app/main.go
// lets airlock be: the tests that confine actions in the real sandbox
// start it with sandbox.LaunchFlag.
func TestMain(m *testing.M) {
	if code, ok := ossandbox.Main(os.Args[1:]); ok {
		os.Exit(code)
	}
	os.Exit(m.Run())
}
