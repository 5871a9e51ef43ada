package mcp_test

import (
	"testing"

	airmcp "github.com/airlockhq/airlock/app/internal/mcp"
	"github.com/airlockhq/airlock/app/internal/policy"
)

// The cost of one tool call from the SDK's client, in memory: what airlock
// mcp adds to the gate's own work.

// BenchmarkAssess is an offline call: schema validation, the analyzer and
// the result, with no gate.
func BenchmarkAssess(b *testing.B) {
	w := newWorld(b, gateOpts{})
	cs := connectMemory(b, w, nil)
	args := map[string]any{"kind": "shell", "input": "find ~/Documents -name '*.tmp' -delete"}
	for b.Loop() {
		if res := call(b, cs, airmcp.ToolAssess, args); res.IsError {
			b.Fatal(textOf(res))
		}
	}
}

// BenchmarkStatus is a call that dials the gate's socket and asks it once.
func BenchmarkStatus(b *testing.B) {
	w := newWorld(b, gateOpts{})
	w.startGate()
	cs := connectMemory(b, w, nil)
	for b.Loop() {
		if res := call(b, cs, airmcp.ToolStatus, nil); res.IsError {
			b.Fatal(textOf(res))
		}
	}
}

// BenchmarkRunCommand is a whole run_command that needs no approval: dial,
// submit, assess, record in the history (synchronous writes), run `true`,
// and the result.
func BenchmarkRunCommand(b *testing.B) {
	w := newWorld(b, gateOpts{autonomy: policy.FullAuto})
	w.startGate()
	cs := connectMemory(b, w, nil)
	args := map[string]any{"argv": []string{"true"}}
	for b.Loop() {
		if rr, res := run(b, cs, airmcp.ToolRunCommand, args); res.IsError {
			b.Fatalf("%s: %s", rr.Status, textOf(res))
		}
	}
}
