package risk_test

import (
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/level"
	"github.com/airlockhq/airlock/app/internal/risk"
)

func seedCorpus(f *testing.F, kind string) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	for _, path := range files {
		for _, c := range loadCases(f, filepath.Base(path)) {
			if c.Kind == kind {
				f.Add(c.Input)
			}
		}
	}
}

// checkVerdict holds for every verdict: a level on the scale, reasons that
// explain anything above safe, spans inside the input.
func checkVerdict(t *testing.T, src string, v risk.Verdict) {
	t.Helper()
	if v.Level < level.Safe || v.Level > level.Blocked {
		t.Fatalf("level %d out of range", v.Level)
	}
	if v.Level > level.Safe && len(v.Reasons) == 0 {
		t.Fatalf("level %v without a reason", v.Level)
	}
	max := level.Safe
	for _, r := range v.Reasons {
		if r.Span.Start < 0 || r.Span.End > len(src) || r.Span.Start > r.Span.End {
			t.Fatalf("reason %q: span %v outside input of %d bytes", r.Text, r.Span, len(src))
		}
		if !utf8.ValidString(r.Text) {
			t.Fatalf("reason text is not UTF-8: %q", r.Text)
		}
		max = level.Max(max, r.Level)
	}
	if max != v.Level {
		t.Fatalf("verdict %v but highest reason %v", v.Level, max)
	}
}

func FuzzAppleScript(f *testing.F) {
	seedCorpus(f, "applescript")
	env := fixtureEnv(f)
	f.Fuzz(func(t *testing.T, src string) {
		checkVerdict(t, src, risk.AppleScript(src, env))
	})
}

// FuzzAppleScriptLexer checks the normaliser's invariant: the verdict of a
// script does not drop when comments are added or blanks respelled.
func FuzzAppleScriptLexer(f *testing.F) {
	seedCorpus(f, "applescript")
	env := fixtureEnv(f)
	f.Fuzz(func(t *testing.T, src string) {
		v := risk.AppleScript(src, env)
		checkVerdict(t, src, v)
		if !utf8.ValidString(src) {
			return
		}
		for _, r := range v.Reasons {
			if r.Rule == "as.unterminated" {
				return // after an open string or comment, a "comment" is content
			}
		}
		for _, variant := range []string{
			src + "\n-- trailing comment",
			"(* leading comment *)\n" + src,
			"# a hash comment\n" + src,
		} {
			w := risk.AppleScript(variant, env)
			if w.Level < v.Level {
				t.Fatalf("adding a comment lowered the verdict from %v to %v\nsrc: %q", v.Level, w.Level, src)
			}
		}
	})
}

func FuzzShell(f *testing.F) {
	seedCorpus(f, "shell")
	env := fixtureEnv(f)
	f.Fuzz(func(t *testing.T, src string) {
		v := risk.Shell(src, env)
		checkVerdict(t, src, v)
		// Wrapping a command never makes it safer.
		if utf8.ValidString(src) && len(src) < 4096 {
			w := risk.Shell("sudo sh -c "+shellSingleQuote(src), env)
			if w.Level < v.Level && v.Level < level.Blocked {
				t.Fatalf("sudo sh -c lowered the verdict from %v to %v\nsrc: %q", v.Level, w.Level, src)
			}
		}
	})
}

func shellSingleQuote(s string) string {
	out := "'"
	for _, r := range s {
		if r == '\'' {
			out += `'\''`
		} else {
			out += string(r)
		}
	}
	return out + "'"
}

func FuzzJXA(f *testing.F) {
	seedCorpus(f, "jxa")
	env := fixtureEnv(f)
	f.Fuzz(func(t *testing.T, src string) {
		checkVerdict(t, src, risk.JXA(src, env))
	})
}

func FuzzDSL(f *testing.F) {
	seedCorpus(f, "dsl")
	env := fixtureEnv(f)
	f.Fuzz(func(t *testing.T, src string) {
		checkVerdict(t, src, risk.DSL(src, env))
	})
}
