package sanitize_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

func TestSymlinks(t *testing.T) {
	h, out := home(t)
	c := config(t, h, nil)
	tests := []struct {
		name     string
		input    string
		op       sanitize.Op
		wantRule sanitize.Rule
		inDetail string
	}{
		{"Documents/keys -> ../.ssh", "~/Documents/keys/id_rsa", read, sanitize.RuleCredentialStore, "resolves to ~/.ssh/id_rsa"},
		{"write through keys", "~/Documents/keys/authorized_keys", write, sanitize.RuleCredentialStore, "resolves to ~/.ssh/authorized_keys"},
		{"Documents/sys -> /etc", "~/Documents/sys/passwd", read, sanitize.RuleSystemPath, "resolves to /etc/passwd"},
		{"loop1 -> loop2 -> loop1", "~/Documents/loop1", read, sanitize.RuleSymlinkLoop, "loop"},
		{"dangling, outside", "~/Documents/dangling", write, sanitize.RuleOutsideSandbox, "resolves to "},
		{"dangling, into ssh", "~/Documents/dangling-key", write, sanitize.RuleCredentialStore, "resolves to ~/.ssh/new_key"},
		{"case variant of a root", "~/DOCUMENTS/x", write, "", ""},
		{"case variant of ssh", "~/.SSH/id_rsa", read, sanitize.RuleCredentialStore, "inside a credential store (~/.ssh)"},
		{"case variant through a link", "~/Documents/KEYS/id_rsa", read, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			done := make(chan struct{})
			var err error
			go func() {
				defer close(done)
				_, err = c.Path(tt.input, tt.op)
			}()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("Path(%q) hangs", tt.input)
			}
			if tt.name == "case variant through a link" {
				// On a case-insensitive volume KEYS is the keys link and must
				// be refused; on a case-sensitive one it does not exist and
				// is a new folder in the sandbox. Either is right.
				if err != nil && ruleOf(err) != sanitize.RuleCredentialStore {
					t.Fatalf("Path(%q) = %v", tt.input, err)
				}
				return
			}
			if ruleOf(err) != tt.wantRule {
				t.Fatalf("Path(%q) = %v; want rule %q", tt.input, err, tt.wantRule)
			}
			if err != nil && !strings.Contains(err.Error(), tt.inDetail) {
				t.Errorf("message %q lacks %q", err, tt.inDetail)
			}
		})
	}
	_ = out
}

// A sandbox root that is itself a link to a folder elsewhere is fine: the
// root is resolved when the Config is built and both spellings work.
func TestSymlinkedRoot(t *testing.T) {
	base := tempDir(t)
	h := filepath.Join(base, "home")
	elsewhere := filepath.Join(base, "data", "Docs")
	mkdir(t, h)
	mkdir(t, elsewhere)
	writeFile(t, filepath.Join(elsewhere, "a.txt"))
	symlink(t, elsewhere, filepath.Join(h, "Documents"))
	c := config(t, h, nil)
	if c.Roots[0] != mustEval(t, elsewhere) {
		t.Errorf("Roots[0] = %q; want the resolved %q", c.Roots[0], elsewhere)
	}
	p, err := c.Path("~/Documents/a.txt", read)
	if err != nil {
		t.Fatalf("through the root link: %v", err)
	}
	if p.Resolved != filepath.Join(mustEval(t, elsewhere), "a.txt") {
		t.Errorf("Resolved = %q", p.Resolved)
	}
	if _, err := c.Path(filepath.Join(elsewhere, "new.txt"), write); err != nil {
		t.Errorf("by the resolved spelling: %v", err)
	}
	if _, err := c.Path("~/Documents", del); ruleOf(err) != sanitize.RuleSandboxRoot {
		t.Errorf("deleting the root link: %v; want sandbox-root", err)
	}
	if _, err := c.Path(elsewhere, moveFrom); ruleOf(err) != sanitize.RuleSandboxRoot {
		t.Errorf("moving the resolved root: %v; want sandbox-root", err)
	}
	// Retargeting the root link after the Config was built does not carry
	// the sandbox along.
	if err := os.Remove(filepath.Join(h, "Documents")); err != nil {
		t.Fatal(err)
	}
	other := filepath.Join(base, "other")
	mkdir(t, other)
	symlink(t, other, filepath.Join(h, "Documents"))
	if _, err := c.Path("~/Documents/x", write); ruleOf(err) != sanitize.RuleOutsideSandbox {
		t.Errorf("after the root link moved: %v; want outside-sandbox", err)
	}
}

// A symlinked home: credential stores are found under both spellings.
func TestSymlinkedHome(t *testing.T) {
	base := tempDir(t)
	real := filepath.Join(base, "real-home")
	mkdir(t, filepath.Join(real, ".ssh"))
	mkdir(t, filepath.Join(real, "Documents"))
	link := filepath.Join(base, "home-link")
	symlink(t, real, link)
	c := config(t, link, nil)
	for _, in := range []string{"~/.ssh/id_rsa", filepath.Join(real, ".ssh/id_rsa"), filepath.Join(link, ".ssh")} {
		if _, err := c.Path(in, read); ruleOf(err) != sanitize.RuleCredentialStore {
			t.Errorf("Path(%q) = %v; want credential-store", in, err)
		}
	}
	if _, err := c.Path(filepath.Join(real, "Documents/x"), write); err != nil {
		t.Errorf("the real spelling of a root: %v", err)
	}
	if got := c.ShortPath(filepath.Join(real, ".ssh")); got != "~/.ssh" {
		t.Errorf("ShortPath(real) = %q", got)
	}
}

// A symlink in the home that points at a system folder.
func TestHomeLinkToSystem(t *testing.T) {
	h, _ := home(t)
	symlink(t, "/etc", filepath.Join(h, "Documents", "etc-link"))
	symlink(t, "/private/var/db", filepath.Join(h, "Downloads", "db"))
	c := config(t, h, nil)
	if _, err := c.Path("~/Documents/etc-link/hosts", read); ruleOf(err) != sanitize.RuleSystemPath {
		t.Errorf("link to /etc: %v", err)
	}
	if _, err := c.Path("~/Downloads/db/x", write); ruleOf(err) != sanitize.RuleSystemPath {
		t.Errorf("dangling link to /private/var/db: %v", err)
	}
	// A link right in the home, outside the sandbox, is still named for
	// where it leads.
	symlink(t, "/etc", filepath.Join(h, "etc"))
	symlink(t, "loop-b", filepath.Join(h, "loop-a"))
	symlink(t, "loop-a", filepath.Join(h, "loop-b"))
	_, err := c.Path("~/etc/passwd", read)
	if ruleOf(err) != sanitize.RuleSystemPath {
		t.Fatalf("~/etc -> /etc: %v; want system-path", err)
	}
	if want := "blocked: ~/etc/passwd resolves to /etc/passwd, which is inside a system folder (/etc)"; err.Error() != want {
		t.Errorf("got %q; want %q", err, want)
	}
	if _, err := c.Path("~/loop-a", read); ruleOf(err) != sanitize.RuleOutsideSandbox {
		t.Errorf("a loop outside the sandbox: %v; want outside-sandbox", err)
	}
}

// A link whose target holds a control character cannot smuggle it into a
// message or a resolved path.
func TestLinkTargetWithControl(t *testing.T) {
	h, _ := home(t)
	symlink(t, "evil\nname\u202e", filepath.Join(h, "Documents", "weird"))
	c := config(t, h, nil)
	_, err := c.Path("~/Documents/weird", write)
	if ruleOf(err) != sanitize.RuleControl {
		t.Fatalf("link to a name with a newline: %v; want control-character", err)
	}
	if msg := oneSafeLine(err.Error()); msg != "" {
		t.Errorf("message %q %s", err, msg)
	}
}

func TestNameTooLong(t *testing.T) {
	h, _ := home(t)
	c := config(t, h, nil)
	long := "~/Documents/" + strings.Repeat("n", 300) + "/x"
	if _, err := c.Path(long, write); ruleOf(err) != sanitize.RuleTooLong || !strings.Contains(err.Error(), "at most 255") {
		t.Errorf("a name longer than macOS allows: %v; want too-long naming the 255-byte limit", err)
	}
	deep := "~/Documents" + strings.Repeat("/"+strings.Repeat("d", 200), 6)
	if _, err := c.Path(deep, write); ruleOf(err) != sanitize.RuleTooLong || !strings.Contains(err.Error(), "at most 1024") {
		t.Errorf("a path longer than macOS allows: %v; want too-long naming the 1024-byte limit", err)
	}
}

// TestLookalikeSpaces: a no-break space or a trailing blank makes a name
// that looks like another one.
func TestLookalikeSpaces(t *testing.T) {
	h, _ := home(t)
	c := config(t, h, nil)
	for _, p := range []string{"~/Documents/report.txt\u00a0", "~/Documents/a\u2009b.txt", "~/Documents/x.txt ", " ~/Documents/x.txt", "~/Documents/\u3000x"} {
		if _, err := c.Path(p, write); ruleOf(err) != sanitize.RuleInvisible {
			t.Errorf("%q: %v; want invisible-character", p, err)
		}
	}
	if _, err := c.Path("~/Documents/two words.txt", write); err != nil {
		t.Errorf("an ordinary space inside a name was refused: %v", err)
	}
}

func TestUnreadableComponent(t *testing.T) {
	h, _ := home(t)
	c := config(t, h, nil)
	if os.Geteuid() == 0 {
		t.Skip("root reads everything")
	}
	locked := filepath.Join(h, "Documents", "locked")
	mkdir(t, filepath.Join(locked, "in"))
	if err := os.Chmod(locked, 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	if _, err := c.Path("~/Documents/locked/in/x", read); ruleOf(err) != sanitize.RuleUnresolvable {
		t.Errorf("unreadable folder: %v; want unresolvable", err)
	}
}

func mustEval(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
