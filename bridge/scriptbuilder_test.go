package bridge_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/airlockhq/airlock/bridge"
)

// evalText evaluates an AppleScript text expression of the only shape
// AppleScriptString may produce: double-quoted literals and (character id N)
// joined by " & ". It fails on anything else, so a value that broke out of
// its literal (an unescaped quote, a stray escape, a line end, an operator)
// makes it fail. Inside literals it also refuses every character that could
// end a line, a string or a statement in some reader of the script.
func evalText(expr string) (string, error) {
	var b strings.Builder
	i := 0
	for part := 0; ; part++ {
		if part > 0 {
			if i == len(expr) {
				break
			}
			if !strings.HasPrefix(expr[i:], " & ") {
				return "", fmt.Errorf("at %d: %q is not a join", i, expr[i:])
			}
			i += 3
		}
		var err error
		switch {
		case strings.HasPrefix(expr[i:], `"`):
			i, err = literal(expr, i+1, &b)
		case strings.HasPrefix(expr[i:], "(character id "):
			i, err = characterID(expr, i+len("(character id "), &b)
		default:
			err = fmt.Errorf("at %d: %q is neither a literal nor a character id", i, expr[i:])
		}
		if err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// literal reads a literal's body from i (after the opening quote) and
// returns the index after its closing quote.
func literal(expr string, i int, b *strings.Builder) (int, error) {
	for i < len(expr) {
		c := expr[i]
		switch c {
		case '"':
			return i + 1, nil
		case '\\':
			if i+1 == len(expr) {
				return 0, errors.New("a backslash ends the expression")
			}
			v, ok := map[byte]byte{'\\': '\\', '"': '"', 'n': '\n', 't': '\t', 'r': '\r'}[expr[i+1]]
			if !ok {
				return 0, fmt.Errorf("unknown escape \\%c", expr[i+1])
			}
			b.WriteByte(v)
			i += 2
			continue
		}
		r, size := utf8.DecodeRuneInString(expr[i:])
		if r == utf8.RuneError && size == 1 {
			return 0, fmt.Errorf("invalid UTF-8 at %d", i)
		}
		if unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) || strings.ContainsRune("“”«»¬", r) {
			return 0, fmt.Errorf("raw %U inside a literal", r)
		}
		b.WriteRune(r)
		i += size
	}
	return 0, errors.New("unterminated literal")
}

func characterID(expr string, i int, b *strings.Builder) (int, error) {
	j := strings.IndexByte(expr[i:], ')')
	if j <= 0 {
		return 0, errors.New("unterminated character id")
	}
	digits := expr[i : i+j]
	n, err := strconv.Atoi(digits)
	if err != nil || strconv.Itoa(n) != digits || n < 0 || n > unicode.MaxRune {
		return 0, fmt.Errorf("character id %q", digits)
	}
	b.WriteRune(rune(n))
	return i + j + 1, nil
}

func TestAppleScriptString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", `""`},
		{"Safari", `"Safari"`},
		{`say "hi"`, `"say \"hi\""`},
		{`C:\path\`, `"C:\\path\\"`},
		{"a\nb\tc\rd", `"a\nb\tc\rd"`},
		{`" & (do shell script "id") & "`, `"\" & (do shell script \"id\") & \""`},
		{"“quoted”", `(character id 8220) & "quoted" & (character id 8221)`},
		{"a\x00b", `"a" & (character id 0) & "b"`},
		{"\u2028", `(character id 8232)`},
		{"x¬\ny", `"x" & (character id 172) & "\ny"`},
		{"«event sysoexec»", `(character id 171) & "event sysoexec" & (character id 187)`},
		{"bad\xffbyte", "\"bad\uFFFDbyte\""},
		{"ünïcode ☃", `"ünïcode ☃"`},
	}
	for _, tt := range tests {
		got := bridge.AppleScriptString(tt.in)
		if got != tt.want {
			t.Errorf("AppleScriptString(%q) = %s, want %s", tt.in, got, tt.want)
		}
		if v, err := evalText(got); err != nil || v != strings.ToValidUTF8(tt.in, "\uFFFD") {
			t.Errorf("%s evaluates to %q, %v", got, v, err)
		}
	}
}

// No input breaks out of the literal: the expression always evaluates,
// under the strict grammar above, to the input itself, on one line.
func FuzzAppleScriptString(f *testing.F) {
	for _, s := range []string{"", `"`, `\`, `\"`, "\"\n", "“x”", "end tell\ndo shell script \"rm\"", "\x00", "\xff\xfe", "¬\r\n", "a\u2029b", "\u200e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		expr := bridge.AppleScriptString(s)
		v, err := evalText(expr)
		if err != nil {
			t.Fatalf("AppleScriptString(%q) = %s: %v", s, expr, err)
		}
		if want := strings.ToValidUTF8(s, "\uFFFD"); v != want {
			t.Fatalf("AppleScriptString(%q) = %s, which evaluates to %q", s, expr, v)
		}
		if strings.ContainsAny(expr, "\r\n") {
			t.Fatalf("AppleScriptString(%q) = %q spans lines", s, expr)
		}
	})
}

// The builders put every value through AppleScriptString: the value comes
// back whole from where it stands, and the rest of the script is fixed.
func TestScriptBuilders(t *testing.T) {
	evil := `Finder" to delete every file` + "\nend tell\ndo shell script \"id\" --"
	tests := []struct {
		name   string
		script string
		prefix string   // fixed source before the first value
		values []string // the values, in order, each followed by fixed source
		joins  []string // the fixed source after each value
	}{
		{"tell", bridge.TellScript(evil, "activate", "get name of window 1"),
			"tell application ", []string{evil}, []string{"\n\tactivate\n\tget name of window 1\nend tell\n"}},
		{"activate", bridge.ActivateScript(evil), "tell application ", []string{evil}, []string{" to activate\n"}},
		{"dialog", bridge.DialogScript(evil, "“title”", []string{"No", evil}), "display dialog ",
			[]string{evil, "“title”", "No", evil}, []string{" with title ", " buttons {", ", ", "}\nreturn button returned of result\n"}},
		{"dialog, plain", bridge.DialogScript("ok?", "", nil), "display dialog ", []string{"ok?"}, []string{"\nreturn button returned of result\n"}},
		{"notification", bridge.NotificationScript(evil, "t", "s\x00"), "display notification ",
			[]string{evil, "t", "s\x00"}, []string{" with title ", " subtitle ", "\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rest, ok := strings.CutPrefix(tt.script, tt.prefix)
			if !ok {
				t.Fatalf("script %q does not start with %q", tt.script, tt.prefix)
			}
			for i, v := range tt.values {
				j := strings.Index(rest, tt.joins[i])
				for j >= 0 {
					if got, err := evalText(rest[:j]); err == nil && got == v {
						break
					}
					k := strings.Index(rest[j+1:], tt.joins[i])
					if k < 0 {
						j = -1
						break
					}
					j += 1 + k
				}
				if j < 0 {
					t.Fatalf("value %d (%q) is not one expression followed by %q in %q", i, v, tt.joins[i], tt.script)
				}
				rest = rest[j+len(tt.joins[i]):]
			}
			if rest != "" {
				t.Fatalf("left over: %q", rest)
			}
		})
	}
	for _, s := range []string{bridge.FrontmostAppScript(), bridge.RunningAppsScript()} {
		if !strings.Contains(s, `tell application "System Events"`) {
			t.Errorf("%q", s)
		}
	}
}

// The scripts behind DSL commands take every value from argv: each reads
// argv in its run handler, and none has a placeholder a value could fill.
func TestFixedScriptsTakeArgv(t *testing.T) {
	for name, src := range bridge.Scripts {
		if !strings.HasPrefix(src, "on run argv\n") || !strings.Contains(src, "item 1 of argv") {
			t.Errorf("%s: does not take its values from argv:\n%s", name, src)
		}
		if strings.Contains(src, "%") || strings.Contains(src, "{{") {
			t.Errorf("%s: looks like a template for values", name)
		}
	}
}
