package sanitize_test

import (
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// TestSeed003Rules walks seed 003's input-sanitisation rules one by one.
func TestSeed003Rules(t *testing.T) {
	h, _ := home(t)
	c := config(t, h, nil)
	tests := []struct {
		rule string
		run  func() error
		want sanitize.Rule // "" means allowed
	}{
		// 1. Control characters: stripped from free text, refused elsewhere.
		{"1 control chars stripped from text", func() error {
			got, err := sanitize.Text("a\x00b\x1bc\nd\te")
			if err == nil && got != "abc\nd\te" {
				t.Errorf("Text kept control characters: %q", got)
			}
			return err
		}, ""},
		{"1 control char in a path", func() error { _, err := c.Path("~/Documents/a\x07.txt", write); return err }, sanitize.RuleControl},
		{"1 control char in a URL", func() error { _, err := sanitize.URL("https://example.com/\x01"); return err }, sanitize.RuleControl},
		{"1 control char in an app name", func() error { return sanitize.Strict("app", "Saf\x08ari") }, sanitize.RuleControl},
		// 2. Path traversal, in any case and encoding.
		{"2 ../", func() error { _, err := c.Path("~/Documents/../.ssh/id_rsa", write); return err }, sanitize.RuleTraversal},
		{"2 /../", func() error { _, err := c.Path("/Users/x/Documents/../../etc", write); return err }, sanitize.RuleTraversal},
		{"2 ..\\", func() error { _, err := c.Path(`~/Documents/..\..\x`, write); return err }, sanitize.RuleTraversal},
		{"2 %2E%2e/", func() error { _, err := c.Path("~/Documents/%2E%2e/x", write); return err }, sanitize.RuleTraversal},
		// 3. System paths, every spelling, /var/folders excepted.
		{"3 /System", func() error { _, err := c.Path("/System/Library/x", write); return err }, sanitize.RuleSystemPath},
		{"3 /library (case)", func() error { _, err := c.Path("/library/LaunchDaemons/x.plist", write); return err }, sanitize.RuleSystemPath},
		{"3 /usr", func() error { _, err := c.Path("/usr/local/bin/x", write); return err }, sanitize.RuleSystemPath},
		{"3 /bin", func() error { _, err := c.Path("/bin/sh", write); return err }, sanitize.RuleSystemPath},
		{"3 /sbin", func() error { _, err := c.Path("/sbin/x", write); return err }, sanitize.RuleSystemPath},
		{"3 /private", func() error { _, err := c.Path("/private/etc/hosts", write); return err }, sanitize.RuleSystemPath},
		{"3 //etc", func() error { _, err := c.Path("//etc/./hosts", write); return err }, sanitize.RuleSystemPath},
		{"3 /var", func() error { _, err := c.Path("/var/log/x", write); return err }, sanitize.RuleSystemPath},
		{"3 /var/folders is not a system path", func() error {
			_, err := c.Path("/var/folders/xy/T/x", write)
			if err != nil && strings.Contains(err.Error(), "system") {
				return err
			}
			return nil
		}, ""},
		// 4. Credential directories in the home.
		{"4 ~/.ssh", func() error { _, err := c.Path("~/.ssh/id_rsa", sanitize.OpRead); return err }, sanitize.RuleCredentialStore},
		{"4 ~/.gnupg", func() error { _, err := c.Path("~/.gnupg/x", sanitize.OpRead); return err }, sanitize.RuleCredentialStore},
		{"4 ~/.aws", func() error { _, err := c.Path("~/.aws/credentials", sanitize.OpRead); return err }, sanitize.RuleCredentialStore},
		{"4 ~/.config/gcloud", func() error { _, err := c.Path("~/.config/gcloud/x", sanitize.OpRead); return err }, sanitize.RuleCredentialStore},
		{"4 ~/Library/Keychains", func() error { _, err := c.Path("~/Library/Keychains/login.keychain-db", sanitize.OpRead); return err }, sanitize.RuleCredentialStore},
		// 5. Length limits: 10,000 characters a string, 100 items a list.
		{"5 10,000 characters allowed", func() error { return sanitize.Strict("app", strings.Repeat("a", 10_000)) }, ""},
		{"5 10,001 characters refused", func() error { return sanitize.Strict("app", strings.Repeat("a", 10_001)) }, sanitize.RuleTooLong},
		{"5 100 items allowed", func() error { return sanitize.List("recipients", make([]string, 100)) }, ""},
		{"5 101 items refused", func() error { return sanitize.List("recipients", make([]string, 101)) }, sanitize.RuleTooManyItems},
		// 6. File sizes: reads ≤ 1 MB, writes ≤ 10 MB.
		{"6 read 1 MB", func() error { return sanitize.ReadSize(1_000_000) }, ""},
		{"6 read over 1 MB", func() error { return sanitize.ReadSize(1_000_001) }, sanitize.RuleTooLarge},
		{"6 write 10 MB", func() error { return sanitize.WriteSize(10_000_000) }, ""},
		{"6 write over 10 MB", func() error { return sanitize.WriteSize(10_000_001) }, sanitize.RuleTooLarge},
	}
	for _, tt := range tests {
		err := tt.run()
		if got := ruleOf(err); got != tt.want {
			t.Errorf("%s: rule %q (%v), want %q", tt.rule, got, err, tt.want)
		}
		if err != nil && !strings.HasPrefix(err.Error(), "blocked: ") {
			t.Errorf("%s: message %q does not start with blocked:", tt.rule, err)
		}
	}
}
