package main

import (
	"strings"
	"testing"
)

func TestMCPCommand(t *testing.T) {
	code, _, errOut := runCLI(t, "", "mcp", "--approve")
	if code != 2 || !strings.Contains(errOut, "takes no arguments") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	// Standard input ends at once: the client hung up, and that is a clean
	// end that wrote nothing to the protocol's stream.
	t.Setenv("AIRLOCK_DATA_DIR", t.TempDir())
	code, out, _ := runCLI(t, "", "mcp")
	if code != 0 || out != "" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
}
