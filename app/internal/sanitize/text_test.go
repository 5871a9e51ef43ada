package sanitize_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/airlockhq/airlock/app/internal/sanitize"
)

var textCases = []struct {
	in, want string
}{
	{"hello", "hello"},
	{"line one\nline two\ttabbed", "line one\nline two\ttabbed"},
	{"bell\a and NUL\x00 gone", "bell and NUL gone"},
	{"crlf\r\nline", "crlf\nline"},
	{"\x1b[31mred\x1b[0m", "[31mred[0m"},
	{"del\x7f", "del"},
	{"c1\u0085\u009b", "c1"},
	{"emoji 👨‍👩‍👧 and accents é", "emoji 👨‍👩‍👧 and accents é"},
	{"bidi \u202e stays in free text", "bidi \u202e stays in free text"},
	{"", ""},
}

func TestText(t *testing.T) {
	for _, tt := range textCases {
		got, err := sanitize.Text(tt.in)
		if err != nil || got != tt.want {
			t.Errorf("Text(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
	if _, err := sanitize.Text("bad \xff"); ruleOf(err) != sanitize.RuleInvalidUTF8 {
		t.Errorf("Text(invalid) = %v; want invalid-utf8", err)
	}
	ok := strings.Repeat("ü", sanitize.MaxStringRunes)
	if got, err := sanitize.Text(ok); err != nil || got != ok {
		t.Errorf("Text(10,000 runes) = %v", err)
	}
	if _, err := sanitize.Text(ok + "x"); ruleOf(err) != sanitize.RuleTooLong {
		t.Errorf("Text(10,001 runes) = %v; want too-long", err)
	}
	// Controls do not count against the limit any differently: the raw text is measured.
	if _, err := sanitize.Text(strings.Repeat("\x00", sanitize.MaxStringRunes+1)); ruleOf(err) != sanitize.RuleTooLong {
		t.Errorf("Text(10,001 NULs) = %v; want too-long", err)
	}
}

func TestContent(t *testing.T) {
	got, err := sanitize.Content("a\tb\r\nc\x00")
	if err != nil || got != "a\tb\nc" {
		t.Errorf("Content = %q, %v", got, err)
	}
	big := strings.Repeat("x", sanitize.MaxStringRunes*3)
	if got, err := sanitize.Content(big); err != nil || got != big {
		t.Errorf("Content of 30,000 bytes: %v; file content is not held to MaxStringRunes", err)
	}
	if _, err := sanitize.Content(strings.Repeat("x", sanitize.MaxWriteBytes+1)); ruleOf(err) != sanitize.RuleTooLarge {
		t.Errorf("Content over the write limit: %v; want too-large", err)
	}
	if _, err := sanitize.Content("\xff"); ruleOf(err) != sanitize.RuleInvalidUTF8 {
		t.Errorf("Content(invalid) = %v", err)
	}
}

func TestStrict(t *testing.T) {
	tests := []struct {
		what, in string
		want     sanitize.Rule
	}{
		{"path", "/Users/a/Documents/x.txt", ""},
		{"path", "a\nb", sanitize.RuleControl},
		{"path", "a\tb", sanitize.RuleControl},
		{"url", "https://example.com/\n", sanitize.RuleControl},
		{"url", "https://exa\u200bmple.com", sanitize.RuleInvisible},
		{"app", "Safari", ""},
		{"app", "Saf\u00adari", sanitize.RuleInvisible},
		{"app", "Safari\t", sanitize.RuleControl},
		{"command", "line1\nline2\tx", ""},
		{"command", "echo \x1b]0;title\x07", sanitize.RuleControl},
		{"command", "rm\u202e", sanitize.RuleInvisible},
		{"command", "x\u0085", sanitize.RuleControl},
		{"command", "x\x7f", sanitize.RuleControl},
		{"command", "\xfe", sanitize.RuleInvalidUTF8},
		{"command", strings.Repeat("a", sanitize.MaxStringRunes), ""},
		{"command", strings.Repeat("a", sanitize.MaxStringRunes+1), sanitize.RuleTooLong},
		{"something", "a\tb", sanitize.RuleControl}, // unknown kinds are strictest
	}
	for _, tt := range tests {
		err := sanitize.Strict(tt.what, tt.in)
		if ruleOf(err) != tt.want {
			t.Errorf("Strict(%q, %q) = %v; want %q", tt.what, tt.in, err, tt.want)
		}
	}
	err := sanitize.Strict("url", "https://a\u202eb")
	if !strings.Contains(err.Error(), "in a URL") {
		t.Errorf("message %q does not name what was checked", err)
	}
	err = sanitize.Strict("app", "x\x00")
	if !strings.Contains(err.Error(), "in an app name") {
		t.Errorf("message %q does not name what was checked", err)
	}
}

func TestList(t *testing.T) {
	if err := sanitize.List("recipients", make([]string, sanitize.MaxListItems)); err != nil {
		t.Errorf("100 items: %v", err)
	}
	err := sanitize.List("recipients", make([]string, sanitize.MaxListItems+1))
	if ruleOf(err) != sanitize.RuleTooManyItems {
		t.Fatalf("101 items: %v; want too-many-items", err)
	}
	if got, want := err.Error(), "blocked: recipients has 101 items; the limit is 100"; got != want {
		t.Errorf("got %q; want %q", got, want)
	}
}

func TestSizes(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want sanitize.Rule
	}{
		{"read at limit", sanitize.ReadSize(sanitize.MaxReadBytes), ""},
		{"read over", sanitize.ReadSize(sanitize.MaxReadBytes + 1), sanitize.RuleTooLarge},
		{"read zero", sanitize.ReadSize(0), ""},
		{"read negative", sanitize.ReadSize(-1), sanitize.RuleInvalidSize},
		{"write at limit", sanitize.WriteSize(sanitize.MaxWriteBytes), ""},
		{"write over", sanitize.WriteSize(sanitize.MaxWriteBytes + 1), sanitize.RuleTooLarge},
		{"write negative", sanitize.WriteSize(-5), sanitize.RuleInvalidSize},
	}
	for _, tt := range tests {
		if ruleOf(tt.err) != tt.want {
			t.Errorf("%s: %v; want %q", tt.name, tt.err, tt.want)
		}
	}
	if sanitize.MaxReadBytes != 1_000_000 || sanitize.MaxWriteBytes != 10_000_000 ||
		sanitize.MaxStringRunes != 10_000 || sanitize.MaxListItems != 100 {
		t.Error("the limits changed")
	}
	want := "blocked: a write of 10,000,001 bytes is over the limit of 10,000,000 bytes"
	if got := sanitize.WriteSize(sanitize.MaxWriteBytes + 1).Error(); got != want {
		t.Errorf("got %q; want %q", got, want)
	}
}

func TestURL(t *testing.T) {
	u, err := sanitize.URL("https://example.com/a?b=c")
	if err != nil || u.Host != "example.com" {
		t.Errorf("URL = %v, %v", u, err)
	}
	for in, want := range map[string]sanitize.Rule{
		"":                           sanitize.RuleEmpty,
		"example.com/path":           sanitize.RuleInvalidURL,
		"https://exa mple.com/%zz":   sanitize.RuleInvalidURL,
		"https://example.com/\x00":   sanitize.RuleControl,
		"https://example.com/\u202e": sanitize.RuleInvisible,
		"mailto:a@example.com":       "",
	} {
		if _, err := sanitize.URL(in); ruleOf(err) != want {
			t.Errorf("URL(%q) = %v; want %q", in, err, want)
		}
	}
}

func TestRefusal(t *testing.T) {
	r := &sanitize.Refusal{Rule: sanitize.RuleControl, Arg: "a\nb\u202e\xff", Detail: "is bad"}
	if !errors.Is(r, sanitize.ErrBlocked) {
		t.Error("a Refusal is not ErrBlocked")
	}
	if errors.Is(r, errors.New("blocked")) {
		t.Error("a Refusal matches any error")
	}
	want := `blocked: "a\nb\u202e\xff" is bad`
	if got := r.Error(); got != want {
		t.Errorf("Error() = %q; want %q", got, want)
	}
	var wrapped error = errors.Join(errors.New("context"), r)
	if !errors.Is(wrapped, sanitize.ErrBlocked) {
		t.Error("a wrapped Refusal is not ErrBlocked")
	}
}

func TestDisplay(t *testing.T) {
	tests := []struct{ in, want string }{
		{"~/Documents/My File.txt", "~/Documents/My File.txt"},
		{"", `""`},
		{" leading", `" leading"`},
		{`quote " inside`, `quote " inside`},
		{"tab\there", `"tab\there"`},
		{"nbsp\u00a0x", `"nbsp\u00a0x"`},
		{"zw\u200bx", `"zw\u200bx"`},
		{"tag\U000E0041", `"tag\U000e0041"`},
		{"ls\u2028x", `"ls\u2028x"`},
		{"bad\xc0", `"bad\xc0"`},
		{`back\slash` + "\x01", `"back\\slash\u0001"`},
		{"日本語のファイル", "日本語のファイル"},
		// red8: what the popup escapes, a message escapes too (the tray's
		// pending list, airlock rules, a kept rule's words).
		{"git\ufe00 status", `"git\ufe00 status"`},
		{"rm\U000e0100 -rf", `"rm\U000e0100 -rf"`},
		{"ok\u180b", `"ok\u180b"`},
		{"❤\ufe0f.txt", "❤\ufe0f.txt"},
		{"t\u043eols.py", `"t\u043eols.py"`},
		{"\u0440ip install", `"\u0440ip install"`},
		{"привет мир.txt", "привет мир.txt"},
		{"αβγ.md", "αβγ.md"},
		{"a\u2800b", `"a\u2800b"`},
		{"x\u2065y", `"x\u2065y"`},
	}
	for _, tt := range tests {
		if got := sanitize.Display(tt.in); got != tt.want {
			t.Errorf("Display(%q) = %s; want %s", tt.in, got, tt.want)
		}
	}
	long := strings.Repeat("a", 500)
	if got := sanitize.Display(long); got != strings.Repeat("a", 200)+"…" {
		t.Errorf("Display(500 a's) = %q", got)
	}
}
