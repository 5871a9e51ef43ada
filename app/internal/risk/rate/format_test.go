package rate

import (
	"fmt"
	"testing"

	"github.com/airlockhq/airlock/app/internal/level"
)

// TestFormatWarning checks formatWarning against fmt.Sprintf on the verbs
// it writes itself and on those it leaves to fmt.
func TestFormatWarning(t *testing.T) {
	for _, c := range []struct {
		format string
		args   []any
	}{
		{"plain", nil},
		{"%s and %d", []any{"x", 42}},
		{"%q: %v, %v", []any{"a \"b\"\n\x00é", "s", -7}},
		{"100%% of %s", []any{"it"}},
		{"%5s|%-3d|%+v|%#q", []any{"a", 1, "b", "c"}},
		{"%x %v", []any{255, level.Dangerous}},
		{"%d", []any{"not a number"}},
		{"%s %s", []any{"missing"}},
		{"%s", []any{"extra", 1}},
		{"trailing %", nil},
		{"%s", []any{nil}},
		{"%v", []any{int64(3)}},
	} {
		got, want := formatWarning(c.format, c.args), fmt.Sprintf(c.format, c.args...)
		if got != want {
			t.Errorf("formatWarning(%q, %v) = %q, fmt gives %q", c.format, c.args, got, want)
		}
	}
}

// FuzzFormatWarning checks formatWarning against fmt.Sprintf for any
// format with strings and ints in any order.
func FuzzFormatWarning(f *testing.F) {
	f.Add("%s: %d (%q) %v%%", "x", 3)
	f.Add("%", "", 0)
	f.Add("%!s %-d %", "é\x00", -1)
	f.Fuzz(func(t *testing.T, format, s string, n int) {
		for _, args := range [][]any{nil, {s}, {n}, {s, n}, {n, s}, {s, s, n}} {
			if got, want := formatWarning(format, args), fmt.Sprintf(format, args...); got != want {
				t.Fatalf("formatWarning(%q, %#v) = %q, fmt gives %q", format, args, got, want)
			}
		}
	})
}

// BenchmarkFormatWarning times a typical warning: two strings, one quoted.
func BenchmarkFormatWarning(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		formatWarning("command %q to %s, an application Airlock does not model: cannot tell what it does", []any{"make", "Finder"})
	}
}

// BenchmarkFormatWarningFmt is BenchmarkFormatWarning through fmt.
func BenchmarkFormatWarningFmt(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = fmt.Sprintf("command %q to %s, an application Airlock does not model: cannot tell what it does", "make", "Finder")
	}
}
