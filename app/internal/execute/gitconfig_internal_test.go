package execute

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
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

// TestGitValueAsGitReadsIt: gitValue reads each value as git config does
// (checked against git itself where it is installed): an include's path
// spelled so that a reader and git disagree would name another file.
func TestGitValueAsGitReadsIt(t *testing.T) {
	cases := []struct{ text, want string }{
		{"[include]\n\tpath = a/b\n", "a/b"},
		{"[include]\n\tpath=  spaced \t out  \n", "spaced   out"},
		{"[include]\n\tpath = \"  quoted ; # kept  \"\n", "  quoted ; # kept  "},
		{"[include]\n\tpath = a ; comment\n", "a"},
		{"[include]\n\tpath = a# comment\n", "a"},
		{"[include]\n\tpath = a\\\n/b\n", "a/b"},
		{"[include]\n\tpath = \"a\\\\b\\\"c\"\n", "a\\b\"c"},
		{"[include]\n\tpath = a\\tb\n", "a\tb"},
		{"[include]\n\tpath = \"x\"y\" z\"\n", "xy z"},
		{"[include]\r\n\tpath = crlf\r\n", "crlf"},
		{"[include]\n\tpath = ~/dot/file", "~/dot/file"},
	}
	git, _ := exec.LookPath("git")
	for _, c := range cases {
		entries, err := gitConfigEntries(strings.NewReader(c.text))
		if err != nil || len(entries) != 1 {
			t.Errorf("%q: entries %+v, %v", c.text, entries, err)
			continue
		}
		got, err := gitValue(entries[0].raw)
		if err != nil || got != c.want {
			t.Errorf("%q: value %q (%v), want %q", c.text, got, err, c.want)
		}
		if git == "" {
			continue
		}
		dir := t.TempDir()
		f := filepath.Join(dir, "config")
		if err := os.WriteFile(f, []byte(c.text), 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(git, "config", "-f", f, "--get", "include.path")
		cmd.Env = []string{"HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1", "PATH=/usr/bin:/bin"}
		out, err := cmd.Output()
		if err != nil {
			t.Errorf("%q: git config: %v", c.text, err)
			continue
		}
		if g := strings.TrimSuffix(string(out), "\n"); g != c.want {
			t.Errorf("%q: git reads %q, the case says %q", c.text, g, c.want)
		}
	}
	for _, bad := range []string{"= \"open\n", "= a\\qb\n"} {
		if _, err := gitValue(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// FuzzGitValue: any entry's value reads or is refused, never a panic, and
// a value read has no comment mark outside what quotes kept.
func FuzzGitValue(f *testing.F) {
	f.Add("[include]\n\tpath = \"a ; b\" ; c\n")
	f.Add("[a]\n\tk = x\\\n\ty\n")
	f.Fuzz(func(t *testing.T, text string) {
		entries, _ := gitConfigEntries(strings.NewReader(text))
		for _, e := range entries {
			v, err := gitValue(e.raw)
			if err == nil && !strings.Contains(e.raw, "\"") && strings.ContainsAny(v, ";#") {
				t.Fatalf("value %q of %q keeps a comment", v, e.raw)
			}
		}
	})
}
