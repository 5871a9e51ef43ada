package execute

import (
	"errors"
	"strings"
	"testing"
)

// TestExplainRefusal checks that a refused file operation is explained
// with where writes are allowed and how to allow more, that the error still
// wraps what the program said, and that other failures are left alone.
func TestExplainRefusal(t *testing.T) {
	base := errors.New("mkdir exited with status 1: mkdir: cannot create directory '/home/u/.cache/x': Permission denied")
	roots := []string{"/home/u/Documents", "/home/u/Desktop"}
	for _, stderr := range []string{
		"mkdir: cannot create directory '/home/u/.cache/x': Permission denied\n",
		"touch: cannot touch '/home/u/.aws/x': Read-only file system",
		"rm: cannot remove 'x': Operation not permitted",
		"Error: EACCES: permission denied, open '/home/u/.npmrc'",
	} {
		err := explainRefusal(base, stderr, roots)
		if !errors.Is(err, ErrSandboxRefused) || !errors.Is(err, base) {
			t.Errorf("%q: %v does not wrap both the refusal and the program's error", stderr, err)
		}
		for _, want := range []string{base.Error(), "/home/u/Documents, /home/u/Desktop", `"roots" in settings.json`, "sandbox"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("%q: %q lacks %q", stderr, err, want)
			}
		}
	}
	other := errors.New("grep exited with status 2: grep: x: No such file or directory")
	if got := explainRefusal(other, "grep: x: No such file or directory", roots); got != other {
		t.Errorf("a failure that is no refusal became %v", got)
	}
	if got := explainRefusal(nil, "Permission denied", roots); got != nil {
		t.Errorf("a success became %v", got)
	}
	if got := explainRefusal(base, "Permission denied", nil); !strings.Contains(got.Error(), "no sandbox roots are set") {
		t.Errorf("with no roots: %v", got)
	}
}
