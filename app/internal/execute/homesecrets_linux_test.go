//go:build linux

package execute_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/execute"
	ossandbox "github.com/airlockhq/airlock/app/internal/sandbox"
)

// TestHomeSecretsThroughSandbox: through the real sandbox, an unasked
// command reads the home's folders outside the roots without their secret
// files, and a folder past the bounds not at all; an approved one reads
// them whole.
func TestHomeSecretsThroughSandbox(t *testing.T) {
	r := newRedRig(t, []string{"~/Documents"}, map[string]redFile{
		"src/app/.env":    {"HOME-SECRET-ENV\n", 0o600},
		"src/app/main.go": {"HOME-PLAIN-MAIN\n", 0o644},
		"big/a/1.txt":     {"HOME-BIG-1\n", 0o644},
		"big/b/2.txt":     {"HOME-BIG-2\n", 0o644},
		"big/c/3.txt":     {"HOME-BIG-3\n", 0o644},
		"Documents/a.txt": {"notes\n", 0o644},
	})
	execute.SetHomeBounds(r.ex, 5, 0)
	argv := []string{"/usr/bin/grep", "-rh", "HOME-", "../src", "../big"}
	run := func(approved bool) string {
		res, err := r.ex.RunScript(context.Background(), execute.KindCommand, "", argv, filepath.Join(r.home, "Documents"),
			ossandbox.Grant{Approved: approved})
		if res.Release != nil {
			res.Release()
		}
		out := res.Output
		if err != nil {
			out += "\n" + err.Error()
		}
		return out
	}
	out := run(false)
	if !strings.Contains(out, "HOME-PLAIN-MAIN") {
		t.Errorf("unasked, ~/src/app/main.go is not read: %q", out)
	}
	for _, s := range []string{"HOME-SECRET-ENV", "HOME-BIG-1", "HOME-BIG-2", "HOME-BIG-3"} {
		if strings.Contains(out, s) {
			t.Errorf("unasked, %s is read: %q", s, out)
		}
	}
	out = run(true)
	for _, s := range []string{"HOME-PLAIN-MAIN", "HOME-SECRET-ENV", "HOME-BIG-1", "HOME-BIG-3"} {
		if !strings.Contains(out, s) {
			t.Errorf("approved, %s is not read: %q", s, out)
		}
	}
}
