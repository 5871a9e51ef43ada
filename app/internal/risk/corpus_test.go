package risk_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk"
	"github.com/airlockhq/airlock/app/internal/risk/facts"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

var update = flag.Bool("update", false, "rewrite the golden verdict files in testdata/")

type corpusCase struct {
	ID    string      `json:"id"`
	Kind  string      `json:"kind"`
	Input string      `json:"input"`
	Min   level.Level `json:"min"`
	Max   level.Level `json:"max"`
	Why   string      `json:"why"`
}

func loadCases(t testing.TB, name string) []corpusCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 16<<20)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c corpusCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s:%d: %v", name, n, err)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// fixtureEnv builds the home the corpora's dsl and path cases refer to
// (testdata/README.md).
func fixtureEnv(t testing.TB) *risk.Env {
	t.Helper()
	home := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"Documents/Projects", "Desktop", "Downloads", ".ssh", ".aws", "Library/LaunchAgents"} {
		must(os.MkdirAll(filepath.Join(home, d), 0o755))
	}
	for _, f := range []string{"Documents/report.txt", "Documents/Projects/readme.md", "Desktop/todo.txt",
		".ssh/id_ed25519", ".ssh/id_ed25519.pub", ".aws/credentials", ".zshrc"} {
		must(os.WriteFile(filepath.Join(home, f), []byte("fixture\n"), 0o600))
	}
	must(os.Symlink("../.ssh", filepath.Join(home, "Documents/keys")))
	must(os.Symlink("/etc", filepath.Join(home, "Documents/etc-link")))
	must(os.Symlink("../Library/LaunchAgents", filepath.Join(home, "Documents/agents")))
	cfg, err := sanitize.NewConfig(home, nil)
	must(err)
	return &risk.Env{Paths: cfg, Launch: fixtureLaunch{}}
}

// fixtureLaunch resolves handlers as Launch Services would on a Mac with
// its own apps: files open in Preview (text in TextEdit), web pages in
// Safari, a named app is itself; Terminal and Script Editor are known.
type fixtureLaunch struct{}

var fixtureApps = map[string]facts.Handler{
	"preview":       {ID: "com.apple.Preview", Name: "Preview"},
	"textedit":      {ID: "com.apple.TextEdit", Name: "TextEdit"},
	"safari":        {ID: "com.apple.Safari", Name: "Safari"},
	"terminal":      {ID: "com.apple.Terminal", Name: "Terminal"},
	"script editor": {ID: "com.apple.ScriptEditor2", Name: "Script Editor"},
}

func (fixtureLaunch) FileHandler(path, app string) (facts.Handler, error) {
	if app == "" {
		app = "preview"
		if strings.HasSuffix(path, ".txt") || strings.HasSuffix(path, ".md") || strings.HasSuffix(path, ".sh") {
			app = "textedit"
		}
	}
	switch strings.ToLower(app) {
	case "notes helper", "com.example.noteshelper":
		// An app an action made in the home (holes16-shell.jsonl).
		return facts.Handler{Platform: facts.Darwin, ID: "com.example.noteshelper", Name: "Notes Helper",
			Path: "/Users/me/Applications/Notes Helper.app", Program: "/Users/me/Applications/Notes Helper.app/Contents/MacOS/Notes Helper", UserOwned: true}, nil
	case "acme sync":
		return facts.Handler{}, errors.New("no application opens it") // none installed answers to it
	}
	h, ok := fixtureApps[strings.ToLower(strings.TrimSuffix(app, ".app"))]
	if !ok {
		h = facts.Handler{ID: "com.example." + strings.ToLower(app), Name: app}
	}
	h.Platform, h.Path, h.Program = facts.Darwin, "/Applications/"+h.Name+".app", "/Applications/"+h.Name+".app/Contents/MacOS/"+h.Name
	return h, nil
}

// Platform says the fixture resolves a Mac's applications.
func (fixtureLaunch) Platform() string { return facts.Darwin }

func (f fixtureLaunch) URLHandler(u string) (facts.Handler, error) {
	return f.FileHandler("", "safari")
}

// TestCorpora runs every case of the evasion and benign sets and checks
// the verdict lies within the case's [min, max]. The verdicts themselves
// are kept in golden files, so a change of any verdict shows in review.
func TestCorpora(t *testing.T) {
	env := fixtureEnv(t)
	for _, file := range corpusFiles(t) {
		cases := loadCases(t, file)
		got := map[string]string{}
		var failures []string
		for _, c := range cases {
			v := risk.Assess(caseKind(t, c), c.Input, env)
			got[c.ID] = verdictLine(v)
			if v.Level < c.Min || v.Level > c.Max {
				failures = append(failures, fmt.Sprintf("%s: got %v, want %v..%v (%s)\n    input: %.200q\n    reasons: %s",
					c.ID, v.Level, c.Min, c.Max, c.Why, c.Input, strings.Join(v.Texts(), " | ")))
			}
		}
		for _, f := range failures {
			t.Error(f)
		}
		t.Logf("%s: %d cases, %d outside their range", file, len(cases), len(failures))
		golden(t, strings.TrimSuffix(file, ".jsonl")+".golden", got)
	}
}

// corpusFiles are the names of the corpora in testdata (*.jsonl).
func corpusFiles(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpora in testdata: %v", err)
	}
	files := make([]string, len(paths))
	for i, p := range paths {
		files[i] = filepath.Base(p)
	}
	return files
}

// caseKind is the kind of input a case names.
func caseKind(t *testing.T, c corpusCase) risk.Kind {
	t.Helper()
	kind, err := risk.ParseKind(c.Kind)
	if err != nil {
		t.Fatalf("%s: %v", c.ID, err)
	}
	return kind
}

// verdictLine is a verdict as the golden files record it: its level, then
// the rules that fired, sorted, each once ("-" for none). A rule that fires
// for the wrong reason shows, even where the level stays.
func verdictLine(v risk.Verdict) string {
	rules := make([]string, 0, len(v.Reasons))
	for _, r := range v.Reasons {
		rules = append(rules, r.Rule)
	}
	slices.Sort(rules)
	rules = slices.Compact(rules)
	if len(rules) == 0 {
		return v.Level.String() + " -"
	}
	return v.Level.String() + " " + strings.Join(rules, ",")
}

// golden compares id → verdict line (verdictLine) with testdata/NAME, or
// rewrites it with -update: one "id level rule,rule,…" line per case.
func golden(t *testing.T, name string, got map[string]string) {
	t.Helper()
	ids := make([]string, 0, len(got))
	for id := range got {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	var b strings.Builder
	for _, id := range ids {
		fmt.Fprintf(&b, "%s %s\n", id, got[id])
	}
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if string(want) != b.String() {
		wl := strings.Split(string(want), "\n")
		gl := strings.Split(b.String(), "\n")
		wm := map[string]bool{}
		for _, l := range wl {
			wm[l] = true
		}
		for _, l := range gl {
			if !wm[l] {
				t.Errorf("%s: verdict changed: %s (run go test -update if intended)", name, l)
			}
		}
	}
}

// TestVerdictsRepeat: the same input gets the same verdict, reasons in the
// same order, every time (a reason list built by ranging over a map is not:
// Go's map order changes from run to run, and the person, the audit record
// and a remembered grant all see the list). Every corpus input, four times.
func TestVerdictsRepeat(t *testing.T) {
	env := fixtureEnv(t)
	for _, file := range corpusFiles(t) {
		for _, c := range loadCases(t, file) {
			kind := caseKind(t, c)
			first := fmt.Sprintf("%+v", risk.Assess(kind, c.Input, env))
			for range 3 {
				if again := fmt.Sprintf("%+v", risk.Assess(kind, c.Input, env)); again != first {
					t.Errorf("%s: the verdict changed between two assessments:\n%s\n--- then ---\n%s", c.ID, first, again)
					break
				}
			}
		}
	}
}
