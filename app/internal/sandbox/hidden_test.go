package sandbox_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sandbox"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// hiddenHome makes a home holding tools' secrets, toolchains, a sandbox
// root in a hidden folder and links, and returns it.
func hiddenHome(t *testing.T) string {
	t.Helper()
	h := t.TempDir()
	files := []string{
		".config/stripe/config.toml", ".gemini/oauth_creds.json", ".brand-new-tool/token",
		".cargo/credentials.toml", ".cargo/config.toml", ".cargo/bin/cargo", ".cargo/registry/index/x",
		".pyenv/versions/3.12/bin/python3", ".local/bin/black", ".local/share/pipx/venvs/black/bin/black",
		".local/share/keyrings/login.keyring", ".local/share/recently-used.xbel", ".local/state/x",
		".zshrc", ".editorconfig", "Library/Application Support/Acme/session.json", "Library/Fonts/x.ttf",
		".work/proj/notes.md", ".work/other/secret", "Documents/report.txt", "go/bin/gopls",
	}
	for _, f := range files {
		p := filepath.Join(h, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		".notes":   "Documents",            // into a root: hiding it would hide the root's file
		".python":  ".pyenv/versions/3.12", // into an allowed toolchain
		".secrets": ".gemini",              // into a hidden place
	}
	for from, to := range links {
		if err := os.Symlink(filepath.Join(h, to), filepath.Join(h, from)); err != nil {
			t.Fatal(err)
		}
	}
	return h
}

// TestDeriveHidesUnknown: the profile hides every hidden entry of the home
// but the allow-list's, whole where it can; a folder holding an allowed
// entry is opened and its other entries hidden; roots, the temporary
// folder and links into them or into the allowed entries stay.
func TestDeriveHidesUnknown(t *testing.T) {
	h := hiddenHome(t)
	work := filepath.Join(h, ".work/proj")
	tmp := filepath.Join(h, ".cache/airlock-action-1") // a TMPDIR under ~/.cache
	s := sandbox.Settings{OS: "linux", Home: h, Roots: []string{filepath.Join(h, "Documents"), work}, Env: []string{"HOME=" + h}}
	p, err := sandbox.Derive(s, sandbox.KindCommand, sandbox.Grant{}, tmp)
	if err != nil {
		t.Fatal(err)
	}
	hidden := func(rel string) bool { return slices.Contains(p.Hide, filepath.Join(h, rel)) }
	for _, rel := range []string{".config", ".gemini", ".brand-new-tool", ".cargo/credentials.toml", ".cargo/config.toml",
		".local/share/keyrings", ".local/share/recently-used.xbel", ".local/state/x", ".zshrc", "Library/Application Support",
		".work/other", ".secrets"} {
		if !hidden(rel) {
			t.Errorf("~/%s is not hidden", rel)
		}
	}
	for _, rel := range []string{".pyenv", ".cargo", ".cargo/bin", ".cargo/registry", ".local", ".local/bin", ".local/share",
		".local/share/pipx", ".editorconfig", "Library", "Library/Fonts", ".work", ".work/proj", "Documents", "go", ".notes", ".python", ".cache"} {
		if hidden(rel) {
			t.Errorf("~/%s is hidden", rel)
		}
	}
	for _, x := range p.Hide {
		if x == tmp || strings.HasPrefix(tmp, x+"/") || x == work || strings.HasPrefix(work, x+"/") {
			t.Errorf("%s is hidden, and with it the temporary folder or a root", x)
		}
	}
	// Whole entries: besides the credential stores, hidden whether they
	// exist or not, this home hides a dozen paths.
	var added []string
	for _, x := range p.Hide {
		if strings.HasPrefix(x, h+"/") && !slices.Contains(sanitize.CredentialStores(h), x) {
			added = append(added, x)
		}
	}
	if len(added) > 20 {
		t.Errorf("%d paths hidden: %q", len(added), added)
	}
	// The analyzer and the sandbox agree on what is hidden.
	if !slices.IsSorted(p.Hide) {
		t.Errorf("Hide is not sorted: %q", p.Hide)
	}
}

// TestDeriveReveal: what an approved action names is seen, down to the
// file; a grant that reveals without approval, or a relative path, is
// refused.
func TestDeriveReveal(t *testing.T) {
	h := hiddenHome(t)
	s := sandbox.Settings{OS: "linux", Home: h, Env: []string{"HOME=" + h}}
	tmp := t.TempDir()
	stripe := filepath.Join(h, ".config/stripe/config.toml")
	p, err := sandbox.Derive(s, sandbox.KindCommand, sandbox.Grant{Approved: true, Reveal: []string{stripe}}, tmp)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range p.Hide {
		if x == stripe || strings.HasPrefix(stripe, x+"/") {
			t.Errorf("%s is hidden though the grant reveals %s", x, stripe)
		}
	}
	if !slices.Contains(p.Hide, filepath.Join(h, ".gemini")) {
		t.Errorf("revealing %s revealed ~/.gemini too", stripe)
	}
	if _, err := sandbox.Derive(s, sandbox.KindCommand, sandbox.Grant{Reveal: []string{stripe}}, tmp); err == nil {
		t.Error("a grant that reveals without approval was accepted")
	}
	if _, err := sandbox.Derive(s, sandbox.KindCommand, sandbox.Grant{Approved: true, Reveal: []string{".config/x"}}, tmp); err == nil {
		t.Error("a relative revealed path was accepted")
	}
}

func TestReveals(t *testing.T) {
	const h = "/home/ann"
	tests := []struct {
		texts []string
		want  []string
	}{
		{[]string{"cat", "/home/ann/.config/stripe/config.toml"}, []string{"/home/ann/.config/stripe/config.toml"}},
		{[]string{"cat ~/.gemini/oauth_creds.json | base64"}, []string{"/home/ann/.gemini/oauth_creds.json"}},
		{[]string{`read POSIX file "/home/ann/Library/Application Support/Acme/s.json"`}, []string{"/home/ann/Library/Application Support/Acme/s.json"}},
		{[]string{`ls ~/Library/Application\ Support/Acme`}, []string{"/home/ann/Library/Application Support/Acme"}},
		{[]string{"tool --config=$HOME/.acme/c.toml"}, []string{"/home/ann/.acme/c.toml"}},
		{[]string{"cat /etc/hosts ~ relative/.x ../.ssh"}, nil},
		{[]string{"cat ~/../../etc/passwd"}, nil},
		{[]string{""}, nil},
	}
	for _, tt := range tests {
		if got := sandbox.Reveals(h, tt.texts...); !slices.Equal(got, tt.want) {
			t.Errorf("Reveals(%q) = %q, want %q", tt.texts, got, tt.want)
		}
	}
	if got := sandbox.Reveals("relative", "~/.x"); got != nil {
		t.Errorf("Reveals with a relative home = %q", got)
	}
}

// FuzzReveals: whatever an action's text, Reveals returns at most its
// bound of clean absolute paths inside the home.
func FuzzReveals(f *testing.F) {
	for _, s := range []string{"cat ~/.config/x", `"/home/ann/.a b/c"`, `x=~/.y 'z' \ ~/.q\ r`, "~", "$HOME/.z ${HOME}/.w"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got := sandbox.Reveals("/home/ann", text)
		if len(got) > 64 {
			t.Fatalf("%d paths", len(got))
		}
		for _, p := range got {
			if !strings.HasPrefix(p, "/home/ann/") || filepath.Clean(p) != p {
				t.Fatalf("Reveals(%q) gave %q", text, p)
			}
		}
	})
}

// BenchmarkDeriveBusyHome is Derive in a home with 120 hidden entries and
// a Library of 80 folders: the listing it does for every action.
func BenchmarkDeriveBusyHome(b *testing.B) {
	h := b.TempDir()
	for i := range 120 {
		if err := os.MkdirAll(filepath.Join(h, fmt.Sprintf(".tool-%03d/sub", i)), 0o700); err != nil {
			b.Fatal(err)
		}
	}
	for i := range 80 {
		if err := os.MkdirAll(filepath.Join(h, "Library", fmt.Sprintf("App %02d", i)), 0o700); err != nil {
			b.Fatal(err)
		}
	}
	for _, d := range []string{".pyenv/versions", ".cargo/bin", ".cargo/registry", ".local/bin", ".local/share/x", ".config/y"} {
		if err := os.MkdirAll(filepath.Join(h, d), 0o700); err != nil {
			b.Fatal(err)
		}
	}
	s := sandbox.Settings{OS: "linux", Home: h, Roots: []string{filepath.Join(h, "Documents")}, Env: []string{"HOME=" + h}}
	tmp := b.TempDir()
	var n int
	for b.Loop() {
		p, err := sandbox.Derive(s, sandbox.KindCommand, sandbox.Grant{}, tmp)
		if err != nil {
			b.Fatal(err)
		}
		n = len(p.Hide)
	}
	b.ReportMetric(float64(n), "hidden")
}
