package sanitize_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

var hiddenCases = []struct {
	in       string
	wantRoot string // "" for not hidden
}{
	// Secrets of tools no list names: hidden by default.
	{"~/.config/stripe/config.toml", "~/.config"},
	{"~/.gemini/oauth_creds.json", "~/.gemini"},
	{"/Users/alice/.brand-new-tool-2031/session", "~/.brand-new-tool-2031"},
	{"~/.brand-new-tool-2031", "~/.brand-new-tool-2031"},
	{"~/Library/Application Support/Acme Sync/session.json", "~/Library/Application Support"},
	{"~/Library/Group Containers/ABCDE.com.acme/token", "~/Library/Group Containers"},
	{"~/Library/Containers/com.acme.app/Data/x", "~/Library/Containers"},
	{"~/Library/Preferences/com.acme.plist", "~/Library/Preferences"},
	{"~/.zshrc", "~/.zshrc"},
	{"~/.gitconfig", "~/.gitconfig"},
	{"~/.cache/huggingface/token", "~/.cache"},
	{"~/snap/firefox/common/.mozilla/firefox/x.default/logins.json", "~/snap/firefox"},
	{"/home/carol/snap/chromium/common/chromium/Default/Cookies", "/home/carol/snap/chromium"},
	// A toolchain's folder is seen only where allowed.
	{"~/.cargo/credentials.toml", "~/.cargo/credentials.toml"},
	{"~/.cargo/config.toml", "~/.cargo/config.toml"},
	{"~/.cargo", "~/.cargo"},
	{"~/.local/share/keyrings/login.keyring", "~/.local/share/keyrings"},
	{"~/.local/state/x", "~/.local/state/x"},
	{"~/.local/state/nix/profiles/profile", ""},
	{"~/.local/share/uv/credentials/credentials.toml", "~/.local/share/uv/credentials"},
	{"~/.local", "~/.local"},
	// Other homes, other spellings.
	{"/Users/bob/.config/stripe/config.toml", "/Users/bob/.config"},
	{"/home/carol/.gemini/x", "/home/carol/.gemini"},
	{"/USERS/ALICE/.CONFIG/x", "~/.CONFIG"},
	{"~/.py\u0435nv/versions/x", "~/.py\u0435nv"}, // Cyrillic е: not the allowed ~/.pyenv
	{"~/\u200b.pyenv/x", "~/\u200b.pyenv"},        // a zero-width space before it
	{"~/Documents/../.netrc", "~/.netrc"},

	// Allowed: toolchains and harmless configuration.
	{"~/.pyenv/versions/3.12.1/bin/python3", ""},
	{"~/.pyenv", ""},
	{"~/.cargo/bin/cargo", ""},
	{"~/.cargo/bin", ""},
	{"~/.local/bin/black", ""},
	{"~/.local/share/pipx/venvs/black/bin/black", ""},
	{"~/.rustup/toolchains/stable/bin/rustc", ""},
	{"~/.editorconfig", ""},
	{"~/Library/Python/3.12/bin/x", ""},
	{"~/Library/Fonts/x.ttf", ""},
	// Not hidden at all.
	{"~", ""},
	{"~/Library", ""},
	{"~/Documents/.env", ""},
	{"~/go/bin/gopls", ""},
	{"~/snapshots/photo.jpg", ""},
	{"~/snap", ""},
	{"/etc/passwd", ""},
	{"relative/.config/x", ""},
	{"/tmp/.hidden", ""},
}

func TestHidden(t *testing.T) {
	c := alice(t)
	for _, tc := range hiddenCases {
		z, ok := c.Hidden(tc.in)
		if ok != (tc.wantRoot != "") || ok && (z.Root != tc.wantRoot || z.Kind != sanitize.ZoneHidden || z.Detail == "") {
			t.Errorf("Hidden(%q) = %+v, %v; want root %q", tc.in, z, ok, tc.wantRoot)
		}
	}
}

// TestHiddenRootsSeen: a sandbox root in a hidden place, and what lies in
// it, is seen; its siblings are not.
func TestHiddenRootsSeen(t *testing.T) {
	home := tempDir(t)
	c := config(t, home, []string{"~/.work/proj"})
	for in, want := range map[string]bool{
		"~/.work/proj":         false,
		"~/.work/proj/.env":    false,
		"~/.work/other/secret": true,
		"~/.work":              true,
	} {
		if _, ok := c.Hidden(in); ok != want {
			t.Errorf("Hidden(%q) = %v, want %v", in, ok, want)
		}
	}
}

// TestHiddenTable: every allowed entry has a reason, lies in a hidden
// place (else listing it would be pointless), and neither lies in nor holds
// a credential store: those stay refused and hidden whatever the list says.
func TestHiddenTable(t *testing.T) {
	const home = "/Users/alice"
	c := alice(t)
	folders := sanitize.HiddenFolders(home)
	if len(folders) < 2 || folders[0].Path != home || !folders[0].DotOnly {
		t.Fatalf("HiddenFolders(%q) = %+v: want the home's dot entries first, then folders", home, folders)
	}
	allowed := sanitize.HiddenAllowed(home)
	if len(allowed) < 20 {
		t.Fatalf("HiddenAllowed lists %d entries", len(allowed))
	}
	seen := map[string]bool{}
	for _, p := range allowed {
		if seen[p] {
			t.Errorf("%s is listed twice", p)
		}
		seen[p] = true
		if !strings.HasPrefix(p, home+"/") || filepath.Clean(p) != p {
			t.Errorf("%q is not a clean path in the home", p)
		}
		if z := c.Classify(p); z.Kind == sanitize.ZoneCredential {
			t.Errorf("allowed %s lies in a credential store (%s)", p, z.Root)
		}
		if z := c.Encloses(p); z.Kind == sanitize.ZoneCredential {
			t.Errorf("allowed %s holds a credential store (%s)", p, z.Root)
		}
		if _, ok := c.Hidden(p); ok {
			t.Errorf("allowed %s is reported hidden", p)
		}
		if sibling := filepath.Join(filepath.Dir(p), ".not-on-the-list"); func() bool { _, ok := c.Hidden(sibling); return !ok }() {
			t.Errorf("allowed %s lies where nothing is hidden (%s is not): listing it does nothing", p, sibling)
		}
	}
	// Every credential store of the home is hidden too.
	for _, p := range sanitize.CredentialStores(home) {
		if _, ok := c.Hidden(p); !ok {
			t.Errorf("credential store %s is not hidden", p)
		}
	}
}
