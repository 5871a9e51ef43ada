package sanitize_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// alice is a Config on a made-up home: Classify does no I/O, and
// NewConfig only finds that nothing there exists.
func alice(t tb) *sanitize.Config {
	t.Helper()
	return config(t, "/Users/alice", nil)
}

var classifyCases = []struct {
	in       string
	wantKind sanitize.ZoneKind
	wantRoot string
}{
	{"/Users/alice/.ssh/id_rsa", sanitize.ZoneCredential, "~/.ssh"},
	{"~/.ssh", sanitize.ZoneCredential, "~/.ssh"},
	{"$HOME/.aws/credentials", sanitize.ZoneCredential, "~/.aws"},
	{"/USERS/ALICE/.SSH/ID_RSA", sanitize.ZoneCredential, "~/.ssh"},
	{"/Users/alice/Documents/../.ssh/id_rsa", sanitize.ZoneCredential, "~/.ssh"},
	{"/Users/alice/Library/Keychains/login.keychain-db", sanitize.ZoneCredential, "~/Library/Keychains"},
	{"/Users/alice/Library/Application Support/Google/Chrome/Default/Login Data", sanitize.ZoneCredential, "~/Library/Application Support/Google/Chrome"},
	{"/Users/alice/.\u212aube/config", sanitize.ZoneCredential, "~/.kube"}, // Kelvin sign
	{"/Users/alice/．ssh", sanitize.ZoneCredential, "~/.ssh"},
	{"/Users/bob/.aws/credentials", sanitize.ZoneCredential, "/Users/bob/.aws"},
	{"~bob/.ssh/id_ed25519", sanitize.ZoneCredential, "/Users/bob/.ssh"},
	{"/home/carol/.kube/config", sanitize.ZoneCredential, "/home/carol/.kube"},
	{"/var/root/.ssh/x", sanitize.ZoneCredential, "/var/root/.ssh"},
	{"/private/var/root/.ssh/x", sanitize.ZoneCredential, "/private/var/root/.ssh"},
	{"~/.ssh/rc", sanitize.ZoneCredential, "~/.ssh"},

	{"/", sanitize.ZoneSystem, "/"},
	{"/etc/passwd", sanitize.ZoneSystem, "/etc"},
	{"//etc", sanitize.ZoneSystem, "/etc"},
	{"/./etc/", sanitize.ZoneSystem, "/etc"},
	{"/Etc/Hosts", sanitize.ZoneSystem, "/etc"},
	{"/ｅｔｃ/passwd", sanitize.ZoneSystem, "/etc"},
	{"/private/etc/hosts", sanitize.ZoneSystem, "/private"},
	{"/Library/LaunchAgents/x.plist", sanitize.ZoneSystem, "/Library"},
	{"/usr/lib/cron/tabs/root", sanitize.ZoneSystem, "/usr"},
	{"/var/db/x", sanitize.ZoneSystem, "/var"},
	{"/var/tmp/x", sanitize.ZoneSystem, "/var"},
	{"/private/ｔmp/x", sanitize.ZoneSystem, "/private"},
	{"/.nofollow/Users/alice/.ssh", sanitize.ZoneSystem, "/.nofollow"},
	{"/dev/disk0", sanitize.ZoneSystem, "/dev"},

	{"/Users/alice/Library/LaunchAgents/com.x.plist", sanitize.ZonePersistence, "~/Library/LaunchAgents"},
	{"~/.zshrc", sanitize.ZonePersistence, "~/.zshrc"},
	{"~/.config/fish/conf.d/x.fish", sanitize.ZonePersistence, "~/.config/fish/conf.d"},
	{"~/.gitconfig", sanitize.ZonePersistence, "~/.gitconfig"},
	{"~/Library/Preferences/com.apple.loginitems.plist", sanitize.ZonePersistence, "~/Library/Preferences/com.apple.loginitems.plist"},
	{"/Users/alice/Documents/proj/.git/hooks/pre-commit", sanitize.ZonePersistence, "~/Documents/proj/.git/hooks"},
	{"/tmp/repo/.git/hooks/x", sanitize.ZonePersistence, "/tmp/repo/.git/hooks"},
	{"/Users/bob/Library/LaunchAgents/x", sanitize.ZonePersistence, "/Users/bob/Library/LaunchAgents"},
	{"proj/.git/hooks/post-merge", sanitize.ZonePersistence, "proj/.git/hooks"},
	{"/Users/alice/Documents/site.git/hooks/post-receive", sanitize.ZonePersistence, "~/Documents/site.git/hooks"},
	{"/Users/alice/Documents/proj/.git/modules/lib/hooks/pre-commit", sanitize.ZonePersistence, "~/Documents/proj/.git"},
	{"/Users/alice/Documents/proj/.git/config", sanitize.ZonePersistence, "~/Documents/proj/.git/config"},
	{"/Users/alice/Documents/proj/.gitignore", sanitize.ZoneSandbox, "~/Documents"},

	{"/tmp/x", sanitize.ZoneTemp, "/tmp"},
	{"/TMP/x", sanitize.ZoneTemp, "/tmp"},
	{"/private/tmp/x", sanitize.ZoneTemp, "/private/tmp"},
	{"/var/folders/ab/cd/T/x", sanitize.ZoneTemp, "/var/folders"},
	{"/private/var/folders/ab", sanitize.ZoneTemp, "/private/var/folders"},

	{"/Users/alice/Documents/x", sanitize.ZoneSandbox, "~/Documents"},
	{"~/documents", sanitize.ZoneSandbox, "~/Documents"},
	{"/Users/alice/Desktop", sanitize.ZoneSandbox, "~/Desktop"},
	{"/Users/alice/Documents/Cafe\u0301", sanitize.ZoneSandbox, "~/Documents"},

	{"/Users/alice/Music/x", sanitize.ZoneNormal, ""},
	{"/Users/alice/Ｄocuments/x", sanitize.ZoneNormal, ""},
	{"/Applications/Safari.app", sanitize.ZoneNormal, ""},
	{"/Volumes/USB/x", sanitize.ZoneNormal, ""},
	{"relative/path", sanitize.ZoneNormal, ""},
	{"/Users/alice", sanitize.ZoneNormal, ""},
}

func TestClassify(t *testing.T) {
	c := alice(t)
	for _, tt := range classifyCases {
		z := c.Classify(tt.in)
		if z.Kind != tt.wantKind || z.Root != tt.wantRoot {
			t.Errorf("Classify(%q) = %+v; want %v %q", tt.in, z, tt.wantKind, tt.wantRoot)
		}
		if z.Kind != sanitize.ZoneNormal && z.Detail == "" {
			t.Errorf("Classify(%q) has no Detail", tt.in)
		}
	}
}

// Classify and Path agree: whatever Path refuses as system or credential
// lexically, Classify reports in that zone.
func TestClassifyAgreesWithPath(t *testing.T) {
	h, out := home(t)
	c := config(t, h, nil)
	for _, tc := range pathCases {
		in := expand(tc.input, h, out)
		if tc.wantRule != sanitize.RuleSystemPath && tc.wantRule != sanitize.RuleCredentialStore {
			continue
		}
		p, err := sanitize.ExpandHome(in, h)
		if err != nil || strings.Contains(tc.name, "link") {
			continue
		}
		z := c.Classify(p)
		want := sanitize.ZoneSystem
		if tc.wantRule == sanitize.RuleCredentialStore {
			want = sanitize.ZoneCredential
		}
		if z.Kind != want {
			t.Errorf("%s: Path refuses %q as %s but Classify says %+v", tc.name, in, tc.wantRule, z)
		}
	}
}

func TestEncloses(t *testing.T) {
	c := alice(t)
	tests := []struct {
		in       string
		wantKind sanitize.ZoneKind
		wantRoot string
	}{
		{"~/Library", sanitize.ZoneCredential, "~/Library/Keychains"},
		{"~", sanitize.ZoneCredential, "~/.ssh"},
		{"/Users", sanitize.ZoneCredential, "~/.ssh"},
		{"~/.config", sanitize.ZoneCredential, "~/.config/gcloud"},
		{"~/Library/Application Support/Google", sanitize.ZoneCredential, "~/Library/Application Support/Google/Chrome"},
		{"/", sanitize.ZoneCredential, "~/.ssh"},
		{"~/Documents", sanitize.ZoneNormal, ""},
		{"~/.ssh", sanitize.ZonePersistence, "~/.ssh/rc"},
		{"~/Desktop", sanitize.ZoneNormal, ""},
		{"~/Documents/proj/.git", sanitize.ZonePersistence, "**/*.git/hooks"},
		{"~/Documents/proj.git", sanitize.ZonePersistence, "**/*.git/hooks"},
		{"proj/.git", sanitize.ZonePersistence, "**/*.git/hooks"},
		{"~/.config/fish", sanitize.ZonePersistence, "~/.config/fish/config.fish"},
		{"/Library", sanitize.ZonePersistence, "/Library/LaunchAgents"},
	}
	for _, tt := range tests {
		z := c.Encloses(tt.in)
		if z.Kind != tt.wantKind || z.Root != tt.wantRoot {
			t.Errorf("Encloses(%q) = %+v; want %v %q", tt.in, z, tt.wantKind, tt.wantRoot)
		}
	}
}

func TestClassifyDoesNoIO(t *testing.T) {
	// A home that exists with a link in it: Classify must not follow it.
	h, _ := home(t)
	c := config(t, h, nil)
	if z := c.Classify(filepath.Join(h, "Documents/keys/id_rsa")); z.Kind == sanitize.ZoneCredential {
		t.Errorf("Classify followed a symbolic link: %+v", z)
	}
}

func TestNewConfig(t *testing.T) {
	h, _ := home(t)
	c := config(t, h, nil)
	if len(c.Roots) != 3 || c.Home != h {
		t.Fatalf("defaults: %+v", c)
	}
	for i, r := range []string{"Documents", "Downloads", "Desktop"} {
		if c.Roots[i] != filepath.Join(mustEval(t, h), r) {
			t.Errorf("Roots[%d] = %q", i, c.Roots[i])
		}
	}
	if got := c.ShortPath(filepath.Join(h, "Documents", "x")); got != "~/Documents/x" {
		t.Errorf("ShortPath = %q", got)
	}
	if got := c.ShortPath(h); got != "~" {
		t.Errorf("ShortPath(home) = %q", got)
	}
	if got := c.ShortPath("/etc/hosts"); got != "/etc/hosts" {
		t.Errorf("ShortPath(/etc/hosts) = %q", got)
	}
	if got := c.ShortPath(h + "x/y"); got != h+"x/y" {
		t.Errorf("ShortPath of a sibling with a shared prefix = %q", got)
	}
	dup := config(t, h, []string{"~/Documents", "$HOME/Documents/", "~/documents2"})
	if len(dup.Roots) != 2 {
		t.Errorf("duplicate roots kept: %q", dup.Roots)
	}

	writeFile(t, filepath.Join(h, "afile"))
	symlink(t, "/etc", filepath.Join(h, "etc-link"))
	bad := []struct {
		home  string
		roots []string
		want  sanitize.Rule
	}{
		{"relative/home", nil, sanitize.RuleNotAbsolute},
		{"", nil, sanitize.RuleNotAbsolute},
		{h + "\n", nil, sanitize.RuleControl},
		{h, []string{"/etc"}, sanitize.RuleSystemPath},
		{h, []string{"/"}, sanitize.RuleSystemPath},
		{h, []string{"/private/var/db"}, sanitize.RuleSystemPath},
		{h, []string{"~/.ssh"}, sanitize.RuleCredentialStore},
		{h, []string{"~/Library/Keychains/sub"}, sanitize.RuleCredentialStore},
		{h, []string{"~/Library/LaunchAgents"}, sanitize.RulePersistence},
		{h, []string{"~/etc-link"}, sanitize.RuleSystemPath},
		{h, []string{"~bob/Documents"}, sanitize.RuleOtherUserHome},
		{h, []string{"Documents"}, sanitize.RuleNotAbsolute},
		{h, []string{""}, sanitize.RuleEmpty},
		{h, []string{"~/afile"}, sanitize.RuleNotFolder},
		{h, []string{"~/Documents/%2e%2e"}, sanitize.RuleTraversal},
		{h, make([]string, sanitize.MaxListItems+1), sanitize.RuleTooManyItems},
	}
	for _, tt := range bad {
		_, err := sanitize.NewConfig(tt.home, tt.roots)
		if ruleOf(err) != tt.want {
			t.Errorf("NewConfig(%q, %q) = %v; want %q", tt.home, tt.roots, err, tt.want)
		}
	}
	// A temporary folder and the home itself are acceptable roots.
	tmp := tempDir(t)
	if _, err := sanitize.NewConfig(h, []string{tmp, "~"}); err != nil {
		t.Errorf("temp and home roots: %v", err)
	}
}

func TestExpandHome(t *testing.T) {
	tests := []struct {
		in, want string
		rule     sanitize.Rule
	}{
		{"~", "/Users/alice", ""},
		{"~/", "/Users/alice/", ""},
		{"~/x", "/Users/alice/x", ""},
		{"$HOME", "/Users/alice", ""},
		{"$HOME/x", "/Users/alice/x", ""},
		{"${HOME}", "/Users/alice", ""},
		{"${HOME}/x", "/Users/alice/x", ""},
		{"/abs/~/x", "/abs/~/x", ""},
		{"rel", "rel", ""},
		{"$HOMEX/y", "$HOMEX/y", ""},
		{"~bob", "", sanitize.RuleOtherUserHome},
		{"~bob/x", "", sanitize.RuleOtherUserHome},
		{"~-/x", "", sanitize.RuleOtherUserHome},
	}
	for _, tt := range tests {
		got, err := sanitize.ExpandHome(tt.in, "/Users/alice")
		if ruleOf(err) != tt.rule || got != tt.want {
			t.Errorf("ExpandHome(%q) = %q, %v; want %q, %q", tt.in, got, err, tt.want, tt.rule)
		}
	}
	if _, err := sanitize.ExpandHome("~/x", ""); err == nil {
		t.Error("ExpandHome with no home succeeded")
	}
}

func TestZoneKindString(t *testing.T) {
	for k, want := range map[sanitize.ZoneKind]string{
		sanitize.ZoneNormal: "normal", sanitize.ZoneTemp: "temp", sanitize.ZoneSystem: "system",
		sanitize.ZoneCredential: "credential", sanitize.ZonePersistence: "persistence", sanitize.ZoneSandbox: "sandbox",
	} {
		if k.String() != want {
			t.Errorf("%d.String() = %q", int(k), k.String())
		}
	}
	if sanitize.OpMoveTo.String() != "move-to" || sanitize.Op(99).String() != "op(99)" {
		t.Error("Op.String")
	}
}

func BenchmarkClassify(b *testing.B) {
	c := alice(b)
	paths := []string{
		"/Users/alice/Documents/projects/airlock/README.md",
		"/Users/alice/.ssh/id_ed25519",
		"/etc/hosts",
		"/private/var/folders/xy/abc123/T/tmp.txt",
		"/Users/alice/Library/Application Support/Google/Chrome/Default/Cookies",
		"/Users/alice/Library/LaunchAgents/com.example.agent.plist",
		"/Applications/Safari.app/Contents/MacOS/Safari",
		"/Users/alice/Documents/Café/résumé.pdf",
	}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		c.Classify(paths[i%len(paths)])
	}
}
