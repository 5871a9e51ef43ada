package risk_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// runsCase is one case of testdata/runfiles/cases.jsonl: an action, and
// the files a remembered approval of it must pin ("~/" is the home), or
// known false where Airlock cannot name them.
type runsCase struct {
	ID       string   `json:"id"`
	Kind     string   `json:"kind"` // "command" (argv, run without a shell) or a risk.Kind
	Input    string   `json:"input"`
	Argv     []string `json:"argv"`
	Known    bool     `json:"known"`
	Files    []string `json:"files"`
	Optional []string `json:"optional"`
}

// TestRunFiles checks which files each case's action runs, with the home
// as the folder commands start in (as the gate runs them). An argument
// starting with ~/ in a command is expanded first, as the gate does.
func TestRunFiles(t *testing.T) {
	home := t.TempDir()
	cfg, err := sanitize.NewConfig(home, nil)
	if err != nil {
		t.Fatal(err)
	}
	env := &risk.Env{Paths: cfg}
	expand := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			if rest, ok := strings.CutPrefix(p, "~/"); ok {
				p = filepath.Join(home, rest)
			}
			out = append(out, p)
		}
		return out
	}
	sorted := func(ps []string) []string {
		slices.Sort(ps)
		return ps
	}
	f, err := os.Open(filepath.Join("testdata", "runfiles", "cases.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	seen := map[string]bool{}
	for sc.Scan() {
		var c runsCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		if seen[c.ID] {
			t.Fatalf("%s: duplicate id", c.ID)
		}
		seen[c.ID] = true
		var got risk.Runs
		if c.Kind == "command" {
			got = risk.RunFilesArgv(context.Background(), expand(c.Argv), home, env)
		} else {
			got = risk.RunFiles(context.Background(), risk.Kind(c.Kind), c.Input, home, env)
		}
		if testing.Verbose() {
			t.Logf("%s: %+v", c.ID, got)
		}
		switch {
		case got.Known != c.Known:
			t.Errorf("%s: known %v, want %v (why: %q, files %q)", c.ID, got.Known, c.Known, got.Why, got.Files)
		case !got.Known && got.Why == "":
			t.Errorf("%s: not known, and no reason why", c.ID)
		case got.Known && got.Why != "":
			t.Errorf("%s: known, with a reason why not: %q", c.ID, got.Why)
		case !slices.Equal(got.Files, sorted(expand(c.Files))) || !slices.Equal(got.Optional, sorted(expand(c.Optional))):
			t.Errorf("%s: files %q optional %q, want %q %q", c.ID, got.Files, got.Optional, expand(c.Files), expand(c.Optional))
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(seen) < 50 {
		t.Fatalf("only %d cases read", len(seen))
	}
}

// TestRunFilesNeedsAPlace checks that nothing is known without a home or a
// folder the command starts in.
func TestRunFilesNeedsAPlace(t *testing.T) {
	ctx := context.Background()
	if got := risk.RunFilesArgv(ctx, []string{"ls"}, "/tmp", nil); got.Known {
		t.Errorf("known without an Env: %+v", got)
	}
	cfg, err := sanitize.NewConfig(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	env := &risk.Env{Paths: cfg}
	if got := risk.RunFilesArgv(ctx, []string{"python3", "x.py"}, "relative", env); got.Known {
		t.Errorf("known in a relative folder: %+v", got)
	}
	if got := risk.RunFilesArgv(ctx, nil, "/tmp", env); got.Known {
		t.Errorf("known for an empty command: %+v", got)
	}
	if got := risk.RunFiles(ctx, risk.KindPath, "/tmp/x", "/tmp", env); got.Known {
		t.Errorf("known for a path: %+v", got)
	}
	if got := (risk.Runs{}); got.Known {
		t.Error("the zero Runs is known")
	}
}

// FuzzRunFiles checks what RunFiles promises for any shell text: a reason
// exactly when not known, and files that are absolute, clean, sorted and
// named once.
func FuzzRunFiles(f *testing.F) {
	seedCorpus(f, "shell")
	home := f.TempDir()
	cfg, err := sanitize.NewConfig(home, nil)
	if err != nil {
		f.Fatal(err)
	}
	env := &risk.Env{Paths: cfg}
	f.Fuzz(func(t *testing.T, src string) {
		got := risk.RunFiles(context.Background(), risk.KindShell, src, home, env)
		if got.Known == (got.Why != "") {
			t.Fatalf("known %v with reason %q", got.Known, got.Why)
		}
		all := append(slices.Clone(got.Files), got.Optional...)
		for _, p := range all {
			if !filepath.IsAbs(p) || filepath.Clean(p) != p {
				t.Fatalf("%q is not absolute and clean", p)
			}
		}
		slices.Sort(all)
		if len(slices.Compact(all)) != len(got.Files)+len(got.Optional) || !slices.IsSorted(got.Files) || !slices.IsSorted(got.Optional) {
			t.Fatalf("files %q optional %q: not sorted, or named twice", got.Files, got.Optional)
		}
	})
}
