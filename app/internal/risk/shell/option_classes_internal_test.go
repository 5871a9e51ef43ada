package shell

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk/effect"
	"github.com/airlockhq/airlock/app/internal/risk/rate"
	"github.com/airlockhq/airlock/app/internal/sanitize"
)

// The option models' classes (issue 24): each case of
// testdata/option-classes.jsonl is a command whose verdict must lie in
// [min, max] and, when it names one, carry an effect of the kind has.
// The cases are data: analysed, never run.

type optionCase struct {
	Input string      `json:"input"`
	Min   level.Level `json:"min"`
	Max   level.Level `json:"max"`
	Has   string      `json:"has"`
	Why   string      `json:"why"`
}

func loadOptionCases(t *testing.T, name string) []optionCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []optionCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c optionCase
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

// optionEnv is an empty home in a temporary folder: the paths the cases
// name are classified by where they are, and none exists.
func optionEnv(t *testing.T) *rate.Env {
	t.Helper()
	cfg, err := sanitize.NewConfig(t.TempDir(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return &rate.Env{Paths: cfg}
}

func TestOptionClasses(t *testing.T) {
	checkOptionCases(t, loadOptionCases(t, "option-classes.jsonl"))
}

// checkOptionCases analyses each case in an empty home and holds its
// verdict to the case's range and effect kind.
func checkOptionCases(t *testing.T, cases []optionCase) {
	t.Helper()
	env := optionEnv(t)
	for _, c := range cases {
		var v Verdict
		Into(&v, c.Input, env, nil, 0)
		if v.Level < c.Min || v.Level > c.Max {
			t.Errorf("%s: %v, want %v..%v (%s)\n    reasons: %s", c.Input, v.Level, c.Min, c.Max, c.Why, strings.Join(v.Texts(), " | "))
		}
		if c.Has == "" {
			continue
		}
		var k effect.Kind
		if err := k.UnmarshalText([]byte(c.Has)); err != nil {
			t.Fatalf("%s: %v", c.Input, err)
		}
		found := false
		for _, r := range v.Reasons {
			found = found || r.Effect.Kind == k
		}
		if !found {
			t.Errorf("%s: no %s effect among %s (%s)", c.Input, k, strings.Join(v.Texts(), " | "), c.Why)
		}
	}
}

// TestOpensslContract: every openssl subcommand with a model keeps the
// auto-run contract: an option its model does not list is at least
// Dangerous, alone, after an operand, or after a cipher name.
func TestOpensslContract(t *testing.T) {
	var names []string
	for name, s := range opensslSubs {
		if !s.m.free {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		for _, opt := range append(unmodelledOptions, "-airlock-unmodelled") {
			for _, argv := range [][]string{{"openssl", name, opt, "x"}, {"openssl", name, "x", opt}, {"openssl", name, "-aes256", opt}} {
				var v Verdict
				Argv(&v, argv, nil)
				if v.Level < level.Dangerous {
					t.Errorf("%s: %v, want at least dangerous (%s)", strings.Join(argv, " "), v.Level, strings.Join(v.Texts(), " | "))
				}
			}
		}
	}
}

// TestOpensslModelsDeclareTheirFiles: each option a subcommand reads or
// writes a file with is in its model, taking a value; each option with
// an effect of its own declares it and says why.
func TestOpensslModelsDeclareTheirFiles(t *testing.T) {
	for name, s := range opensslSubs {
		for _, list := range []map[string]bool{s.reads, s.writes} {
			for opt := range list {
				if !hasField(s.m.long, opt+"=") {
					t.Errorf("openssl %s: %s names a file but its model does not take it with a value", name, opt)
				}
			}
		}
		for opt, e := range s.m.effects {
			if e.fx.Kind == 0 || e.why == "" {
				t.Errorf("openssl %s %s: declares no effect or no reason", name, opt)
			}
			if !s.m.free && !hasField(s.m.long, opt) && !hasField(s.m.long, opt+"=") {
				t.Errorf("openssl %s %s: has an effect but is not in the model, so check never finds it", name, opt)
			}
		}
	}
}

// FuzzClientText fuzzes the text the SQL clients, the vim family, curl's
// variables and openssl's options parse: the analysis ends, and every
// reason names an effect that weighs no more than the reason.
func FuzzClientText(f *testing.F) {
	for _, s := range []string{
		`\copy t FROM '~/.aws/credentials'`, `SELECT ' \x'; DROP TABLE t`, "source x.sql; tee ~/.zshrc",
		".import |cat t", `.import "|rm -rf ~" t`, `.once '|sh -c x'`, "w! ~/.bash_profile", "redir! > ~/x", "/x/!id", "+10", "tok@~/.netrc", "%output{>>f}",
		"-in=f", "DO $$ BEGIN EXECUTE 'GRANT ALL'; END $$", "\\o |sh", "e ~/.zshrc|wq",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, argv := range [][]string{
			{"psql", "-c", s}, {"mysql", "-e", s}, {"sqlite3", "db", s}, {"vim", "-c", s, "f"}, {"vim", "+" + s},
			{"curl", "--variable", s, "-w", s, "--expand-data", s, "u"}, {"openssl", s, "-in", s, "-out", s},
			{"openssl", "enc", s, s}, {"rsync", s, "a", "b"}, {"gpg", "--edit-key", "k", s},
		} {
			var v Verdict
			Argv(&v, argv, nil)
			for _, r := range v.Reasons {
				if r.Effect.Kind == 0 || r.Effect.Level() > r.Level {
					t.Fatalf("%q: reason %s (%q) has effect %v weighing more than %v", argv, r.Rule, r.Text, r.Effect, r.Level)
				}
			}
		}
	})
}

// TestRed13ExiftoolWritesNamesOfFiles: exiftool's -efile (with a number,
// with !) writes the names of the files it failed on, or left unchanged,
// into the file it names: appended, or replacing it. The names are the
// agent's (a file named x$(id).jpg), so the option writes its text into a
// file the person runs or reads, and it was read as one that only prints;
// and -p- (-p without its newline) runs the Perl of its format as -p
// does, but was read as a tag to print (a red team's finds; cases in
// testdata/red13-options.jsonl).
func TestRed13ExiftoolWritesNamesOfFiles(t *testing.T) {
	checkOptionCases(t, loadOptionCases(t, "red13-options.jsonl"))
}

// TestRed13ImageMagickRunsPrograms: ImageMagick reads PostScript (and
// EPS, Illustrator's) by handing it to Ghostscript, its delegate, which
// runs it: a program; and its own script formats, MSL and MVG, by their
// extension as by their prefix. Each was Caution, "converts images",
// while gs doc.ps is an unknown program (cases in
// testdata/red13-imagemagick.jsonl, with look-alikes).
func TestRed13ImageMagickRunsPrograms(t *testing.T) {
	checkOptionCases(t, loadOptionCases(t, "red13-imagemagick.jsonl"))
}
