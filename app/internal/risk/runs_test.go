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
		for _, fo := range got.Folders {
			if _, found := slices.BinarySearch(got.Files, fo.Script); !found || len(fo.Exts) == 0 || fo.Lang == "" {
				t.Fatalf("folder %+v: its script is not among the files %q, or it loads nothing", fo, got.Files)
			}
		}
	})
}

// TestRunFilesNamesScriptFolders checks which scripts' folders a command
// names, and for which language: those of the interpreters that load code
// beside the script, and no other.
func TestRunFilesNamesScriptFolders(t *testing.T) {
	home := t.TempDir()
	cfg, err := sanitize.NewConfig(home, nil)
	if err != nil {
		t.Fatal(err)
	}
	env := &risk.Env{Paths: cfg}
	in := func(p string) string { return filepath.Join(home, p) }
	for _, tt := range []struct {
		argv   []string
		script string // "" for no folder
		lang   string
	}{
		{[]string{"python3", in("t/build.py")}, in("t/build.py"), "Python"},
		{[]string{"python3.12", "-u", "--", in("t/build.py")}, in("t/build.py"), "Python"},
		{[]string{"node", "t/a.js"}, in("t/a.js"), "Node"},
		{[]string{"ruby", "-w", "t/a.rb"}, in("t/a.rb"), "Ruby"},
		{[]string{"perl", "t/a.pl"}, in("t/a.pl"), "Perl"},
		{[]string{"php", "-f", "t/a.php"}, in("t/a.php"), "PHP"},
		{[]string{"lua", "t/a.lua"}, in("t/a.lua"), "Lua"},
		{[]string{"tclsh", "t/a.tcl"}, in("t/a.tcl"), "Tcl"},
		{[]string{"bash", "t/a.sh"}, in("t/a.sh"), "shell"},
		{[]string{"bash", "-c", "cd ./t && . ./lib.sh"}, in("t/lib.sh"), "shell"},
		{[]string{"deno", "run", "-A", "t/a.ts"}, in("t/a.ts"), "Deno"},
		{[]string{"awk", "-f", "t/a.awk", "x"}, "", ""},
		{[]string{"make"}, "", ""},
		{[]string{"swift", "t/a.swift"}, "", ""},
		{[]string{"./t/tool"}, "", ""},
		{[]string{"python3", "-c", "print(1)"}, "", ""},
	} {
		got := risk.RunFilesArgv(context.Background(), tt.argv, home, env)
		if !got.Known {
			t.Errorf("%q: not known: %s", tt.argv, got.Why)
			continue
		}
		switch {
		case tt.script == "" && len(got.Folders) != 0:
			t.Errorf("%q: names folders %+v, want none", tt.argv, got.Folders)
		case tt.script != "" && (len(got.Folders) != 1 || got.Folders[0].Script != tt.script || got.Folders[0].Lang != tt.lang || !got.Folders[0].Deep):
			t.Errorf("%q: folders %+v, want the %s folder of %s", tt.argv, got.Folders, tt.lang, tt.script)
		}
	}
}
