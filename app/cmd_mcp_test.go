package main

import (
	"strings"
	"testing"
)

func TestMCPCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "--approve"}, "unknown flag: --approve"},
		{[]string{"mcp", "approve"}, "takes no arguments"},
		{[]string{"mcp", "--progress-every", "1ms"}, "want 10ms to 1m"},
		{[]string{"mcp", "--progress-every", "soon"}, `invalid argument "soon" for "--progress-every"`},
	} {
		code, _, errOut := runCLI(t, "", tc.args...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stderr %q", tc.args, code, errOut)
		}
	}
	// Standard input ends at once: the client hung up, and that is a clean
	// end that wrote nothing to the protocol's stream.
	t.Setenv("AIRLOCK_DATA_DIR", t.TempDir())
	code, out, _ := runCLI(t, "", "mcp")
	if code != 0 || out != "" {
		t.Errorf("exit %d, stdout %q", code, out)
	}
}
