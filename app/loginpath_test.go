package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestParseLoginPath: the PATH is read only between the markers, whatever
// the start-up files print around it; relative and repeated entries are
// dropped; output without both markers is an error.
func TestParseLoginPath(t *testing.T) {
	m := loginPathMarker
	for _, tc := range []struct {
		name, out string
		want      []string
		err       bool
	}{
		{"plain", m + "/opt/homebrew/bin:/usr/bin" + m + "\n", []string{"/opt/homebrew/bin", "/usr/bin"}, false},
		{"chatter around it", "Welcome!\n" + m + "/a/bin:/usr/bin" + m + "\nbye " + m + "\n", []string{"/a/bin", "/usr/bin"}, false},
		{"relative and repeated entries", m + ".:bin::/usr/bin:/usr/bin/:/x" + m, []string{"/usr/bin", "/x"}, false},
		{"no marker", "/usr/bin:/bin\n", nil, true},
		{"cut short", m + "/usr/bin", nil, true},
		{"nothing absolute", m + ".:bin" + m, nil, true},
		{"too long", m + strings.Repeat("/a", maxLoginPath) + m, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseLoginPath(tc.out)
			if (err != nil) != tc.err || !slices.Equal(got, tc.want) {
				t.Fatalf("parseLoginPath = %q, %v; want %q (error %v)", got, err, tc.want, tc.err)
			}
		})
	}
	if got := mergePath([]string{"/opt/homebrew/bin", "/usr/bin"}, "/usr/bin:/bin:relative"); got != "/opt/homebrew/bin:/usr/bin:/bin" {
		t.Errorf("mergePath = %q", got)
	}
	if _, err := loginShellArgv("zsh"); err == nil {
		t.Error("a relative $SHELL was taken")
	}
	if argv, err := loginShellArgv(""); err != nil || argv[0] != defaultShell || argv[1] != "-l" {
		t.Errorf("no $SHELL: %q %v", argv, err)
	}
}

// TestLoginShellPath runs a real login shell over a home of the test's own:
// what its start-up file adds to PATH comes first, what it prints around
// is left aside; a start-up file that hangs is cut off in bounded time,
// and the error says so.
func TestLoginShellPath(t *testing.T) {
	sh, err := filepath.EvalSymlinks("/bin/sh")
	if err != nil {
		t.Skip("no /bin/sh")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("ENV", "")
	profile := filepath.Join(home, ".profile")
	if err := os.WriteFile(profile, []byte("echo 'Have a nice day'\nPATH=/opt/tools/bin:$PATH\nexport PATH\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := loginShellPath(context.Background(), sh, "/usr/bin:/bin")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(got, "/opt/tools/bin:") || !strings.Contains(got, "/usr/bin") || strings.Contains(got, "nice day") {
		t.Fatalf("PATH %q", got)
	}
	if err := os.WriteFile(profile, []byte("sleep 60\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := loginShellPath(context.Background(), sh, "/usr/bin:/bin"); err == nil {
		t.Fatal("a hanging start-up file gave a PATH")
	}
	if took := time.Since(start); took > loginPathTimeout+5*time.Second {
		t.Fatalf("the hanging shell held the app %v", took)
	}
}
