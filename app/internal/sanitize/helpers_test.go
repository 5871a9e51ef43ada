package sanitize_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// tb is what the helpers need of *testing.T, *testing.B and *testing.F.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
	TempDir() string
	Cleanup(func())
}

// tempDir is t.TempDir, unless that lies in a system folder (a TMPDIR such
// as /var/tmp), where the sanitiser rightly refuses everything: then a
// folder under /tmp.
func tempDir(t tb) string {
	t.Helper()
	dir := t.TempDir()
	probe, err := sanitize.NewConfig("/nonexistent-home", []string{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	if k := probe.Classify(res).Kind; k == sanitize.ZoneSystem || k == sanitize.ZoneCredential {
		dir, err = os.MkdirTemp("/tmp", "sanitize-test-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
	}
	return dir
}

// home is a temporary home laid out like a Mac's, with the links the tests
// need. It returns the home and the folder beside it that is outside the
// sandbox.
func home(t tb) (home, outside string) {
	t.Helper()
	base := tempDir(t)
	home = filepath.Join(base, "home")
	outside = filepath.Join(base, "outside")
	for _, d := range []string{
		"Documents/sub", "Documents/proj/.git/hooks", "Downloads", "Desktop", "Music",
		".ssh", ".aws", "Library/Keychains", "Library/LaunchAgents", "Library/Application Support/Google/Chrome/Default",
	} {
		mkdir(t, filepath.Join(home, d))
	}
	mkdir(t, outside)
	for _, f := range []string{"Documents/report.txt", "Documents/sub/notes.md", ".ssh/id_rsa", ".zshrc", "Downloads/file.zip"} {
		writeFile(t, filepath.Join(home, f))
	}
	writeFile(t, filepath.Join(outside, "secret.txt"))
	for link, target := range map[string]string{
		"Documents/keys":          "../.ssh",
		"Documents/sys":           "/etc",
		"Documents/loop1":         "loop2",
		"Documents/loop2":         "loop1",
		"Documents/self":          "self",
		"Documents/dangling":      filepath.Join(outside, "new.txt"),
		"Documents/dangling-key":  "../.ssh/new_key",
		"Documents/to-downloads":  "../Downloads",
		"Documents/abs-desktop":   filepath.Join(home, "Desktop"),
		"Documents/out":           outside,
		"Documents/root-itself":   ".",
		"Documents/sub/up-twice":  "../../.aws",
		"Documents/chain1":        "chain2",
		"Documents/chain2":        "chain3",
		"Documents/chain3":        "../.ssh",
		"Documents/report-link":   "report.txt",
		"Music/link-into-sandbox": filepath.Join(home, "Documents/report.txt"),
	} {
		symlink(t, target, filepath.Join(home, link))
	}
	return home, outside
}

func mkdir(t tb, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t tb, p string) {
	t.Helper()
	if err := os.WriteFile(p, []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func symlink(t tb, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func config(t tb, home string, roots []string) *sanitize.Config {
	t.Helper()
	c, err := sanitize.NewConfig(home, roots)
	if err != nil {
		t.Fatalf("NewConfig(%q, %q): %v", home, roots, err)
	}
	return c
}

// refusal returns err as a *Refusal, failing the test when it is not one.
func refusal(t *testing.T, err error) *sanitize.Refusal {
	t.Helper()
	var r *sanitize.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("error %v (%T) is not a *sanitize.Refusal", err, err)
	}
	if !errors.Is(err, sanitize.ErrBlocked) {
		t.Fatalf("errors.Is(%v, ErrBlocked) is false", err)
	}
	return r
}

// ruleOf is the rule of err, "" for nil.
func ruleOf(err error) sanitize.Rule {
	var r *sanitize.Refusal
	if errors.As(err, &r) {
		return r.Rule
	}
	if err != nil {
		return "not-a-refusal"
	}
	return ""
}

// oneSafeLine reports what is wrong with a message meant for one line.
func oneSafeLine(msg string) string {
	if !utf8.ValidString(msg) {
		return "is not valid UTF-8"
	}
	if strings.ContainsAny(msg, "\n\r") {
		return "has a line break"
	}
	for _, r := range msg {
		if r < 0x20 || (r >= 0x7f && r <= 0x9f) {
			return "has a control character"
		}
		if r == 0x2028 || r == 0x2029 || (r >= 0x200b && r <= 0x200f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0xfeff {
			return "has an invisible character"
		}
	}
	return ""
}
