package sanitize_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/airlockhq/airlock/app/internal/sanitize"
	"golang.org/x/text/unicode/norm"
)

// FuzzPath: Path never panics; what it passes lies, lexically and
// resolved, in no system folder or credential store and inside the sandbox;
// what it refuses is a *Refusal with a one-line message.
func FuzzPath(f *testing.F) {
	h, out := home(f)
	c := config(f, h, nil)
	for _, tc := range pathCases {
		f.Add(expand(tc.input, h, out), uint8(tc.op))
	}
	for _, tc := range traversalCases {
		f.Add(tc.input, uint8(sanitize.OpWrite))
	}
	for _, tc := range classifyCases {
		f.Add(tc.in, uint8(sanitize.OpRead))
	}
	// broad makes the whole home the sandbox, so that only the deny lists
	// stand between a path and a pass.
	broad := config(f, h, []string{"~"})
	f.Fuzz(func(t *testing.T, raw string, op uint8) {
		o := sanitize.Op(op % 8) // one past the last: an unknown Op
		checkPath(t, c, h, raw, o)
		checkPath(t, broad, h, raw, o)
	})
}

// sensitive are places no passing path may lie in, for the independent
// check in checkPath.
var sensitive = []string{
	"/etc", "/private/etc", "/private/var/db", "/system", "/usr", "/bin", "/sbin", "/var/db", "/library", "/dev",
	"~/.ssh", "~/.aws", "~/.gnupg", "~/library/keychains", "~/library/application support/google/chrome",
}

func checkPath(t *testing.T, c *sanitize.Config, h, raw string, o sanitize.Op) {
	t.Helper()
	p, err := c.Path(raw, o)
	if err != nil {
		var r *sanitize.Refusal
		if !errors.As(err, &r) || !errors.Is(err, sanitize.ErrBlocked) {
			t.Fatalf("Path(%q) error %v is not a Refusal", raw, err)
		}
		if r.Arg != raw {
			t.Fatalf("Arg %q is not the raw input %q", r.Arg, raw)
		}
		if msg := oneSafeLine(err.Error()); msg != "" {
			t.Fatalf("message %q %s", err, msg)
		}
		return
	}
	if !utf8.ValidString(raw) || strings.Contains(raw, "..") && hasDotDotElem(raw) {
		t.Fatalf("Path passed %q", raw)
	}
	for _, s := range []string{p.Lexical, p.Resolved} {
		if !filepath.IsAbs(s) || filepath.Clean(s) != s {
			t.Fatalf("Path(%q): %q is not clean and absolute", raw, s)
		}
		switch z := c.Classify(s); z.Kind {
		case sanitize.ZoneSystem, sanitize.ZoneCredential:
			t.Fatalf("Path(%q, %v) passed %q in zone %+v", raw, o, s, z)
		}
		if !under(s, c.Roots, h) {
			t.Fatalf("Path(%q, %v) passed %q, outside the roots %q", raw, o, s, c.Roots)
		}
		for _, bad := range sensitive {
			bad = strings.Replace(bad, "~", h, 1)
			if under(s, []string{bad}, "") {
				t.Fatalf("Path(%q, %v) passed %q, in %s", raw, o, s, bad)
			}
		}
	}
}

func hasDotDotElem(s string) bool {
	for _, e := range strings.FieldsFunc(s, func(r rune) bool { return r == '/' || r == '\\' }) {
		if e == ".." {
			return true
		}
	}
	return false
}

// under reports whether p lies in one of the roots, comparing elements as
// APFS does (NFC, case-insensitively).
func under(p string, roots []string, home string) bool {
	pe := strings.Split(norm.NFC.String(p), "/")
	if home != "" {
		roots = append(roots[:len(roots):len(roots)], filepath.Join(home, "Documents"), filepath.Join(home, "Downloads"), filepath.Join(home, "Desktop"))
	}
	for _, r := range roots {
		re := strings.Split(norm.NFC.String(r), "/")
		if len(pe) < len(re) {
			continue
		}
		match := true
		for i := range re {
			if !strings.EqualFold(pe[i], re[i]) {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// FuzzText: Text never panics; its output is valid UTF-8 with no control
// character but \n and \t, and is the input less exactly those characters.
// Strict and Display hold up too.
func FuzzText(f *testing.F) {
	for _, tc := range textCases {
		f.Add(tc.in)
	}
	for _, tc := range traversalCases {
		f.Add(tc.input)
	}
	for _, tc := range pathCases {
		f.Add(tc.input)
	}
	f.Add("\xff\xfe")
	f.Add("a\u2028b\u202e\U000E0041")
	f.Fuzz(func(t *testing.T, s string) {
		out, err := sanitize.Text(s)
		if err != nil {
			if ruleOf(err) != sanitize.RuleInvalidUTF8 && ruleOf(err) != sanitize.RuleTooLong {
				t.Fatalf("Text(%q) = %v", s, err)
			}
			if utf8.ValidString(s) && utf8.RuneCountInString(s) <= sanitize.MaxStringRunes {
				t.Fatalf("Text(%q) refused valid text: %v", s, err)
			}
		} else {
			if !utf8.ValidString(out) {
				t.Fatalf("Text(%q) = %q: invalid UTF-8", s, out)
			}
			for _, r := range out {
				if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
					t.Fatalf("Text(%q) = %q: keeps %U", s, out, r)
				}
			}
			want := strings.Map(func(r rune) rune {
				if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
					return -1
				}
				return r
			}, s)
			if out != want {
				t.Fatalf("Text(%q) = %q; want %q", s, out, want)
			}
		}
		for _, what := range []string{"path", "url", "app", "command"} {
			if sanitize.Strict(what, s) == nil {
				for _, r := range s {
					if (r < 0x20 && !(what == "command" && (r == '\n' || r == '\t'))) || r == 0x7f ||
						(r >= 0x80 && r <= 0x9f) || (r >= 0x200b && r <= 0x200f) || (r >= 0x202a && r <= 0x202e) ||
						(r >= 0x2066 && r <= 0x2069) || r == 0xfeff || r == 0xad || r == 0x061c || r == 0x180e ||
						(r >= 0x2060 && r <= 0x2064) {
						t.Fatalf("Strict(%q, %q) passed %U", what, s, r)
					}
				}
				if !utf8.ValidString(s) {
					t.Fatalf("Strict(%q) passed invalid UTF-8", what)
				}
			}
		}
		if msg := oneSafeLine(sanitize.Display(s)); msg != "" {
			t.Fatalf("Display(%q) = %q %s", s, sanitize.Display(s), msg)
		}
	})
}
