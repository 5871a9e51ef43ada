package mcp_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"

	airmcp "github.com/airlockhq/airlock/app/internal/mcp"
	"github.com/airlockhq/airlock/bridge"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestValidateAppleScript checks validate_applescript's answers: a script
// that compiles, one that does not (with seed 000's fix for its kind), and
// the risk it would be rated at either way; the compiler is the bridge's,
// stood in for here.
func TestValidateAppleScript(t *testing.T) {
	const bad = "tell application \"Finder\" to empty trash\nend tel"
	compiled := make(chan string, 4)
	w := newWorld(t, gateOpts{})
	cs := connectMemoryConfig(t, w, nil, airmcp.Config{Env: w.env, Validate: func(_ context.Context, src string) error {
		compiled <- src
		if src == bad {
			return &bridge.ScriptError{Number: -2741, Message: "Expected end of line but found identifier.", Start: 42, Length: 3, Compile: true}
		}
		return nil
	}})

	res := call(t, cs, airmcp.ToolValidate, map[string]any{"source": `tell application "Finder" to empty trash`})
	var v airmcp.Validation
	decode(t, res, &v)
	if res.IsError || !v.Valid || len(v.Errors) != 0 || v.Risk != "destructive" || len(v.Reasons) == 0 {
		t.Errorf("a script that compiles: IsError %v, %+v", res.IsError, v)
	}
	if !strings.Contains(textOf(res), "compiles (it was not run)") {
		t.Errorf("text: %s", textOf(res))
	}
	if got := <-compiled; got != `tell application "Finder" to empty trash` {
		t.Errorf("compiled %q", got)
	}

	res = call(t, cs, airmcp.ToolValidate, map[string]any{"source": bad})
	v = airmcp.Validation{}
	decode(t, res, &v)
	if res.IsError || v.Valid || len(v.Errors) != 1 || v.Risk == "" {
		t.Fatalf("a script that does not compile: IsError %v, %+v", res.IsError, v)
	}
	for _, want := range []string{"Expected end of line", "error -2741", "characters 43-45", "every `tell` has its `end tell`"} {
		if !strings.Contains(v.Errors[0], want) || !strings.Contains(textOf(res), want) {
			t.Errorf("the error lacks %q: %q", want, v.Errors[0])
		}
	}

	// A compiler that could not try is a tool error, not an answer.
	cs = connectMemoryConfig(t, w, nil, airmcp.Config{Env: w.env, Validate: func(context.Context, string) error {
		return errors.New("the helper could not start")
	}})
	if res := call(t, cs, airmcp.ToolValidate, map[string]any{"source": "beep"}); !res.IsError || !strings.Contains(textOf(res), "could not be checked") {
		t.Errorf("a failed check: IsError %v: %s", res.IsError, textOf(res))
	}
}

// TestValidateNeedsMacOS checks the real bridge off macOS: the tool says it
// needs macOS rather than calling a script valid.
func TestValidateNeedsMacOS(t *testing.T) {
	if runtime.GOOS == "darwin" {
		t.Skip("macOS compiles AppleScript")
	}
	forEachTransport(t, func(t *testing.T, connect func(*world) *mcp.ClientSession) {
		cs := connect(newWorld(t, gateOpts{}))
		if !offered(t, cs, airmcp.ToolValidate) {
			return // `airlock mcp` off macOS does not offer it at all
		}
		res := call(t, cs, airmcp.ToolValidate, map[string]any{"source": "beep"})
		if !res.IsError || !strings.Contains(textOf(res), "needs macOS") || !strings.Contains(textOf(res), "nothing was checked") {
			t.Errorf("IsError %v: %s", res.IsError, textOf(res))
		}
	})
}
