package risk_test

import (
	"bufio"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// TestUsesNetwork: every line of testdata/network.txt is found by its rule
// and said to use the network (its reasons' effects say so); and work
// without the network is not, git's local commands included.
func TestUsesNetwork(t *testing.T) {
	home := t.TempDir()
	cfg, err := sanitize.NewConfig(home, nil)
	if err != nil {
		t.Fatal(err)
	}
	env := &risk.Env{Paths: cfg}
	f, err := os.Open("testdata/network.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.SplitN(line, "\t", 3)
		if len(parts) != 3 {
			t.Fatalf("network.txt:%d: want rule, kind and input separated by tabs", n)
		}
		kind, err := risk.ParseKind(parts[1])
		if err != nil {
			t.Fatalf("network.txt:%d: %v", n, err)
		}
		v := risk.Assess(kind, parts[2], env)
		if !risk.UsesNetwork(v) {
			t.Errorf("network.txt:%d: %q does not use the network: %v", n, parts[2], v)
		}
		if !slices.ContainsFunc(v.Reasons, func(r risk.Reason) bool { return r.Rule == parts[0] }) {
			t.Errorf("network.txt:%d: %q is not found by %s: %v", n, parts[2], parts[0], v)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}

	for _, argv := range [][]string{
		{"ls", "-l"}, {"cat", "notes.txt"}, {"grep", "-r", "TODO", "."}, {"say", "hi"}, {"date"},
		{"git", "status"}, {"git", "log", "-1"}, {"git", "checkout", "main"}, {"git", "stash"}, {"git", "commit", "-m", "x"},
	} {
		if v := risk.ShellArgv(argv, env); risk.UsesNetwork(v) {
			t.Errorf("%q uses the network: %v", argv, v)
		}
	}
	for _, script := range []string{`tell application "Finder" to get name of every window`, `display dialog "hi"`} {
		if v := risk.Assess(risk.KindAppleScript, script, env); risk.UsesNetwork(v) {
			t.Errorf("%q uses the network: %v", script, v)
		}
	}
}
