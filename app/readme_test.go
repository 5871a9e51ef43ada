package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/action"
	"github.com/airlockhq/airlock/app/internal/risk"
)

var update = flag.Bool("update", false, "rewrite the README's generated command table")

// TestReadmeCommandTable keeps the README's command table equal to the
// registry's rendering: the registry is the one source.
func TestReadmeCommandTable(t *testing.T) {
	const begin, end = "<!-- commands:begin", "<!-- commands:end -->"
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	i := strings.Index(readme, begin)
	j := strings.Index(readme, end)
	if i < 0 || j < i {
		t.Fatal("README.md lacks the commands:begin/commands:end markers")
	}
	i += strings.Index(readme[i:], "\n") + 1
	want := action.Markdown()
	if readme[i:j] == want {
		return
	}
	if *update {
		if err := os.WriteFile("../README.md", []byte(readme[:i]+want+readme[j:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Error("README.md's command table differs from the registry; run go test ./app -update")
}

// TestReadmePlatformTable keeps the README's platform table complete: every
// DSL command of the registry has a row saying what runs it on macOS and on
// Linux.
func TestReadmePlatformTable(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "## Platforms, command by command\n")
	if !ok {
		t.Fatal("README.md lacks the section \"Platforms, command by command\"")
	}
	section, _, _ = strings.Cut(section, "\n## ")
	rows := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || strings.TrimSpace(cells[2]) == "" || strings.TrimSpace(cells[3]) == "" {
			continue
		}
		for _, name := range strings.Split(cells[1], ",") {
			rows[strings.Trim(strings.TrimSpace(name), "`")] = true
		}
	}
	for _, c := range action.Commands() {
		if !rows[c.Name] {
			t.Errorf("the platform table has no row for %s", c.Name)
		}
	}
}

// TestReadmeExamples checks that every file under examples/ the README
// names is there and is what its extension says: a plan that parses, a
// script the analyzers rate without error; and that each file there is
// named by the README.
func TestReadmeExamples(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	named := map[string]bool{}
	for _, m := range regexp.MustCompile(`examples/[A-Za-z0-9._-]+`).FindAllString(string(b), -1) {
		named[strings.TrimRight(m, ".")] = true
	}
	if len(named) == 0 {
		t.Fatal("the README names no example")
	}
	for name := range named {
		src, err := os.ReadFile("../" + name)
		if err != nil {
			t.Errorf("the README names %s: %v", name, err)
			continue
		}
		kind, err := pickKind("", name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if kind == risk.KindDSL {
			if _, err := action.Parse(string(src)); err != nil {
				t.Errorf("%s does not parse: %v", name, err)
			}
			continue
		}
		if _, err := risk.AssessContext(context.Background(), kind, string(src), nil); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	files, _ := filepath.Glob("../examples/*")
	for _, f := range files {
		if name := "examples/" + filepath.Base(f); !named[name] {
			t.Errorf("%s is not named by the README", name)
		}
	}
}
