package execute

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

func TestGitConfigKeys(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
		bad        bool
	}{
		{"a clone's", "[core]\n\trepositoryformatversion = 0\n\tbare = false\n[remote \"origin\"]\n\turl = https://example.com/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n",
			[]string{"core.repositoryformatversion", "core.bare", "remote.origin.url", "remote.origin.fetch", "branch.main.remote", "branch.main.merge"}, false},
		{"case and spacing", "  [CORE]\n FsMonitor=x\n", []string{"core.fsmonitor"}, false},
		{"header and key on one line", "[core] pager = less\n", []string{"core.pager"}, false},
		{"old subsection form", "[alias.x]\n\tcmd = y\n", []string{"alias.x.cmd"}, false},
		{"quoted subsection escapes", "[filter \"a\\\"b\"]\n\tsmudge = x\n", []string{"filter.a\"b.smudge"}, false},
		{"a key with no value", "[core]\n\tbare\n", []string{"core.bare"}, false},
		{"comments", "# [core]\n; fsmonitor = x\n[core]\n\tbare = true ; fsmonitor = y\n", []string{"core.bare"}, false},
		// A backslash at the end goes on to the next line, which is value.
		{"continued value", "[alias]\n\tx = !echo \\\n\tfsmonitor = y\n", []string{"alias.x"}, false},
		{"escaped backslash ends the line", "[alias]\n\tx = a\\\\\n\tfsmonitor = y\n", []string{"alias.x", "alias.fsmonitor"}, false},
		{"backslash in a comment", "[alias]\n\tx = a # \\\n\tpager = y\n", []string{"alias.x", "alias.pager"}, false},
		// A quote open across a continued line: on the next line a
		// closing quote ends it, and a ; after it starts a comment, so the
		// line after that is a key (git's config.c reads it so).
		{"quote across lines", "[core]\n\tx = \"a \\\n\"; \\\n\tfsmonitor = evil\n", []string{"core.x", "core.fsmonitor"}, false},
		{"no section", "fsmonitor = x\n", nil, true},
		{"unterminated header", "[core\n", nil, true},
	} {
		got, err := gitConfigKeys(strings.NewReader(c.text))
		if (err != nil) != c.bad {
			t.Errorf("%s: error %v, want bad=%v", c.name, err, c.bad)
		}
		if err != nil && !errors.Is(err, errGitConfig) {
			t.Errorf("%s: error %v does not wrap errGitConfig", c.name, err)
		}
		if !c.bad && !slices.Equal(got, c.want) {
			t.Errorf("%s: keys %q, want %q", c.name, got, c.want)
		}
	}
}

func TestUnusualGitKeys(t *testing.T) {
	keys := []string{"core.bare", "remote.origin.url", "remote.up.fetch", "core.fsmonitor", "alias.st", "include.path", "remote.origin.uploadpack"}
	want := []string{"core.fsmonitor", "alias.st", "include.path", "remote.origin.uploadpack"}
	if got := unusualGitKeys(keys); !slices.Equal(got, want) {
		t.Fatalf("unusual %q, want %q", got, want)
	}
}

func TestGitConfigTooLarge(t *testing.T) {
	text := "[core]\n" + strings.Repeat("\tbare = true\n", maxGitConfig/13+1)
	if _, err := gitConfigKeys(strings.NewReader(text)); !errors.Is(err, errGitConfig) {
		t.Fatalf("a config over the bound read: %v", err)
	}
}

// FuzzGitConfigKeys: any bytes give keys or an error, never a panic, and
// every key has a section.
func FuzzGitConfigKeys(f *testing.F) {
	f.Add("[core]\n\tfsmonitor = x\n")
	f.Add("[a \"b\\\"c\"] k = \"v \\\n\"; \\\n\tz = 1\n")
	f.Fuzz(func(t *testing.T, text string) {
		keys, _ := gitConfigKeys(strings.NewReader(text))
		for _, k := range keys {
			if !strings.Contains(k, ".") {
				t.Fatalf("key %q has no section", k)
			}
		}
	})
}
