package ascii_test

import (
	"testing"

	"github.com/airlockhq/airlock/app/internal/ascii"
)

func TestCase(t *testing.T) {
	for _, tt := range []struct{ in, upper, lower string }{
		{"move_File", "MOVE_FILE", "move_file"},
		{"ſpeak", "ſPEAK", "ſpeak"},    // no Unicode folding: ſ stays ſ
		{"\u212a", "\u212a", "\u212a"}, // the Kelvin sign stays
		{"", "", ""},
		{"123-_", "123-_", "123-_"},
	} {
		if got := ascii.Upper(tt.in); got != tt.upper {
			t.Errorf("Upper(%q) = %q, want %q", tt.in, got, tt.upper)
		}
		if got := ascii.Lower(tt.in); got != tt.lower {
			t.Errorf("Lower(%q) = %q, want %q", tt.in, got, tt.lower)
		}
	}
	for c := 0; c < 256; c++ {
		want := '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
		if ascii.IsHex(byte(c)) != want {
			t.Errorf("IsHex(%q) = %v", c, !want)
		}
	}
}
