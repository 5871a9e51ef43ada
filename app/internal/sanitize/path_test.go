package sanitize_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

type pathCase struct {
	name     string
	input    string // {home} and {outside} are replaced
	op       sanitize.Op
	wantRule sanitize.Rule // "" means it passes
}

const (
	read      = sanitize.OpRead
	open      = sanitize.OpOpen
	write     = sanitize.OpWrite
	del       = sanitize.OpDelete
	moveFrom  = sanitize.OpMoveFrom
	moveTo    = sanitize.OpMoveTo
	createDir = sanitize.OpCreateDir
)

// pathCases run against home() with the default roots.
var pathCases = []pathCase{
	// Rule 1: control and invisible characters.
	{"NUL", "~/Documents/a\x00b", read, sanitize.RuleControl},
	{"newline", "~/Documents/a\nb", write, sanitize.RuleControl},
	{"tab", "~/Documents/a\tb", write, sanitize.RuleControl},
	{"carriage return", "~/Documents/a\rb", write, sanitize.RuleControl},
	{"escape", "~/Documents/\x1b[31mred", write, sanitize.RuleControl},
	{"DEL", "~/Documents/a\x7fb", write, sanitize.RuleControl},
	{"C1 NEL", "~/Documents/a\u0085b", write, sanitize.RuleControl},
	{"C1 CSI", "~/Documents/a\u009bb", write, sanitize.RuleControl},
	{"line separator", "~/Documents/a\u2028b", write, sanitize.RuleControl},
	{"zero-width space", "~/Documents/a\u200bb", write, sanitize.RuleInvisible},
	{"zero-width joiner", "~/.s\u200dsh/id_rsa", read, sanitize.RuleInvisible},
	{"word joiner", "~/Documents/a\u2060b", write, sanitize.RuleInvisible},
	{"BOM", "\ufeff~/Documents/a", write, sanitize.RuleInvisible},
	{"Mongolian vowel separator", "~/Documents/a\u180eb", write, sanitize.RuleInvisible},
	{"soft hyphen", "~/Documents/re\u00adport.txt", read, sanitize.RuleInvisible},
	{"RLO", "~/Documents/invoice\u202etxt.exe", write, sanitize.RuleInvisible},
	{"LRI", "~/Documents/a\u2066b", write, sanitize.RuleInvisible},
	{"Arabic letter mark", "~/Documents/a\u061cb", write, sanitize.RuleInvisible},
	{"RLM", "~/Documents/a\u200fb", write, sanitize.RuleInvisible},
	{"tag character", "~/Documents/a\U000E0041b", write, sanitize.RuleInvisible},
	{"Hangul filler", "~/Documents/\u3164", write, sanitize.RuleInvisible},
	{"invalid UTF-8", "~/Documents/\xff.txt", write, sanitize.RuleInvalidUTF8},
	{"overlong UTF-8 raw", "~/Documents/\xc0\xae\xc0\xae/x", write, sanitize.RuleInvalidUTF8},

	// Rule 3: expansion and resolution.
	{"tilde slash", "~/Documents/report.txt", read, ""},
	{"$HOME", "$HOME/Documents/report.txt", read, ""},
	{"${HOME}", "${HOME}/Documents/report.txt", read, ""},
	{"absolute in home", "{home}/Documents/report.txt", read, ""},
	{"other user", "~bob/Documents/x", read, sanitize.RuleOtherUserHome},
	{"other user alone", "~root", read, sanitize.RuleOtherUserHome},
	{"tilde plus", "~+/x", read, sanitize.RuleOtherUserHome},
	{"relative", "Documents/report.txt", read, sanitize.RuleNotAbsolute},
	{"dot relative", "./Documents/report.txt", read, sanitize.RuleNotAbsolute},
	{"other variable", "$TMPDIR/x", read, sanitize.RuleNotAbsolute},
	{"$HOMEDIR is not $HOME", "$HOMEDIR/x", read, sanitize.RuleNotAbsolute},
	{"quoted tilde", `"~/Documents/x"`, read, sanitize.RuleNotAbsolute},
	{"empty", "", read, sanitize.RuleEmpty},
	{"tilde alone", "~", read, sanitize.RuleOutsideSandbox},

	// Rule 5: system paths.
	{"etc", "/etc/passwd", read, sanitize.RuleSystemPath},
	{"double slash", "//etc/passwd", read, sanitize.RuleSystemPath},
	{"dot slash", "/./etc/", read, sanitize.RuleSystemPath},
	{"upper case", "/ETC/passwd", read, sanitize.RuleSystemPath},
	{"mixed case", "/SyStEm/Library/CoreServices", read, sanitize.RuleSystemPath},
	{"private twin", "/private/etc/hosts", read, sanitize.RuleSystemPath},
	{"trailing slashes", "/etc///", read, sanitize.RuleSystemPath},
	{"fullwidth etc", "/ｅｔｃ/passwd", read, sanitize.RuleSystemPath},
	{"root", "/", read, sanitize.RuleSystemPath},
	{"root doubled", "//", open, sanitize.RuleSystemPath},
	{"System", "/System/Library/x", read, sanitize.RuleSystemPath},
	{"Library", "/Library/LaunchDaemons/evil.plist", write, sanitize.RuleSystemPath},
	{"usr", "/usr/local/bin/brew", write, sanitize.RuleSystemPath},
	{"bin", "/bin/sh", read, sanitize.RuleSystemPath},
	{"sbin", "/sbin/mount", read, sanitize.RuleSystemPath},
	{"var", "/var/db/x", read, sanitize.RuleSystemPath},
	{"var tmp is not excepted", "/var/tmp/x", write, sanitize.RuleSystemPath},
	{"dev", "/dev/null", write, sanitize.RuleSystemPath},
	{"cores", "/cores/core.1", read, sanitize.RuleSystemPath},
	{"private", "/private", read, sanitize.RuleSystemPath},
	{"volfs", "/.vol/16777220/2", read, sanitize.RuleSystemPath},
	{"nofollow prefix", "/.nofollow/etc/passwd", read, sanitize.RuleSystemPath},
	{"private lookalike tmp", "/private/ｔmp/x", write, sanitize.RuleSystemPath},
	{"tmp is not system", "/tmp/x", write, sanitize.RuleOutsideSandbox},
	{"private tmp is not system", "/private/tmp/x", write, sanitize.RuleOutsideSandbox},
	{"var folders is not system", "/var/folders/ab/cd/T/x", write, sanitize.RuleOutsideSandbox},
	{"private var folders is not system", "/private/var/folders/ab/x", write, sanitize.RuleOutsideSandbox},
	{"Applications is not system", "/Applications/Safari.app", open, sanitize.RuleOutsideSandbox},
	{"symlink to etc", "~/Documents/sys/passwd", read, sanitize.RuleSystemPath},
	{"symlink to etc itself", "~/Documents/sys", read, sanitize.RuleSystemPath},

	// Rule 6: credential and private-data stores.
	{"ssh key", "~/.ssh/id_rsa", read, sanitize.RuleCredentialStore},
	{"ssh folder", "~/.ssh", open, sanitize.RuleCredentialStore},
	{"ssh absolute", "{home}/.ssh/id_rsa", read, sanitize.RuleCredentialStore},
	{"ssh upper case", "~/.SSH/id_rsa", read, sanitize.RuleCredentialStore},
	{"ssh long s", "~/.ſsh/id_rsa", read, sanitize.RuleCredentialStore},
	{"ssh fullwidth", "~/．ｓｓｈ/id_rsa", read, sanitize.RuleCredentialStore},
	{"ssh new file", "~/.ssh/authorized_keys", write, sanitize.RuleCredentialStore},
	{"gnupg", "~/.gnupg/private-keys-v1.d/x", read, sanitize.RuleCredentialStore},
	{"aws", "~/.aws/credentials", read, sanitize.RuleCredentialStore},
	{"azure", "~/.azure/x", read, sanitize.RuleCredentialStore},
	{"gcloud", "~/.config/gcloud/application_default_credentials.json", read, sanitize.RuleCredentialStore},
	{"kube", "~/.kube/config", read, sanitize.RuleCredentialStore},
	{"docker", "~/.docker/config.json", read, sanitize.RuleCredentialStore},
	{"netrc", "~/.netrc", read, sanitize.RuleCredentialStore},
	{"git credentials", "~/.git-credentials", read, sanitize.RuleCredentialStore},
	{"xdg git credentials", "~/.config/git/credentials", read, sanitize.RuleCredentialStore},
	{"gh", "~/.config/gh/hosts.yml", read, sanitize.RuleCredentialStore},
	{"hub", "~/.config/hub", read, sanitize.RuleCredentialStore},
	{"npmrc", "~/.npmrc", read, sanitize.RuleCredentialStore},
	{"pypirc", "~/.pypirc", read, sanitize.RuleCredentialStore},
	{"cargo", "~/.cargo/credentials.toml", read, sanitize.RuleCredentialStore},
	{"cargo old", "~/.cargo/credentials", read, sanitize.RuleCredentialStore},
	{"gem", "~/.gem/credentials", read, sanitize.RuleCredentialStore},
	{"vault", "~/.vault-token", read, sanitize.RuleCredentialStore},
	{"terraform", "~/.terraform.d/credentials.tfrc.json", read, sanitize.RuleCredentialStore},
	{"pass", "~/.password-store/x.gpg", read, sanitize.RuleCredentialStore},
	{"keyrings", "~/.local/share/keyrings/login.keyring", read, sanitize.RuleCredentialStore},
	{"op", "~/.config/op/config", read, sanitize.RuleCredentialStore},
	{"keychains", "~/Library/Keychains/login.keychain-db", read, sanitize.RuleCredentialStore},
	{"keychains lower case", "~/library/keychains/login.keychain-db", read, sanitize.RuleCredentialStore},
	{"cookies", "~/Library/Cookies/Cookies.binarycookies", read, sanitize.RuleCredentialStore},
	{"safari", "~/Library/Safari/History.db", read, sanitize.RuleCredentialStore},
	{"safari container", "~/Library/Containers/com.apple.Safari/Data", read, sanitize.RuleCredentialStore},
	{"chrome", "~/Library/Application Support/Google/Chrome/Default/Login Data", read, sanitize.RuleCredentialStore},
	{"chrome canary", "~/Library/Application Support/Google/Chrome Canary/Default", read, sanitize.RuleCredentialStore},
	{"chromium", "~/Library/Application Support/Chromium/Default", read, sanitize.RuleCredentialStore},
	{"brave", "~/Library/Application Support/BraveSoftware/Brave-Browser", read, sanitize.RuleCredentialStore},
	{"edge", "~/Library/Application Support/Microsoft Edge/Default", read, sanitize.RuleCredentialStore},
	{"firefox", "~/Library/Application Support/Firefox/Profiles/x", read, sanitize.RuleCredentialStore},
	{"arc", "~/Library/Application Support/Arc/User Data", read, sanitize.RuleCredentialStore},
	{"vivaldi", "~/Library/Application Support/Vivaldi/Default", read, sanitize.RuleCredentialStore},
	{"opera", "~/Library/Application Support/com.operasoftware.Opera/Cookies", read, sanitize.RuleCredentialStore},
	{"mozilla", "~/.mozilla/firefox", read, sanitize.RuleCredentialStore},
	{"linux chrome", "~/.config/google-chrome/Default", read, sanitize.RuleCredentialStore},
	{"linux chromium", "~/.config/chromium/Default", read, sanitize.RuleCredentialStore},
	{"linux brave", "~/.config/BraveSoftware/x", read, sanitize.RuleCredentialStore},
	{"1password", "~/Library/Application Support/1Password/x", read, sanitize.RuleCredentialStore},
	{"1password group", "~/Library/Group Containers/2BUA8C4S2C.com.1password/x", read, sanitize.RuleCredentialStore},
	{"messages", "~/Library/Messages/chat.db", read, sanitize.RuleCredentialStore},
	{"mail", "~/Library/Mail/V10", read, sanitize.RuleCredentialStore},
	{"address book", "~/Library/Application Support/AddressBook/x", read, sanitize.RuleCredentialStore},
	{"TCC", "~/Library/Application Support/com.apple.TCC/TCC.db", write, sanitize.RuleCredentialStore},
	{"shell history", "~/.zsh_history", read, sanitize.RuleCredentialStore},
	{"ssh rc is credential first", "~/.ssh/rc", write, sanitize.RuleCredentialStore},
	{"symlink into ssh", "~/Documents/keys/id_rsa", read, sanitize.RuleCredentialStore},
	{"symlink into ssh itself", "~/Documents/keys", read, sanitize.RuleCredentialStore},
	{"chain of links into ssh", "~/Documents/chain1/id_rsa", read, sanitize.RuleCredentialStore},
	{"relative link up twice", "~/Documents/sub/up-twice/credentials", read, sanitize.RuleCredentialStore},
	{"dangling link into ssh", "~/Documents/dangling-key", write, sanitize.RuleCredentialStore},

	// Rule 8: sandbox roots.
	{"inside Documents", "~/Documents/report.txt", read, ""},
	{"new nested file", "~/Documents/new/deeper/file.txt", write, ""},
	{"new folder", "~/Downloads/new", createDir, ""},
	{"Desktop", "~/Desktop/todo.txt", write, ""},
	{"upper-case root", "~/DOCUMENTS/x", write, ""},
	{"root read", "~/Documents", read, ""},
	{"root open", "~/Documents", open, ""},
	{"root create", "~/Documents", createDir, ""},
	{"root trailing slash read", "~/Documents/", read, ""},
	{"root delete", "~/Documents", del, sanitize.RuleSandboxRoot},
	{"root delete trailing slash", "~/Documents/", del, sanitize.RuleSandboxRoot},
	{"root delete upper case", "~/DOWNLOADS", del, sanitize.RuleSandboxRoot},
	{"root write", "~/Desktop", write, sanitize.RuleSandboxRoot},
	{"root move from", "~/Downloads", moveFrom, sanitize.RuleSandboxRoot},
	{"root move to", "~/Documents", moveTo, sanitize.RuleSandboxRoot},
	{"link to root delete", "~/Documents/root-itself", del, sanitize.RuleSandboxRoot},
	{"outside", "~/Music/song.mp3", read, sanitize.RuleOutsideSandbox},
	{"outside, home", "{home}", read, sanitize.RuleOutsideSandbox},
	{"outside, sibling", "{outside}/secret.txt", read, sanitize.RuleOutsideSandbox},
	{"outside, lookalike root", "~/Ｄocuments/x", write, sanitize.RuleOutsideSandbox},
	{"outside, prefix of a root name", "~/Documentsx/x", write, sanitize.RuleOutsideSandbox},
	{"outside via link", "~/Documents/out/secret.txt", read, sanitize.RuleOutsideSandbox},
	{"dangling link outside", "~/Documents/dangling", write, sanitize.RuleOutsideSandbox},
	{"link between roots", "~/Documents/to-downloads/file.zip", read, ""},
	{"absolute link between roots", "~/Documents/abs-desktop/x", write, ""},
	{"link inside a root", "~/Documents/report-link", del, ""},
	{"link outside into sandbox", "~/Music/link-into-sandbox", read, sanitize.RuleOutsideSandbox},
	{"loop", "~/Documents/loop1", read, sanitize.RuleSymlinkLoop},
	{"loop below", "~/Documents/loop1/x/y", write, sanitize.RuleSymlinkLoop},
	{"self loop", "~/Documents/self", read, sanitize.RuleSymlinkLoop},

	// Rule 7: persistence is flagged, not refused.
	{"git hook", "~/Documents/proj/.git/hooks/pre-commit", write, ""},
}

func expand(s, home, outside string) string {
	return strings.NewReplacer("{home}", home, "{outside}", outside).Replace(s)
}

func TestPathRules(t *testing.T) {
	h, out := home(t)
	c := config(t, h, nil)
	for _, tc := range pathCases {
		t.Run(tc.name, func(t *testing.T) {
			in := expand(tc.input, h, out)
			p, err := c.Path(in, tc.op)
			if got := ruleOf(err); got != tc.wantRule {
				t.Fatalf("Path(%q, %v) = %+v, %v; want rule %q", in, tc.op, p, err, tc.wantRule)
			}
			if err != nil {
				r := refusal(t, err)
				if r.Arg != in {
					t.Errorf("Arg = %q; want the raw input %q", r.Arg, in)
				}
				if msg := err.Error(); !strings.HasPrefix(msg, "blocked: ") || oneSafeLine(msg) != "" {
					t.Errorf("message %q: %s", msg, oneSafeLine(msg))
				}
				if p != (sanitize.Path{}) {
					t.Errorf("refused Path returned %+v; want the zero Path", p)
				}
				return
			}
			if p.Raw != in || !filepath.IsAbs(p.Lexical) || !filepath.IsAbs(p.Resolved) {
				t.Errorf("Path(%q) = %+v", in, p)
			}
		})
	}
}

func TestPathMessages(t *testing.T) {
	h, _ := home(t)
	c := config(t, h, nil)
	tests := []struct {
		input string
		op    sanitize.Op
		want  string
	}{
		{"~/.ssh/id_rsa", read, "blocked: ~/.ssh/id_rsa is inside a credential store (~/.ssh)"},
		{h + "/.ssh/id_rsa", read, "blocked: ~/.ssh/id_rsa is inside a credential store (~/.ssh)"},
		{"~/.ssh", read, "blocked: ~/.ssh is a credential store (~/.ssh)"},
		{"~/Documents/keys/id_rsa", read,
			"blocked: ~/Documents/keys/id_rsa resolves to ~/.ssh/id_rsa, which is inside a credential store (~/.ssh)"},
		{"/etc/passwd", read, "blocked: /etc/passwd is inside a system folder (/etc)"},
		{"/etc", read, "blocked: /etc is a system folder (/etc)"},
		{"/", read, "blocked: / is the root folder (/)"},
		{"~/Documents/sys/hosts", read, "blocked: ~/Documents/sys/hosts resolves to /etc/hosts, which is inside a system folder (/etc)"},
		{"~/Music/x", write, "blocked: ~/Music/x is outside the sandbox roots (~/Documents, ~/Downloads, ~/Desktop)"},
		{"~/Documents", del, "blocked: ~/Documents is a sandbox root (~/Documents) and cannot be deleted, moved or overwritten"},
		{"~/Documents/../.ssh/id_rsa", read, "blocked: ~/Documents/../.ssh/id_rsa contains a parent-folder reference (..)"},
		{"~/Documents/%252e%252e/x", read, "blocked: ~/Documents/%252e%252e/x contains a parent-folder reference (..) once percent-decoded"},
		{"~/Documents/‥/x", read, "blocked: ~/Documents/‥/x contains a parent-folder reference (..) once Unicode lookalikes are folded"},
		{"~bob/.ssh", read, "blocked: ~bob/.ssh refers to a named user's home (~bob); only your own home (~/) is allowed"},
		{"Documents/x", read, "blocked: Documents/x is a relative path; paths must be absolute (start with / or ~/)"},
		{"~/Documents/a\u202eb", read, `blocked: "~/Documents/a\u202eb" contains a bidirectional control character (U+202E); not allowed in a path`},
		{"~/Documents/a\nb", read, `blocked: "~/Documents/a\nb" contains a control character (U+000A); not allowed in a path`},
		{"~/Documents/\xff", read, `blocked: "~/Documents/\xff" is not valid UTF-8; not allowed in a path`},
		{"~/Documents/loop1", read, "blocked: ~/Documents/loop1 cannot be resolved: its symbolic links form a loop"},
		{"", read, `blocked: "" is empty; a path is needed`},
	}
	for _, tt := range tests {
		_, err := c.Path(tt.input, tt.op)
		if err == nil {
			t.Errorf("Path(%q, %v) passed; want %q", tt.input, tt.op, tt.want)
			continue
		}
		if got := err.Error(); got != tt.want {
			t.Errorf("Path(%q, %v):\n got %s\nwant %s", tt.input, tt.op, got, tt.want)
		}
	}
}

func TestPathFields(t *testing.T) {
	h, out := home(t)
	c := config(t, h, nil)

	p, err := c.Path("~/Documents/report.txt", read)
	if err != nil {
		t.Fatal(err)
	}
	if p.Lexical != filepath.Join(h, "Documents/report.txt") || !p.Exists || p.IsDir || p.IsSymlink || p.Persistence != "" {
		t.Errorf("report.txt: %+v", p)
	}

	p, err = c.Path("$HOME//Documents/./sub/", read)
	if err != nil {
		t.Fatal(err)
	}
	if p.Lexical != filepath.Join(h, "Documents/sub") || !p.IsDir || !p.Exists {
		t.Errorf("sub: %+v", p)
	}

	p, err = c.Path("~/Documents/to-downloads/file.zip", read)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(mustEval(t, h), "Downloads/file.zip"); p.Resolved != want || p.Lexical == p.Resolved {
		t.Errorf("through a link: Resolved = %q; want %q (Lexical %q)", p.Resolved, want, p.Lexical)
	}

	p, err = c.Path("~/Documents/report-link", del)
	if err != nil {
		t.Fatal(err)
	}
	if !p.IsSymlink || !p.Exists || p.Resolved != filepath.Join(mustEval(t, h), "Documents/report.txt") {
		t.Errorf("link: %+v", p)
	}

	p, err = c.Path("~/Documents/new/x.txt", write)
	if err != nil {
		t.Fatal(err)
	}
	if p.Exists || p.Resolved != filepath.Join(mustEval(t, h), "Documents/new/x.txt") {
		t.Errorf("new file: %+v", p)
	}

	p, err = c.Path(out+"/../home/Documents/x", read)
	if ruleOf(err) != sanitize.RuleTraversal {
		t.Errorf("traversal from outside: %+v, %v", p, err)
	}
}

// A symbolic link's own location matters when it is acted on: a link that
// lives outside the sandbox (reached through a link to a folder outside)
// but points back in must not be deletable.
func TestPathLinkLocation(t *testing.T) {
	h, out := home(t)
	symlink(t, filepath.Join(h, "Documents/report.txt"), filepath.Join(out, "back-in"))
	c := config(t, h, nil)
	_, err := c.Path("~/Documents/out/back-in", del)
	if ruleOf(err) != sanitize.RuleOutsideSandbox {
		t.Fatalf("deleting a link that lives outside: %v; want outside-sandbox", err)
	}
	if !strings.Contains(err.Error(), "is a symbolic link that lives at") {
		t.Errorf("message %q does not say where the link lives", err)
	}
}

func TestPathCaseVariants(t *testing.T) {
	h, _ := home(t)
	c := config(t, h, nil)
	for _, in := range []string{"~/DOCUMENTS/x", "~/documents/x", "~/DoCuMeNtS/sub/y"} {
		if _, err := c.Path(in, write); err != nil {
			t.Errorf("Path(%q) = %v; want it inside ~/Documents", in, err)
		}
	}
	for _, in := range []string{"~/.SSH/id_rsa", "~/.Ssh", "~/LIBRARY/KEYCHAINS/x", "~/Library/application support/google/chrome/x", "~/.AWS/config"} {
		if _, err := c.Path(in, read); ruleOf(err) != sanitize.RuleCredentialStore {
			t.Errorf("Path(%q) = %v; want credential-store", in, err)
		}
	}
}

func TestPathNFD(t *testing.T) {
	base := tempDir(t)
	h := filepath.Join(base, "jos\u00e9") // NFC
	mkdir(t, filepath.Join(h, "Documents"))
	c := config(t, h, []string{"~/Documents/Caf\u00e9"}) // NFC root
	nfd := filepath.Join(base, "jose\u0301")
	if _, err := c.Path(nfd+"/.ssh/id_rsa", read); ruleOf(err) != sanitize.RuleCredentialStore {
		t.Errorf("NFD spelling of the home: %v; want credential-store", err)
	}
	if _, err := c.Path("~/Documents/Cafe\u0301/menu.txt", write); err != nil {
		t.Errorf("NFD spelling of a root: %v; want it inside", err)
	}
	if got := c.ShortPath(nfd + "/.ssh"); got != "~/.ssh" {
		t.Errorf("ShortPath(NFD home) = %q; want ~/.ssh", got)
	}
}

func TestPersistence(t *testing.T) {
	h, _ := home(t)
	all := config(t, h, []string{"~"}) // the whole home is the sandbox
	tests := []struct {
		input string
		op    sanitize.Op
		want  string
	}{
		{"~/Library/LaunchAgents/com.evil.plist", write, "a LaunchAgent folder (~/Library/LaunchAgents)"},
		{"~/Library/LaunchAgents", read, "a LaunchAgent folder (~/Library/LaunchAgents)"},
		{"~/library/launchagents/x.plist", moveTo, "a LaunchAgent folder (~/Library/LaunchAgents)"},
		{"~/Library/LaunchDaemons/x.plist", write, "a LaunchDaemon folder (~/Library/LaunchDaemons)"},
		{"~/Library/StartupItems/x", write, "a StartupItems folder (~/Library/StartupItems)"},
		{"~/.zshrc", write, "a shell start-up file (~/.zshrc)"},
		{"~/.ZSHENV", write, "a shell start-up file (~/.zshenv)"},
		{"~/.bash_profile", write, "a shell start-up file (~/.bash_profile)"},
		{"~/.profile", del, "a shell start-up file (~/.profile)"},
		{"~/.config/fish/config.fish", write, "a shell start-up file (~/.config/fish/config.fish)"},
		{"~/.config/fish/conf.d/evil.fish", write, "a shell start-up folder (~/.config/fish/conf.d)"},
		{"~/Library/Preferences/com.apple.loginitems.plist", write, "the login-items list (~/Library/Preferences/com.apple.loginitems.plist)"},
		{"~/Library/Scripts/Folder Action Scripts/x.scpt", write, "a Folder Actions folder (~/Library/Scripts/Folder Action Scripts)"},
		{"~/.config/autostart/x.desktop", write, "an autostart folder (~/.config/autostart)"},
		{"~/.config/systemd/user/x.service", write, "a systemd user-unit folder (~/.config/systemd/user)"},
		{"~/.gitconfig", write, "the git configuration, whose aliases, hooks and fsmonitor run code (~/.gitconfig)"},
		{"~/.vimrc", write, "an editor start-up file (~/.vimrc)"},
		{"~/.emacs.d/init.el", write, "an editor start-up file (~/.emacs.d/init.el)"},
		{"~/Documents/proj/.git/hooks/pre-commit", write, "a git hooks folder (~/Documents/proj/.git/hooks)"},
		{"~/Documents/proj/.GIT/HOOKS/post-checkout", write, "a git hooks folder (~/Documents/proj/.GIT/HOOKS)"},
		{"~/Documents/proj/.git/config", write, "a repository's git configuration, whose hooksPath and fsmonitor run code (~/Documents/proj/.git/config)"},
		{"~/Documents/proj/.git", moveTo, "a repository's .git folder, where hooks and configuration run code (~/Documents/proj/.git)"},
		{"~/Documents/site.git/hooks/post-receive", write, "a git hooks folder (~/Documents/site.git/hooks)"},
		{"~/Documents/site.git", moveTo, "a folder holding a git hooks folder (**/*.git/hooks)"},
		{"~/Documents/proj", del, ""},
		{"~/Library/LaunchAgents/../LaunchAgents/x", write, ""}, // traversal: refused below
		{"~/Documents/report.txt", write, ""},
	}
	for _, tt := range tests {
		p, err := all.Path(tt.input, tt.op)
		if strings.Contains(tt.input, "..") {
			if ruleOf(err) != sanitize.RuleTraversal {
				t.Errorf("Path(%q) = %v; want traversal", tt.input, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("Path(%q, %v) = %v; persistence is flagged, not refused", tt.input, tt.op, err)
			continue
		}
		if p.Persistence != tt.want {
			t.Errorf("Path(%q, %v).Persistence = %q; want %q", tt.input, tt.op, p.Persistence, tt.want)
		}
	}

	// With the default roots, the same places are outside the sandbox.
	def := config(t, h, nil)
	if _, err := def.Path("~/Library/LaunchAgents/x.plist", write); ruleOf(err) != sanitize.RuleOutsideSandbox {
		t.Errorf("LaunchAgents with default roots: %v; want outside-sandbox", err)
	}
	p, err := def.Path("~/Documents/proj/.git/hooks/pre-push", write)
	if err != nil || p.Persistence == "" {
		t.Errorf("git hook in the sandbox: %+v, %v; want it flagged", p, err)
	}
	// System persistence stays refused.
	if _, err := all.Path("/Library/LaunchAgents/x.plist", write); ruleOf(err) != sanitize.RuleSystemPath {
		t.Errorf("/Library/LaunchAgents: %v; want system-path", err)
	}
}

// With the whole home as the sandbox, a folder that holds a credential
// store may be opened but not read (listed, copied), moved or deleted: moving
// ~/.config into ~/Documents would carry the tokens into reach.
func TestBroadRoot(t *testing.T) {
	h, _ := home(t)
	c := config(t, h, []string{"~"})
	tests := []struct {
		input    string
		op       sanitize.Op
		wantRule sanitize.Rule
	}{
		{"~/Library", del, sanitize.RuleCredentialStore},
		{"~/Library", moveFrom, sanitize.RuleCredentialStore},
		{"~/Library/Application Support", read, sanitize.RuleCredentialStore},
		{"~/.config", moveFrom, sanitize.RuleCredentialStore},
		{"~/Library", open, ""},
		{"~/Library/Application Support/Google", del, sanitize.RuleCredentialStore},
		{"~/Library/Application Support/SomeApp/x", write, ""},
		{"~/Music", del, ""},
		{"~", del, sanitize.RuleSandboxRoot},
		{"~", open, ""},
		{"~/.ssh/id_rsa", read, sanitize.RuleCredentialStore},
	}
	for _, tt := range tests {
		if _, err := c.Path(tt.input, tt.op); ruleOf(err) != tt.wantRule {
			t.Errorf("Path(%q, %v) = %v; want rule %q", tt.input, tt.op, err, tt.wantRule)
		}
	}
}

// Nested roots: a folder holding another root may not be deleted.
func TestNestedRoots(t *testing.T) {
	h, _ := home(t)
	c := config(t, h, []string{"~/Documents", "~/Documents/sub"})
	if _, err := c.Path("~/Documents/sub/notes.md", write); err != nil {
		t.Errorf("inside the inner root: %v", err)
	}
	if _, err := c.Path("~/Documents/sub", del); ruleOf(err) != sanitize.RuleSandboxRoot {
		t.Errorf("deleting the inner root: %v; want sandbox-root", err)
	}
	c2 := config(t, h, []string{"~/Documents", "~/Documents/sub/deeper"})
	if _, err := c2.Path("~/Documents/sub", moveFrom); ruleOf(err) != sanitize.RuleSandboxRoot {
		t.Errorf("moving a folder holding a root: %v; want sandbox-root", err)
	}
	if _, err := c2.Path("~/Documents/sub", read); err != nil {
		t.Errorf("reading a folder holding a root: %v", err)
	}
}

func TestNoRoots(t *testing.T) {
	h, _ := home(t)
	c := config(t, h, []string{})
	_, err := c.Path("~/Documents/report.txt", read)
	if ruleOf(err) != sanitize.RuleOutsideSandbox || !strings.Contains(err.Error(), "none are configured") {
		t.Errorf("no roots: %v", err)
	}
}

func TestPathLength(t *testing.T) {
	h, _ := home(t)
	c := config(t, h, nil)
	long := "~/Documents/" + strings.Repeat("é", sanitize.MaxStringRunes)
	_, err := c.Path(long, write)
	if ruleOf(err) != sanitize.RuleTooLong {
		t.Fatalf("long path: %v; want too-long", err)
	}
	if len(err.Error()) > 1000 {
		t.Errorf("the message is %d bytes long; a long argument should be cut", len(err.Error()))
	}
}

func TestZeroConfig(t *testing.T) {
	// A Config not made by NewConfig still works, lexically.
	c := &sanitize.Config{Home: "/Users/alice", Roots: []string{"/Users/alice/Documents"}}
	if _, err := c.Path("~/.ssh/id_rsa", read); ruleOf(err) != sanitize.RuleCredentialStore {
		t.Errorf("zero config credential: %v", err)
	}
	if _, err := c.Path("~/Music/x", read); ruleOf(err) != sanitize.RuleOutsideSandbox {
		t.Errorf("zero config outside: %v", err)
	}
	var nilc *sanitize.Config
	if _, err := nilc.Path("~/x", read); ruleOf(err) != sanitize.RuleNotAbsolute {
		t.Errorf("nil config: %v", err)
	}
	if z := nilc.Classify("/etc"); z.Kind != sanitize.ZoneSystem {
		t.Errorf("nil config Classify(/etc) = %+v", z)
	}
}

// A * in a home or a root is a name, not a wildcard.
func TestStarIsLiteral(t *testing.T) {
	h, _ := home(t)
	c := config(t, h, []string{"~/*", "~/Documents/*.git"})
	if _, err := c.Path("~/Music/x", write); ruleOf(err) != sanitize.RuleOutsideSandbox {
		t.Errorf("root ~/* matched ~/Music: %v", err)
	}
	if _, err := c.Path("~/Documents/proj.git/x", write); ruleOf(err) != sanitize.RuleOutsideSandbox {
		t.Errorf("root ~/Documents/*.git matched proj.git: %v", err)
	}
	if _, err := c.Path("~/*/x", write); err != nil {
		t.Errorf("the literal root ~/*: %v", err)
	}
}

// TestCaseInsensitiveTwin: on a case-insensitive Mac disk REPORT.TXT is
// report.txt, so it exists, and a differently-cased link is followed.
func TestCaseInsensitiveTwin(t *testing.T) {
	home := t.TempDir()
	docs := filepath.Join(home, "Documents")
	if err := os.MkdirAll(docs, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(docs, "report.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../.ssh/authorized_keys", filepath.Join(docs, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	cfg, err := sanitize.NewConfig(home, nil)
	if err != nil {
		t.Fatal(err)
	}
	p, err := cfg.Path("~/Documents/REPORT.TXT", sanitize.OpWrite)
	if err != nil || !p.Exists {
		t.Fatalf("REPORT.TXT: exists=%v err=%v; want it found as report.txt", p.Exists, err)
	}
	if _, err := cfg.Path("~/Documents/NOTES.TXT", sanitize.OpWrite); err == nil || !strings.Contains(err.Error(), "credential") {
		t.Fatalf("NOTES.TXT (a case twin of a link into ~/.ssh): err = %v; want a credential-store refusal", err)
	}
	if p, err := cfg.Path("~/Documents/new.txt", sanitize.OpWrite); err != nil || p.Exists {
		t.Fatalf("new.txt: exists=%v err=%v", p.Exists, err)
	}
}
